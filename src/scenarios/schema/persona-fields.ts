// Fields of a scripted caller (a persona) beyond what it says and presses: backchannels, and the line it calls from.
import { z } from "zod";
import { lineConditionsSchema } from "../../engine/media-streams/stream-line.js";

export const lineField = lineConditionsSchema
  .optional()
  .describe(
    "The line the caller calls from, as a media-stream app hears its frames: noise (dBFS), drop (share of frames lost, 0-1), jitter (real clock: the most a frame is late), seed.",
  );

export const backchannelField = z
  .literal(true)
  .optional()
  .describe(
    'Said while the agent talks ("uh-huh"): the agent hears it, but it is no turn of the caller\'s and no barge-in; agent.turn counts it and whether the agent stopped for it.',
  );
