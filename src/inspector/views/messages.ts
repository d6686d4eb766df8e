// The inspector's messages as conversations: one thread per pair of numbers, like a phone's messaging app.
import type { Message } from "../../domain/message.js";
import { chooseIndex, walkPage, walkTable } from "../../http/list-walk.js";
import type { SandboxCore } from "../../sandbox.js";

/** How many of the latest messages the threads are built from: a long-running sandbox stays quick to show. */
export const messageWindow = 2000;

/** The thread a message belongs to: its two numbers, in a fixed order. */
export const threadOf = (m: Pick<Message, "from" | "to">) => [m.from, m.to].sort().join(" ");

export function listConversations(
  sandbox: SandboxCore,
  filter: { account?: string | undefined; thread?: string | undefined },
) {
  const { messages } = sandbox.store;
  const choice = chooseIndex({ account: ["account"] }, () => filter.account);
  const recent = walkPage(walkTable(messages, choice, true), { skip: 0, take: messageWindow }).rows;
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
    conversations: [...threads.values()],
    thread: selected ?? null,
    // The chosen thread, oldest first as a messaging app shows it.
    messages: selected ? recent.filter((m) => threadOf(m) === selected).reverse() : [],
  };
}
