import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { pyFormat, pyTruthy } from '../toolkit/pyformat.js';
import { str } from '../toolkit/wild.js';

/**
 * Trello (zerver/webhooks/trello): what was done to a card or a board, by whom, in the topic of the board's name.
 * Trello checks the URL with a HEAD request first, which answers success.
 */

const CARD_MESSAGES: Record<string, string> = {
  createCard: 'created {card_url_template}.',
  changeList: 'moved {card_url_template} from {old_list} to {new_list}.',
  changeName: 'renamed the card from "{old_name}" to {card_url_template}.',
  setDesc: 'set description for {card_url_template} to:\n~~~ quote\n{desc}\n~~~\n',
  changeDesc:
    'changed description for {card_url_template} from\n~~~ quote\n{old_desc}\n~~~\nto\n~~~ quote\n{desc}\n~~~\n',
  removeDesc: 'removed description from {card_url_template}.',
  archiveCard: 'archived {card_url_template}.',
  reopenCard: 'reopened {card_url_template}.',
  setDueDate: 'set due date for {card_url_template} to {due_date}.',
  changeDueDate: 'changed due date for {card_url_template} from {old_due_date} to {due_date}.',
  removeDueDate: 'removed the due date from {card_url_template}.',
  addLabelToCard: 'added a {color} label with "{text}" to {card_url_template}.',
  removeLabelFromCard: 'removed a {color} label with "{text}" from {card_url_template}.',
  addMemberToCard: 'added {member_name} to {card_url_template}.',
  removeMemberFromCard: 'removed {member_name} from {card_url_template}.',
  addAttachmentToCard: 'added [{attachment_name}]({attachment_url}) to {card_url_template}.',
  addChecklistToCard: 'added the {checklist_name} checklist to {card_url_template}.',
  commentCard: 'commented on {card_url_template}:\n~~~ quote\n{text}\n~~~\n',
  updateCheckItemStateOnCard: '{action} **{item_name}** in **{checklist_name}** ({card_url_template}).',
};

const SUPPORTED_CARD_ACTIONS = new Set([
  'updateCard',
  'createCard',
  'addLabelToCard',
  'removeLabelFromCard',
  'addMemberToCard',
  'removeMemberFromCard',
  'addAttachmentToCard',
  'addChecklistToCard',
  'commentCard',
  'updateCheckItemStateOnCard',
]);

const IGNORED_CARD_ACTIONS = new Set(['copyCard', 'createCheckItem', 'updateCheckItem', 'updateList']);

/** Card changes that say nothing worth a message: its cover, a due date marked done, its position in the list. */
const IGNORED_CARD_UPDATES = ['cover', 'dueComplete', 'idAttachmentCover', 'pos'];

const BOARD_MESSAGES: Record<string, string> = {
  removeMemberFromBoard: 'removed {member_name} from {board_url_template}.',
  addMemberToBoard: 'added {member_name} to {board_url_template}.',
  createList: 'added {list_name} list to {board_url_template}.',
  changeName: 'renamed the board from {old_name} to {board_url_template}.',
};

const SUPPORTED_BOARD_ACTIONS = new Set(['removeMemberFromBoard', 'addMemberToBoard', 'createList', 'updateBoard']);

/** "2016-05-11T10:00:00.000Z" as "2016-05-11 10:00:00 UTC". */
const prettifyDate = (date: string) => date.replace('T', ' ').replace('.000', '').replace('Z', ' UTC');

/** Which card change an updateCard action is; null: one Zulip posts nothing for. */
function cardUpdate(data: Json): string | null {
  const old = data.old;
  const card = data.card;
  if (pyTruthy(data.listBefore)) return 'changeList';
  if (pyTruthy(old.name)) return 'changeName';
  if (old.desc === '') return 'setDesc';
  if (pyTruthy(old.desc)) return card.desc === '' ? 'removeDesc' : 'changeDesc';
  if ('due' in old && old.due === null) return 'setDueDate';
  if (pyTruthy(old.due)) return 'due' in card && card.due === null ? 'removeDueDate' : 'changeDueDate';
  if (old.closed === false && pyTruthy(card.closed)) return 'archiveCard';
  if (pyTruthy(old.closed) && card.closed === false) return 'reopenCard';
  if (IGNORED_CARD_UPDATES.some((key) => key in old)) return null;
  return unsupportedEvent('updateCard');
}

