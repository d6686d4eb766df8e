// <Dial><Conference>: join the account's room of that name, wait (waitUrl) until it starts, stay until released.
import { boolAttr, intAttr, listAttr, methodAttr } from "../attrs.js";
import { CallEnded, Redirected, type VerbEnv, type VerbRun, type Wake } from "../effects.js";
import type { MarkupNode } from "../parse.js";
import { runWaitMarkup } from "../wait-loop.js";

const beepValues = ["true", "false", "onEnter", "onExit"] as const;

export function* dialConference(dial: MarkupNode, noun: MarkupNode, env: VerbEnv): VerbRun {
  const action = dial.attrs.action ? env.resolve(dial.attrs.action) : null;
  const method = methodAttr(dial);
  const hangupOnStar = boolAttr(dial, "hangupOnStar", false);
  const timeLimitMs = intAttr(dial, "timeLimit", 14_400) * 1000;
  const beep = beepValues.find((v) => v === noun.attrs.beep) ?? "true";
  const resolved = (name: string) => (noun.attrs[name] ? env.resolve(noun.attrs[name]) : null);
  const joined = env.conference.join({
    name: noun.text,
    label: noun.attrs.participantLabel ?? null,
    muted: boolAttr(noun, "muted", false),
    beep,
    startConferenceOnEnter: boolAttr(noun, "startConferenceOnEnter", true),
    endConferenceOnExit: boolAttr(noun, "endConferenceOnExit", false),
    maxParticipants: intAttr(noun, "maxParticipants", 250),
    record: noun.attrs.record === "record-from-start",
    statusCallback: resolved("statusCallback"),
    statusCallbackMethod: methodAttr(noun, "statusCallbackMethod"),
    // Twilio sends start and end when statusCallback is set without statusCallbackEvent.
    statusCallbackEvents: listAttr(noun, "statusCallbackEvent", ["start", "end"]),
    recordingStatusCallback: resolved("recordingStatusCallback"),
    recordingStatusCallbackMethod: methodAttr(noun, "recordingStatusCallbackMethod"),
    recordingStatusCallbackEvents: listAttr(noun, "recordingStatusCallbackEvent", ["completed"]),
    coach: noun.attrs.coach ?? null,
  });
  const done = (params: Record<string, string>) => {
    env.timeline("dial.result", { ...params });
    if (!action) return { type: "next" as const };
    return { type: "navigate" as const, to: { kind: "url" as const, url: action, method, params } };
  };
  // A full room: the caller does not get in and the Dial ends at once.
  if ("full" in joined) return done({ DialCallStatus: "failed" });
  // Twilio's 13240: a coach naming a call not in the running room "fails to the action URL".
  if ("invalidCoach" in joined) {
    env.alert(
      13240,
      `Dial->Conference: Invalid Whisper SID: coach="${joined.invalidCoach}" is not a call connected to the in-progress conference "${noun.text}"`,
    );
    return done({ DialCallStatus: "failed" });
  }
  const params = { DialCallStatus: "answered", ConferenceSid: joined.conferenceSid };
  if (beep === "true" || beep === "onEnter") env.heard({ kind: "beep" });
  // waitUrl absent: built-in hold music; "" : silence; otherwise the customer's wait markup, in a loop.
  let waitUrl: string | null =
    noun.attrs.waitUrl === undefined ? null : noun.attrs.waitUrl && env.resolve(noun.attrs.waitUrl);
  const deadline = env.now() + timeLimitMs;
  try {
    for (;;) {
      const state = env.conference.state();
      if (state === "out") break;
      if (state === "waiting") {
        const end = yield* runWaitMarkup(env, {
          url: waitUrl,
          method: methodAttr(noun, "waitMethod"),
          params: () => ({}),
          stop: () => env.conference.state() !== "waiting",
          allowLeave: false,
        });
        if (end.type === "hangup") {
          env.conference.leave("hung-up");
          return { type: "hangup" };
        }
        // A wait document that fails: the caller keeps waiting in silence.
        if (end.type === "error") waitUrl = "";
        continue;
      }
      // AnnounceUrl: played once to this caller (it fetches it for the room, or plays what another fetched).
      const announcement = env.conference.announcement();
      if (announcement) {
        yield* runWaitMarkup(env, {
          url: announcement.url,
          method: announcement.method,
          params: () => ({}),
          stop: () => env.conference.state() !== "live",
          allowLeave: false,
          once: true,
          ...(announcement.document
            ? { document: announcement.document }
            : { fetched: (verbs) => env.conference.announced(verbs) }),
        });
        env.conference.announcementDone();
        continue;
      }
      if (env.conference.held()) {
        // On hold (participant Hold=true): Twilio's hold music until the hold is lifted.
        yield* runWaitMarkup(env, {
          url: null,
          method: "POST",
          params: () => ({}),
          stop: () => !env.conference.held() || env.conference.state() !== "live",
          allowLeave: false,
        });
        continue;
      }
      const wake = (yield {
        type: "wait",
        ms: Math.max(0, deadline - env.now()),
        wake: hangupOnStar ? ["signal", "dtmf"] : ["signal"],
      }) as Wake;
      if (wake.kind === "timeout" || (wake.kind === "dtmf" && wake.digit === "*")) {
        env.conference.leave();
        break;
      }
    }
  } catch (error) {
    env.conference.leave(
      error instanceof CallEnded ? "hung-up" : error instanceof Redirected ? "redirected" : "left",
    );
    // The caller hung up: the action is still posted, for the record only (as for any Dial).
    if (error instanceof CallEnded && action) {
      yield { type: "fetch", url: action, method, params: env.actionParams(params) };
    }
    throw error;
  }
  return done(params);
}
