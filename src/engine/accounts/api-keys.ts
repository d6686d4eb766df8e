// Scoped API keys, minted and revoked through the sandbox's stand-in for the dashboard.
import type { AccountScope, ApiKey } from "../../domain/api-key.js";
import type { EngineContext } from "../context/context.js";

export function createApiKey(
  ctx: EngineContext,
  accountSid: string,
  scopes: AccountScope[],
  options: {
    sid?: string | undefined;
    key?: string | undefined;
    friendly_name?: string | null | undefined;
  } = {},
): ApiKey {
  return ctx.store.transact(() =>
    ctx.store.apiKeys.insert({
      sid: options.sid ?? ctx.ids.mint("SK"),
      account_sid: accountSid,
      key: options.key ?? `vsk_${ctx.ids.secret()}`,
      scopes: [...new Set(scopes)],
      friendly_name: options.friendly_name ?? null,
      created_at: ctx.clock.now(),
    }),
  );
}

export function revokeApiKey(ctx: EngineContext, key: ApiKey): void {
  ctx.store.transact(() => {
    ctx.store.apiKeys.delete(key.sid);
  });
}

/** A key's new friendly name (null clears it); its secret and scopes stay. */
export function renameApiKey(ctx: EngineContext, key: ApiKey, friendlyName: string | null): ApiKey {
  return ctx.store.transact(() => ctx.store.apiKeys.replace({ ...key, friendly_name: friendlyName }));
}
