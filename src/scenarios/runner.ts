// Plays a scenario in a fresh sandbox on the virtual clock: sets up, runs its steps in time order, checks expectations.
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { isTerminalCallStatus } from "../domain/call.js";
import { startStopwatch } from "../engine/clock.js";
import { defaultFixturesPath } from "../package-files.js";
import { type ApiClient, createApiClient, must, StepRefused } from "./api-client.js";
import { resolveApps } from "./apps.js";
import { type CallerScript, compileCaller, type PartyMark } from "./caller-script.js";
import {
  type CheckContext,
  callContext,
  checkExpectation,
  checkUnexpectedAlerts,
  heardItems,
} from "./expectations/check.js";
import { mismatches } from "./expectations/match.js";
import { createHandlerHost, type HandlerHost, scenarioBaseUrl } from "./handler-host.js";
import type { LoadedScenario } from "./load.js";
import { createObserver, type Observer } from "./observe.js";
import type { PlayedSandbox } from "./played-sandbox.js";
import { actionOf, defaultScenarioTimeoutMs, worldStepTimes } from "./references.js";
import type { ScenarioFailure, ScenarioResult } from "./result.js";
import type { Step } from "./schema/steps.js";
import type { Scenario } from "./schema.js";
import { checkSnapshot, type SnapshotMode } from "./snapshot-file.js";
import { timelineSnapshot } from "./timeline-snapshot.js";
import { applySttResult, setUpWorld, sttResults, type World } from "./world.js";

export interface SandboxRecipe {
  /** A fixture file path, `false` for none, or undefined for the owner's own fixtures. */
  fixtures: string | false | undefined;
  seed: number | string;
}

export interface ScenarioRunOptions {
  /** Base URL of the customer's app: handler paths not defined inline are requested there. */
  target?: string | undefined;
  /** Overrides the scenario's seed. */
  seed?: number | string | undefined;
  /** WebSocket apps' URLs by name, over the file's `apps` (`{apps.name}` in inline markup). */
  apps?: Readonly<Record<string, string>> | undefined;
  /** Builds the fresh sandbox a scenario plays in (always on a virtual clock). */
  createSandbox: (recipe: SandboxRecipe) => PlayedSandbox;
  /** Receives the sandbox once the scenario has played (to keep or inspect its state). */
  onFinished?: ((core: PlayedSandbox) => void) | undefined;
  /** Lets go of the sandbox after the run; default: stop its clock (a fresh sandbox is thrown away). */
  release?: ((core: PlayedSandbox) => void) | undefined;
  /**
   * With `snapshot: true`: compare with the snapshot beside the file (writing it when missing, the
   * default), rewrite it ("update"), or only return the timeline ("off", e.g. for vitest's own snapshots).
   */
  snapshots?: SnapshotMode | "off" | undefined;
}

/** What a caller of `sandbox.runScenario` may choose. */
export interface RunScenarioOptions {
  /** Base URL of the customer's app for handler paths not defined inline. */
  target?: string | undefined;
  /** Overrides the scenario's seed. */
  seed?: number | string | undefined;
  /** URLs of the WebSocket apps the scenario names (`apps`), e.g. `{ echo: "ws://127.0.0.1:3002" }`. */
  apps?: Readonly<Record<string, string>> | undefined;
  /** Rewrite the timeline snapshot (`snapshot: true`) instead of comparing with it. */
  updateSnapshots?: boolean | undefined;
  /** Afterwards, this sandbox takes the scenario's final state (to look at it through the APIs). */
  keep?: boolean | undefined;
  /**
   * Play in this sandbox itself, so an app can call its APIs while the scenario plays: its state is
   * replaced by the scenario's world, its clock is virtual for the run and goes back to its mode after.
   */
  live?: boolean | undefined;
}

/** While a hang-up waits for the caller's previous step, time moves in steps this long to look for it. */
const watchTickMs = 100;

