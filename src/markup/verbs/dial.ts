// <Dial>: rings child legs (numbers, clients, SIP, agent extensions, ring groups), bridges the first to answer.
import { boolAttr, intAttr, listAttr, methodAttr } from "../attrs.js";
import {
  CallEnded,
  type DialTarget,
  type RecordingHandle,
  type Step,
  type VerbEnv,
  type VerbRun,
  type Wake,
} from "../effects.js";
import type { MarkupNode } from "../parse.js";
import { dialConference } from "./dial-conference.js";
import { dialQueue } from "./dial-queue.js";

const terminal = ["completed", "busy", "no-answer", "failed", "canceled"];

function targetsOf(
  node: MarkupNode,
  env: VerbEnv,
): (DialTarget | { group: string })[] | { unemulated: string } {
  const callbacks = (noun: MarkupNode) => ({
    statusCallback: noun.attrs.statusCallback ? env.resolve(noun.attrs.statusCallback) : null,
    statusCallbackMethod: methodAttr(noun, "statusCallbackMethod"),
    statusCallbackEvents: listAttr(noun, "statusCallbackEvent", []),
    // Twilio: `url` runs on the called party after it answers and before the bridge (`method`, POST).
    whisper: noun.attrs.url ? { url: env.resolve(noun.attrs.url), method: methodAttr(noun) } : undefined,
    sendDigits: noun.name === "Number" && noun.attrs.sendDigits ? noun.attrs.sendDigits : undefined,
    machineDetection:
      noun.name === "Number" || noun.name === "Sip" ? legMachineDetection(noun, env) : undefined,
  });
  if (node.children.length === 0) {
    return node.text === "" ? [] : [numberTarget(node.text, node, env, callbacks(node))];
  }
  const targets: (DialTarget | { group: string })[] = [];
  for (const noun of node.children) {
    const cb = callbacks(noun);
    switch (noun.name) {
      case "Number":
        targets.push(numberTarget(noun.text, noun, env, cb));
        break;
      case "Client": {
        const identity = noun.children.find((c) => c.name === "Identity")?.text ?? noun.text;
        // A client identity dials client:identity; an agent's extension digits ring that agent, a ring group's
        // name its members. An agent's name is no extension: it dials the client of that name.
        const agent = env.accountExtension(identity);
        if (agent) targets.push({ ...agent, ...cb });
        else if (env.ringGroup(identity)) targets.push({ group: identity });
        else targets.push({ kind: "client", to: `client:${identity}`, ...cb });
        break;
      }
      case "Sip":
        targets.push({ kind: "sip", to: noun.text, ...cb });
        break;
      default:
        return { unemulated: noun.name };
    }
  }
  return targets;
}

/**
 * `<Number machineDetection>` (and `<Sip>`): the leg is bridged as usual while detection runs, and the result goes to
 * `amdStatusCallback` (the noun has no synchronous form: the caller's markup is already running).
 */
function legMachineDetection(noun: MarkupNode, env: VerbEnv): DialTarget["machineDetection"] {
  const mode = noun.attrs.machineDetection;
  if (mode !== "Enable" && mode !== "DetectMessageEnd") return undefined;
  const callback = noun.attrs.amdStatusCallback;
  return {
    mode,
    options: {
      // Values outside the ranges Twilio documents for the noun are brought inside them.
      timeout: clampAttr(noun, "machineDetectionTimeout", 30, 3, 60),
      speech_threshold: clampAttr(noun, "machineDetectionSpeechThreshold", 2400, 1000, 6000),
      speech_end_threshold: clampAttr(noun, "machineDetectionSpeechEndThreshold", 1200, 500, 5000),
      silence_timeout: clampAttr(noun, "machineDetectionSilenceTimeout", 5000, 2000, 10_000),
      async: true,
      async_callback: callback ? env.resolve(callback) : null,
      async_callback_method: methodAttr(noun, "amdStatusCallbackMethod"),
    },
  };
}

const clampAttr = (noun: MarkupNode, name: string, fallback: number, min: number, max: number) =>
  Math.min(Math.max(intAttr(noun, name, fallback), min), max);

function numberTarget(
  text: string,
  _noun: MarkupNode,
  env: VerbEnv,
  cb: Pick<
    DialTarget,
    | "statusCallback"
    | "statusCallbackMethod"
    | "statusCallbackEvents"
    | "whisper"
    | "sendDigits"
    | "machineDetection"
  >,
): DialTarget {
  // Short digit strings are the account's agent extensions (Somleng-style internal dialling).
  if (/^\d{2,6}$/.test(text)) {
    const agent = env.accountExtension(text);
    return agent ? { ...agent, ...cb } : { kind: "extension", to: text, failed: true, ...cb };
  }
  return { kind: "number", to: text, ...cb };
}

