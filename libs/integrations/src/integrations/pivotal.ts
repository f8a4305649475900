import { ConfabError } from '@confab/errors';
import { unsupportedEvent, type Integration, type Json, type WebhookRequest } from '../framework.js';
import { pyFormat } from '../toolkit/pyformat.js';
import { parseXml, type XmlElement } from '../toolkit/xml.js';

/**
 * Pivotal Tracker (zerver/webhooks/pivotal): the v3 activity web hook (XML, the story's name guessed from the
 * description's first quoted string) and the v5 one (JSON, "#<id>: <name>" topics), with the event types
 * `<kind>_v3` and `<kind>_v5`.
 */

const UNSUPPORTED_EVENT_TYPES = new Set([
  'task_create_activity',
  'comment_delete_activity',
  'task_delete_activity',
  'task_update_activity',
  'story_move_from_project_activity',
  'story_delete_activity',
  'story_move_into_project_activity',
  'epic_update_activity',
  'label_create_activity',
]);

interface Translation {
  topic: string;
  content: string;
  event: string;
}

/** The v3 XML activity; null when the body is not one (the v5 JSON is tried then). */
function v3(request: WebhookRequest): Translation | null {
  let payload: XmlElement;
  try {
    payload = parseXml(request.body);
  } catch {
    return null;
  }
  const textAt = (path: readonly string[]): string | null => {
    let node: XmlElement | null = payload;
    for (const tag of path) {
      node = node.find(tag);
      if (node === null) return '';
    }
    return node.text;
  };
  const eventType = payload.find('event_type')?.text;
  const description = payload.find('description')?.text;
  const projectId = payload.find('project_id')?.text;
  if (eventType === undefined || typeof description !== 'string' || projectId === undefined) return null;
  const storyId = textAt(['stories', 'story', 'id']);
  // The XML's URL is not one a person can open: build one that is.
  const url = `https://www.pivotaltracker.com/s/projects/${pyFormat('{}', [projectId])}/stories/${pyFormat('{}', [storyId])}`;
  // Pivotal does not name the story, but the description usually quotes it first.
  const name = /^[^"]+"([^"]+)"/.exec(description)?.[1] ?? 'Story changed';
  const moreInfo = ` [(view)](${url}).`;
  const event = `${pyFormat('{}', [eventType])}_v3`;
  if (eventType === 'story_update') return { topic: name, content: description + moreInfo, event };
  if (eventType === 'note_create') return { topic: 'Comment added', content: description + moreInfo, event };
  if (eventType === 'story_create') {
    const issueDescription = textAt(['stories', 'story', 'description']);
    const issueType = textAt(['stories', 'story', 'story_type']);
    const issueStatus = textAt(['stories', 'story', 'current_state']);
    let estimate = textAt(['stories', 'story', 'estimate']);
    if (estimate !== '') estimate = ` worth ${pyFormat('{}', [estimate])} story points`;
    const content = pyFormat('{} ({} {}{}):\n\n~~~ quote\n{}\n~~~\n\n{}', [
      description,
      issueStatus,
      issueType,
      estimate,
      issueDescription,
      moreInfo,
    ]);
    return { topic: name, content, event };
  }
  return unsupportedEvent(event);
}

function v5(payload: Json): Translation {
  const eventType = payload.kind;
  const project = payload.project;
  const primary = payload.primary_resources[0];
  const storyName = primary.name;
  const performedBy = pyFormat('{}', [(payload.performed_by ?? {}).name ?? '']);
  const storyInfo = pyFormat('[{}](https://www.pivotaltracker.com/s/projects/{}): [{}]({})', [
    project.name,
    project.id,
    storyName,
    primary.url,
  ]);
  const changes: Json[] = payload.changes ?? [];
  const topic = pyFormat('#{}: {}', [primary.id, storyName]);
  const commentOf = (change: Json): unknown =>
    change.kind === 'comment' ? ((change.new_values ?? {}).text ?? null) : null;
  let content = '';
  if (eventType === 'story_update_activity') {
    content += `${performedBy} updated ${storyInfo}:\n`;
    for (const change of changes) {
      const old = change.original_values ?? {};
      const now = change.new_values;
      if ('current_state' in old && 'current_state' in now) {
        content += pyFormat('* state changed from **{}** to **{}**\n', [old.current_state, now.current_state]);
      }
      if ('estimate' in old && 'estimate' in now) {
        const estimate = old.estimate === null ? 'is now' : pyFormat('changed from {} to', [old.estimate]);
        content += pyFormat('* estimate {} **{} points**\n', [estimate, now.estimate ?? '0']);
      }
      if ('story_type' in old && 'story_type' in now) {
        content += pyFormat('* type changed from **{}** to **{}**\n', [old.story_type, now.story_type]);
      }
      const comment = commentOf(change);
      if (comment !== null) content += pyFormat('* Comment added:\n~~~quote\n{}\n~~~\n', [comment]);
    }
  } else if (eventType === 'comment_create_activity') {
    for (const change of changes) {
      const comment = commentOf(change);
      if (comment !== null) {
        content += pyFormat('{} added a comment to {}:\n~~~quote\n{}\n~~~', [performedBy, storyInfo, comment]);
      }
    }
  } else if (eventType === 'story_create_activity') {
    content += pyFormat('{} created {}: {}\n', [performedBy, primary.story_type ?? null, storyInfo]);
    for (const change of changes) {
      const now = change.new_values ?? {};
      if ('current_state' in now) content += pyFormat('* State is **{}**\n', [now.current_state]);
      if ('description' in now) content += pyFormat('* Description is\n\n> {}', [now.description]);
    }
  } else if (eventType === 'story_move_activity') {
    content = `${performedBy} moved ${storyInfo}`;
    for (const change of changes) {
      const old = change.original_values ?? {};
      const now = change.new_values;
      if ('current_state' in old && 'current_state' in now) {
        content += pyFormat(' from **{}** to **{}**.', [old.current_state, now.current_state]);
      }
    }
  } else if (!UNSUPPORTED_EVENT_TYPES.has(eventType)) {
    unsupportedEvent(pyFormat('{}', [eventType]));
  }
  return { topic, content, event: pyFormat('{}_v5', [eventType]) };
}

export const pivotal: Integration = {
  name: 'pivotal',
  webhookName: 'Pivotal',
  eventTypes: [
    'story_update_v3',
    'note_create_v3',
    'story_create_v3',
    'story_move_activity_v5',
    'story_create_activity_v5',
    'story_update_activity_v5',
    'comment_create_activity_v5',
  ],
  handle(request) {
    const translation = v3(request) ?? v5(request.json());
    // Known activities Zulip has no message for, and updates without a change it words.
    if (!translation.content) throw new ConfabError('Unable to handle Pivotal payload');
    return translation;
  },
};
