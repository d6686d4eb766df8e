// A call as the phone API shows it in a failure: what it heard and its timeline, times from the call's start.

export interface CallView {
  sid: string;
  status: string;
  from: string;
  to: string;
  direction: string;
  accountSid: string;
}

export interface HeardView {
  at: string;
  kind: "say" | "play" | "beep" | "digits" | "error-prompt";
  text?: string;
  url?: string;
}

export interface TimelineView {
  timeline: { at: string; kind: string; detail: Record<string, unknown> }[];
  heard: HeardView[];
  alerts: { at: string; code: number; level: string; message: string }[];
}

const offset = (at: string, origin: number) => {
  const ms = Date.parse(at) - origin;
  return `+${(ms / 1000).toFixed(3)}s`;
};

/** What a party heard, one per line: `+1.000s  say "Press 1 for sales"`. */
export function describeHeard(view: TimelineView): string[] {
  const origin = Date.parse(view.timeline[0]?.at ?? view.heard[0]?.at ?? "");
  return view.heard.map((h) => {
    const what = h.kind === "play" ? h.url : h.text;
    return `${offset(h.at, origin)}  ${h.kind}${what === undefined ? "" : ` ${JSON.stringify(what)}`}`;
  });
}

/** The call's timeline, one entry per line, for a failure message. */
export function describeTimeline(view: TimelineView): string[] {
  const origin = Date.parse(view.timeline[0]?.at ?? "");
  return view.timeline.map((e) => {
    const detail = Object.keys(e.detail).length > 0 ? ` ${JSON.stringify(e.detail)}` : "";
    return `${offset(e.at, origin)}  ${e.kind}${detail}`;
  });
}