interface Watch {
  callId: string;
  stepIndex: number;
  after: PartyMark;
  delayMs: number;
}

function fixturesOf(loaded: LoadedScenario): SandboxRecipe["fixtures"] {
  const fixtures = loaded.scenario.fixtures;
  if (fixtures === undefined) return undefined;
  // The packaged fixtures: createSandboxCore knows this path and reads the build's parsed copy.
  if (fixtures === "default") return defaultFixturesPath;
  if (fixtures === "empty") return false;
  return isAbsolute(fixtures) ? fixtures : resolve(loaded.dir, fixtures);
}

/** A located failure for a step. */
function stepFailure(loaded: LoadedScenario, index: number, step: Step, message: string): ScenarioFailure {
  const path = ["steps", index, actionOf(step)];
  const position = loaded.positionOf(path);
  return {
    where: position ? `${position.file}:${position.line}:${position.column}` : null,
    path: path.join("."),
    message: step.name ? `step "${step.name}": ${message}` : message,
  };
}

const isOver = (core: PlayedSandbox, sid: string) => {
  const call = core.store.calls.get(sid);
  return !call || isTerminalCallStatus(call.status);
};

/** Timeline entries of a call that show its party acting, in order. */
const partyEntries = (core: PlayedSandbox, sid: string) =>
  core.calls.timeline(sid).filter((e) => e.kind.startsWith("party."));

function matchesMark(entry: { kind: string; detail: Record<string, unknown> }, mark: PartyMark): boolean {
  if (entry.kind !== mark.kind) return false;
  if (mark.kind === "party.say") return entry.detail.text === mark.text;
  if (mark.kind === "party.press") return entry.detail.digits === mark.digits;
  return true;
}

class Player {
  readonly failures: ScenarioFailure[] = [];
  readonly scripts = new Map<string, CallerScript>();
  private readonly watches: Watch[] = [];
  private stopped = false;

  constructor(
    readonly loaded: LoadedScenario,
    readonly core: PlayedSandbox,
    readonly api: ApiClient,
    readonly host: HandlerHost,
    readonly world: World,
    readonly observer: Observer,
    readonly origin: number,
    readonly limit: number,
    readonly check: CheckContext,
  ) {}

  get scenario(): Scenario {
    return this.loaded.scenario;
  }

  /** Schedules the hang-ups whose awaited caller step has happened. */
  private serviceWatches(): void {
    for (let i = this.watches.length - 1; i >= 0; i--) {
      const watch = this.watches[i]!;
      const sid = this.observer.ids.get(watch.callId);
      if (!sid) continue;
      const entry = partyEntries(this.core, sid).find((e) => matchesMark(e, watch.after));
      if (!entry) {
        // The call ended before the step this hang-up follows: nothing left to hang up.
        if (isOver(this.core, sid)) this.watches.splice(i, 1);
        continue;
      }
      this.watches.splice(i, 1);
      const at = entry.at + watch.after.lengthMs + watch.delayMs;
      const hangup = () => {
        if (!isOver(this.core, sid)) this.core.calls.hangup(sid);
      };
      if (at <= this.core.clock.now()) hangup();
      else this.core.clock.schedule(at, hangup);
    }
  }

  /** Moves the clock to `time`, in small steps while a hang-up is waiting for its cue. */
  async advanceTo(time: number): Promise<void> {
    while (this.core.clock.now() < time) {
      const step =
        this.watches.length > 0
          ? Math.min(watchTickMs, time - this.core.clock.now())
          : time - this.core.clock.now();
      await this.core.clock.advance(step);
      this.serviceWatches();
    }
    this.serviceWatches();
    await this.core.settle();
  }

  /** After the last step: plays on until nothing is left to happen, or the scenario's time limit. */
  async drain(): Promise<void> {
    for (;;) {
      const now = this.core.clock.now();
      if (now >= this.limit || this.core.clock.pending() === 0) break;
      if (this.watches.length > 0) {
        await this.core.clock.advance(Math.min(watchTickMs, this.limit - now));
        this.serviceWatches();
      } else {
        await this.core.clock.runUntilIdle(this.limit - now);
      }
    }
    await this.core.settle();
  }

