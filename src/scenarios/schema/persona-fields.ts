// Fields of a scripted caller (a persona) beyond what it says and presses: backchannels, and the line it calls from.
import { z } from "zod";

export const backchannelField = z
  .literal(true)
  .optional()
  .describe(
    'Said while the agent talks ("uh-huh"): the agent hears it, but it is no turn of the caller\'s and no barge-in; agent.turn counts it and whether the agent stopped for it.',
  );
