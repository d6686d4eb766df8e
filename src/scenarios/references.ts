// Checks a scenario's cross-references and timing: call ids, agents, handler paths, step order.
import { listForm } from "./expectations/context.js";
import { listNames } from "./expectations/records.js";
import { checkPartyNames, checkSidOfRefs } from "./name-checks.js";
import { isRoomName, legTargets } from "./names.js";
import type { Expectation } from "./schema/expectations.js";
import { callerActions, type Step, worldActions } from "./schema/steps.js";
import type { Scenario } from "./schema.js";

export interface ReferenceProblem {
  path: (string | number)[];
  message: string;
}

/** Scenario time of every world step (ms from the start), as the runner will play them. */
export function worldStepTimes(scenario: Scenario): Map<number, number> {
  const times = new Map<number, number>();
  let time = 0;
  scenario.steps.forEach((step, i) => {
    if ((callerActions as readonly string[]).includes(actionOf(step))) return;
    if (step.wait !== undefined) time += step.wait;
    else if (step.at !== undefined) time = Math.max(time, step.at);
    else if (step.after !== undefined) time += step.after;
    times.set(i, time);
  });
  return times;
}

export function actionOf(step: Scenario["steps"][number]): string {
  for (const key of [...worldActions, ...callerActions] as const) {
    if (step[key] !== undefined) return key;
  }
  return "none";
}

/** Most scenario time played when the file gives no `timeout`. */
export const defaultScenarioTimeoutMs = 3_600_000;

const fmt = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

/** What the checks of one scenario share: the problems found so far, and the names its setup and steps define. */
interface References {
  readonly scenario: Scenario;
  readonly problems: ReferenceProblem[];
  /** Every call id a call or place_call step names. */
  readonly allIds: Set<string>;
  /** Agents by name and by extension. */
  readonly agentKeys: Set<string>;
  readonly handlerPaths: Set<string>;
  /** Names of the legs dialled to a named party or agent. */
  readonly legNames: Set<string>;
  /** Inbound calls the steps so far started (id -> start time). */
  readonly inbound: Map<string, number>;
  /** Calls the steps so far placed. */
  readonly placed: Set<string>;
}

