// Checks a scenario's cross-references and timing: call ids, agents, handler paths, step order.
import { listForm } from "./expectations/context.js";
import { listNames } from "./expectations/records.js";
import type { Expectation } from "./schema/expectations.js";
import { callerActions, worldActions } from "./schema/steps.js";
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

export function checkReferences(scenario: Scenario): ReferenceProblem[] {
  const problems: ReferenceProblem[] = [];
  const inbound = new Map<string, number>(); // id -> start time
  const placed = new Set<string>();
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
  scenario.ring_groups.forEach((group, g) => {
    group.members.forEach((member, m) => {
      if (!agentKeys.has(member))
        problems.push({
          path: ["ring_groups", g, "members", m],
          message: `no agent "${member}": list it under agents (by name or extension)`,
        });
    });
  });

  const handlerPaths = new Set(Object.keys(scenario.handlers));
  const checkUrl = (path: (string | number)[], url: string | undefined) => {
    if (url === undefined || !url.startsWith("/") || scenario.needs_target) return;
    const bare = url.split(/[?#]/)[0]!;
    if (!handlerPaths.has(bare))
      problems.push({
        path,
        message: `no handler for ${bare}: add it under handlers, or set needs_target: true to send it to --target`,
      });
  };
  const seen = new Set<string>();
  scenario.numbers.forEach((n, i) => {
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
    checkUrl(["numbers", i, "voice_url"], n.voice_url);
    checkUrl(["numbers", i, "voice_fallback_url"], n.voice_fallback_url);
    checkUrl(["numbers", i, "sms_url"], n.sms_url);
  });

  const checkExpectation = (
    base: (string | number)[],
    expect: Expectation,
    known: (id: string) => boolean,
  ) => {
    const ref = (path: (string | number)[], id: unknown) => {
      if (typeof id === "string" && !known(id))
        problems.push({
          path: [...base, ...path],
          message: `unknown call "${id}": no call or place_call step names it`,
        });
    };
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
  };

  const times = worldStepTimes(scenario);
  let previous = 0;
  scenario.steps.forEach((step, i) => {
    const time = times.get(i);
    const limit = scenario.timeout ?? defaultScenarioTimeoutMs;
    if (time !== undefined && time > limit) {
      const key = step.wait !== undefined ? "wait" : step.at !== undefined ? "at" : "after";
      problems.push({
        path: ["steps", i, key],
        message: `this step would happen at ${fmt(time)}, after the scenario's timeout (${fmt(limit)}): raise timeout`,
      });
    }
    if (time !== undefined) {
      if (step.at !== undefined && step.at < previous)
        problems.push({
          path: ["steps", i, "at"],
          message: `steps play in order: at ${fmt(step.at)} is before the previous step (at ${fmt(previous)})`,
        });
      previous = time;
    }
    const defining = step.call ?? step.place_call;
    if (defining) {
      if (inbound.has(defining.id) || placed.has(defining.id))
        problems.push({
          path: ["steps", i, step.call ? "call" : "place_call", "id"],
          message: `call id "${defining.id}" is already used by an earlier step`,
        });
      else if (step.call) inbound.set(defining.id, time ?? 0);
      else placed.add(defining.id);
    }
    if (step.place_call) {
      checkUrl(["steps", i, "place_call", "url"], step.place_call.url);
      checkUrl(["steps", i, "place_call", "fallback_url"], step.place_call.fallback_url);
    }
    if (step.api) {
      for (const [, name] of step.api.path.matchAll(/\{([^}]+)\}/g)) {
        if (name === "account" || inbound.has(name!) || placed.has(name!)) continue;
        problems.push({
          path: ["steps", i, "api", "path"],
          message: allIds.has(name!)
            ? `{${name}}: call "${name}" starts in a later step; move this step after it`
            : `{${name}} is not a call id of an earlier step (or {account})`,
        });
      }
    }
    if (step.agent && !agentKeys.has(step.agent.agent))
      problems.push({
        path: ["steps", i, "agent", "agent"],
        message: `no agent "${step.agent.agent}": list it under agents (by name or extension)`,
      });
    for (const action of callerActions) {
      const target = step[action];
      if (!target) continue;
      const id = target.call;
      if (placed.has(id))
        problems.push({
          path: ["steps", i, action, "call"],
          message: `"${id}" is a placed call: caller steps script inbound calls; script its callee with place_call.callee`,
        });
      else if (!inbound.has(id))
        problems.push({
          path: ["steps", i, action, "call"],
          message: allIds.has(id)
            ? `call "${id}" starts in a later step; move this step after it`
            : `unknown call "${id}": start it with a call step first`,
        });
      else if (step.at !== undefined && step.at < inbound.get(id)!)
        problems.push({
          path: ["steps", i, "at"],
          message: `at ${fmt(step.at)} is before call "${id}" starts (at ${fmt(inbound.get(id)!)})`,
        });
    }
    if (step.expect) {
      const known = new Set([...inbound.keys(), ...placed]);
      checkExpectation(["steps", i, "expect"], step.expect, (id) => known.has(id));
    }
  });
  if (scenario.expect) checkExpectation(["expect"], scenario.expect, (id) => allIds.has(id));
  const stt = scenario.transcriptions;
  const sttEntries = stt === undefined ? [] : Array.isArray(stt) ? stt : [stt];
  sttEntries.forEach((entry, e) => {
    (entry.calls ?? []).forEach((id, i) => {
      if (!allIds.has(id))
        problems.push({
          path: [...(Array.isArray(stt) ? ["transcriptions", e] : ["transcriptions"]), "calls", i],
          message: `unknown call "${id}": no call or place_call step names it`,
        });
    });
  });
  return problems;
}
