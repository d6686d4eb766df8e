// The audio of <Play> files for the browser phone: fetched off the engine's path, decoded (WAV, MP3) to 8 kHz mu-law, kept per URL (LRU, byte-bounded).
import type { PlayMedia } from "../engine/calls/call-audio.js";
import { decodeMp3 } from "../engine/speech/mp3-decode.js";
import { decodeWav } from "../engine/speech/wav-decode.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";

/** The largest file fetched: 16 MiB, counted while reading. */
export const maxPlayFileBytes = 16 * 1024 * 1024;
/** Real milliseconds a file may take to arrive. */
export const playFetchTimeoutMs = 10_000;
/** Decoded audio kept: 16 MB of mu-law (about 33 minutes), the least recently heard let go first. */
const cacheBytes = 16 * 1024 * 1024;

/** A URL's entry: its audio, null when it could not be fetched or decoded, undefined while being fetched. */
type Entry = { audio: Uint8Array | null | undefined };

export function createPlayMedia(webhooks: Pick<WebhookDispatcher, "fetchMedia">): PlayMedia {
  const entries = new Map<string, Entry>();
  let kept = 0;
  const keep = (url: string, entry: Entry, audio: Uint8Array | null) => {
    if (entries.get(url) !== entry) return;
    entry.audio = audio;
    kept += audio?.length ?? 0;
    for (const [old, e] of entries) {
      if (kept <= cacheBytes) break;
      if (e.audio === undefined) continue;
      entries.delete(old);
      kept -= e.audio?.length ?? 0;
    }
  };
  return {
    audioOf(url) {
      const entry = entries.get(url);
      if (entry) {
        // Heard again: the newest in the map's order.
        entries.delete(url);
        entries.set(url, entry);
        return entry.audio ?? undefined;
      }
      const fresh: Entry = { audio: undefined };
      entries.set(url, fresh);
      void webhooks
        .fetchMedia({ url, timeoutMs: playFetchTimeoutMs, maxBytes: maxPlayFileBytes })
        .then(async (result) =>
          keep(url, fresh, result.ok ? (decodeWav(result.bytes) ?? (await decodeMp3(result.bytes))) : null),
        )
        .catch(() => keep(url, fresh, null));
      return undefined;
    },
  };
}
