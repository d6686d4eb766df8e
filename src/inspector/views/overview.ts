// What every inspector page needs at hand: accounts, the numbers that take calls and messages, the clock.
import type { SandboxCore } from "../../sandbox.js";

export function describeSandbox(sandbox: SandboxCore) {
  const { store, clock } = sandbox;
  const accounts = store.accounts.all();
  return {
    version: sandbox.settings.version,
    clock: { now: clock.now(), mode: clock.mode, pending_timers: clock.pending() },
    accounts: accounts.map((a) => ({ sid: a.sid, name: a.name, status: a.status })),
    // Numbers an account holds: the ones the phone can ring or text.
    numbers: accounts.flatMap((a) =>
      store.phoneNumbers.where("account", a.sid).map((n) => ({
        sid: n.sid,
        number: n.number,
        account_sid: a.sid,
        friendly_name: n.friendly_name,
        voice_url: n.voice_url,
        sms_url: n.sms_url,
      })),
    ),
    counts: { calls: store.calls.size, messages: store.messages.size, recordings: store.recordings.size },
  };
}
