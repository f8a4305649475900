import { narrowHash } from '../lib/hash';
import type { Message } from '../store/model';
import { names } from '../store/store';

/** The link to a message in its conversation (Zulip's `#narrow/channel/…/topic/…/near/<id>`, `#narrow/dm/…/near/<id>`). */
export function messageHash(m: Message, me: number): string {
  if (m.type === 'stream')
    return narrowHash(
      [
        { operator: 'channel', operand: m.stream_id! },
        { operator: 'topic', operand: m.subject },
        { operator: 'near', operand: m.id },
      ],
      names,
    );
  const ids = Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id).filter((id) => id !== me) : [];
  return narrowHash(
    [
      { operator: 'dm', operand: (ids.length > 0 ? ids : [me]).sort((a, b) => a - b) },
      { operator: 'near', operand: m.id },
    ],
    names,
  );
}
