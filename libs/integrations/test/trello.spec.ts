import { trello } from '../src/integrations/trello.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const board = { name: 'Roadmap', shortLink: 'bRd1' };
const card = { name: 'Dark mode', shortLink: 'cRd1' };
const cardLink = '[Dark mode](https://trello.com/c/cRd1)';
const memberCreator = { fullName: 'Ada Lovelace' };

const run = (action: unknown, method = 'POST') => runWebhook(trello, jsonRequest({ action }, { method }));
const contentOf = (action: unknown) => {
  const outcome = run(action);
  if (outcome.kind !== 'messages') throw new Error(JSON.stringify(outcome));
  return outcome.messages.map((m) => [m.topic, m.content]);
};

describe('trello', () => {
  it('answers success to the HEAD request Trello checks the URL with', () => {
    expect(runWebhook(trello, jsonRequest('', { method: 'HEAD' }))).toEqual({ kind: 'messages', messages: [] });
  });

  it("posts a card's creation, move and due date in the topic of the board", () => {
    expect(contentOf({ type: 'createCard', memberCreator, data: { board, card } })).toEqual([
      ['Roadmap', `Ada Lovelace created ${cardLink}.`],
    ]);
    expect(
      contentOf({
        type: 'updateCard',
        memberCreator,
        data: { board, card, old: { idList: 'x' }, listBefore: { name: 'To do' }, listAfter: { name: 'Doing' } },
      }),
    ).toEqual([['Roadmap', `Ada Lovelace moved ${cardLink} from To do to Doing.`]]);
    expect(
      contentOf({
        type: 'updateCard',
        memberCreator,
        data: { board, card: { ...card, due: '2024-03-01T09:30:00.000Z' }, old: { due: null } },
      }),
    ).toEqual([['Roadmap', `Ada Lovelace set due date for ${cardLink} to 2024-03-01 09:30:00 UTC.`]]);
  });

  it('quotes comments and descriptions, and words checklist items', () => {
    expect(contentOf({ type: 'commentCard', memberCreator, data: { board, card, text: 'Looks good' } })).toEqual([
      ['Roadmap', `Ada Lovelace commented on ${cardLink}:\n~~~ quote\nLooks good\n~~~\n`],
    ]);
    expect(
      contentOf({
        type: 'updateCheckItemStateOnCard',
        memberCreator,
        data: { board, card, checklist: { name: 'QA' }, checkItem: { name: 'Safari', state: 'incomplete' } },
      }),
    ).toEqual([['Roadmap', `Ada Lovelace unchecked **Safari** in **QA** (${cardLink}).`]]);
  });

  it("posts board changes with the board's link", () => {
    expect(contentOf({ type: 'updateBoard', memberCreator, data: { board, old: { name: 'Plans' } } })).toEqual([
      ['Roadmap', 'Ada Lovelace renamed the board from Plans to [Roadmap](https://trello.com/b/bRd1).'],
    ]);
    expect(contentOf({ type: 'createList', memberCreator, data: { board, list: { name: 'Later' } } })).toEqual([
      ['Roadmap', 'Ada Lovelace added Later list to [Roadmap](https://trello.com/b/bRd1).'],
    ]);
  });

  it('posts nothing for a card moved within its list, a new board background or ignored actions', () => {
    expect(contentOf({ type: 'updateCard', memberCreator, data: { board, card, old: { pos: 3 } } })).toEqual([]);
    expect(
      contentOf({ type: 'updateBoard', memberCreator, data: { board, old: { prefs: { background: 'blue' } } } }),
    ).toEqual([]);
    expect(contentOf({ type: 'updateCheckItem' })).toEqual([]);
  });

  it('refuses the actions it has no message for', () => {
    expect(run({ type: 'addToOrganizationBoard' })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        message: "The 'addToOrganizationBoard' event isn't currently supported by the Trello webhook; ignoring",
      },
    });
    expect(run({ type: 'updateCard', memberCreator, data: { board, card, old: { idLabels: [] } } })).toMatchObject({
      error: { code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' },
    });
  });
});
