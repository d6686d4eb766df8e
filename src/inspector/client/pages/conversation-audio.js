// A call's conversation with its <Connect> app as audio: fetched with the admin token when asked for, then played or downloaded.
import { useEffect, useState } from "preact/hooks";
import { download } from "../api.js";
import { html } from "../html.js";

/** Whether the call ran a `<Connect>` app (a bidirectional media stream or ConversationRelay). */
export const hadAgent = (timeline) =>
  timeline.some((e) => e.kind === "relay.started" || (e.kind === "stream.started" && e.detail.bidirectional));

export function ConversationAudio({ sid }) {
  const [link, setLink] = useState(null);
  const [note, setNote] = useState("");
  useEffect(() => () => link && URL.revokeObjectURL(link), [link]);
  const load = async () => {
    setNote("Loading…");
    try {
      const blob = await download(`/__sandbox/calls/${sid}/conversation.wav`);
      setLink(URL.createObjectURL(blob));
      setNote("");
    } catch (error) {
      setNote(
        error.status === 404
          ? "This call's conversation is no longer kept."
          : `Could not load it: ${error.message}`,
      );
    }
  };
  return html`<section class="card" aria-labelledby="conversation-h">
    <h2 id="conversation-h">Conversation audio</h2>
    <p class="muted">The caller on the left channel, the agent on the right.</p>
    <div class="buttons">
      <button type="button" class="secondary" onClick=${load}>${link ? "Load again" : "Load conversation audio"}</button>
      ${link ? html`<a class="button" href=${link} download=${`${sid}-conversation.wav`}>Download WAV</a>` : null}
    </div>
    ${link ? html`<audio controls preload="metadata" src=${link} aria-label=${`Conversation audio of call ${sid}`}></audio>` : null}
    <p class="note" role="status" aria-live="polite">${note}</p>
  </section>`;
}
