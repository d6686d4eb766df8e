// The account's call an account API path names (`/Calls/{CallSid}/...`), or the 404 Twilio answers.
import type { Call } from "../../domain/call.js";
import { ownedBy } from "../../domain/found.js";
import type { RouteServices } from "../route.js";

export const callInPath = (services: RouteServices, params: Record<string, string>, path: string): Call =>
  ownedBy(services.context.store.calls.get(params.CallSid!), params.AccountSid!, path);
