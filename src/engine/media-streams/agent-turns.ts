// When a scripted caller takes its turn again with a `<Connect>` agent, and how long the sandbox waits for the agent.

/**
 * An agent (stream or relay app) that plays nothing this long after the caller's words or keys counts as
 * listening again, so a script waiting for the agent to stop talking goes on instead of waiting for ever.
 */
export const quietAgentMs = 5_000;

/**
 * Virtual clock: real milliseconds the sandbox waits for a `<Connect>` app that owes the call an answer
 * before it records that the agent did not answer and lets time go on (`agentTurnTimeout`).
 */
export const defaultAgentTurnTimeoutMs = 10_000;
/**
 * Virtual clock: the silence a stream app hears while the sandbox waits for its answer (frames sent as
 * fast as it reads them, none of them sandbox time): enough for its own end-of-turn detection, which
 * typically wants 300-800 ms of it; then no more frames until it answers.
 */
export const heldSilenceMs = 2_000;
/** The most it may be: each wait is real time, and a scenario sent over HTTP may set it. */
export const maxAgentTurnTimeoutMs = 60_000;

/** Real milliseconds since some fixed point, for waits on the app (never for what the timeline shows). */
export const realNow = () => performance.now();

/** Rounded to a tenth of a millisecond: how the real waits are reported. */
export const realMs = (ms: number) => Math.round(ms * 10) / 10;
