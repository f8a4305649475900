import { highlightHtmlDifferences } from '../rendering/html-diff.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { accessMessage } from './fetch.js';

/**
 * GET /messages/{message_id}/history (Zulip's fill_edit_history_entries): the stored entries say what each edit
 * replaced; walking back from the current message gives each version's topic and content, oldest last, then
 * reversed so the original message comes first.
 */
export async function messageHistory(
  domain: Domain,
  actor: Actor,
  messageId: number,
  allowEmptyTopicName: boolean,
): Promise<{ message_history: Record<string, unknown>[] }> {
  const { message } = await accessMessage(domain, actor, messageId);
  const entries = await domain.edits.history(message.id);
  const isChannel = message.channelId !== null;
  const shownTopic = (topic: string) =>
    isChannel && topic === '' && !allowEmptyTopicName ? actor.realm.emptyTopicDisplayName : topic;
  let content = message.content;
  let rendered = message.renderedContent;
  let topic = isChannel ? shownTopic(message.topic) : '';
  const versions: Record<string, unknown>[] = [];
  for (const entry of entries) {
    const version: Record<string, unknown> = {
      content,
      rendered_content: rendered,
      timestamp: entry.timestamp,
      topic,
      user_id: entry.user_id,
    };
    if (entry.prev_topic !== undefined) {
      topic = shownTopic(entry.prev_topic);
      version.prev_topic = topic;
    }
    if (entry.prev_content !== undefined && entry.prev_rendered_content !== undefined) {
      version.prev_content = entry.prev_content;
      version.prev_rendered_content = entry.prev_rendered_content;
      version.content_html_diff = highlightHtmlDifferences(entry.prev_rendered_content, rendered);
      content = entry.prev_content;
      rendered = entry.prev_rendered_content;
    }
    if (entry.prev_stream !== undefined) {
      version.prev_stream = entry.prev_stream;
      version.stream = entry.stream;
    }
    versions.push(version);
  }
  versions.push({
    content,
    rendered_content: rendered,
    timestamp: Math.floor(message.dateSent.getTime() / 1000),
    topic,
    user_id: message.senderId,
  });
  return { message_history: versions.reverse() };
}
