// Admin: a call's conversation with its <Connect> app as a two-channel WAV, the caller left and the agent right.
import { codes, errors, SandboxError } from "../../domain/errors.js";
import { defineRoute } from "../route.js";
import { adminPathParams } from "./path-params.js";

/** A call the sandbox knows that kept no conversation: it had no `<Connect>` app, or it is no longer kept. */
const noConversation = (sid: string) =>
  new SandboxError({
    status: 404,
    code: codes.notFound,
    title: "Not Found",
    message: `Call ${sid} has no conversation audio: it had no <Connect> app (media stream or ConversationRelay), or its conversation is no longer kept (the newest 100 calls' are)`,
  });

export const conversationAudioRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/calls/:CallSid/conversation.wav",
    surface: "admin",
    summary:
      "A call's conversation with its <Connect> app as 8 kHz 16-bit WAV: the caller on the left channel (what the app got), the agent on the right (the app's audio, or the relay's speech)",
    auth: { kind: "admin" },
    params: adminPathParams.call,
    contentType: "audio/x-wav",
    async handle({ params, request, services }) {
      const sid = params.CallSid!;
      if (!services.context.store.calls.has(sid)) throw errors.notFound(request.path);
      const body = await services.calls.conversationAudio(sid);
      if (!body) throw noConversation(sid);
      return {
        status: 200,
        headers: {
          "content-type": "audio/x-wav",
          "content-disposition": `attachment; filename="${sid}-conversation.wav"`,
        },
        body,
      };
    },
  }),
];
