// Voice agents as real WebSocket servers in the test process: a media-stream agent that hears turns by their silence, and a relay agent.
import { type StreamApp, type StreamMessage, startStreamApp } from "./stream-app.js";

/** 20 ms of mu-law silence, as the sandbox sends it when nobody speaks. */
export const silenceFrame = Buffer.alloc(160, 0xff).toString("base64");
/** 20 ms of a loud mu-law pattern: what the agents say. */
export const voiceFrame = Buffer.alloc(160, 0x10).toString("base64");

/** Real milliseconds from 0 to `maxMs`, different every call: how long a model takes to answer. */
export const randomThink = (maxMs: number) => () => Math.floor(Math.random() * (maxMs + 1));

/** Waits `ms` of real time (0: the answer still comes after an await, as a real agent's does). */
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface StreamAgentOptions {
  /** Silence frames after the caller's words that end their turn (the agent's turn detection). Default 15 (300 ms). */
  endOfTurnFrames?: number;
  /** Real ms the agent thinks before it answers a turn. Default 0. */
  think?: () => number;
  /** How long each answer plays: 20 ms frames of voice. Default 20 frames (400 ms). */
  answerFrames?: number;
  /** Silence frames sent before the voice of each answer (a lead-in: the agent's latency in sandbox time). */
  leadInFrames?: number;
  /** Caller frames of voice heard while the agent talks before it sends `clear` (barge-in); unset: it talks on. */
  clearAfterFrames?: number;
  /** Answer the stream's start with a greeting of this many frames. */
  greetingFrames?: number;
  /** The agent streams each answer in parts of this many frames, `streamGapMs` of real time apart. */
  streamParts?: number;
  streamGapMs?: number;
}

export interface StreamAgent extends StreamApp {
  /** How many of the caller's turns the agent heard end, and answered. */
  readonly heard: number;
  readonly answered: number;
}

/**
 * A media-stream agent as many are built: it listens to the inbound frames, takes the caller's turn as
 * ended after `endOfTurnFrames` of silence, thinks (real time), then sends its answer's audio and a mark.
 */
export async function startStreamAgent(options: StreamAgentOptions = {}): Promise<StreamAgent> {
  const endOfTurn = options.endOfTurnFrames ?? 15;
  const think = options.think ?? (() => 0);
  const answerFrames = options.answerFrames ?? 20;
  let heard = 0;
  let answered = 0;
  const states = new WeakMap<object, AgentState>();
  const app = await startStreamApp((message: StreamMessage, connection) => {
    const streamSid = message.streamSid as string;
    let state = states.get(connection);
    if (!state) {
      state = { speaking: false, silent: 0, voice: 0, marks: 0, talking: false };
      states.set(connection, state);
    }
    const send = (frames: string[], mark: string) => {
      for (const payload of frames) connection.send({ event: "media", streamSid, media: { payload } });
      connection.send({ event: "mark", streamSid, mark: { name: mark } });
    };
    const answer = async (frames: string[], mark: string) => {
      state!.talking = true;
      const parts = options.streamParts ?? 1;
      const size = Math.ceil(frames.length / parts);
      for (let i = 0; i < parts; i++) {
        const part = frames.slice(i * size, (i + 1) * size);
        if (i === parts - 1) send(part, mark);
        else {
          for (const payload of part) connection.send({ event: "media", streamSid, media: { payload } });
          await later(options.streamGapMs ?? 0);
        }
      }
    };
    if (message.event === "start" && options.greetingFrames)
      void answer(Array(options.greetingFrames).fill(voiceFrame), "greeting");
    if (message.event === "mark") state.talking = false;
    if (message.event !== "media") return;
    const loud = message.media.payload !== silenceFrame;
    if (loud) {
      state.speaking = true;
      state.silent = 0;
      state.voice++;
      if (
        state.talking &&
        options.clearAfterFrames !== undefined &&
        state.voice === options.clearAfterFrames
      ) {
        connection.send({ event: "clear", streamSid });
        state.talking = false;
      }
      return;
    }
    state.voice = 0;
    if (!state.speaking || ++state.silent < endOfTurn) return;
    state.speaking = false;
    heard++;
    const n = ++state.marks;
    const frames = [
      ...Array(options.leadInFrames ?? 0).fill(silenceFrame),
      ...Array(answerFrames).fill(voiceFrame),
    ];
    void later(think()).then(() => {
      if (connection.socket.readyState !== connection.socket.OPEN) return;
      answered++;
      return answer(frames, `answer-${n}`);
    });
  });
  return Object.defineProperties(app as StreamAgent, {
    heard: { get: () => heard },
    answered: { get: () => answered },
  });
}

interface AgentState {
  speaking: boolean;
  silent: number;
  voice: number;
  marks: number;
  talking: boolean;
}

export interface RelayAgentOptions {
  /** Real ms the agent thinks before each answer. Default 0. */
  think?: () => number;
  /** Real ms between the answer's text tokens. Default 0. */
  tokenGapMs?: number;
  /** What it answers a prompt with (default "You said <words>"). */
  answer?: (prompt: string) => string;
}

/** A ConversationRelay agent: answers every prompt and key with text tokens after thinking; "bye" ends the session. */
export async function startRelayAgent(options: RelayAgentOptions = {}): Promise<StreamApp> {
  const think = options.think ?? (() => 0);
  return startStreamApp((message, connection) => {
    const say = async (text: string) => {
      await later(think());
      const words = text.split(" ");
      for (let i = 0; i < words.length; i++) {
        if (connection.socket.readyState !== connection.socket.OPEN) return;
        connection.send({
          type: "text",
          token: i === 0 ? words[i] : ` ${words[i]}`,
          last: i === words.length - 1,
        });
        if (options.tokenGapMs) await later(options.tokenGapMs);
      }
    };
    if (message.type === "prompt") {
      if (message.voicePrompt === "bye") connection.send({ type: "end", handoffData: "{}" });
      else void say(options.answer?.(message.voicePrompt) ?? `You said ${message.voicePrompt}`);
    }
    if (message.type === "dtmf") void say(`You pressed ${message.digit}`);
  });
}
