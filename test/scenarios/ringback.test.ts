// `heard` entries for the ringback a caller hears while a <Dial> rings, with the Dial's ringTone.
import { describe, expect, it } from "vitest";
import { createSandbox, parseScenario } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";
import { expectVerdict, onlyFailure } from "./play.js";

const dialling = (dialAttrs: string, party: string, heard: string) => `
name: ringback
numbers:
  - number: "+14155550100"
    voice: <Response><Dial ${dialAttrs} timeout="10"><Number url="/whisper">+14155550199</Number></Dial><Say>Done</Say></Response>
handlers:
  /whisper: <Response><Say>Press nothing, just listen</Say></Response>
parties:
  "+14155550199": ${party}
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
  heard:
${heard}`;

describe("ringback in heard", () => {
  // <Number url>: "the current caller will continue to hear ringing while the TwiML document executes on
  // the other end" (<Number> page): one ringback, from the leg ringing on through its whisper.
  it("one ringback for the Dial, before what the caller hears after it; the whisper only on the leg", async () => {
    await expectVerdict(
      dialling(
        "",
        "{ name: callee, hangupAfter: 3s }",
        `    c1: { exactly: [{ ringback: true, tone: absent }, { say: Done }] }
    callee: { exactly: [{ say: "Press nothing, just listen" }] }
`,
      ),
      "passed",
    );
  });

  it("ringTone names the tone", async () => {
    await expectVerdict(
      dialling('ringTone="de"', "{ outcome: no-answer }", "    c1: [{ ringback: true, tone: de }]\n"),
      "passed",
    );
    const failure = await onlyFailure(
      dialling('ringTone="de"', "{ outcome: no-answer }", "    c1: [{ ringback: true, tone: uk }]\n"),
    );
    expect(failure.message).toContain('call c1 did not hear {"ringback":true,"tone":"uk"}');
  });

  it("a leg that fails before it rings gives no ringback", async () => {
    const failure = await onlyFailure(
      dialling("", "{ outcome: failed, ringAfter: 5s, answerAfter: 0 }", "    c1: [{ ringback: true }]\n"),
    );
    expect(failure.message).toContain('call c1 did not hear {"ringback":true}');
  });

  it("a list that names no ringback sees none: what was heard reads as before", async () => {
    await expectVerdict(
      dialling("", "{ outcome: no-answer }", "    c1: { exactly: [{ say: Done }] }\n"),
      "passed",
    );
  });

  it("tone without ringback is a load error", () => {
    expect(() =>
      parseScenario(
        dialling("", "{ outcome: no-answer }", "    c1: [{ say: Done, tone: uk }]\n").slice(1),
        "s.yaml",
      ),
    ).toThrow("name exactly one of say, play, digits, beep or ringback (tone goes with ringback)");
  });
});

describe("an invalid ringTone", () => {
  // Warning 13220, "Dial: Invalid ringTone value" (error reference): the Dial goes on, with no tone named.
  it("is warning 13220 in the call's alerts, and the Dial still rings its number", async () => {
    const sandbox = createSandbox();
    sandbox.calls.setParty("+14155550199", { outcome: "no-answer" });
    const twiml =
      '<Response><Dial ringTone="xx" timeout="5"><Number>+14155550199</Number></Dial><Say>Done</Say></Response>';
    const created = await sandbox.fetch(
      `${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`,
      {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          To: "+14155550123",
          From: fixtures.acme.mainNumber,
          Twiml: twiml,
        }).toString(),
      },
    );
    expect(created.status).toBe(201);
    const call = (await created.json()) as { sid: string };
    await sandbox.clock.runUntilIdle();
    expect(sandbox.calls.alerts(call.sid)).toEqual([
      expect.objectContaining({ code: 13220, level: "warning", message: expect.stringContaining('"xx"') }),
    ]);
    const kinds = sandbox.calls.timeline(call.sid).map((e) => e.kind);
    expect(kinds).not.toContain("dial.ring-tone");
    expect(sandbox.calls.heard(call.sid).map((h) => h.text)).toEqual(["Done"]);
  });
});
