// Dial legs and bridging: a child call per Dial noun with its own party, bridges, and the account's agents and ring groups.
import type { CallStatusEvent } from "../../domain/call.js";
import type { DialTarget } from "../../markup/effects.js";
import { findExtension } from "../accounts/agent-extensions.js";
import { availableCredit, minuteCents } from "../billing/credit-holds.js";
import type { CallRegistry, LegsPart } from "./call-registry.js";
import { type CallRuntime, createRuntime } from "./call-runtime.js";
import { createCallRecord } from "./calls.js";
import { defaultBehaviour, parseBehaviour } from "./party-behaviour.js";

const legStatusEvents: string[] = ["initiated", "ringing", "answered", "completed"];

export function createLegs(reg: CallRegistry): LegsPart {
  const { services, parts, note } = reg;
  const { ctx } = services;

  const startLeg: LegsPart["startLeg"] = (parent, target, legOptions) => {
    const parentCall = reg.getCall(parent.sid);
    const child = createCallRecord(ctx, {
      accountSid: parentCall.account_sid,
      direction: "outbound-dial",
      from: legOptions.callerId ?? parentCall.from,
      to: target.to,
      parentCallSid: parentCall.sid,
      statusCallback: target.statusCallback,
      statusCallbackMethod: target.statusCallbackMethod,
      statusCallbackEvents: target.statusCallbackEvents.filter((e): e is CallStatusEvent =>
        legStatusEvents.includes(e),
      ),
      timeout: legOptions.timeout,
      timeLimit: legOptions.timeLimit,
      sendDigits: target.sendDigits ?? null,
      machineDetection: target.machineDetection?.mode ?? null,
      machineDetectionOptions: target.machineDetection?.options ?? null,
    });
    // A leg holds its first minute like any call; when the wallet cannot spare it, the leg fails.
    const minute = minuteCents(ctx, target.to);
    const affordable = availableCredit(ctx, parentCall.account_sid) >= minute;
    if (affordable) ctx.holds?.add(parentCall.account_sid, child.sid, minute);
    else note(parent, "credit.exhausted", { sid: child.sid });
    const scripted = reg.parties.has(target.to);
    const found =
      target.failed || !affordable
        ? { behaviour: parseBehaviour({ outcome: "failed", answerAfter: 0 }), scripted: false }
        : target.kind === "extension" && !scripted
          ? { behaviour: parts.party.agentBehaviour(target) ?? defaultBehaviour, scripted: false }
          : parts.party.behaviourFor(target.to);
    const rt = createRuntime(child.sid, found.behaviour, found.scripted);
    rt.whisper = target.whisper ?? null;
    reg.runtimes.set(child.sid, rt);
    parent.children.push(child.sid);
    note(parent, "dial.leg", { sid: child.sid, to: target.to });
    parts.lifecycle.applyEvent(child.sid, "initiate");
    return child.sid;
  };

  const bridge = (parent: CallRuntime, childSid: string) => {
    const child = reg.runtime(childSid);
    if (!child) return;
    parent.bridgedWith = childSid;
    child.bridgedWith = parent.sid;
    for (const active of parent.recordings.values()) if (active.otherLeg === null) active.otherLeg = child;
    note(parent, "dial.bridged", { sid: childSid });
    parts.party.talk(child, parent, child);
  };

  /** The account's agent dialled by its extension (never by its name: a name is a client identity). */
  const agentTarget = (accountSid: string, extension: string): DialTarget | null => {
    const agent = findExtension(ctx, accountSid, extension);
    if (!agent) return null;
    return {
      kind: "extension",
      to: agent.extension,
      agentStatus: agent.status,
      statusCallback: null,
      statusCallbackMethod: "POST",
      statusCallbackEvents: [],
    };
  };

  const ringGroup: LegsPart["ringGroup"] = (accountSid, name) => {
    const group = ctx.store.ringGroups
      .where("account", accountSid)
      .find((g) => g.name === name || g.sid === name);
    if (!group) return null;
    const targets = group.agent_extension_sids
      .map((sid) => ctx.store.agentExtensions.get(sid))
      .filter((e) => e !== undefined)
      .map((e) => agentTarget(accountSid, e.extension)!)
      .filter((t) => t !== null);
    return { strategy: group.strategy, ringTimeout: group.ring_timeout, targets };
  };

  return { startLeg, bridge, agentTarget, ringGroup };
}
