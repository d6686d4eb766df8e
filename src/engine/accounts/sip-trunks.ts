// SIP trunks: where the carrier sends calls (termination URIs), who may send to it (credentials, IPs), and its numbers.
import type { SipTrunk } from "../../domain/carrier-records.js";
import { errors } from "../../domain/errors.js";
import { found } from "../../domain/found.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { withChanges } from "../context/record-changes.js";

export interface NewSipTrunk {
  name: string;
  account_sid?: string | null | undefined;
  termination_uris?: string[] | undefined;
  username?: string | null | undefined;
  password?: string | null | undefined;
  allowed_ips?: string[] | undefined;
  phone_number_sids?: string[] | undefined;
}

export type SipTrunkChanges = Partial<NewSipTrunk>;

export function getSipTrunk(ctx: EngineContext, sid: string, path: string): SipTrunk {
  return found(ctx.store.sipTrunks.get(sid), path);
}

/** The trunk as events keep it: never its password. */
const withoutSecret = (trunk: SipTrunk): SipTrunk => ({ ...trunk, password: null });

function checkTrunk(ctx: EngineContext, trunk: SipTrunk): void {
  if (trunk.account_sid !== null && !ctx.store.accounts.has(trunk.account_sid)) {
    throw errors.unprocessable(`Account ${trunk.account_sid} does not exist.`, {
      pointer: "/data/relationships/account/data/id",
    });
  }
  if ((trunk.username === null) !== (trunk.password === null)) {
    throw errors.unprocessable("Give username and password together, or neither (IP authentication only).", {
      pointer: trunk.username === null ? "/data/attributes/username" : "/data/attributes/password",
    });
  }
  trunk.phone_number_sids.forEach((sid, i) => {
    const pointer = `/data/relationships/phone_numbers/data/${i}/id`;
    const number = ctx.store.phoneNumbers.get(sid);
    if (!number) {
      throw errors.unprocessable(`Phone number ${sid} is not in the inventory.`, { pointer });
    }
    if (trunk.account_sid !== null && number.account_sid !== trunk.account_sid) {
      throw errors.unprocessable(
        `Phone number ${number.number} is not assigned to account ${trunk.account_sid}, which owns this trunk.`,
        { pointer },
      );
    }
    if (trunk.phone_number_sids.indexOf(sid) !== i) {
      throw errors.unprocessable(`Phone number ${sid} is listed twice; list each number once.`, { pointer });
    }
    const other = ctx.store.sipTrunks
      .all()
      .find((t) => t.sid !== trunk.sid && t.phone_number_sids.includes(sid));
    if (other) {
      throw errors.unprocessable(
        `Phone number ${number.number} already routes through trunk ${other.name} (${other.sid}); take it off that trunk first.`,
        { pointer },
      );
    }
  });
}

export function createSipTrunk(ctx: EngineContext, input: NewSipTrunk): SipTrunk {
  return ctx.store.transact(() => {
    const now = ctx.clock.now();
    // Checked before an id is minted, so a refused trunk leaves the id sequence untouched.
    const draft: SipTrunk = {
      sid: "",
      account_sid: input.account_sid ?? null,
      name: input.name,
      termination_uris: input.termination_uris ?? [],
      username: input.username ?? null,
      password: input.password ?? null,
      allowed_ips: input.allowed_ips ?? [],
      phone_number_sids: input.phone_number_sids ?? [],
      created_at: now,
      updated_at: now,
    };
    checkTrunk(ctx, draft);
    const trunk = ctx.store.sipTrunks.insert({ ...draft, sid: ctx.ids.mint("TK") });
    recordEvent(ctx, "sip_trunk.created", trunk.account_sid, "sip_trunk", withoutSecret(trunk));
    return trunk;
  });
}

export function updateSipTrunk(ctx: EngineContext, trunk: SipTrunk, changes: SipTrunkChanges): SipTrunk {
  return ctx.store.transact(() => {
    const next = withChanges(trunk, changes, ctx.clock.now());
    checkTrunk(ctx, next);
    const updated = ctx.store.sipTrunks.replace(next);
    recordEvent(ctx, "sip_trunk.updated", updated.account_sid, "sip_trunk", withoutSecret(updated));
    return updated;
  });
}

export function deleteSipTrunk(ctx: EngineContext, trunk: SipTrunk): void {
  ctx.store.transact(() => {
    ctx.store.sipTrunks.delete(trunk.sid);
    recordEvent(ctx, "sip_trunk.deleted", trunk.account_sid, "sip_trunk", withoutSecret(trunk));
  });
}
