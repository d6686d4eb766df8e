// Agent extensions: numbered agents of an account that calls and ring groups dial.
import type { AgentExtension, AgentStatus } from "../../domain/carrier-records.js";
import { errors } from "../../domain/errors.js";
import { ownedBy } from "../../domain/found.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { withChanges } from "../context/record-changes.js";

/** Extensions are numbered from here when none is asked for (a PBX's usual three-digit range). */
export const firstExtension = 100;

export interface NewAgentExtension {
  agent_name: string;
  extension?: string | undefined;
  status?: AgentStatus | undefined;
}

export interface AgentExtensionChanges {
  agent_name?: string | undefined;
  extension?: string | undefined;
  status?: AgentStatus | undefined;
}

/** The account's extension dialled as `extension`, if there is one. */
export function findExtension(
  ctx: EngineContext,
  accountSid: string,
  extension: string,
): AgentExtension | undefined {
  return ctx.store.agentExtensions.findOne("extension", `${accountSid}:${extension}`);
}

export function getAgentExtension(
  ctx: EngineContext,
  accountSid: string,
  sid: string,
  path: string,
): AgentExtension {
  return ownedBy(ctx.store.agentExtensions.get(sid), accountSid, path);
}

/** The smallest free number from `firstExtension` up. */
export function nextFreeExtension(ctx: EngineContext, accountSid: string): string {
  const taken = new Set(ctx.store.agentExtensions.where("account", accountSid).map((e) => e.extension));
  let candidate = firstExtension;
  while (taken.has(String(candidate))) candidate++;
  return String(candidate);
}

function assertFree(ctx: EngineContext, accountSid: string, extension: string, except?: string): void {
  const holder = findExtension(ctx, accountSid, extension);
  if (holder && holder.sid !== except) {
    throw errors.unprocessable(
      `Extension ${extension} is taken by ${holder.agent_name} (${holder.sid}). Choose another, or leave extension out to get ${nextFreeExtension(ctx, accountSid)}.`,
      { pointer: "/data/attributes/extension" },
    );
  }
}

export function createAgentExtension(
  ctx: EngineContext,
  accountSid: string,
  input: NewAgentExtension,
): AgentExtension {
  return ctx.store.transact(() => {
    const extension = input.extension ?? nextFreeExtension(ctx, accountSid);
    assertFree(ctx, accountSid, extension);
    const now = ctx.clock.now();
    const record = ctx.store.agentExtensions.insert({
      sid: ctx.ids.mint("AE"),
      account_sid: accountSid,
      agent_name: input.agent_name,
      extension,
      status: input.status ?? "online",
      created_at: now,
      updated_at: now,
    });
    recordEvent(ctx, "agent_extension.created", accountSid, "agent_extension", record);
    return record;
  });
}

export function updateAgentExtension(
  ctx: EngineContext,
  record: AgentExtension,
  changes: AgentExtensionChanges,
): AgentExtension {
  return ctx.store.transact(() => {
    if (changes.extension !== undefined) assertFree(ctx, record.account_sid, changes.extension, record.sid);
    const updated = ctx.store.agentExtensions.replace(withChanges(record, changes, ctx.clock.now()));
    if (updated.status !== record.status) {
      recordEvent(ctx, "agent_extension.status_changed", record.account_sid, "agent_extension", updated);
    }
    recordEvent(ctx, "agent_extension.updated", record.account_sid, "agent_extension", updated);
    return updated;
  });
}

/** Deletes the extension and takes it out of every ring group, so nothing dials it again. */
export function deleteAgentExtension(ctx: EngineContext, record: AgentExtension): void {
  ctx.store.transact(() => {
    for (const group of ctx.store.ringGroups.where("account", record.account_sid)) {
      if (!group.agent_extension_sids.includes(record.sid)) continue;
      ctx.store.ringGroups.replace({
        ...group,
        agent_extension_sids: group.agent_extension_sids.filter((sid) => sid !== record.sid),
        updated_at: ctx.clock.now(),
      });
    }
    ctx.store.agentExtensions.delete(record.sid);
    recordEvent(ctx, "agent_extension.deleted", record.account_sid, "agent_extension", record);
  });
}
