// A live call's audio as its party hears and speaks it (the browser phone's source): ringback, hold music, live speech.
import { describe, expect, it } from "vitest";
import { useEngine } from "./harness.js";

const silence = (frame: Uint8Array) => frame.every((b) => b === 0xff || b === 0x7f);

describe("a live call's audio", () => {
  const h = useEngine();
  const sandbox = () => h.door.sandbox;
  const heardNow = (sid: string) => sandbox().calls.audio.heard(sid, sandbox().clock.now());

  it("is ringback while its Dial rings: two seconds of tone, four of silence", async () => {
    await h.routeMainNumber("/voice");
    sandbox().calls.setParty("+14155550111", { ringAfter: 0, answerAfter: "20s" });
    h.app.on("/voice", "<Response><Dial><Number>+14155550111</Number></Dial></Response>");
    const sid = await h.ringMainNumber();
    // The ringback cadence is timed from the clock's zero: step to where it is on, then off.
    await sandbox().clock.advance(500);
    const on = sandbox().clock.now() + 6000 - (sandbox().clock.now() % 6000);
    await sandbox().clock.advance(on - sandbox().clock.now() + 100);
    expect(silence(heardNow(sid)!)).toBe(false);
    await sandbox().clock.advance(3000);
    expect(silence(heardNow(sid)!)).toBe(true);
  });

  it("is music while the call waits in a queue", async () => {
    await h.routeMainNumber("/voice");
    h.app.on("/voice", '<Response><Enqueue waitUrl="">support</Enqueue></Response>');
    const sid = await h.ringMainNumber();
    await sandbox().clock.advance(2000);
    expect(sandbox().store.queueMembers.get(sid)).toBeDefined();
    expect(silence(heardNow(sid)!)).toBe(false);
  });

  it("takes the party's live speech while the call is live, and neither hears nor takes any once it ends", async () => {
    await h.routeMainNumber("/voice");
    h.app.on("/voice", '<Response><Pause length="30"/></Response>');
    const sid = await h.ringMainNumber();
    await sandbox().clock.advance(1000);
    const at = sandbox().clock.now();
    expect(sandbox().calls.audio.speak(sid, new Uint8Array(160).fill(0x30))).toBe(true);
    expect(sandbox().calls.audio.live(sid)).toBe(true);
    sandbox().calls.hangup(sid);
    await sandbox().clock.advance(100);
    expect(sandbox().calls.audio.live(sid)).toBe(false);
    expect(sandbox().calls.audio.heard(sid, at)).toBeUndefined();
    expect(sandbox().calls.audio.speak(sid, new Uint8Array(160))).toBe(false);
  });

  it("in a conference, carries one participant's live speech to the others, and not once it is muted", async () => {
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      '<Response><Dial><Conference beep="false" waitUrl="">room</Conference></Dial></Response>',
    );
    const a = await h.ringMainNumber();
    const b = await h.ringMainNumber();
    await sandbox().clock.advance(2000);
    const conference = sandbox().store.participants.findOne("call", a)!.conference_sid;
    expect(sandbox().store.conferences.get(conference)!.status).toBe("in-progress");
    const at = sandbox().clock.now();
    sandbox().calls.audio.speak(a, new Uint8Array(160).fill(0x30));
    expect(silence(sandbox().calls.audio.heard(b, at)!)).toBe(false);
    expect(silence(sandbox().calls.audio.heard(a, at)!)).toBe(true);
    // Muted, a's voice no longer reaches b.
    sandbox().calls.conferences.update(sandbox().store.participants.findOne("call", a)!, { muted: true });
    expect(silence(sandbox().calls.audio.heard(b, at)!)).toBe(true);
  });
});
