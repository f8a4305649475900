/**
 * The compose box's draft, kept on the server as one writes (Zulip's drafts API): saved a moment after the last
 * keystroke, one save after another (so a draft created meanwhile is deleted too when the message goes), deleted when
 * the text is emptied or sent.
 */
import { useRef } from 'preact/hooks';
import * as client from '../lib/client';
import type { Narrow } from '../store/model';

/** How long after the last keystroke the draft is saved on the server. */
const DRAFT_SAVE_MS = 700;

/** `narrow` is where the box sends (null: not chosen yet, nothing saved); `savedId` the draft it opened with. */
export function useServerDraft(narrow: Narrow | null, savedId: number | null) {
  const draftId = useRef<number | null>(savedId);
  const draftTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const draftBody = (narrow: Narrow, text: string, topicName: string) => ({
    type: narrow.kind === 'stream' ? 'stream' : 'private',
    to: narrow.kind === 'stream' ? [narrow.streamId] : narrow.userIds,
    topic: narrow.kind === 'stream' ? topicName : '',
    content: text,
    timestamp: Math.floor(Date.now() / 1000),
  });
  async function writeDraft(text: string, topicName: string) {
    if (!narrow) return;
    try {
      if (!text.trim()) {
        if (draftId.current !== null) await client.drafts.delete(draftId.current);
        draftId.current = null;
      } else if (draftId.current !== null) {
        await client.drafts.edit(draftId.current, draftBody(narrow, text, topicName));
      } else {
        const answer = await client.drafts.create(draftBody(narrow, text, topicName));
        draftId.current = answer.ids[0] ?? null;
      }
    } catch {
      // Drafts are a convenience: a failed save is retried with the next keystroke.
    }
  }
  /** The save on its way, if any: sending waits for it, so a draft created meanwhile is deleted too. */
  const saving = useRef<Promise<void> | null>(null);
  function saveDraft(text: string, topicName: string): Promise<void> {
    const previous = saving.current ?? Promise.resolve();
    const next = previous.then(() => writeDraft(text, topicName));
    saving.current = next;
    void next.finally(() => {
      if (saving.current === next) saving.current = null;
    });
    return next;
  }
  function scheduleDraft(text: string, topicName: string) {
    clearTimeout(draftTimer.current);
    draftTimer.current = setTimeout(() => void saveDraft(text, topicName), DRAFT_SAVE_MS);
  }
  async function discardDraft() {
    clearTimeout(draftTimer.current);
    await saving.current?.catch(() => undefined);
    if (draftId.current === null) return;
    const id = draftId.current;
    draftId.current = null;
    await client.drafts.delete(id).catch(() => undefined);
  }

  return { scheduleDraft, discardDraft };
}
