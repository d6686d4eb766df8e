// A browser phone's WebSocket: the page holds a client name or a number; calls to it ring the page, which answers, declines or hangs up.
import type { WebSocket } from "ws";
import { type Call, isTerminalCallStatus } from "../domain/call.js";
import { errors } from "../domain/errors.js";
import type { SandboxCore } from "../sandbox.js";
import { inspectorApiPath } from "./paths.js";

const phonePath = new RegExp(`^${inspectorApiPath}/phones/([^/]+)$`);
/** A Voice SDK client's address or an E.164 number, as a call's To names them. */
const addressPattern = /^(client:[A-Za-z0-9_.@-]{1,121}|\+[1-9][0-9]{6,14})$/;

/** Close code for an address another tab already holds. */
export const heldElsewhereCode = 4409;

/**
 * The address `path` asks to hold: 400 for one that is neither a client nor a number, or a number the sandbox
 * answers itself (one of its incoming numbers); 409 for one another page holds now.
 */
export function phoneAddressOf(sandbox: SandboxCore, path: string): string | null {
  const raw = phonePath.exec(path)?.[1];
  if (raw === undefined) return null;
  let address = "";
  try {
    address = decodeURIComponent(raw);
  } catch {
    address = raw;
  }
  if (!addressPattern.test(address)) {
    throw errors.invalidParameter(
      "address",
      `${address} is not a phone to hold: use client:<identity> (letters, digits, _ . @ -) or an E.164 number such as +14155550123, URL-encoded`,
    );
  }
  if (sandbox.store.phoneNumbers.findOne("number", address)) {
    throw errors.invalidParameter(
      "address",
      `${address} is one of the sandbox's own numbers, which its Voice URL answers; hold another number or a client: name`,
    );
  }
  if (sandbox.calls.phones.held(address)) {
    throw errors.conflict(
      "address",
      `${address} is held by another browser phone: close that tab, or hold another`,
    );
  }
  return address;
}

interface PhoneCommand {
  type: "answer" | "decline" | "hangup";
  callSid: string;
}

function parseCommand(data: unknown): PhoneCommand | null {
  try {
    const message = JSON.parse(String(data)) as Partial<PhoneCommand>;
    const known = message.type === "answer" || message.type === "decline" || message.type === "hangup";
    return known && typeof message.callSid === "string" ? (message as PhoneCommand) : null;
  } catch {
    return null;
  }
}

function hangUp(sandbox: SandboxCore, callSid: string): boolean {
  try {
    sandbox.calls.hangup(callSid);
    return true;
  } catch {
    return false;
  }
}

/** Holds `address` while the socket is open; tells the page of each call ringing it and of each one's end. */
export function attachPhone(sandbox: SandboxCore, ws: WebSocket, address: string): void {
  const send = (message: Record<string, unknown>) => ws.send(JSON.stringify(message));
  /** The calls that rang this phone and have not ended. */
  const calls = new Set<string>();
  const release = sandbox.calls.phones.hold(address, {
    ring(call: Call) {
      calls.add(call.sid);
      send({
        type: "ring",
        callSid: call.sid,
        from: call.from,
        to: call.to,
        callerName: call.caller_name ?? null,
      });
    },
  });
  if (!release) {
    ws.close(heldElsewhereCode, `${address} is held by another browser phone`);
    return;
  }
  const unsubscribe = sandbox.store.subscribe((batch) => {
    for (const change of batch) {
      if (change.table !== "calls" || change.op === "delete") continue;
      const row = change.row as Call;
      if (!calls.has(row.sid)) continue;
      if (isTerminalCallStatus(row.status)) {
        calls.delete(row.sid);
        send({ type: "ended", callSid: row.sid, status: row.status });
      } else if (row.status === "in-progress") send({ type: "answered", callSid: row.sid });
    }
  });
  send({ type: "holding", address });
  ws.on("message", (data) => {
    const command = parseCommand(data);
    if (!command) {
      send({ type: "error", message: 'send {"type": "answer" | "decline" | "hangup", "callSid": "CA..."}' });
      return;
    }
    const { type, callSid } = command;
    if (!calls.has(callSid)) {
      send({ type: "error", callSid, message: `${callSid} is not a call ringing or on this phone` });
      return;
    }
    const done =
      type === "answer"
        ? sandbox.calls.phones.answer(callSid)
        : type === "decline"
          ? sandbox.calls.phones.decline(callSid)
          : hangUp(sandbox, callSid);
    if (!done)
      send({ type: "error", callSid, message: `${callSid} no longer rings: it was answered or ended` });
  });
  ws.on("close", () => {
    release();
    unsubscribe();
  });
}
