// What the phone API asks of a sandbox, through its public surfaces: the clock, parties, calls, messages, timelines.
import type { PartyBehaviourInput } from "../engine/calls/party-behaviour.js";
import type { CallView, TimelineView } from "./timeline.js";
import type { PhoneTransport } from "./transport.js";

export interface MessageView {
  sid: string;
  direction: string;
  from: string;
  to: string;
  body: string;
  status: string;
}

interface JsonApiList<A> {
  data: { id: string; attributes: A }[];
}
interface PhoneCallAttributes {
  account_id: string;
  status: string;
  from: string;
  to: string;
  direction: string;
}

const toCallView = (r: { id: string; attributes: PhoneCallAttributes }): CallView => ({
  sid: r.id,
  status: r.attributes.status,
  from: r.attributes.from,
  to: r.attributes.to,
  direction: r.attributes.direction,
  accountSid: r.attributes.account_id,
});

export interface SandboxSurface {
  /** Moves the virtual clock forward, running what falls due (markup fetches and callbacks included). */
  advance(ms: number): Promise<void>;
  /** Sandbox time (ms since the epoch). */
  now(): Promise<number>;
  setParty(number: string, behaviour: PartyBehaviourInput): Promise<void>;
  callsTo(number: string): Promise<CallView[]>;
  call(sid: string): Promise<CallView>;
  timeline(sid: string): Promise<TimelineView>;
  /** Rings one of the sandbox's numbers from `from`; the caller does only what it is told. */
  ring(from: string, to: string): Promise<CallView>;
  input(sid: string, input: { press: string } | { say: string }): Promise<void>;
  hangup(call: CallView): Promise<void>;
  /** Messages sent to a number (by the sandbox's accounts), oldest first. */
  messagesTo(number: string): Promise<MessageView[]>;
  /** An SMS from a phone arrives at one of the sandbox's numbers. */
  receiveSms(from: string, to: string, body: string): Promise<void>;
}

/** Longest a phone-API caller stays on the line by itself: Twilio's longest call (4 hours). */
const callerPatienceMs = 4 * 3600 * 1000;

export function createSandboxSurface(
  transport: PhoneTransport,
  options: { setParty?: ((number: string, behaviour: PartyBehaviourInput) => void) | undefined } = {},
): SandboxSurface {
  const q = encodeURIComponent;
  return {
    async advance(ms) {
      await transport.request("POST", "/__sandbox/clock/advance", { auth: "admin", json: { by: ms } });
    },
    async now() {
      const clock = await transport.request<{ now: string }>("GET", "/__sandbox/clock", { auth: "admin" });
      return Date.parse(clock.now);
    },
    async setParty(number, behaviour) {
      // In-process the party is set at once, so a call the app places right after already finds it.
      if (options.setParty) return options.setParty(number, behaviour);
      if (behaviour.respond)
        throw new TypeError(
          "respond (a caller that is a function) works only in-process: a function does not travel over HTTP",
        );
      await transport.request("PUT", `/__sandbox/numbers/${q(number)}/behaviour`, {
        auth: "admin",
        json: behaviour,
      });
    },
    async callsTo(number) {
      const list = await transport.request<JsonApiList<PhoneCallAttributes>>(
        "GET",
        `/carrier/v1/phone_calls?filter[to]=${q(number)}`,
        { auth: "carrier" },
      );
      return list.data.map(toCallView);
    },
    async call(sid) {
      const one = await transport.request<{ data: { id: string; attributes: PhoneCallAttributes } }>(
        "GET",
        `/carrier/v1/phone_calls/${q(sid)}`,
        { auth: "carrier" },
      );
      return toCallView(one.data);
    },
    timeline: (sid) =>
      transport.request<TimelineView>("GET", `/__sandbox/calls/${q(sid)}/timeline`, { auth: "admin" }),
    async ring(from, to) {
      const call = await transport.request<{
        sid: string;
        account_sid: string;
        status: string;
        direction: string;
      }>(
        "POST",
        "/__sandbox/calls/inbound",
        // A caller with a script (even an empty one) does only what it is told: no default voicemail.
        { auth: "admin", json: { from, to, caller: { hangupAfter: callerPatienceMs } } },
      );
      return {
        sid: call.sid,
        accountSid: call.account_sid,
        status: call.status,
        direction: call.direction,
        from,
        to,
      };
    },
    async input(sid, input) {
      await transport.request("POST", `/__sandbox/calls/${q(sid)}/input`, { auth: "admin", json: input });
    },
    async hangup(call) {
      // Hung up through the account API, as the call's owner can: the account's token from the admin API.
      const owner = await transport.request<{ auth_token: string }>(
        "GET",
        `/__sandbox/accounts/${q(call.accountSid)}/credentials`,
        { auth: "admin" },
      );
      await transport.request("POST", `/2010-04-01/Accounts/${call.accountSid}/Calls/${call.sid}.json`, {
        auth: { account: call.accountSid, token: owner.auth_token },
        form: { Status: "completed" },
      });
    },
    async messagesTo(number) {
      const list = await transport.request<JsonApiList<Omit<MessageView, "sid">>>(
        "GET",
        `/carrier/v1/messages?filter[to]=${q(number)}`,
        { auth: "carrier" },
      );
      return list.data.map((m) => ({ sid: m.id, ...m.attributes })).filter((m) => m.direction !== "inbound");
    },
    async receiveSms(from, to, body) {
      await transport.request("POST", "/__sandbox/messages/inbound", {
        auth: "admin",
        json: { from, to, body },
      });
    },
  };
}
