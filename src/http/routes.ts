// The route table: every route of every surface, as data.
import { incomingPhoneNumberRoutes } from "./account-api/incoming-phone-numbers.js";
import { credentialRoutes } from "./admin-api/credentials.js";
import { healthRoutes } from "./admin-api/health.js";
import { stateRoutes } from "./admin-api/state.js";
import { carrierAccountRoutes } from "./carrier-api/accounts.js";
import { carrierPhoneNumberRoutes } from "./carrier-api/phone-numbers.js";
import type { AnyRoute } from "./route.js";

export const routes: AnyRoute[] = [
  ...incomingPhoneNumberRoutes,
  ...carrierAccountRoutes,
  ...carrierPhoneNumberRoutes,
  ...healthRoutes,
  ...stateRoutes,
  ...credentialRoutes,
];
