// A recording: the audio with a player, and its transcription's segments laid on the audio's own timeline.
import { useRef, useState } from "preact/hooks";
import { html } from "../html.js";

/** Segments in seconds: a transcription's, or else the speech the recording holds. */
const segmentsOf = (recording) => {
  const done = recording.transcriptions.find((t) => t.segments?.length);
  if (done) return { source: `Transcription ${done.sid}`, segments: done.segments };
  return {
    source: "Speech in the recording",
    segments: recording.speech.map((s) => ({
      speaker: `channel ${s.channel}`,
      text: s.text,
      start_time: s.start_ms / 1000,
      end_time: s.end_ms / 1000,
    })),
  };
};

export function Recording({ recording }) {
  const audio = useRef(null);
  const [now, setNow] = useState(0);
  const duration = recording.duration ?? 0;
  const { source, segments } = segmentsOf(recording);
  const at = (seconds) => `${Math.min(100, (seconds / Math.max(duration, 0.001)) * 100)}%`;
  return html`<article class="recording card" aria-label=${`Recording ${recording.sid}`}>
    <h3>Recording <span class="mono">${recording.sid}</span></h3>
    <p class="muted">${recording.status} · ${duration} s · ${recording.channels} channel${recording.channels === 1 ? "" : "s"} · ${recording.source}</p>
    ${
      recording.status === "completed"
        ? html`<audio ref=${audio} controls preload="metadata" src=${recording.media_url} onTimeUpdate=${(e) => setNow(e.currentTarget.currentTime)}
          aria-label=${`Audio of recording ${recording.sid}`}></audio>`
        : html`<p>Still recording.</p>`
    }
    ${
      segments.length
        ? html`<div class="segments">
          <p class="muted">${source}</p>
          <div class="segment-track" aria-hidden="true">
            ${segments.map((s) => html`<span class="segment" style=${`left:${at(s.start_time)};width:calc(${at(s.end_time - s.start_time)} + 2px)`}></span>`)}
            <span class="playhead" style=${`left:${at(now)}`}></span>
          </div>
          <ol class="segment-list">
            ${segments.map(
              (s) => html`<li class=${now >= s.start_time && now < s.end_time ? "current" : ""}>
                <button type="button" class="link" onClick=${() => {
                  if (!audio.current) return;
                  audio.current.currentTime = s.start_time;
                  void audio.current.play().catch(() => undefined);
                }}>${s.start_time.toFixed(1)}–${s.end_time.toFixed(1)} s</button>
                <strong>${s.speaker}</strong> ${s.text}
              </li>`,
            )}
          </ol>
        </div>`
        : null
    }
    ${recording.transcriptions.map((t) => html`<p><strong>Transcription</strong> ${t.status}${t.text ? html`: “${t.text}”` : null}</p>`)}
  </article>`;
}
