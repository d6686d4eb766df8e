// ConversationRelay's attributes and nested <Language>s: voices and providers by language, preemptible, interruptible and reported input, through both doors.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { useStreamWorld } from "../support/stream-world.js";

const attrs = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${value}"`)
    .join("");

/** <Connect><ConversationRelay url ...attributes>children</ConversationRelay></Connect> */
const relay = (url: string, attributes: Record<string, string> = {}, children = "") =>
  `<Response><Connect><ConversationRelay url="${url}"${attrs(attributes)}>${children}</ConversationRelay></Connect></Response>`;

for (const doorName of doorNames) {
  describe(`ConversationRelay attributes through the ${doorName} door`, () => {
    // The apps here answer at once or not at all: a turn they leave unanswered waits a second, not ten.
    const door = useDoor(doorName, { agentTurnTimeout: "1s" });
    const w = useStreamWorld(door);
    const sandbox = () => door.sandbox;
    const entries = (sid: string, kind: string) =>
      sandbox()
        .calls.timeline(sid)
        .filter((e) => e.kind === kind)
        .map((e) => e.detail);
    const heard = (sid: string) =>
      sandbox()
        .calls.heard(sid)
        .map((h) => ({ text: h.text, voice: h.voice, language: h.language }));

    it("providers, voice, model and hints are recorded; <Language> settings apply once the app switches language or a token names one", async () => {
      sandbox().calls.setParty("+14155550123", {
        steps: [{ say: "bonjour" }, { say: "merci" }, { at: "30s", hangup: true }],
      });
      const app = await w.app((message, connection) => {
        if (message.type !== "prompt") return;
        if (message.voicePrompt === "bonjour") {
          connection.send({ type: "language", ttsLanguage: "fr-FR", transcriptionLanguage: "fr-FR" });
          connection.send({ type: "text", token: "Bonjour", last: true });
        } else connection.send({ type: "text", token: "Thank you", lang: "en-US", last: true });
      });
      const call = await w.place(
        relay(
          app.url(),
          {
            welcomeGreeting: "Hello",
            ttsProvider: "Google",
            voice: "en-US-Journey-D",
            transcriptionProvider: "Google",
            speechModel: "telephony",
            hints: "Acme, billing",
          },
          '<Language code="fr-FR" ttsProvider="ElevenLabs" voice="french-voice" transcriptionProvider="Deepgram" speechModel="nova-2-general"/>',
        ),
      );
      await w.run();

      expect(entries(call.sid, "relay.started")[0]).toMatchObject({
        ttsLanguage: "en-US",
        ttsProvider: "Google",
        voice: "en-US-Journey-D",
        transcriptionProvider: "Google",
        speechModel: "telephony",
        hints: ["Acme", "billing"],
        languages: ["fr-FR"],
      });
      expect(entries(call.sid, "relay.language")).toEqual([
        {
          ttsLanguage: "fr-FR",
          transcriptionLanguage: "fr-FR",
          ttsProvider: "ElevenLabs",
          voice: "french-voice",
          transcriptionProvider: "Deepgram",
          speechModel: "nova-2-general",
        },
      ]);
      expect(heard(call.sid)).toEqual([
        { text: "Hello", voice: "en-US-Journey-D", language: "en-US" },
        { text: "Bonjour", voice: "french-voice", language: "fr-FR" },
        // A token's lang speaks that utterance in it; the session stays French.
        { text: "Thank you", voice: "en-US-Journey-D", language: "en-US" },
      ]);
      expect(app.messages("prompt").map((m) => m.lang)).toEqual(["en-US", "fr-FR"]);
    });

    it("without providers, Twilio's defaults: ElevenLabs and its default voice, Deepgram nova-3-general", async () => {
      sandbox().calls.setParty("+14155550123", { steps: [{ at: "1s", hangup: true }] });
      const app = await w.app();
      const call = await w.place(relay(app.url()));
      await w.run();
      expect(entries(call.sid, "relay.started")[0]).toMatchObject({
        ttsProvider: "ElevenLabs",
        voice: "UgBBYS2sOqTuMpoF3BR0",
        transcriptionProvider: "Deepgram",
        speechModel: "nova-3-general",
        hints: [],
      });
    });

    it("preemptible: the app's next utterance cuts a preemptible one; without it, the next waits its turn", async () => {
      const filler = "Please hold on while I look that up for you in our records";
      const play = async (preemptible: boolean) => {
        sandbox().calls.setParty("+14155550123", {
          steps: [
            { at: "1s", press: "1" },
            { at: "20s", hangup: true },
          ],
        });
        const app = await w.app((message, connection) => {
          if (message.type === "setup")
            connection.send({ type: "text", token: filler, last: true, preemptible });
          if (message.type === "dtmf") connection.send({ type: "text", token: "Found it", last: true });
        });
        // Keys neither cut the filler nor go unreported, so the answer comes while it plays.
        const call = await w.place(
          relay(app.url(), {
            dtmfDetection: "true",
            interruptible: "none",
            reportInputDuringAgentSpeech: "dtmf",
          }),
        );
        await w.run();
        const said = sandbox().calls.heard(call.sid);
        return {
          answerAt: said[1]!.at - said[0]!.at,
          preempted: entries(call.sid, "relay.preempted"),
          interrupts: app.messages("interrupt"),
        };
      };
      const cut = await play(true);
      expect(cut).toEqual({
        answerAt: 1000,
        preempted: [expect.objectContaining({ ms: 1000 })],
        interrupts: [],
      });
      const queued = await play(false);
      expect(queued.preempted).toEqual([]);
      expect(queued.answerAt).toBeGreaterThan(1000);
    });

    /** The agent reads a long sentence from the start; the caller acts by `steps` over it. */
    const talkOver = async (steps: object[], attributes: Record<string, string>) => {
      const long = "Our opening hours are nine to five on weekdays and ten to two on Saturdays";
      sandbox().calls.setParty("+14155550123", { steps: [...steps, { at: "20s", hangup: true }] as never });
      const app = await w.app((message, connection) => {
        if (message.type === "setup") connection.send({ type: "text", token: long, last: true });
      });
      const call = await w.place(relay(app.url(), { dtmfDetection: "true", ...attributes }));
      await w.run();
      return { app, ignored: entries(call.sid, "relay.ignored") };
    };
    const talk = { at: "500ms", say: "hello", for: "500ms" };
    const key = { at: "2s", press: "5" };
    const cutAt2s = [expect.objectContaining({ type: "interrupt", durationUntilInterruptMs: 2000 })];

    it("interruptible dtmf: a key cuts the agent, speech does not; speech said over it is not reported by default", async () => {
      const { app, ignored } = await talkOver([talk, key], { interruptible: "dtmf" });
      expect(app.messages("interrupt")).toEqual(cutAt2s);
      expect(app.messages("prompt")).toEqual([]);
      expect(ignored).toEqual([expect.objectContaining({ text: "hello" })]);
      // The key came after the cut: the agent was quiet, so it is reported.
      expect(app.messages("dtmf")).toEqual([{ type: "dtmf", digit: "5" }]);
    });

    it("interruptible speech: a key does not cut the agent (nor is it reported by default); speech does", async () => {
      const { app, ignored } = await talkOver(
        [
          { at: "500ms", press: "5" },
          { at: "2s", say: "stop", for: "500ms" },
        ],
        { interruptible: "speech" },
      );
      expect(app.messages("interrupt")).toEqual(cutAt2s);
      expect(app.messages("dtmf")).toEqual([]);
      expect(ignored).toEqual([expect.objectContaining({ digit: "5" })]);
      expect(app.messages("prompt").map((m) => m.voicePrompt)).toEqual(["stop"]);
    });

    it("interruptible none with reportInputDuringAgentSpeech any: nothing cuts the agent, everything is reported", async () => {
      const { app, ignored } = await talkOver([talk, key], {
        interruptible: "false",
        reportInputDuringAgentSpeech: "any",
      });
      expect(app.messages("interrupt")).toEqual([]);
      expect(app.messages("prompt").map((m) => m.voicePrompt)).toEqual(["hello"]);
      expect(app.messages("dtmf")).toEqual([{ type: "dtmf", digit: "5" }]);
      expect(ignored).toEqual([]);
    });
  });
}
