// The inspector's messages as conversations: one thread per pair of numbers, like a phone's messaging app.
import type { Message } from "../../domain/message.js";
import { chooseIndex, walkPage, walkTable } from "../../http/list-walk.js";
import type { SandboxCore } from "../../sandbox.js";
import { type ClearMark, markOf, searched, shownAfter, sinceTime } from "./search.js";

/** How many of the latest messages the threads are built from: a long-running sandbox stays quick to show. */
export const messageWindow = 2000;

/** The thread a message belongs to: its two numbers, in a fixed order. */
export const threadOf = (m: Pick<Message, "from" | "to">) => [m.from, m.to].sort().join(" ");

export interface ConversationFilter {
  account?: string | undefined;
  thread?: string | undefined;
  status?: string | undefined;
  /** A message sid, or a number the messages are from or to. */
  q?: string | undefined;
  /** Hides the messages a "clear" saw. */
  mark?: ClearMark | undefined;
}

const messageSid = /^(SM|MM)[0-9a-f]{32}$/;
const messageIndexes = {
  accountStatus: ["account", "status"],
  account: ["account"],
  status: ["status"],
} as const;

export function listConversations(sandbox: SandboxCore, filter: ConversationFilter) {
  const { messages } = sandbox.store;
  const { mark } = filter;
  const found = searched(messages, filter.q, messageSid);
  const choice = found
    ? { covered: new Set<string>() }
    : chooseIndex(messageIndexes, (name) => filter[name as "account" | "status"]);
  const tests = [
    filter.account && !choice.covered.has("account")
      ? (m: Message) => m.account_sid === filter.account
      : undefined,
    filter.status && !choice.covered.has("status") ? (m: Message) => m.status === filter.status : undefined,
    mark ? shownAfter(mark) : undefined,
  ].filter((test) => test !== undefined);
  const recent = walkPage(sinceTime(found ?? walkTable(messages, choice, true), mark?.at), {
    skip: 0,
    take: messageWindow,
    matches: tests.length === 0 ? undefined : (m) => tests.every((test) => test(m)),
  }).rows;
  const threads = new Map<
    string,
    { thread: string; numbers: string[]; account_sid: string; count: number; last: Message }
  >();
  for (const message of recent) {
    const thread = threadOf(message);
    const known = threads.get(thread);
    if (known) known.count += 1;
    else
      threads.set(thread, {
        thread,
        numbers: thread.split(" "),
        account_sid: message.account_sid,
        count: 1,
        last: message,
      });
  }
  const selected = filter.thread ?? threads.keys().next().value;
  return {
    mark: markOf(messages),
    conversations: [...threads.values()],
    thread: selected ?? null,
    // The chosen thread, oldest first as a messaging app shows it.
    messages: selected ? recent.filter((m) => threadOf(m) === selected).reverse() : [],
  };
}
