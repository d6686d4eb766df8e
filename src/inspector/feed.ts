// The inspector's live feed: server-sent events built from the store's committed changes, the webhook log and the request journal.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TableChange } from "../domain/table.js";
import type { SandboxCore } from "../sandbox.js";

/** How often the feed looks for new webhook attempts and requests (neither lives in the store). */
const logCheckMs = 250;
/** A browser that stops reading is dropped once this much is waiting for it. */
const backlogLimitBytes = 1024 * 1024;

interface Pending {
  tables: Set<string>;
  sids: Set<string>;
}

/** Ids a change names: the row's own sid and the call or message it belongs to. */
function sidsOf(change: TableChange): string[] {
  if (change.op === "delete") return [change.id];
  const row = change.row as Record<string, unknown>;
  return ["sid", "call_sid", "parent_call_sid", "message_sid"]
    .map((key) => row[key])
    .filter((value): value is string => typeof value === "string");
}

export interface ChangeFeed {
  /** Streams events to one browser until it goes away. */
  attach(req: IncomingMessage, res: ServerResponse): void;
  /** How many browsers are listening. */
  readonly clients: number;
  close(): void;
}

export function createChangeFeed(sandbox: SandboxCore): ChangeFeed {
  const clients = new Set<ServerResponse>();
  let pending: Pending | null = null;
  let stopWatching: (() => void) | null = null;

  const send = (event: string, data: unknown) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of clients) {
      if (res.writableLength > backlogLimitBytes) {
        clients.delete(res);
        res.destroy();
      } else res.write(frame);
    }
  };

  // One event per burst: a transaction, or the many changes one clock step makes, arrive together.
  const flush = () => {
    if (!pending) return;
    const { tables, sids } = pending;
    pending = null;
    send("change", { tables: [...tables], sids: [...sids].slice(0, 200) });
  };
  const onChange = (batch: TableChange[]) => {
    if (!pending) {
      pending = { tables: new Set(), sids: new Set() };
      setImmediate(flush);
    }
    for (const change of batch) {
      pending.tables.add(change.table);
      for (const sid of sidsOf(change)) pending.sids.add(sid);
    }
  };

  // The log holds at most logLimit attempts (10,000 by default): counting them is a fraction of a millisecond.
  const logState = () => {
    const { webhooks } = sandbox;
    const stats = webhooks.stats();
    return {
      webhooks: `${webhooks.evicted}/${webhooks.deliveries.length}/${stats.queued}/${stats.inFlight}/${stats.waitingRetry}`,
      requests: sandbox.requests.total(),
    };
  };

  // A call's timeline lives beside the store (turns of a voice agent, stream events): its entries are told apart.
  let noted: Set<string> | null = null;
  const flushNoted = () => {
    if (!noted) return;
    const sids = [...noted].slice(0, 200);
    noted = null;
    send("timeline", { sids });
  };
  const onNote = (callSid: string) => {
    if (!noted) {
      noted = new Set();
      setImmediate(flushNoted);
    }
    noted.add(callSid);
  };

  const watch = () => {
    const unsubscribe = sandbox.store.subscribe(onChange);
    const unnoted = sandbox.calls.onTimeline(onNote);
    const unreplaced = sandbox.onStateReplaced(() => send("reset", {}));
    let last = logState();
    const timer = setInterval(() => {
      const now = logState();
      if (now.webhooks !== last.webhooks) send("webhooks", {});
      if (now.requests !== last.requests) send("requests", { total: now.requests });
      last = now;
    }, logCheckMs);
    timer.unref();
    return () => {
      unsubscribe();
      unnoted();
      unreplaced();
      clearInterval(timer);
    };
  };

  const detach = (res: ServerResponse) => {
    clients.delete(res);
    if (clients.size === 0 && stopWatching) {
      stopWatching();
      stopWatching = null;
    }
  };

  return {
    attach(req, res) {
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      res.write(`retry: 1000\nevent: ready\ndata: {}\n\n`);
      clients.add(res);
      stopWatching ??= watch();
      req.on("close", () => detach(res));
    },
    get clients() {
      return clients.size;
    },
    close() {
      for (const res of clients) res.end();
      clients.clear();
      stopWatching?.();
      stopWatching = null;
    },
  };
}