function cardValues(action: Json, type: string): Record<string, unknown> {
  const data = action.data;
  switch (type) {
    case 'changeList':
      return { old_list: str(data.listBefore.name), new_list: str(data.listAfter.name) };
    case 'changeName':
      return { old_name: str(data.old.name) };
    case 'setDesc':
      return { desc: str(data.card.desc) };
    case 'changeDesc':
      return { desc: str(data.card.desc), old_desc: str(data.old.desc) };
    case 'setDueDate':
      return { due_date: prettifyDate(str(data.card.due)) };
    case 'changeDueDate':
      return { due_date: prettifyDate(str(data.card.due)), old_due_date: prettifyDate(str(data.old.due)) };
    case 'addLabelToCard':
    case 'removeLabelFromCard':
      return { color: str(data.value), text: str(data.text) };
    case 'addMemberToCard':
    case 'removeMemberFromCard':
      return { member_name: str(action.member.fullName) };
    case 'addAttachmentToCard':
      return { attachment_url: str(data.attachment.url), attachment_name: str(data.attachment.name) };
    case 'addChecklistToCard':
      return { checklist_name: str(data.checklist.name) };
    case 'commentCard':
      return { text: str(data.text) };
    case 'updateCheckItemStateOnCard':
      return {
        action: str(data.checkItem.state) === 'complete' ? 'checked' : 'unchecked',
        item_name: str(data.checkItem.name),
        checklist_name: str(data.checklist.name),
      };
    default:
      return {};
  }
}

function cardMessage(payload: Json, actionType: string): { topic: string; content: string } | null {
  const action = payload.action;
  const type = actionType === 'updateCard' ? cardUpdate(action.data) : actionType;
  if (type === null) return null;
  const card = action.data.card;
  const cardUrl = `[${str(card.name)}](https://trello.com/c/${str(card.shortLink)})`;
  const body = pyFormat(CARD_MESSAGES[type]!, { ...cardValues(action, type), card_url_template: cardUrl });
  return { topic: str(action.data.board.name), content: `${str(action.memberCreator.fullName)} ${body}` };
}

function boardMessage(payload: Json, actionType: string): { topic: string; content: string } | null {
  const action = payload.action;
  const data = action.data;
  let type = actionType;
  if (actionType === 'updateBoard') {
    // A new background: nothing is posted.
    const prefs = data.old.prefs ?? {};
    if ('background' in prefs) return null;
    if (str(data.old.name)) type = 'changeName';
    else unsupportedEvent(actionType);
  }
  const values: Record<string, unknown> =
    type === 'createList'
      ? { list_name: str(data.list.name) }
      : type === 'changeName'
        ? { old_name: str(data.old.name) }
        : { member_name: str(action.member.fullName) };
  const board = `[${str(data.board.name)}](https://trello.com/b/${str(data.board.shortLink)})`;
  const body = pyFormat(BOARD_MESSAGES[type]!, { ...values, board_url_template: board });
  return { topic: str(data.board.name), content: `${str(action.memberCreator.fullName)} ${body}` };
}

export const trello: Integration = {
  name: 'trello',
  webhookName: 'Trello',
  handle(request) {
    // Trello checks that the URL answers with a HEAD request.
    if (request.method === 'HEAD') return null;
    const payload = request.json();
    const actionType: string | null = payload.action.type ?? null;
    if (actionType !== null && SUPPORTED_CARD_ACTIONS.has(actionType)) return cardMessage(payload, actionType);
    if (actionType !== null && SUPPORTED_BOARD_ACTIONS.has(actionType)) return boardMessage(payload, actionType);
    if (actionType !== null && IGNORED_CARD_ACTIONS.has(actionType)) return null;
    return unsupportedEvent(actionType);
  },
};
