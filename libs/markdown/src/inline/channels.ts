import type { StateInline } from 'markdown-it';
import { topicKey } from '../context.js';
import { parseEnv, type ParseEnv } from '../env.js';
import type { LinkableChannel } from '../types.js';
import { mentionMayStartAt } from './boundary.js';

const MESSAGE_LINK = /#\*\*([^*>]+)>([^*]*)@(\d+)\*\*/y;
const TOPIC_LINK = /#\*\*([^*>]+)>([^*]*)\*\*/y;
const CHANNEL_LINK = /#\*\*([^*]+)\*\*/y;

export type ChannelLink =
  | { kind: 'channel'; channel: LinkableChannel }
  | { kind: 'topic'; channel: LinkableChannel; topic: string; withMessageId: number | undefined }
  | { kind: 'message'; channel: LinkableChannel; topic: string; messageId: number };

interface Found {
  end: number;
  link: ChannelLink | undefined;
}

// Zulip tries message links, then topic links, then plain channel links; an unknown channel lets
// the next form (and finally other rules) have a go.
function find(src: string, pos: number, env: ParseEnv): Found | undefined {
  if (src.charCodeAt(pos) !== 0x23 /* # */ || !mentionMayStartAt(src, pos)) return undefined;
  const channels = env.context.channelsByName;
  const extracting = env.mode === 'extract';
  MESSAGE_LINK.lastIndex = pos;
  let m = MESSAGE_LINK.exec(src);
  if (m !== null) {
    const channel = channels.get(m[1]!);
    if (extracting) return { end: MESSAGE_LINK.lastIndex, link: undefined };
    if (channel !== undefined) {
      const link: ChannelLink = { kind: 'message', channel, topic: m[2]!, messageId: Number(m[3]) };
      return { end: MESSAGE_LINK.lastIndex, link };
    }
  }
  TOPIC_LINK.lastIndex = pos;
  m = TOPIC_LINK.exec(src);
  if (m !== null) {
    const channel = channels.get(m[1]!);
    if (extracting) return { end: TOPIC_LINK.lastIndex, link: undefined };
    if (channel !== undefined) {
      const topic = m[2]!;
      const withMessageId = env.context.topicMessageIds.get(topicKey(channel.name, topic));
      return { end: TOPIC_LINK.lastIndex, link: { kind: 'topic', channel, topic, withMessageId } };
    }
  }
  CHANNEL_LINK.lastIndex = pos;
  m = CHANNEL_LINK.exec(src);
  if (m !== null) {
    const channel = channels.get(m[1]!);
    if (extracting) return { end: CHANNEL_LINK.lastIndex, link: undefined };
    if (channel !== undefined) return { end: CHANNEL_LINK.lastIndex, link: { kind: 'channel', channel } };
  }
  return undefined;
}

function record(src: string, pos: number, env: ParseEnv): void {
  for (const re of [MESSAGE_LINK, TOPIC_LINK, CHANNEL_LINK]) {
    re.lastIndex = pos;
    const m = re.exec(src);
    if (m === null) continue;
    env.refs.channelNames.add(m[1]!);
    if (re === TOPIC_LINK) env.refs.topics.set(topicKey(m[1]!, m[2]!), { channel: m[1]!, topic: m[2]! });
  }
}

export function matchChannelLink(src: string, pos: number, env: ParseEnv): number {
  return find(src, pos, env)?.end ?? -1;
}

export function channelLink(state: StateInline, silent: boolean): boolean {
  const env = parseEnv(state.env);
  const found = find(state.src, state.pos, env);
  if (found === undefined || found.end > state.posMax) return false;
  if (!silent) {
    if (env.mode === 'extract') record(state.src, state.pos, env);
    else state.push('zulip_channel_link', 'a', 0).meta = { link: found.link };
  }
  state.pos = found.end;
  return true;
}
