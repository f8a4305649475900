import { unsupportedEvent, type Integration, type Json, type WebhookMessage } from '../framework.js';
import { pyFormat } from '../toolkit/pyformat.js';
import { int, str, strOrNone } from '../toolkit/wild.js';
import * as body from './clubhouse-bodies.js';

/**
 * Clubhouse, now Shortcut (zerver/webhooks/clubhouse): the webhook lists the actions of one change; the primary
 * action (or, for a batch update of several stories, each action) is posted to the topic of the story or epic it
 * concerns, with the event `<entity>_<action>[_<what changed>]` the event filters match.
 */

/** A reference's name by id, or None. */
function referenceName(payload: Json, id: unknown): string | null {
  const reference = body.referenceById(payload, id ?? null);
  return reference === null ? null : str(reference.name);
}

/** One story of a batch update, where several attributes may have changed at once. */
const storyUpdateBatchBody: body.BodyFunction = (payload, action) => {
  const changes = action.changes;
  const values: Record<string, unknown> = { name_template: body.storyName(action), workflow_state_template: '' };
  const templates: string[] = [];
  let lastChange = 'other';
  const moves: string[] = [];
  for (const [key, label, change] of [
    ['epic_id', 'Epic', 'epic'],
    ['project_id', 'Project', 'project'],
  ] as const) {
    if (!(key in changes)) continue;
    lastChange = change;
    moves.push(
      pyFormat(body.STORY_UPDATE_BATCH_CHANGED_SUB_TEMPLATE, {
        entity_type: label,
        old: referenceName(payload, changes[key].old),
        new: referenceName(payload, changes[key].new),
      }),
    );
  }
  if (moves.length > 0) {
    templates.push(
      pyFormat(body.STORY_UPDATE_BATCH_CHANGED_TEMPLATE, { operation: 'was moved', sub_templates: moves.join(', ') }),
    );
  }
  if ('story_type' in changes) {
    lastChange = 'type';
    templates.push(
      pyFormat(body.STORY_UPDATE_BATCH_CHANGED_TEMPLATE, {
        operation: `${templates.length === 0 ? 'was' : 'and'} changed`,
        sub_templates: pyFormat(body.STORY_UPDATE_BATCH_CHANGED_SUB_TEMPLATE, {
          entity_type: 'type',
          old: strOrNone(changes.story_type.old),
          new: strOrNone(changes.story_type.new),
        }),
      }),
    );
  }
  if ('label_ids' in changes) {
    const labelIds = changes.label_ids;
    if ('adds' in labelIds) {
      const added = (labelIds.adds as unknown[]).map(int);
      lastChange = 'label';
      // Zulip counts the keys of label_ids (adds, removes), not the labels added.
      const plural = Object.keys(labelIds).length > 1 ? 's' : '';
      templates.push(
        pyFormat(body.STORY_UPDATE_BATCH_ADD_REMOVE_TEMPLATE, {
          operation: `${templates.length === 0 ? 'was' : 'and'} added`,
          entity: `the new label${plural} ${body.joinedLabels(payload, added)}`,
        }),
      );
    }
  }
  if ('workflow_state_id' in changes) {
    lastChange = 'state';
    values.workflow_state_template = pyFormat(body.TRAILING_WORKFLOW_STATE_CHANGE_TEMPLATE, {
      old: referenceName(payload, changes.workflow_state_id.old),
      new: referenceName(payload, changes.workflow_state_id.new),
    });
  }
  // A single change reads as that change's own message; one Zulip cannot render is not posted.
  if (templates.length <= 1) {
    const alternative = BODIES[`story_update_${lastChange}`];
    return alternative === undefined ? null : alternative(payload, action);
  }
  values.templates = templates.join(', ');
  return pyFormat(body.STORY_UPDATE_BATCH_TEMPLATE, values);
};

