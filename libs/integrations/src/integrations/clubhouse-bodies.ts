import type { Json } from '../framework.js';
import { pyFormat } from '../toolkit/pyformat.js';
import { int, str, strOrNone } from '../toolkit/wild.js';

/** The message texts of Clubhouse's events, by event (clubhouse.ts; Zulip's EVENT_BODY_FUNCTION_MAPPER). */

const EPIC_NAME_TEMPLATE = '**{name}**';
const STORY_NAME_TEMPLATE = '[{name}]({app_url})';
const COMMENT_ADDED_TEMPLATE = 'New comment added to the {entity} {name_template}:\n``` quote\n{text}\n```';
const NEW_DESC_ADDED_TEMPLATE = 'New description added to the {entity} {name_template}:\n``` quote\n{new}\n```';
const DESC_CHANGED_TEMPLATE =
  'Description for the {entity} {name_template} was changed from:\n``` quote\n{old}\n```\nto\n``` quote\n{new}\n```';
const DESC_REMOVED_TEMPLATE = 'Description for the {entity} {name_template} was removed.';
const STATE_CHANGED_TEMPLATE = 'State of the {entity} {name_template} was changed from **{old}** to **{new}**.';
const NAME_CHANGED_TEMPLATE =
  'The name of the {entity} {name_template} was changed from:\n``` quote\n{old}\n```\nto\n``` quote\n{new}\n```';
const ARCHIVED_TEMPLATE = 'The {entity} {name_template} was {operation}.';
const STORY_TASK_TEMPLATE = 'Task **{task_description}** was {operation} the story {name_template}.';
const STORY_TASK_COMPLETED_TEMPLATE = 'Task **{task_description}** ({name_template}) was completed. :tada:';
const STORY_ADDED_REMOVED_EPIC_TEMPLATE =
  'The story {story_name_template} was {operation} the epic {epic_name_template}.';
const STORY_EPIC_CHANGED_TEMPLATE =
  'The story {story_name_template} was moved from {old_epic_name_template} to {new_epic_name_template}.';
const STORY_ESTIMATE_TEMPLATE = 'The estimate for the story {story_name_template} was set to {estimate}.';
const FILE_ATTACHMENT_TEMPLATE = 'A {type} attachment `{file_name}` was added to the story {name_template}.';
const LABEL_TEMPLATE = '**{name}**';
const STORY_LABEL_TEMPLATE = 'The label {labels} was added to the story {name_template}.';
const STORY_LABEL_PLURAL_TEMPLATE = 'The labels {labels} were added to the story {name_template}.';
const STORY_UPDATE_PROJECT_TEMPLATE = 'The story {name_template} was moved from the **{old}** project to **{new}**.';
const STORY_UPDATE_TYPE_TEMPLATE =
  'The type of the story {name_template} was changed from **{old_type}** to **{new_type}**.';
const DELETE_TEMPLATE = 'The {entity_type} **{name}** was deleted.';
const STORY_UPDATE_OWNER_TEMPLATE = 'New owner added to the story {name_template}.';
export const TRAILING_WORKFLOW_STATE_CHANGE_TEMPLATE = ' ({old} -> {new})';
const STORY_GITHUB_PR_TEMPLATE =
  'New GitHub PR [#{name}]({url}) opened for story {name_template}{workflow_state_template}.';
const STORY_GITHUB_COMMENT_PR_TEMPLATE =
  'Existing GitHub PR [#{name}]({url}) associated with story {name_template}{workflow_state_template}.';
const STORY_GITHUB_BRANCH_TEMPLATE =
  'New GitHub branch [{name}]({url}) associated with story {name_template}{workflow_state_template}.';
export const STORY_UPDATE_BATCH_TEMPLATE = 'The story {name_template} {templates}{workflow_state_template}.';
export const STORY_UPDATE_BATCH_CHANGED_TEMPLATE = '{operation} from {sub_templates}';
export const STORY_UPDATE_BATCH_CHANGED_SUB_TEMPLATE = '{entity_type} **{old}** to **{new}**';
export const STORY_UPDATE_BATCH_ADD_REMOVE_TEMPLATE = '{operation} with {entity}';

export type BodyFunction = (payload: Json, action: Json) => string | null;

/** Python's `==` of two ids, as the view compares them (a str id never equals an int). */
export const sameId = (a: unknown, b: unknown) => a === b;

export function actionWithPrimaryId(payload: Json): Json {
  let found: Json;
  for (const action of payload.actions) if (sameId(payload.primary_id, action.id)) found = action;
  if (found === undefined) throw new TypeError('no action with the primary id');
  return found;
}

/** The reference with this id, or null. */
export function referenceById(payload: Json, id: unknown): Json {
  let found: Json = null;
  for (const reference of payload.references) if (sameId(reference.id, id)) found = reference;
  return found;
}

export function storyName(action: Json): string {
  return pyFormat(STORY_NAME_TEMPLATE, { name: str(action.name), app_url: str(action.app_url) });
}