interface RingResult {
  winner: string | null;
  statuses: string[];
  lastSid: string | null;
  answeredAt: number | null;
  /** The `sip:` legs' final SIP responses and INVITE Call-IDs, by leg sid. */
  sip: Map<string, { code: string; callId: string }>;
}

/** Rings `targets` together until one answers (the others are then canceled) or all give up. */
function* ring(env: VerbEnv, targets: DialTarget[], timeout: number, node: MarkupNode): Step<RingResult> {
  const legs = env.startLegs(targets, {
    callerId: node.attrs.callerId ?? null,
    timeout,
    timeLimit: intAttr(node, "timeLimit", 14_400),
  });
  const statuses = new Map<string, string>(legs.map((sid) => [sid, "queued"]));
  const sip = new Map<string, { code: string; callId: string }>();
  let winner: string | null = null;
  while (!winner && [...statuses.values()].some((s) => !terminal.includes(s))) {
    const wake = (yield { type: "wait", ms: null, wake: ["signal"] }) as Wake;
    if (wake.kind !== "signal" || wake.name !== "leg") continue;
    const sid = String(wake.detail.sid);
    const status = String(wake.detail.status);
    if (!statuses.has(sid)) continue;
    statuses.set(sid, status);
    if (wake.detail.sipResponseCode !== undefined) {
      sip.set(sid, { code: String(wake.detail.sipResponseCode), callId: String(wake.detail.sipCallId) });
    }
    if (status === "in-progress") winner = sid;
  }
  if (winner) {
    for (const [sid, status] of statuses) if (sid !== winner && !terminal.includes(status)) env.endLeg(sid);
  }
  return {
    winner,
    statuses: [...statuses.entries()].filter(([sid]) => sid !== winner).map(([, s]) => s),
    // A leg its whisper turned away (answered, then hung up) is the one DialCallSid names.
    lastSid: [...statuses].find(([, s]) => s === "completed")?.[0] ?? legs[legs.length - 1] ?? null,
    answeredAt: winner ? env.now() : null,
    sip,
  };
}

/**
 * Twilio's DialCallStatus when nobody was bridged: a leg that answered but was turned away by its whisper
 * markup (`<Hangup>`) makes it completed (with DialBridged=false); all busy, all failed, otherwise no-answer.
 */
function unansweredStatus(statuses: string[]): string {
  if (statuses.includes("completed")) return "completed";
  if (statuses.length > 0 && statuses.every((s) => s === "busy")) return "busy";
  if (statuses.length > 0 && statuses.every((s) => s === "failed")) return "failed";
  if (statuses.length > 0 && statuses.every((s) => s === "canceled")) return "canceled";
  return "no-answer";
}

/** answerOnBridge="true" on a Dial that rings parties (rooms answer the caller as they join). */
export function answersOnBridge(node: MarkupNode): boolean {
  return (
    node.name === "Dial" &&
    boolAttr(node, "answerOnBridge", false) &&
    !node.children.some((noun) => noun.name === "Conference" || noun.name === "Queue")
  );
}

/** The ringback tones `ringTone` names (the Dial reference's list, as the twilio package types it). */
const ringTones = new Set(
  "at au bg br be ch cl cn cz de dk ee es fi fr gr hu il in it lt jp mx my nl no nz ph pl pt ru se sg th uk us us-old tw ve za".split(
    " ",
  ),
);

