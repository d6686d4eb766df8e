// The sandbox's accounts, numbers and clock, shared by the pages that offer them as choices.
import { api } from "./api.js";
import { tableChanged, useLive } from "./live.js";

export const useOverview = () =>
  useLive(() => api("GET", "/__sandbox/ui/api/overview"), [], tableChanged("accounts", "phoneNumbers"));
