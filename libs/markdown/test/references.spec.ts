import { extractReferences, renderMessage } from '../src/index.js';

describe('extractReferences', () => {
  it('collects what a message refers to, without looking anything up', () => {
    const refs = extractReferences(
      'hi @**Ada Lovelace**, @**Grace|7**, @_**Linus** and @*backend*; see #**general>lunch** and #**design** :party:',
    );
    expect(refs.userNames.sort()).toEqual(['Ada Lovelace', 'Linus']);
    expect(refs.userIds).toEqual([7]);
    expect(refs.groupNames).toEqual(['backend']);
    expect(refs.channelNames).toEqual(expect.arrayContaining(['general', 'design']));
    expect(refs.topics).toEqual([{ channel: 'general', topic: 'lunch' }]);
    expect(refs.emojiNames).toEqual(['party']);
    expect(refs.hasWildcardMention).toBe(false);
  });

  it('notices non-silent wildcards', () => {
    expect(extractReferences('@**all**').hasWildcardMention).toBe(true);
    expect(extractReferences('@_**all**').hasWildcardMention).toBe(false);
  });

  it('skips code', () => {
    const refs = extractReferences('`@**A**`\n\n```\n@**B** #**c**\n```');
    expect(refs.userNames).toEqual([]);
    expect(refs.channelNames).toEqual([]);
  });

  it('feeds renderMessage: looked-up references render as mentions', () => {
    const content = 'thanks @**ada lovelace**';
    const refs = extractReferences(content);
    const users = [{ id: 1, fullName: 'Ada Lovelace' }].filter((u) =>
      refs.userNames.some((n) => n.toLowerCase() === u.fullName.toLowerCase()),
    );
    expect(renderMessage(content, { users }).mentionedUserIds).toEqual([1]);
  });
});
