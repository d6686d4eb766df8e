// Ring groups: a named set of an account's agent extensions rung together or in turn.
import type { RingGroup } from "../../domain/carrier-records.js";
import { errors } from "../../domain/errors.js";
import { ownedBy } from "../../domain/found.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { withChanges } from "../context/record-changes.js";

/** Seconds a ring attempt lasts when none is given (Twilio's Dial timeout default is 30). */
export const defaultRingTimeout = 30;

export interface NewRingGroup {
  name: string;
  strategy?: RingGroup["strategy"] | undefined;
  ring_timeout?: number | undefined;
  agent_extension_sids?: string[] | undefined;
}

export type RingGroupChanges = Partial<NewRingGroup>;

export function getRingGroup(ctx: EngineContext, accountSid: string, sid: string, path: string): RingGroup {
  return ownedBy(ctx.store.ringGroups.get(sid), accountSid, path);
}

/** Members must be this account's extensions, each listed once. */
function checkMembers(ctx: EngineContext, accountSid: string, sids: string[]): void {
  sids.forEach((sid, i) => {
    const pointer = `/data/relationships/agent_extensions/data/${i}/id`;
    const member = ctx.store.agentExtensions.get(sid);
    if (!member || member.account_sid !== accountSid) {
      throw errors.unprocessable(
        `Agent extension ${sid} is not one of account ${accountSid}'s extensions. List them with GET /carrier/v1/accounts/${accountSid}/agent_extensions.`,
        { pointer },
      );
    }
    if (sids.indexOf(sid) !== i) {
      throw errors.unprocessable(`Agent extension ${sid} is listed twice; list each member once.`, {
        pointer,
      });
    }
  });
}

export function createRingGroup(ctx: EngineContext, accountSid: string, input: NewRingGroup): RingGroup {
  return ctx.store.transact(() => {
    const members = input.agent_extension_sids ?? [];
    checkMembers(ctx, accountSid, members);
    const now = ctx.clock.now();
    const group = ctx.store.ringGroups.insert({
      sid: ctx.ids.mint("RG"),
      account_sid: accountSid,
      name: input.name,
      strategy: input.strategy ?? "simultaneous",
      ring_timeout: input.ring_timeout ?? defaultRingTimeout,
      agent_extension_sids: members,
      created_at: now,
      updated_at: now,
    });
    recordEvent(ctx, "ring_group.created", accountSid, "ring_group", group);
    return group;
  });
}

export function updateRingGroup(ctx: EngineContext, group: RingGroup, changes: RingGroupChanges): RingGroup {
  return ctx.store.transact(() => {
    if (changes.agent_extension_sids) checkMembers(ctx, group.account_sid, changes.agent_extension_sids);
    const updated = ctx.store.ringGroups.replace(withChanges(group, changes, ctx.clock.now()));
    recordEvent(ctx, "ring_group.updated", group.account_sid, "ring_group", updated);
    return updated;
  });
}

export function deleteRingGroup(ctx: EngineContext, group: RingGroup): void {
  ctx.store.transact(() => {
    ctx.store.ringGroups.delete(group.sid);
    recordEvent(ctx, "ring_group.deleted", group.account_sid, "ring_group", group);
  });
}