export function* dial(node: MarkupNode, env: VerbEnv): VerbRun {
  const room = node.children.find((noun) => noun.name === "Conference" || noun.name === "Queue");
  if (room)
    return yield* room.name === "Conference" ? dialConference(node, room, env) : dialQueue(node, room, env);
  const found = targetsOf(node, env);
  if ("unemulated" in found) {
    env.alert(
      12200,
      `<Dial><${found.unemulated}> is not emulated by the sandbox; the Dial was skipped`,
      "warning",
    );
    return { type: "next" };
  }
  // ringTone: the caller's ringback is not sound here; the tone it names is noted for what the caller heard.
  const ringTone = node.attrs.ringTone;
  if (ringTone !== undefined && !ringTones.has(ringTone))
    env.alert(13220, `Dial: Invalid ringTone value "${ringTone}": ${[...ringTones].join(", ")}`, "warning");
  else if (ringTone) env.timeline("dial.ring-tone", { tone: ringTone });
  const timeout = intAttr(node, "timeout", 30);
  const timeLimitMs = intAttr(node, "timeLimit", 14_400) * 1000;
  const recordMode = node.attrs.record ?? "do-not-record";
  const recording = recordMode !== "do-not-record" && recordMode !== "false";
  const fromRinging = recordMode.startsWith("record-from-ringing");
  const dual = recordMode.endsWith("-dual");
  const hangupOnStar = boolAttr(node, "hangupOnStar", false);
  const action = node.attrs.action ? env.resolve(node.attrs.action) : null;
  const method = methodAttr(node);
  const recordingStart = (otherLegSid?: string) =>
    env.startRecording({
      otherLegSid,
      source: "DialVerb",
      channels: dual ? 2 : 1,
      statusCallback: node.attrs.recordingStatusCallback
        ? env.resolve(node.attrs.recordingStatusCallback)
        : null,
      statusCallbackMethod: methodAttr(node, "recordingStatusCallbackMethod"),
      statusCallbackEvents: listAttr(node, "recordingStatusCallbackEvent", ["completed"]),
    });

  let handle: RecordingHandle | null = recording && fromRinging ? recordingStart() : null;
  let result: RingResult = { winner: null, statuses: [], lastSid: null, answeredAt: null, sip: new Map() };
  let bridgeStart: number | null = null;
  let dialStatus = "no-answer";
  let saved: { sid: string; duration: number; url: string } | null = null;

  const finish = (): Record<string, string> => {
    const bridged = result.winner !== null;
    dialStatus = bridged ? "completed" : unansweredStatus(result.statuses);
    if (handle) {
      saved = bridged ? env.finishRecording(handle, env.now()) : null;
      if (!bridged) env.discardRecording(handle);
      handle = null;
    }
    const params: Record<string, string> = {
      DialCallStatus: dialStatus,
      DialCallDuration: String(bridgeStart === null ? 0 : Math.ceil((env.now() - bridgeStart) / 1000)),
      DialBridged: String(bridged),
    };
    const sid = result.winner ?? result.lastSid;
    if (sid) params.DialCallSid = sid;
    // <Sip>: "the SIP CallID header, the response code of the invite attempt" go to the action too.
    const sip = sid ? result.sip.get(sid) : undefined;
    if (sip) {
      params.DialSipCallId = sip.callId;
      params.DialSipResponseCode = sip.code;
    }
    if (saved) {
      params.RecordingSid = saved.sid;
      params.RecordingUrl = saved.url;
      params.RecordingDuration = String(saved.duration);
    }
    return params;
  };

  try {
    for (const target of found) {
      if ("group" in target) {
        const group = env.ringGroup(target.group)!;
        if (group.strategy === "simultaneous") {
          result = yield* ring(env, group.targets, group.ringTimeout, node);
        } else {
          // Sequential: each member rings for the group's ring timeout in turn; the first to answer wins.
          const statuses: string[] = [];
          for (const member of group.targets) {
            result = yield* ring(env, [member], group.ringTimeout, node);
            statuses.push(...result.statuses);
            if (result.winner) break;
          }
          result.statuses = statuses;
        }
      } else {
        continue;
      }
      if (result.winner) break;
    }
    const direct = found.filter((t): t is DialTarget => !("group" in t));
    if (!result.winner && direct.length > 0) {
      const groupStatuses = result.statuses;
      result = yield* ring(env, direct, timeout, node);
      result.statuses = [...groupStatuses, ...result.statuses];
    }
    if (result.winner) {
      bridgeStart = env.now();
      // answerOnBridge: the caller, left ringing, is answered now (billing and `answered` start here).
      env.answer();
      env.bridge(result.winner);
      if (recording && !handle) handle = recordingStart(result.winner);
      const limit = bridgeStart + timeLimitMs;
      for (;;) {
        const wake = (yield {
          type: "wait",
          ms: Math.max(0, limit - env.now()),
          wake: hangupOnStar ? ["signal", "dtmf"] : ["signal"],
        }) as Wake;
        if (wake.kind === "timeout") {
          env.endLeg(result.winner);
          break;
        }
        if (wake.kind === "dtmf" && wake.digit === "*") {
          // hangupOnStar drops the called party; the caller carries on (action or next verb).
          env.endLeg(result.winner);
          break;
        }
        if (
          wake.kind === "signal" &&
          wake.detail.sid === result.winner &&
          terminal.includes(String(wake.detail.status))
        ) {
          break;
        }
      }
    }
  } catch (error) {
    if (!(error instanceof CallEnded)) throw error;
    // The caller hung up: tear the child legs down; the action is still posted, for the record only.
    if (result.winner) env.endLeg(result.winner);
    const params = finish();
    if (action) yield { type: "fetch", url: action, method, params: env.actionParams(params) };
    throw error;
  }
  const params = finish();
  env.timeline("dial.result", { ...params });
  if (!action) return { type: "next" };
  return { type: "navigate", to: { kind: "url", url: action, method, params } };
}