function nameTemplate(entity: string, action: Json): string {
  const template = entity === 'story' ? STORY_NAME_TEMPLATE : EPIC_NAME_TEMPLATE;
  return pyFormat(template, { name: str(action.name), app_url: strOrNone(action.app_url) });
}

export const deleteBody: BodyFunction = (_payload, action) =>
  pyFormat(DELETE_TEMPLATE, { entity_type: str(action.entity_type), name: str(action.name) });

export const storyCreateBody: BodyFunction = (payload, action) => {
  if (!('epic_id' in action)) {
    return pyFormat('New story [{name}]({app_url}) of type **{story_type}** was created.', {
      name: str(action.name),
      app_url: str(action.app_url),
      story_type: str(action.story_type),
    });
  }
  const epicId = int(action.epic_id);
  let epicName: string | undefined;
  for (const ref of payload.references) if (sameId(ref.id, epicId)) epicName = str(ref.name);
  if (epicName === undefined) throw new TypeError('the epic is not among the references');
  return pyFormat('New story [{name}]({app_url}) was created and added to the epic **{epic_name}**.', {
    name: str(action.name),
    app_url: str(action.app_url),
    epic_name: epicName,
  });
};

export const epicCreateBody: BodyFunction = (_payload, action) =>
  pyFormat('New epic **{name}**({state}) was created.', { name: str(action.name), state: str(action.state) });

export const commentAddedBody =
  (entity: string): BodyFunction =>
  (payload) => {
    const values: Record<string, unknown> = { entity };
    for (const action of payload.actions) {
      if (sameId(action.id, payload.primary_id)) values.text = str(action.text);
      else if (action.entity_type === entity) values.name_template = nameTemplate(entity, action);
    }
    return pyFormat(COMMENT_ADDED_TEMPLATE, values);
  };

export const updateDescriptionBody =
  (entity: string): BodyFunction =>
  (_payload, action) => {
    const description = action.changes.description;
    const values = {
      entity,
      new: str(description.new),
      old: str(description.old),
      name_template: nameTemplate(entity, action),
    };
    if (values.new && values.old) return pyFormat(DESC_CHANGED_TEMPLATE, values);
    if (values.new) return pyFormat(NEW_DESC_ADDED_TEMPLATE, values);
    return pyFormat(DESC_REMOVED_TEMPLATE, values);
  };

export const epicUpdateStateBody: BodyFunction = (_payload, action) => {
  const state = action.changes.state;
  return pyFormat(STATE_CHANGED_TEMPLATE, {
    entity: 'epic',
    new: str(state.new),
    old: str(state.old),
    name_template: pyFormat(EPIC_NAME_TEMPLATE, { name: str(action.name) }),
  });
};

export const storyUpdateStateBody: BodyFunction = (payload, action) => {
  const workflow = action.changes.workflow_state_id;
  const state: Record<string, string> = {};
  for (const ref of payload.references) {
    if (sameId(ref.id, int(workflow.new))) state.new = str(ref.name);
    if (sameId(ref.id, int(workflow.old))) state.old = str(ref.name);
  }
  if (state.new === undefined || state.old === undefined) throw new TypeError('a state is not among the references');
  return pyFormat(STATE_CHANGED_TEMPLATE, {
    entity: 'story',
    new: state.new,
    old: state.old,
    name_template: nameTemplate('story', action),
  });
};

export const updateNameBody =
  (entity: string): BodyFunction =>
  (_payload, action) => {
    const name = action.changes.name;
    return pyFormat(NAME_CHANGED_TEMPLATE, {
      entity,
      new: str(name.new),
      old: str(name.old),
      name_template: nameTemplate(entity, action),
    });
  };

export const updateArchivedBody =
  (entity: string): BodyFunction =>
  (_payload, action) =>
    pyFormat(ARCHIVED_TEMPLATE, {
      entity,
      name_template: nameTemplate(entity, action),
      operation: action.changes.archived.new ? 'archived' : 'unarchived',
    });

export const storyTaskBody =
  (operation: string): BodyFunction =>
  (payload, action) => {
    const values: Record<string, unknown> = { task_description: str(action.description), operation };
    for (const a of payload.actions) if (str(a.entity_type) === 'story') values.name_template = storyName(a);
    return pyFormat(STORY_TASK_TEMPLATE, values);
  };

export const storyTaskCompletedBody: BodyFunction = (payload, action) => {
  const values: Record<string, unknown> = { task_description: str(action.description) };
  const storyId = int(action.story_id);
  for (const ref of payload.references) if (sameId(ref.id, storyId)) values.name_template = storyName(ref);
  if (action.changes.complete.new !== true) return null;
  return pyFormat(STORY_TASK_COMPLETED_TEMPLATE, values);
};

