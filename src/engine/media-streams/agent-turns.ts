// When a scripted caller takes its turn again with a `<Connect>` agent that does not answer.

/**
 * An agent (stream or relay app) that plays nothing this long after the caller's words or keys counts as
 * listening again, so a script waiting for the agent to stop talking goes on instead of waiting for ever.
 */
export const quietAgentMs = 5_000;