/** A path URL must be served by an inline handler, unless the scenario sends such paths to --target. */
function checkUrl(refs: References, path: (string | number)[], url: string | undefined): void {
  if (url === undefined || !url.startsWith("/") || refs.scenario.needs_target) return;
  const bare = url.split(/[?#]/)[0]!;
  if (!refs.handlerPaths.has(bare))
    refs.problems.push({
      path,
      message: `no handler for ${bare}: add it under handlers, or set needs_target: true to send it to --target`,
    });
}

function checkRingGroups(refs: References): void {
  refs.scenario.ring_groups.forEach((group, g) => {
    group.members.forEach((member, m) => {
      if (!refs.agentKeys.has(member))
        refs.problems.push({
          path: ["ring_groups", g, "members", m],
          message: `no agent "${member}": list it under agents (by name or extension)`,
        });
    });
  });
}

function checkNumbers(refs: References): void {
  const { problems } = refs;
  const seen = new Set<string>();
  refs.scenario.numbers.forEach((n, i) => {
    if (seen.has(n.number))
      problems.push({ path: ["numbers", i, "number"], message: `${n.number} is listed twice` });
    seen.add(n.number);
    if (n.voice !== undefined && n.voice_url !== undefined)
      problems.push({
        path: ["numbers", i, "voice_url"],
        message: "give voice (inline markup) or voice_url, not both",
      });
    if (n.sms !== undefined && n.sms_url !== undefined)
      problems.push({
        path: ["numbers", i, "sms_url"],
        message: "give sms (inline markup) or sms_url, not both",
      });
    checkUrl(refs, ["numbers", i, "voice_url"], n.voice_url);
    checkUrl(refs, ["numbers", i, "voice_fallback_url"], n.voice_fallback_url);
    checkUrl(refs, ["numbers", i, "sms_url"], n.sms_url);
  });
}

/** Every call an expectation names (`known`: a call id the expectation may name). */
function checkExpectationCalls(
  refs: References,
  base: (string | number)[],
  expect: Expectation,
  known: (id: string) => boolean,
): void {
  const ref = (path: (string | number)[], id: unknown) => {
    if (typeof id === "string" && !known(id) && !refs.legNames.has(id))
      refs.problems.push({
        path: [...base, ...path],
        message: `unknown call "${id}": no call or place_call step names it, nor is it a party's name or an agent`,
      });
  };
  refs.problems.push(...checkSidOfRefs(refs.scenario, base, expect));
  for (const id of Object.keys(expect.calls ?? {})) ref(["calls", id], id);
  for (const id of Object.keys(expect.heard ?? {})) ref(["heard", id], id);
  for (const list of listNames) {
    const value = expect[list];
    if (value === undefined) continue;
    const { entries, at } = listForm(value);
    entries.forEach((entry, i) => {
      ref([list, ...at, i, "call"], entry.call);
    });
  }
  const never = expect.never;
  for (const id of Object.keys(never?.heard ?? {})) ref(["never", "heard", id], id);
  for (const list of listNames)
    (never?.[list] ?? []).forEach((entry, i) => {
      const { call, after } = entry as { call?: unknown; after?: { call?: unknown } };
      ref(["never", list, i, "call"], call);
      ref(["never", list, i, "after", "call"], after?.call);
    });
}

/** A world step's time: within the scenario's timeout, and not before the step before it. Returns its time. */
function checkStepTime(
  refs: References,
  step: Step,
  i: number,
  time: number | undefined,
  previous: number,
): number {
  const limit = refs.scenario.timeout ?? defaultScenarioTimeoutMs;
  if (time !== undefined && time > limit) {
    const key = step.wait !== undefined ? "wait" : step.at !== undefined ? "at" : "after";
    refs.problems.push({
      path: ["steps", i, key],
      message: `this step would happen at ${fmt(time)}, after the scenario's timeout (${fmt(limit)}): raise timeout`,
    });
  }
  if (time === undefined) return previous;
  if (step.at !== undefined && step.at < previous)
    refs.problems.push({
      path: ["steps", i, "at"],
      message: `steps play in order: at ${fmt(step.at)} is before the previous step (at ${fmt(previous)})`,
    });
  return time;
}

/** A call or place_call step's id is new; from here on, later steps may name it. */
function defineCall(refs: References, step: Step, i: number, time: number | undefined): void {
  const defining = step.call ?? step.place_call;
  if (!defining) return;
  if (refs.inbound.has(defining.id) || refs.placed.has(defining.id))
    refs.problems.push({
      path: ["steps", i, step.call ? "call" : "place_call", "id"],
      message: `call id "${defining.id}" is already used by an earlier step`,
    });
  else if (step.call) refs.inbound.set(defining.id, time ?? 0);
  else refs.placed.add(defining.id);
}

/**
 * `{c1}` in an api step's path names a call an earlier step started, `{callee}` a named party's or agent's
 * leg, `{conferences.x}` and `{queues.x}` a room by name (read when the step runs), `{account}` the account.
 */
function checkApiPath(refs: References, path: string, i: number): void {
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    if (name === "account" || refs.inbound.has(name!) || refs.placed.has(name!)) continue;
    if (refs.legNames.has(name!) || isRoomName(name!)) continue;
    refs.problems.push({
      path: ["steps", i, "api", "path"],
      message: refs.allIds.has(name!)
        ? `{${name}}: call "${name}" starts in a later step; move this step after it`
        : `{${name}} is not a call id of an earlier step, a party's name or an agent, {conferences.<name>}, {queues.<name>} or {account}`,
    });
  }
}

/** A caller step scripts an inbound call an earlier step started, no earlier than it starts. */
function checkCallerStep(refs: References, step: Step, i: number): void {
  const { problems, inbound } = refs;
  for (const action of callerActions) {
    const target = step[action];
    if (!target) continue;
    const id = target.call;
    if (refs.placed.has(id))
      problems.push({
        path: ["steps", i, action, "call"],
        message: `"${id}" is a placed call: caller steps script inbound calls; script its callee with place_call.callee`,
      });
    else if (!inbound.has(id))
      problems.push({
        path: ["steps", i, action, "call"],
        message: refs.allIds.has(id)
          ? `call "${id}" starts in a later step; move this step after it`
          : `unknown call "${id}": start it with a call step first`,
      });
    else if (step.at !== undefined && step.at < inbound.get(id)!)
      problems.push({
        path: ["steps", i, "at"],
        message: `at ${fmt(step.at)} is before call "${id}" starts (at ${fmt(inbound.get(id)!)})`,
      });
  }
}

/** The steps in file order: their times, the calls they define and name, agents, handler paths. */
function checkSteps(refs: References): void {
  const times = worldStepTimes(refs.scenario);
  let previous = 0;
  refs.scenario.steps.forEach((step, i) => {
    const time = times.get(i);
    previous = checkStepTime(refs, step, i, time, previous);
    defineCall(refs, step, i, time);
    if (step.place_call) {
      checkUrl(refs, ["steps", i, "place_call", "url"], step.place_call.url);
      checkUrl(refs, ["steps", i, "place_call", "fallback_url"], step.place_call.fallback_url);
    }
    if (step.api) checkApiPath(refs, step.api.path, i);
    if (step.agent && !refs.agentKeys.has(step.agent.agent))
      refs.problems.push({
        path: ["steps", i, "agent", "agent"],
        message: `no agent "${step.agent.agent}": list it under agents (by name or extension)`,
      });
    checkCallerStep(refs, step, i);
    if (step.expect) {
      const known = new Set([...refs.inbound.keys(), ...refs.placed]);
      checkExpectationCalls(refs, ["steps", i, "expect"], step.expect, (id) => known.has(id));
    }
  });
}

/** The calls scripted speech-to-text answers are limited to are calls of the steps. */
function checkTranscriptionCalls(refs: References): void {
  const stt = refs.scenario.transcriptions;
  const sttEntries = stt === undefined ? [] : Array.isArray(stt) ? stt : [stt];
  sttEntries.forEach((entry, e) => {
    (entry.calls ?? []).forEach((id, i) => {
      if (!refs.allIds.has(id))
        refs.problems.push({
          path: [...(Array.isArray(stt) ? ["transcriptions", e] : ["transcriptions"]), "calls", i],
          message: `unknown call "${id}": no call or place_call step names it`,
        });
    });
  });
}

export function checkReferences(scenario: Scenario): ReferenceProblem[] {
  const allIds = new Set<string>();
  for (const step of scenario.steps) {
    if (step.call) allIds.add(step.call.id);
    if (step.place_call) allIds.add(step.place_call.id);
  }
  const agentKeys = new Set<string>();
  for (const agent of scenario.agents) {
    agentKeys.add(agent.name);
    if (agent.extension) agentKeys.add(agent.extension);
  }
  const refs: References = {
    scenario,
    problems: [],
    allIds,
    agentKeys,
    handlerPaths: new Set(Object.keys(scenario.handlers)),
    legNames: new Set([...legTargets(scenario).keys(), ...scenario.agents.map((a) => a.name)]),
    inbound: new Map(),
    placed: new Set(),
  };
  refs.problems.push(...checkPartyNames(scenario));
  checkRingGroups(refs);
  checkNumbers(refs);
  checkSteps(refs);
  if (scenario.expect) checkExpectationCalls(refs, ["expect"], scenario.expect, (id) => allIds.has(id));
  checkTranscriptionCalls(refs);
  return refs.problems;
}
