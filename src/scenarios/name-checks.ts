// Load-time checks of the names a scenario refers to beyond call ids: party names, `{ sid_of: name }` in
// expectations, `{calls.name}` in inline markup.
import { callPlaceholder, isRoomName, knownLegNames } from "./names.js";
import type { Scenario } from "./schema.js";

type Path = (string | number)[];
/** A located problem, as the loader reports it (the shape of references.ts's ReferenceProblem). */
interface ReferenceProblem {
  path: Path;
  message: string;
}

/** A party's name is new: no call id, agent or other party uses it. */
export function checkPartyNames(scenario: Scenario): ReferenceProblem[] {
  const problems: ReferenceProblem[] = [];
  const taken = new Map<string, string>();
  for (const step of scenario.steps) {
    const id = step.call?.id ?? step.place_call?.id;
    if (id) taken.set(id, "a call id");
  }
  for (const agent of scenario.agents) {
    taken.set(agent.name, "an agent's name");
    if (agent.extension) taken.set(agent.extension, "an agent's extension");
  }
  for (const [to, party] of Object.entries(scenario.parties)) {
    if (!party.name) continue;
    const other = taken.get(party.name);
    if (other)
      problems.push({
        path: ["parties", to, "name"],
        message: `"${party.name}" is already ${other}: give the party a name of its own`,
      });
    taken.set(party.name, `the name of party ${to}`);
  }
  return problems;
}

const nameHelp = "a call id, a party's name, an agent, conferences.<name> or queues.<name>";

/** Every `{ sid_of: name }` under `value` is written so and names something the scenario has. */
export function checkSidOfRefs(scenario: Scenario, base: Path, value: unknown): ReferenceProblem[] {
  const known = knownLegNames(scenario);
  const problems: ReferenceProblem[] = [];
  const walk = (v: unknown, path: Path) => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        walk(item, [...path, i]);
      });
      return;
    }
    if (typeof v !== "object" || v === null) return;
    const entry = v as Record<string, unknown>;
    if ("sid_of" in entry) {
      const name = entry.sid_of;
      if (typeof name !== "string" || Object.keys(entry).length !== 1)
        problems.push({ path, message: `write a sid reference as { sid_of: name }, name being ${nameHelp}` });
      else if (!known.has(name) && !isRoomName(name))
        problems.push({
          path: [...path, "sid_of"],
          message: `sid_of: unknown name "${name}": use ${nameHelp}`,
        });
      return;
    }
    for (const [key, item] of Object.entries(entry)) walk(item, [...path, key]);
  };
  walk(value, base);
  return problems;
}

/** Problems with the `{calls.name}` placeholders of one inline document. */
export function callPlaceholderProblems(scenario: Scenario, markup: string): string[] {
  const known = knownLegNames(scenario);
  return [...markup.matchAll(callPlaceholder)]
    .map((m) => m[1]!)
    .filter((name) => !known.has(name))
    .map(
      (name) =>
        `{calls.${name}}: no call or leg is named "${name}" (a call id, a party's name or an agent stands for a sid)`,
    );
}
