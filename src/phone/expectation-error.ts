// The error a phone expectation fails with: what was expected, how long it waited, and the call as it went.

export class PhoneExpectationError extends Error {
  constructor(message: string, context: { heard?: string[]; timeline?: string[] } = {}) {
    const lines = [message];
    if (context.heard)
      lines.push(
        "heard:",
        ...(context.heard.length > 0 ? context.heard : ["(nothing)"]).map((l) => `  ${l}`),
      );
    if (context.timeline) lines.push("timeline:", ...context.timeline.map((l) => `  ${l}`));
    super(lines.join("\n"));
    this.name = "PhoneExpectationError";
  }
}
