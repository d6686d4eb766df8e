// Test support: one call from a scripted caller to a <Connect> agent on the virtual clock, played to its end, with its timeline and turns.
import type { PartyBehaviourInput } from "../../src/engine/calls/party-behaviour.js";
import { createSandbox, type SandboxOptions, type TurnRecord } from "../../src/index.js";
import { placeWithTwiml } from "./stream-world.js";

/** The number the sandbox calls: the scripted caller, answering at once. */
export const agentCallee = "+14155550123";

/**
 * Calls `agentCallee` with `twiml` in a fresh sandbox (reset by the cleanup pushed on `cleanups`), the party
 * scripted by `caller`; runs until idle and returns the call's timeline and its turns (sids left out).
 */
export async function playAgentCall(
  cleanups: (() => Promise<void> | void)[],
  twiml: string,
  caller: PartyBehaviourInput,
  options: SandboxOptions = {},
) {
  const sandbox = createSandbox(options);
  cleanups.push(() => sandbox.reset());
  sandbox.calls.setParty(agentCallee, { ringAfter: 0, answerAfter: 0, ...caller });
  const sid = await placeWithTwiml(sandbox, agentCallee, twiml);
  await sandbox.clock.runUntilIdle();
  await sandbox.settle();
  const timeline = sandbox.calls.timeline(sid);
  const turns = timeline
    .filter((e) => e.kind === "agent.turn")
    .map(({ detail: { sid: _sid, sessionId: _session, ...turn } }) => turn as unknown as TurnRecord);
  return { sandbox, sid, timeline, turns };
}
