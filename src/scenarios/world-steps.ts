// What each world step does to the sandbox: an inbound call rings, the app places a call, an agent changes
// status, an SMS arrives, the app calls an API, expectations are checked.
import { must, StepRefused } from "./api-client.js";
import { compileCaller } from "./caller-script.js";
import { checkExpectation } from "./expectations/check.js";
import type { PlayState } from "./play-state.js";
import type { Step } from "./schema/steps.js";
import { applySttResult, sttResults } from "./world.js";

/** The speech-to-text answers scripted for this call, now that it has a sid. */
function scriptTranscriptionsOf(state: PlayState, id: string, sid: string): void {
  for (const result of sttResults(state.loaded.scenario))
    if (result.calls?.includes(id)) applySttResult(state.core, sid, result);
}

async function ring(state: PlayState, step: Step): Promise<void> {
  const call = step.call!;
  const start = state.core.clock.now() - state.origin;
  const script = compileCaller(state.loaded.scenario, call.id, start, state.limit - state.origin);
  state.scripts.set(call.id, script);
  const answer = await must(
    `the call ${call.id} from ${call.from} to ${call.to}`,
    state.api.request("POST", "/__sandbox/calls/inbound", {
      auth: { kind: "admin" },
      json: {
        from: call.from,
        to: call.to,
        caller: script.behaviour,
        ...(call.caller_name ? { caller_name: call.caller_name } : {}),
        ...(call.forwarded_from ? { forwarded_from: call.forwarded_from } : {}),
      },
    }),
  );
  const sid = (answer.json as { sid: string }).sid;
  state.observer.ids.set(call.id, sid);
  for (const watch of script.watches) state.watches.push({ callId: call.id, ...watch });
  scriptTranscriptionsOf(state, call.id, sid);
}

async function placeCall(state: PlayState, step: Step): Promise<void> {
  const { host, world } = state;
  const call = step.place_call!;
  if (call.callee) state.core.calls.setParty(call.to, call.callee);
  const form: Record<string, string | string[]> = { To: call.to, From: call.from };
  if (call.url !== undefined) form.Url = host.resolve(call.url);
  if (call.twiml !== undefined) form.Twiml = host.fill(call.twiml);
  if (call.method) form.Method = call.method;
  if (call.fallback_url) form.FallbackUrl = host.resolve(call.fallback_url);
  if (call.status_callback) form.StatusCallback = host.resolve(call.status_callback);
  if (call.status_callback_events) form.StatusCallbackEvent = call.status_callback_events;
  if (call.record !== undefined) form.Record = String(call.record);
  if (call.recording_channels) form.RecordingChannels = call.recording_channels;
  if (call.recording_status_callback)
    form.RecordingStatusCallback = host.resolve(call.recording_status_callback);
  if (call.timeout !== undefined) form.Timeout = String(call.timeout);
  if (call.time_limit !== undefined) form.TimeLimit = String(call.time_limit);
  if (call.send_digits) form.SendDigits = call.send_digits;
  if (call.machine_detection) form.MachineDetection = call.machine_detection;
  if (call.machine_detection_timeout !== undefined)
    form.MachineDetectionTimeout = String(call.machine_detection_timeout);
  if (call.async_amd !== undefined) form.AsyncAmd = String(call.async_amd);
  if (call.async_amd_status_callback)
    form.AsyncAmdStatusCallback = host.resolve(call.async_amd_status_callback);
  const answer = await must(
    `placing the call ${call.id} to ${call.to}`,
    state.api.request("POST", `/2010-04-01/Accounts/${world.accountSid}/Calls.json`, {
      auth: { kind: "account", sid: world.accountSid },
      form,
    }),
  );
  const sid = (answer.json as { sid: string }).sid;
  state.observer.ids.set(call.id, sid);
  scriptTranscriptionsOf(state, call.id, sid);
}

async function changeAgent(state: PlayState, step: Step): Promise<void> {
  const change = step.agent!;
  const agent = state.world.agents.get(change.agent)!;
  await must(
    `setting agent ${change.agent} ${change.status}`,
    state.api.request(
      "PATCH",
      `/carrier/v1/accounts/${state.world.accountSid}/agent_extensions/${agent.sid}`,
      {
        auth: { kind: "carrier" },
        json: { data: { type: "agent_extension", id: agent.sid, attributes: { status: change.status } } },
      },
    ),
  );
}

async function receiveSms(state: PlayState, step: Step): Promise<void> {
  const sms = step.sms!;
  const answer = await state.api.request("POST", "/__sandbox/messages/inbound", {
    auth: { kind: "admin" },
    json: { from: sms.from, to: sms.to, body: sms.body },
  });
  if (answer.status === 404 && state.core.store.phoneNumbers.findOne("number", sms.to))
    throw new Error(
      "inbound SMS is not emulated by this sandbox yet (no POST /__sandbox/messages/inbound): mark the scenario skip",
    );
  if (answer.status >= 400) throw new StepRefused(`the SMS from ${sms.from} to ${sms.to}`, answer);
}

/**
 * The path with `{c1}` as call c1's sid, `{callee}` as the named leg's, `{conferences.x}` and `{queues.x}`
 * as the room's, `{account}` as the account's; a name that stands for nothing yet stops the step.
 */
function fillPath(state: PlayState, path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === "account") return state.world.accountSid;
    const sid = state.observer.sidOf(name);
    if (sid) return sid;
    throw new Error(
      `{${name}} stands for no sid yet: ${
        /^(conferences|queues)\./.test(name)
          ? `the account has no ${name.startsWith("q") ? "queue" : "conference"} named "${name.slice(name.indexOf(".") + 1)}"`
          : `no leg was dialled to "${name}"`
      } when this step ran; time the step later (at, after, wait)`,
    );
  });
}

/** The app's own request: the path under the account unless absolute, placeholders filled (fillPath). */
async function callApi(state: PlayState, step: Step): Promise<void> {
  const request = step.api!;
  const accountSid = state.world.accountSid;
  const filled = fillPath(state, request.path);
  const absolute = /^\/(2010-04-01|carrier|__sandbox)(\/|$)/.test(filled);
  const path = absolute ? filled : `/2010-04-01/Accounts/${accountSid}${filled}`;
  const as =
    request.as ??
    (path.startsWith("/carrier/") ? "carrier" : path.startsWith("/__sandbox/") ? "admin" : "account");
  const form =
    request.form === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(request.form).map(([k, v]) => [k, Array.isArray(v) ? v : String(v)] as const),
        );
  await must(
    `${request.method} ${path}`,
    state.api.request(request.method, path, {
      auth: as === "account" ? { kind: "account", sid: accountSid } : { kind: as },
      ...(form ? { form } : {}),
      ...(request.json !== undefined ? { json: request.json } : {}),
    }),
  );
}

/** Does what world step `index` says; a refused request throws (StepRefused). */
export async function performWorldStep(state: PlayState, index: number, step: Step): Promise<void> {
  if (step.call) return ring(state, step);
  if (step.place_call) return placeCall(state, step);
  if (step.agent) return changeAgent(state, step);
  if (step.sms) return receiveSms(state, step);
  if (step.api) return callApi(state, step);
  if (step.expect) {
    state.failures.push(...checkExpectation(state.check, step.expect, ["steps", index, "expect"]));
  }
}
