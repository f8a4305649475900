/** What the poll and to-do widgets share: sending an update, and a heading its author can edit in place. */
import { useState } from 'preact/hooks';
import * as client from '../lib/client';
import { me, view } from '../store/store';
import { addPending } from './pending';

/** Sends one widget update; the change shows when its `submessage` event comes back. */
export function sendWidgetData(messageId: number, data: object): Promise<unknown> {
  return client.messages.submessage(messageId, JSON.stringify(data));
}

/**
 * A sender for one widget's updates (null data sends nothing), and the last refusal's text. An update sent with
 * `{ optimistic: true }` (a vote, a check) shows at once and is taken back if the server refuses it (pending.ts).
 */
export function useWidgetSender(messageId: number): {
  send: (data: object | null, options?: { optimistic?: boolean }) => Promise<boolean>;
  error: string;
} {
  const [error, setError] = useState('');
  const send = (data: object | null, { optimistic = false } = {}) => {
    if (!data) return Promise.resolve(false);
    setError('');
    const takeBack = optimistic
      ? addPending(
          messageId,
          { sender_id: me.value, msg_type: 'widget', content: JSON.stringify(data) },
          view.value.messages.find((m) => m.id === messageId)?.submessages,
        )
      : undefined;
    return sendWidgetData(messageId, data).then(
      () => true,
      (err: Error) => {
        takeBack?.();
        setError(err.message);
        return false;
      },
    );
  };
  return { send, error };
}

/**
 * The widget's heading (a poll's question, a to-do list's title): its author edits it in place. `kind` names the
 * classes (`poll-question`, `poll-edit`, `poll-question-input`; `todo-title`, …).
 */
export function EditableHeading({
  text,
  kind,
  canEdit,
  labels,
  save,
}: {
  text: string;
  kind: 'poll-question' | 'todo-title';
  canEdit: boolean;
  labels: { edit: string; input: string };
  save: (value: string) => Promise<boolean>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const prefix = kind.split('-')[0];
  if (draft === null)
    return (
      <div class="poll-head">
        <h4 class={kind}>{text}</h4>
        {canEdit && (
          <button class={`link-like ${prefix}-edit`} onClick={() => setDraft(text)}>
            {labels.edit}
          </button>
        )}
      </div>
    );
  return (
    <form
      class="poll-head"
      onSubmit={(e) => {
        e.preventDefault();
        void save(draft).then((ok) => ok && setDraft(null));
      }}
    >
      <input
        class={`${kind}-input`}
        aria-label={labels.input}
        value={draft}
        onInput={(e) => setDraft(e.currentTarget.value)}
      />
      <button type="submit">Save</button>
      <button type="button" onClick={() => setDraft(null)}>
        Cancel
      </button>
    </form>
  );
}
