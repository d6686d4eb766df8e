// <Enqueue>: wait at the back of the account's queue (waitUrl in a loop) until bridged to an agent, Leave, or hangup.
import { methodAttr } from "../attrs.js";
import { CallEnded, Redirected, type VerbEnv, type VerbRun } from "../effects.js";
import type { MarkupNode } from "../parse.js";
import { runWaitMarkup } from "../wait-loop.js";

export function* enqueue(node: MarkupNode, env: VerbEnv): VerbRun {
  const action = node.attrs.action ? env.resolve(node.attrs.action) : null;
  const method = methodAttr(node);
  const waitUrl =
    node.attrs.waitUrl === undefined ? null : node.attrs.waitUrl && env.resolve(node.attrs.waitUrl);
  const joined = env.queue.enqueue(node.text);
  const params = (result: string) => ({
    QueueResult: result,
    QueueSid: joined.queueSid,
    QueueTime: String(env.queue.queueTime()),
  });
  const done = (result: string) => {
    env.timeline("enqueue.result", params(result));
    if (!action) return { type: "next" as const };
    return {
      type: "navigate" as const,
      to: { kind: "url" as const, url: action, method, params: params(result) },
    };
  };
  if (joined.full) return done("queue-full");
  let bridged = false;
  let result: string | null = null;
  try {
    for (;;) {
      const state = env.queue.callerState();
      if (state.kind === "waiting") {
        const end = yield* runWaitMarkup(env, {
          url: waitUrl,
          method: methodAttr(node, "waitUrlMethod"),
          params: () => env.queue.waitParams(),
          stop: () => env.queue.callerState().kind !== "waiting",
          allowLeave: true,
        });
        if (end.type === "leave" || end.type === "error") {
          env.queue.leave();
          return done(end.type);
        }
        if (end.type === "hangup") {
          env.queue.leave();
          result = "hangup";
          if (action) yield { type: "fetch", url: action, method, params: env.actionParams(params(result)) };
          return { type: "hangup" };
        }
        continue;
      }
      if (state.kind === "taken") {
        // The dequeuing Dial's Queue url plays to this caller before the bridge.
        if (state.url) {
          const extra = {
            DequeingCallSid: state.agentSid,
            QueueSid: joined.queueSid,
            QueueTime: String(env.queue.queueTime()),
          };
          yield* runWaitMarkup(env, {
            url: state.url,
            method: state.method,
            params: () => extra,
            stop: () => false,
            allowLeave: false,
            once: true,
          });
        }
        env.queue.ready();
        continue;
      }
      if (state.kind === "ended") return done("bridged");
      // Bridged, or taken out of the line by the API (its redirect is on the way): wait for the next change.
      if (state.kind === "bridged") bridged = true;
      yield { type: "wait", ms: null, wake: ["signal"] };
    }
  } catch (error) {
    env.queue.leave();
    if (error instanceof CallEnded || error instanceof Redirected) {
      // Out of the queue by hangup or redirect: the action is posted for the record; its answer is not used.
      result = error instanceof Redirected ? "redirected" : bridged ? "bridged" : "hangup";
      if (action) yield { type: "fetch", url: action, method, params: env.actionParams(params(result)) };
    }
    throw error;
  }
}
