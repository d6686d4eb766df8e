// The account's conference an account API path names (`/Conferences/{ConferenceSid}/...`), or the 404 Twilio answers.
import { ownedBy } from "../../domain/found.js";
import type { RouteServices } from "../route.js";
import { accountBase } from "./base.js";

export const conferencesPath = `${accountBase}/Conferences`;
export const conferencePath = `${conferencesPath}/:ConferenceSid`;

export const findConference = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.conferences.get(params.ConferenceSid!), params.AccountSid!, path);