  private async ring(step: Step): Promise<void> {
    const call = step.call!;
    const start = this.core.clock.now() - this.origin;
    const script = compileCaller(this.scenario, call.id, start, this.limit - this.origin);
    this.scripts.set(call.id, script);
    const answer = await must(
      `the call ${call.id} from ${call.from} to ${call.to}`,
      this.api.request("POST", "/__sandbox/calls/inbound", {
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
    this.observer.ids.set(call.id, sid);
    for (const watch of script.watches) this.watches.push({ callId: call.id, ...watch });
    this.scriptTranscriptionsOf(call.id, sid);
  }

  /** The speech-to-text answers scripted for this call, now that it has a sid. */
  private scriptTranscriptionsOf(id: string, sid: string): void {
    for (const result of sttResults(this.scenario))
      if (result.calls?.includes(id)) applySttResult(this.core, sid, result);
  }

  private async placeCall(step: Step): Promise<void> {
    const call = step.place_call!;
    if (call.callee) this.core.calls.setParty(call.to, call.callee);
    const form: Record<string, string | string[]> = { To: call.to, From: call.from };
    if (call.url !== undefined) form.Url = this.host.resolve(call.url);
    if (call.twiml !== undefined) form.Twiml = this.host.fill(call.twiml);
    if (call.method) form.Method = call.method;
    if (call.fallback_url) form.FallbackUrl = this.host.resolve(call.fallback_url);
    if (call.status_callback) form.StatusCallback = this.host.resolve(call.status_callback);
    if (call.status_callback_events) form.StatusCallbackEvent = call.status_callback_events;
    if (call.record !== undefined) form.Record = String(call.record);
    if (call.recording_channels) form.RecordingChannels = call.recording_channels;
    if (call.recording_status_callback)
      form.RecordingStatusCallback = this.host.resolve(call.recording_status_callback);
    if (call.timeout !== undefined) form.Timeout = String(call.timeout);
    if (call.time_limit !== undefined) form.TimeLimit = String(call.time_limit);
    if (call.send_digits) form.SendDigits = call.send_digits;
    if (call.machine_detection) form.MachineDetection = call.machine_detection;
    if (call.machine_detection_timeout !== undefined)
      form.MachineDetectionTimeout = String(call.machine_detection_timeout);
    if (call.async_amd !== undefined) form.AsyncAmd = String(call.async_amd);
    if (call.async_amd_status_callback)
      form.AsyncAmdStatusCallback = this.host.resolve(call.async_amd_status_callback);
    const answer = await must(
      `placing the call ${call.id} to ${call.to}`,
      this.api.request("POST", `/2010-04-01/Accounts/${this.world.accountSid}/Calls.json`, {
        auth: { kind: "account", sid: this.world.accountSid },
        form,
      }),
    );
    const sid = (answer.json as { sid: string }).sid;
    this.observer.ids.set(call.id, sid);
    this.scriptTranscriptionsOf(call.id, sid);
  }

  private async changeAgent(step: Step): Promise<void> {
    const change = step.agent!;
    const agent = this.world.agents.get(change.agent)!;
    await must(
      `setting agent ${change.agent} ${change.status}`,
      this.api.request(
        "PATCH",
        `/carrier/v1/accounts/${this.world.accountSid}/agent_extensions/${agent.sid}`,
        {
          auth: { kind: "carrier" },
          json: { data: { type: "agent_extension", id: agent.sid, attributes: { status: change.status } } },
        },
      ),
    );
  }

  private async receiveSms(step: Step): Promise<void> {
    const sms = step.sms!;
    const answer = await this.api.request("POST", "/__sandbox/messages/inbound", {
      auth: { kind: "admin" },
      json: { from: sms.from, to: sms.to, body: sms.body },
    });
    if (answer.status === 404 && this.core.store.phoneNumbers.findOne("number", sms.to))
      throw new Error(
        "inbound SMS is not emulated by this sandbox yet (no POST /__sandbox/messages/inbound): mark the scenario skip",
      );
    if (answer.status >= 400) throw new StepRefused(`the SMS from ${sms.from} to ${sms.to}`, answer);
  }

  /** The app's own request: the path under the account unless absolute, `{c1}` as call c1's sid. */
  private async callApi(step: Step): Promise<void> {
    const request = step.api!;
    const accountSid = this.world.accountSid;
    const filled = request.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      name === "account" ? accountSid : (this.observer.ids.get(name) ?? `{${name}}`),
    );
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
      this.api.request(request.method, path, {
        auth: as === "account" ? { kind: "account", sid: accountSid } : { kind: as },
        ...(form ? { form } : {}),
        ...(request.json !== undefined ? { json: request.json } : {}),
      }),
    );
  }

  private async perform(index: number, step: Step): Promise<void> {
    if (step.call) return this.ring(step);
    if (step.place_call) return this.placeCall(step);
    if (step.agent) return this.changeAgent(step);
    if (step.sms) return this.receiveSms(step);
    if (step.api) return this.callApi(step);
    if (step.expect) {
      this.failures.push(...checkExpectation(this.check, step.expect, ["steps", index, "expect"]));
    }
  }

  /** Runs one world step, honouring expect_error; false when the scenario cannot go on. */
  private async runWorldStep(index: number, step: Step): Promise<boolean> {
    const expected = step.expect_error;
    try {
      await this.perform(index, step);
    } catch (error) {
      if (!(error instanceof StepRefused) || !expected) {
        this.failures.push(stepFailure(this.loaded, index, step, (error as Error).message));
        return false;
      }
      const differences = mismatches(
        {
          ...(expected.status !== undefined ? { status: expected.status } : {}),
          ...(expected.code !== undefined ? { code: expected.code } : {}),
        },
        { status: error.status, code: error.code },
      );
      if (differences.length > 0 || (expected.message && !error.message.includes(expected.message)))
        this.failures.push({
          ...stepFailure(this.loaded, index, step, `refused differently than expected: ${error.message}`),
          expected,
          actual: { status: error.status, code: error.code, message: error.message },
        });
      return true;
    }
    if (expected)
      this.failures.push({
        ...stepFailure(this.loaded, index, step, "was expected to be refused, but it succeeded"),
        expected,
      });
    return true;
  }

  async play(): Promise<void> {
    const times = worldStepTimes(this.scenario);
    for (const [index, step] of this.scenario.steps.entries()) {
      const time = times.get(index);
      if (time === undefined) continue; // a caller step: in its call's script
      await this.advanceTo(this.origin + time);
      if (!(await this.runWorldStep(index, step))) {
        this.stopped = true;
        return;
      }
    }
    await this.drain();
  }

  get aborted(): boolean {
    return this.stopped;
  }

  /**
   * On a call connected to a WebSocket app (`<Connect>`), caller steps that never happened (the app closed
   * early, so the call moved on or ended) are failures naming when and how the call ended. Elsewhere a step
   * left over is allowed, as it always was; a hang-up that did not happen is no loss anywhere.
   */
  checkUnplayedSteps(): void {
    for (const [id, script] of this.scripts) {
      const sid = this.observer.ids.get(id);
      if (!sid) continue;
      const connected = this.core.calls
        .timeline(sid)
        .some((e) => e.kind === "verb.start" && e.detail.verb === "Connect");
      if (!connected) continue;
      const entries = partyEntries(this.core, sid);
      let from = 0;
      for (const [index, mark] of script.marks) {
        const found = entries.findIndex((e, i) => i >= from && matchesMark(e, mark));
        if (found !== -1) {
          from = found + 1;
          continue;
        }
        if (mark.kind === "party.hangup") continue;
        const step = this.scenario.steps[index]!;
        const call = this.core.store.calls.get(sid);
        const ended =
          call && isTerminalCallStatus(call.status) && call.end_time !== null
            ? `the call ended ${call.status} at ${this.observer.offset(call.end_time)} first`
            : "the call never got to it before the scenario's time ran out";
        this.failures.push({
          ...stepFailure(this.loaded, index, step, `call ${id}: this caller step never happened: ${ended}`),
          call: callContext(this.check, id, sid),
        });
      }
    }
  }

  /** expect_heard steps: the call heard it, before the caller's next step on that call happened. */
  checkHeardSteps(): void {
    const claimed = new Map<string, number>();
    this.scenario.steps.forEach((step, index) => {
      const expected = step.expect_heard;
      if (!expected) return;
      const { call: id, ...what } = expected;
      const sid = this.observer.ids.get(id);
      const path = ["steps", index, "expect_heard"];
      const where = this.check.where(path);
      if (!sid) {
        this.failures.push({ where, path: path.join("."), message: `call ${id} never started` });
        return;
      }
      const heard = heardItems(this.check, sid);
      const from = claimed.get(id) ?? 0;
      const found = heard.findIndex((h, i) => i >= from && mismatches(what, h).length === 0);
      if (found === -1) {
        this.failures.push({
          where,
          path: path.join("."),
          message: `call ${id} did not hear ${JSON.stringify(what)}${from > 0 ? " after what the steps before expected" : ""}`,
          expected: what,
          actual: heard,
          call: callContext(this.check, id, sid),
        });
        return;
      }
      claimed.set(id, found + 1);
      // The caller's next step in the file must not have happened before this was heard.
      const script = this.scripts.get(id);
      const next = [...(script?.marks.entries() ?? [])].find(([i]) => i > index)?.[1];
      if (!next) return;
      const entry = partyEntries(this.core, sid).find((e) => matchesMark(e, next));
      const heardAt = this.core.calls.heard(sid)[found]!.at;
      if (entry && entry.at < heardAt)
        this.failures.push({
          where,
          path: path.join("."),
          message: `call ${id} heard ${JSON.stringify(what)} at ${this.observer.offset(heardAt)}, after the caller's next step (${next.kind}) at ${this.observer.offset(entry.at)}`,
          expected: what,
          actual: heard,
          call: callContext(this.check, id, sid),
        });
    });
  }
}

/** The scenario's timeline, compared with (or written to) the snapshot beside its file; a change is a failure. */
function takeSnapshot(
  loaded: LoadedScenario,
  core: PlayedSandbox,
  observer: Observer,
  host: HandlerHost,
  options: ScenarioRunOptions,
  failures: ScenarioFailure[],
): Pick<ScenarioResult, "timeline" | "snapshot"> {
  const timeline = timelineSnapshot(core, observer, host);
  const mode = options.snapshots ?? "compare";
  // A scenario that came from text or an object has no file to keep a snapshot beside.
  if (mode === "off" || !existsSync(loaded.file)) return { timeline };
  const outcome = checkSnapshot(loaded.file, loaded.scenario.name, timeline, mode);
  if (outcome.status === "differs") {
    const position = loaded.positionOf(["snapshot"]);
    failures.push({
      where: position ? `${position.file}:${position.line}:${position.column}` : null,
      path: "snapshot",
      message: `the timeline differs from ${outcome.file} (- saved, + this run); if the change is right, run again with --update-snapshots`,
      diff: outcome.diff,
    });
  }
  return { timeline, snapshot: { status: outcome.status, file: outcome.file } };
}

/** Plays one loaded scenario and reports its verdict; never throws for a failing scenario. */
export async function playScenario(
  loaded: LoadedScenario,
  options: ScenarioRunOptions,
): Promise<ScenarioResult> {
  const stopwatch = startStopwatch();
  const scenario = loaded.scenario;
  const seed = options.seed ?? scenario.seed ?? 1;
  const base: ScenarioResult = {
    name: scenario.name,
    file: loaded.file,
    status: "passed",
    failures: [],
    seed,
    calls: {},
    simulatedMs: 0,
    wallMs: 0,
    trace: [],
  };
  if (scenario.skip) return { ...base, status: "skipped", skipReason: scenario.skip, wallMs: stopwatch() };
  if (scenario.needs_target && !options.target)
    return {
      ...base,
      status: "skipped",
      skipReason: "needs a target app (--target URL)",
      wallMs: stopwatch(),
    };

  const apps = resolveApps(scenario, options.apps);
  if (apps.invalid.length > 0)
    return {
      ...base,
      status: "error",
      error: `apps: ${apps.invalid.join(", ")}: not a ws:// or wss:// URL (give each app as name=ws://host:port)`,
      wallMs: stopwatch(),
    };
  if (apps.missing.length > 0)
    return {
      ...base,
      status: "skipped",
      skipReason: `needs the URL of app ${apps.missing.join(", ")} (the apps option, --app name=ws://...)`,
      wallMs: stopwatch(),
    };

  const core = options.createSandbox({ fixtures: fixturesOf(loaded), seed });
  const host = createHandlerHost(scenario, options.target, apps.urls);
  const unregister = core.webhooks.register(`${scenarioBaseUrl}/`, (request) => host.answer(request));
  const api = createApiClient(core);
  let player: Player | undefined;
  let observer: Observer | undefined;
  let snapshot: Pick<ScenarioResult, "timeline" | "snapshot"> = {};
  const origin = core.clock.now();
  try {
    let world: World;
    try {
      world = await setUpWorld(core, api, host, scenario);
    } catch (error) {
      return {
        ...base,
        status: "error",
        error: `setup failed: ${(error as Error).message}`,
        wallMs: stopwatch(),
      };
    }
    observer = createObserver(core, host, world.accountSid, origin);
    const check: CheckContext = {
      observer,
      host,
      where(path) {
        const p = loaded.positionOf(path);
        return p ? `${p.file}:${p.line}:${p.column}` : null;
      },
    };
    const limit = origin + (scenario.timeout ?? defaultScenarioTimeoutMs);
    player = new Player(loaded, core, api, host, world, observer, origin, limit, check);
    await player.play();
    if (!player.aborted) {
      player.checkHeardSteps();
      player.checkUnplayedSteps();
      if (scenario.expect) player.failures.push(...checkExpectation(check, scenario.expect, ["expect"]));
      const expectations = [
        ...scenario.steps.flatMap((s) => (s.expect ? [s.expect] : [])),
        ...(scenario.expect ? [scenario.expect] : []),
      ];
      if (scenario.snapshot) snapshot = takeSnapshot(loaded, core, observer, host, options, player.failures);
      // An alerts expectation that failed has reported the alerts already.
      if (!player.failures.some((f) => /(^|\.)alerts(\.|$)/.test(f.path)))
        player.failures.push(...checkUnexpectedAlerts(check, expectations, scenario.allow_alerts));
    }
    options.onFinished?.(core);
    const trace = observer.requests("all").map((r) => ({
      at: String(r.at),
      kind: String(r.kind),
      method: String(r.method),
      url: String(r.url),
      status: (r.status as number | null) ?? null,
      params: r.params as Record<string, string>,
    }));
    return {
      ...base,
      status: player.failures.length > 0 ? "failed" : "passed",
      failures: player.failures,
      ...snapshot,
      calls: Object.fromEntries(observer.ids),
      simulatedMs: core.clock.now() - origin,
      wallMs: stopwatch(),
      trace,
    };
  } catch (error) {
    return {
      ...base,
      status: "error",
      error: `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      failures: player?.failures ?? [],
      calls: observer ? Object.fromEntries(observer.ids) : {},
      wallMs: stopwatch(),
    };
  } finally {
    unregister();
    if (options.release) options.release(core);
    else core.clock.dispose();
  }
}