export const storyUpdateEpicBody: BodyFunction = (payload, action) => {
  const values: Record<string, unknown> = { story_name_template: storyName(action) };
  const epicId = action.changes.epic_id;
  const newId = epicId.new ?? null;
  const oldId = epicId.old ?? null;
  for (const ref of payload.references) {
    if (sameId(ref.id, newId)) values.new_epic_name_template = pyFormat(EPIC_NAME_TEMPLATE, { name: str(ref.name) });
    if (sameId(ref.id, oldId)) values.old_epic_name_template = pyFormat(EPIC_NAME_TEMPLATE, { name: str(ref.name) });
  }
  if (newId && oldId) return pyFormat(STORY_EPIC_CHANGED_TEMPLATE, values);
  if (newId) {
    values.epic_name_template = values.new_epic_name_template;
    values.operation = 'added to';
  } else {
    values.epic_name_template = values.old_epic_name_template;
    values.operation = 'removed from';
  }
  return pyFormat(STORY_ADDED_REMOVED_EPIC_TEMPLATE, values);
};

export const storyUpdateEstimateBody: BodyFunction = (_payload, action) => {
  const estimate = action.changes.estimate;
  return pyFormat(STORY_ESTIMATE_TEMPLATE, {
    story_name_template: storyName(action),
    estimate: 'new' in estimate ? `${int(estimate.new)} points` : '*Unestimated*',
  });
};

/** The GitHub pull request, its comment or branch the primary action is, on each story it was linked to. */
export const githubEntityBody =
  (entity: 'pull-request' | 'pull-request-comment' | 'branch'): BodyFunction =>
  (payload, action) => {
    const github = actionWithPrimaryId(payload);
    const values: Record<string, unknown> = {
      name_template: storyName(action),
      name: entity === 'branch' ? str(github.name) : int(github.number),
      url: str(github.url),
      workflow_state_template: '',
    };
    // The story's workflow state does not always change when a pull request is linked.
    if ('workflow_state_id' in action.changes) {
      const workflow = action.changes.workflow_state_id;
      const newReference = referenceById(payload, int(workflow.new));
      const oldReference = referenceById(payload, int(workflow.old));
      if (newReference === null || oldReference === null) throw new TypeError('a state is not among the references');
      values.workflow_state_template = pyFormat(TRAILING_WORKFLOW_STATE_CHANGE_TEMPLATE, {
        new: str(newReference.name),
        old: str(oldReference.name),
      });
    }
    const template =
      entity === 'pull-request'
        ? STORY_GITHUB_PR_TEMPLATE
        : entity === 'pull-request-comment'
          ? STORY_GITHUB_COMMENT_PR_TEMPLATE
          : STORY_GITHUB_BRANCH_TEMPLATE;
    return pyFormat(template, values);
  };

export const storyUpdateAttachmentBody: BodyFunction = (payload, action) => {
  const values: Record<string, unknown> = { name_template: storyName(action) };
  const fileIds = action.changes.file_ids;
  // An attachment removed: nothing is posted.
  if (!('adds' in fileIds)) return null;
  const fileId = int(fileIds.adds[0]);
  for (const ref of payload.references) {
    if (sameId(ref.id, fileId)) Object.assign(values, { type: str(ref.entity_type), file_name: str(ref.name) });
  }
  return pyFormat(FILE_ATTACHMENT_TEMPLATE, values);
};

export function joinedLabels(payload: Json, labelIds: readonly number[]): string {
  const labels = labelIds.map((labelId) => {
    let name = '';
    for (const action of payload.actions) if (int(action.id) === labelId) name = str(action.name ?? '');
    if (name === '') {
      const reference = referenceById(payload, labelId);
      name = reference === null ? '' : str(reference.name);
    }
    return pyFormat(LABEL_TEMPLATE, { name });
  });
  return labels.join(', ');
}

export const storyLabelBody: BodyFunction = (payload, action) => {
  const labelIds = action.changes.label_ids;
  // Only labels removed: nothing is posted.
  if (!('adds' in labelIds)) return null;
  const added = (labelIds.adds as unknown[]).map(int);
  const values = { name_template: storyName(action), labels: joinedLabels(payload, added) };
  return pyFormat(added.length === 1 ? STORY_LABEL_TEMPLATE : STORY_LABEL_PLURAL_TEMPLATE, values);
};

export const storyUpdateProjectBody: BodyFunction = (payload, action) => {
  const values: Record<string, unknown> = { name_template: storyName(action) };
  const projectId = action.changes.project_id;
  const newId = int(projectId.new);
  const oldId = int(projectId.old);
  for (const ref of payload.references) {
    if (sameId(ref.id, newId)) values.new = str(ref.name);
    if (sameId(ref.id, oldId)) values.old = str(ref.name);
  }
  return pyFormat(STORY_UPDATE_PROJECT_TEMPLATE, values);
};

export const storyUpdateTypeBody: BodyFunction = (_payload, action) => {
  const storyType = action.changes.story_type;
  return pyFormat(STORY_UPDATE_TYPE_TEMPLATE, {
    name_template: storyName(action),
    new_type: str(storyType.new),
    old_type: str(storyType.old),
  });
};

export const storyUpdateOwnerBody: BodyFunction = (_payload, action) =>
  pyFormat(STORY_UPDATE_OWNER_TEMPLATE, { name_template: storyName(action) });
