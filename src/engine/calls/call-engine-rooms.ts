// How the rooms calls share reach the calls in them: conferences, queues, and calls to the sandbox's own numbers.
import type { Navigation } from "../../markup/effects.js";
import { type Conferences, createConferences } from "../rooms/conferences.js";
import { createQueues, type Queues } from "../rooms/queues.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import { createOwnNumberCalls, type OwnNumberCalls, type OwnNumberHost } from "./own-number-calls.js";

/** Wakes a call's program so it re-reads its conference or queue state. */
function signalCall(reg: CallRegistry, name: "conference" | "queue") {
  return (sid: string) => {
    const rt = reg.runtime(sid);
    if (!rt || rt.finishing) return;
    reg.services.scheduler.after(0, eventClass.continuation, `${name} ${sid}`, () =>
      reg.parts.program.deliver(rt, { kind: "signal", name, detail: {} }),
    );
  };
}

/** Conferences hear their members' speech, tell them what they heard, and finish their recordings. */
export function wireConferences(reg: CallRegistry): Conferences {
  return createConferences({
    services: reg.services,
    signal: signalCall(reg, "conference"),
    speechOf: (sid) => reg.runtime(sid)?.speech ?? [],
    liveAudioOf: (sid) => reg.runtime(sid)?.mic ?? [],
    heard: (sid, entry) => {
      const rt = reg.runtime(sid);
      if (!rt) return;
      rt.heard.push({ at: reg.now(), ...entry });
      reg.note(rt, `heard.${entry.kind}`, { ...entry });
    },
    note: reg.noteOn,
    finishRecording: (sid, endAt, speech) => reg.parts.recordings.finishConference(sid, endAt, speech),
  });
}

/** Queues bridge an agent with a caller (whose parties then talk) and redirect a dequeued member. */
export function wireQueues(reg: CallRegistry, redirectLive: (sid: string, to: Navigation) => void): Queues {
  return createQueues({
    ctx: reg.services.ctx,
    signal: signalCall(reg, "queue"),
    bridge: (agentSid, callerSid) => {
      const agent = reg.runtime(agentSid);
      const caller = reg.runtime(callerSid);
      if (!agent || !caller) return;
      agent.bridgedWith = callerSid;
      caller.bridgedWith = agentSid;
      reg.note(agent, "queue.bridged", { sid: callerSid });
      reg.note(caller, "queue.bridged", { sid: agentSid });
      reg.parts.party.talk(agent, caller, caller);
    },
    redirect: (sid, url, method) => redirectLive(sid, { kind: "url", url, method }),
    note: reg.noteOn,
  });
}

/** A call to one of the sandbox's own numbers rings it as an inbound call through the engine's `ring`. */
export function wireOwnNumbers(reg: CallRegistry, ring: OwnNumberHost["ring"]): OwnNumberCalls {
  return createOwnNumberCalls(reg.services.ctx, {
    ring,
    applyEvent: (sid, event) => reg.parts.lifecycle.applyEvent(sid, event),
    note: reg.noteOn,
    soon: (label, task) => void reg.services.scheduler.after(0, eventClass.control, label, task),
  });
}