const BODIES: Record<string, body.BodyFunction> = {
  story_update_archived: body.updateArchivedBody('story'),
  epic_update_archived: body.updateArchivedBody('epic'),
  story_create: body.storyCreateBody,
  'pull-request_create': body.githubEntityBody('pull-request'),
  'pull-request_comment': body.githubEntityBody('pull-request-comment'),
  branch_create: body.githubEntityBody('branch'),
  story_delete: body.deleteBody,
  epic_delete: body.deleteBody,
  'story-task_create': body.storyTaskBody('added to'),
  'story-task_delete': body.storyTaskBody('removed from'),
  'story-task_update_complete': body.storyTaskCompletedBody,
  story_update_epic: body.storyUpdateEpicBody,
  story_update_estimate: body.storyUpdateEstimateBody,
  story_update_attachment: body.storyUpdateAttachmentBody,
  story_update_label: body.storyLabelBody,
  story_update_owner: body.storyUpdateOwnerBody,
  story_update_project: body.storyUpdateProjectBody,
  story_update_type: body.storyUpdateTypeBody,
  epic_create: body.epicCreateBody,
  'epic-comment_create': body.commentAddedBody('epic'),
  'story-comment_create': body.commentAddedBody('story'),
  epic_update_description: body.updateDescriptionBody('epic'),
  story_update_description: body.updateDescriptionBody('story'),
  epic_update_state: body.epicUpdateStateBody,
  story_update_state: body.storyUpdateStateBody,
  epic_update_name: body.updateNameBody('epic'),
  story_update_name: body.updateNameBody('story'),
  story_update_batch: storyUpdateBatchBody,
};

/** The topic: the story's or epic's name, from the action, the other actions or the references. */
function entityName(payload: Json, action: Json, entity: string): string | null {
  let name: string | null = 'name' in action ? str(action.name) : null;
  if (name === null || action.entity_type === 'branch') {
    for (const other of payload.actions) if (str(other.entity_type) === entity) name = str(other.name);
  }
  if (name === null) {
    for (const ref of payload.references) if (str(ref.entity_type) === entity) name = str(ref.name);
  }
  return name;
}

const TOPIC_ENTITIES: Record<string, string> = {
  story: 'story',
  'pull-request': 'story',
  branch: 'story',
  'story-comment': 'story',
  'story-task': 'story',
  epic: 'epic',
  'epic-comment': 'epic',
};

const IGNORED_EVENTS = new Set(['story-comment_update']);

function eventOf(payload: Json, action: Json): string | null {
  let event = `${str(action.entity_type)}_${str(action.action)}`;
  // A batch update of several stories has no primary id.
  if (event === 'story_update' && !('primary_id' in payload)) return 'story_update_batch';
  if (IGNORED_EVENTS.has(event)) return null;
  if ('changes' in action) {
    const changes = action.changes;
    const suffixes: [string, string][] = [
      ['description', 'description'],
      ['state', 'state'],
      ['workflow_state_id', 'state'],
      ['name', 'name'],
      ['archived', 'archived'],
      ['complete', 'complete'],
      ['epic_id', 'epic'],
      ['estimate', 'estimate'],
      ['file_ids', 'attachment'],
      ['label_ids', 'label'],
      ['project_id', 'project'],
      ['story_type', 'type'],
      ['owner_ids', 'owner'],
    ];
    const suffix = suffixes.find(([key]) => key in changes);
    if (suffix) event = `${event}_${suffix[1]}`;
  }
  return event;
}

/** The events whose message goes to each story the primary action was linked to. */
const SECONDARY_ACTIONS: Record<string, string> = {
  'pull-request_create': 'pull_request_ids',
  branch_create: 'branch_ids',
  'pull-request_comment': 'pull_request_ids',
};

function messageFor(payload: Json, action: Json, event: string): WebhookMessage | null {
  const body = BODIES[event];
  const topicEntity = TOPIC_ENTITIES[str(action.entity_type)];
  if (body === undefined || topicEntity === undefined) unsupportedEvent(event);
  const topic = entityName(payload, action, topicEntity);
  const content = body(payload, action);
  return topic && content ? { topic, content, event } : null;
}

export const clubhouse: Integration = {
  name: 'clubhouse',
  webhookName: 'Clubhouse',
  eventTypes: Object.keys(BODIES),
  handle(request) {
    const payload = request.json();
    // Clubhouse sometimes posts an empty body, of no event anyone could tell: ignored.
    if (payload === null) return null;
    const primaryActions: Json[] = 'primary_id' in payload ? [body.actionWithPrimaryId(payload)] : payload.actions;
    const messages: WebhookMessage[] = [];
    for (const primary of primaryActions) {
      const event = eventOf(payload, primary);
      if (event === null) continue;
      const changedAttribute = SECONDARY_ACTIONS[event];
      const actions =
        changedAttribute === undefined
          ? [primary]
          : (payload.actions as Json[]).filter((a) => str(a.entity_type) === 'story' && changedAttribute in a.changes);
      for (const action of actions) {
        const message = messageFor(payload, action, event);
        if (message) messages.push(message);
      }
    }
    return messages;
  },
};
