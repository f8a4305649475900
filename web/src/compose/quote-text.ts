/**
 * Zulip's "Quote and reply" (compose_reply.quote_message): the message's Markdown source, fetched from the server,
 * goes into the compose box of its conversation as
 *
 *     @_**Sender|id** [said](link to the message) in #**channel>topic**:      (a DM: "to @_**Name|id**:")
 *     ```quote
 *     the message's source
 *     ```
 *
 * with a fence longer than any inside the quoted text, the box open and focused at its end.
 */
import type { Conversation } from '../lib/narrow';
import { narrowKey, type Message, type Narrow } from '../store/model';

/** The shortest fence of backticks (three or more) that no fence inside `content` matches (Zulip's get_unused_fence). */
export function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1].length + 1);
  return '`'.repeat(length);
}

const silentMention = (name: string, id: number) => `@_**${name}|${id}**`;

/** The text a quote of `m` puts into compose: who said it, a link to it, where, and its source in a quote block. */
export function quoteText(
  m: Message,
  raw: string,
  link: string,
  names: { channelName: (id: number) => string | undefined; userName: (id: number) => string | undefined },
): string {
  let said: string;
  if (m.type === 'stream') {
    const channel = names.channelName(m.stream_id!) ?? String(m.stream_id);
    said = `${silentMention(m.sender_full_name, m.sender_id)} [said](${link}) in #**${channel}>${m.subject}**:`;
  } else {
    // The people it was said to: those of the conversation besides its sender (oneself, in one's own DM).
    const people = Array.isArray(m.display_recipient) ? m.display_recipient : [];
    const others = people.filter((p) => p.id !== m.sender_id);
    const to = (others.length > 0 ? others : people).map((p) =>
      silentMention(names.userName(p.id) ?? p.full_name ?? String(p.id), p.id),
    );
    said = `${silentMention(m.sender_full_name, m.sender_id)} [said](${link}) to ${to.join(', ')}:`;
  }
  const fence = unusedFence(raw);
  return `${said}\n${fence}quote\n${raw}\n${fence}\n`;
}

/** Whether a compose box for `narrow` is where a quote for `target` goes (a channel's box takes its topics' quotes). */
export function composeTakes(narrow: Narrow, target: Conversation, self: number): boolean {
  if (narrowKey(narrow, self) !== narrowKey(target, self)) return false;
  return (
    narrow.kind !== 'stream' ||
    narrow.topic === undefined ||
    (target.kind === 'stream' && narrow.topic === target.topic)
  );
}

/** Where text goes into a box that holds `current`: on a line of its own after what is there (Zulip's "block"). */
export function withQuote(current: string, text: string): string {
  if (current === '') return text;
  return current.endsWith('\n') ? current + text : `${current}\n${text}`;
}
