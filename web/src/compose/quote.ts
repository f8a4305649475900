/** "Quote and reply" from a message's menu: the quote's text (quote-text.ts) into its conversation's compose box. */
import { signal } from '@preact/signals';
import { navigate, route } from '../lib/router';
import * as client from '../lib/client';
import { conversationOf, conversationTerms, type Conversation } from '../lib/narrow';
import { conversationKey, inNarrow, type Message } from '../store/model';
import { quoteText } from './quote-text';
import { channelName, me, userName } from '../store/store';

/** A quote waiting for the compose box of its conversation (`seq` tells one from the next). */
export const pendingQuote = signal<{ target: Conversation; text: string; seq: number } | null>(null);
let quotes = 0;

function messageConversation(m: Message, self: number): Conversation {
  if (m.type === 'stream') return { kind: 'stream', streamId: m.stream_id!, topic: m.subject };
  return { kind: 'dm', userIds: conversationKey(m, self).slice(2).split(',').map(Number) };
}

/**
 * Quotes `m` into the compose box of its conversation: the one being read if the message is in it, else the
 * message's own conversation, opened. (The caller closes a new message's box, which would hide that one.)
 */
export async function quoteAndReply(m: Message, link: string): Promise<void> {
  const self = me.value;
  let raw: string;
  try {
    const answer = await client.messages.getOne(m.id, { apply_markdown: false });
    raw = answer.message.content;
  } catch {
    raw = '[Error fetching message content.]';
  }
  const r = route.value;
  const here = r.view === 'narrow' ? conversationOf(r.terms) : null;
  const target = here && inNarrow(m, here, self) ? here : messageConversation(m, self);
  pendingQuote.value = {
    target: target.kind === 'stream' && m.type === 'stream' ? { ...target, topic: m.subject } : target,
    text: quoteText(m, raw, link, { channelName, userName }),
    seq: ++quotes,
  };
  if (target !== here) navigate({ view: 'narrow', terms: conversationTerms(target) });
}
