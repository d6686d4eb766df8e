// The names a scenario gives what it cannot know the sid of beforehand: its calls (by id), the legs dialled
// to a named party or agent, conferences and queues by friendly name; read for expectations and placeholders.
import type { PlayedSandbox } from "./played-sandbox.js";
import type { Scenario } from "./schema.js";

/** What the names read of the set-up world: the agents' extensions by name (World's agents). */
interface AgentExtensions {
  agents: ReadonlyMap<string, { extension: string }>;
}

/** `conferences.standup`, `queues.support`: a room of the account by its friendly name. */
const roomName = /^(conferences|queues)\.(.+)$/;

/**
 * Leg names the scenario defines, each with the `to` its legs are dialled to: a party's `name` (its
 * number, extension or SIP URI), an agent's name and extension (the extension), when the world is set up.
 */
export function legTargets(scenario: Scenario, world?: AgentExtensions): Map<string, string> {
  const targets = new Map<string, string>();
  for (const [to, party] of Object.entries(scenario.parties)) if (party.name) targets.set(party.name, to);
  for (const agent of scenario.agents) {
    const extension = world?.agents.get(agent.name)?.extension ?? agent.extension;
    if (extension === undefined) continue;
    if (!targets.has(agent.name)) targets.set(agent.name, extension);
    if (!targets.has(extension)) targets.set(extension, extension);
  }
  return targets;
}

/** Every name a file may use for a call or leg, known when it loads (call ids, party and agent names). */
export function knownLegNames(scenario: Scenario): Set<string> {
  const names = new Set<string>(legTargets(scenario).keys());
  for (const agent of scenario.agents) names.add(agent.name);
  for (const step of scenario.steps) {
    const id = step.call?.id ?? step.place_call?.id;
    if (id) names.add(id);
  }
  return names;
}

/** `{calls.name}` in inline markup: the sid of a call or named leg when the markup is served. */
export const callPlaceholder = /\{calls\.([^{}\s]+)\}/g;

/** Markup with each `{calls.name}` that stands for a sid now replaced by it; the others are left as written. */
export function fillCallSids(markup: string, sidOf: (name: string) => string | undefined): string {
  return markup.replace(callPlaceholder, (whole, name: string) => sidOf(name) ?? whole);
}

/** Whether `name` is a room reference (`conferences.x`, `queues.x`), checked only when it is read. */
export const isRoomName = (name: string) => roomName.test(name);

export interface SidNames {
  /** The sid `name` stands for now: a call id's call, a named leg's first leg, a room; undefined if none. */
  sidOf(name: string): string | undefined;
}

export function createSidNames(
  core: PlayedSandbox,
  accountSid: string,
  ids: ReadonlyMap<string, string>,
  targets: ReadonlyMap<string, string>,
): SidNames {
  const room = (kind: string, name: string): string | undefined => {
    if (kind === "queues") return core.store.queues.findOne("name", `${accountSid}:${name}`)?.sid;
    // The room running under that name, or else the last one that did.
    const live = core.store.conferences.findOne("live", `${accountSid}:${name}`);
    if (live) return live.sid;
    const all = core.store.conferences.where("account", accountSid).filter((c) => c.friendly_name === name);
    return all.at(-1)?.sid;
  };
  return {
    sidOf(name) {
      const id = ids.get(name);
      if (id) return id;
      const to = targets.get(name);
      if (to !== undefined) {
        // The first leg dialled to it: the oldest call of the account to that party (a Dial's or the API's).
        const own = new Set(ids.values());
        return core.store.calls
          .where("account", accountSid)
          .find((c) => c.to === to && (c.direction !== "inbound" || !own.has(c.sid)))?.sid;
      }
      const m = roomName.exec(name);
      return m ? room(m[1]!, m[2]!) : undefined;
    },
  };
}
