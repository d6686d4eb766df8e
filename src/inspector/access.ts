// Who may read the inspector's data: the same rule as the admin API (the admin token, when one is set).
import { authorize, resolvePrincipal } from "../http/auth.js";
import type { SandboxCore } from "../sandbox.js";

/** Throws the admin API's 401 or 403 unless the request may see the sandbox's state. */
export function checkAdmin(sandbox: SandboxCore, authorization: string | undefined, path: string): void {
  const principal = resolvePrincipal(authorization, sandbox.store, sandbox.settings);
  authorize({ kind: "admin" }, principal, { store: sandbox.store, settings: sandbox.settings, path });
}
