import {
  allEmoji,
  checkReactionEmoji,
  emojiByCode,
  emojiByName,
  renderMessage,
  resolveReactionEmoji,
  type RealmEmojiRecord,
} from '../src/index.js';

describe('emoji catalog', () => {
  it('finds emoji by name and alias with Zulip-style codes', () => {
    expect(emojiByName('+1')).toEqual(expect.objectContaining({ name: '+1', code: '1f44d' }));
    expect(emojiByName('thumbs_up')?.code).toBe('1f44d');
    expect(emojiByName('+1')?.aliases).toContain('thumbs_up');
    expect(emojiByName('woman_shrugging')?.code).toBe('1f937-200d-2640');
    expect(emojiByName('nope_not_an_emoji')).toBeUndefined();
  });

  it('finds emoji by code, ignoring variation selectors', () => {
    expect(emojiByCode('1f44d')?.name).toBe('+1');
    expect(emojiByCode('2764-fe0f')?.code).toBe('2764');
    expect(emojiByCode('0023-20e3')?.name).toBe('hash');
  });

  it('leaves out skin tone components and emoji newer than Zulip supports', () => {
    expect(emojiByCode('1f3fb')).toBeUndefined();
    expect(emojiByName('skin-tone-2')).toBeUndefined();
    expect(emojiByCode('1f426-200d-1f525')).toBeUndefined(); // phoenix, Emoji 15.1
  });

  it('has unique names and codes', () => {
    const emoji = allEmoji();
    expect(emoji.length).toBeGreaterThan(1800);
    expect(new Set(emoji.map((e) => e.code)).size).toBe(emoji.length);
    const names = emoji.flatMap((e) => [e.name, ...e.aliases]);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[\w+-]+$/);
  });
});

describe('emoji rendering', () => {
  const span = (name: string, code: string, text = name) =>
    `<span aria-label="${text.replace(/_/g, ' ')}" class="emoji emoji-${code}" role="img" title="${text.replace(/_/g, ' ')}">:${text}:</span>`;

  it('renders :name: syntax, keeping the name that was typed', () => {
    expect(renderMessage(':thumbs_up: :+1:').html).toBe(`<p>${span('thumbs_up', '1f44d')} ${span('+1', '1f44d')}</p>`);
  });

  it('renders literal emoji with their canonical name', () => {
    expect(renderMessage('ok 👍').html).toBe(`<p>ok ${span('+1', '1f44d')}</p>`);
  });

  it('keeps text-presentation characters and unknown names as text', () => {
    expect(renderMessage('1 ↔ 2 :not_an_emoji:').html).toBe('<p>1 ↔ 2 :not_an_emoji:</p>');
  });

  it('renders realm emoji as images, before built-in names, unless deactivated', () => {
    const realmEmoji = {
      party: { id: '42', sourceUrl: '/user_avatars/2/emoji/images/42.gif' },
      '+1': { id: '43', sourceUrl: '/user_avatars/2/emoji/images/43.png' },
      gone: { id: '44', sourceUrl: '/x.png', deactivated: true },
    };
    expect(renderMessage(':party: :+1: :gone:', { realmEmoji }).html).toBe(
      '<p><img alt=":party:" class="emoji" src="/user_avatars/2/emoji/images/42.gif" title="party"> ' +
        '<img alt=":+1:" class="emoji" src="/user_avatars/2/emoji/images/43.png" title="+1"> :gone:</p>',
    );
  });

  it('renders :zulip: as the server emoji', () => {
    expect(renderMessage(':zulip:').html).toBe(
      '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>',
    );
  });

  it('translates emoticons only when the sender opted in', () => {
    expect(renderMessage('hi :)').html).toBe('<p>hi :)</p>');
    expect(renderMessage('hi :) <3', { translateEmoticons: true }).html).toBe(
      `<p>hi ${span('', '1f642', 'smile')} ${span('', '2764', 'heart')}</p>`,
    );
    expect(renderMessage('a:) `:)`', { translateEmoticons: true }).html).toBe('<p>a:) <code>:)</code></p>');
  });

  it('does not turn emoji syntax inside links or code into emoji', () => {
    expect(renderMessage('[:+1:](https://example.com) `:+1:`').html).toBe(
      '<p><a href="https://example.com">:+1:</a> <code>:+1:</code></p>',
    );
  });
});

describe('reaction emoji validation', () => {
  const realm = new Map<string, RealmEmojiRecord>([
    ['42', { name: 'party' }],
    ['43', { name: 'old', deactivated: true }],
  ]);
  const byId = (id: string) => realm.get(id);

  it('accepts matching unicode names and codes, aliases included', () => {
    expect(checkReactionEmoji({ type: 'unicode_emoji', name: '+1', code: '1f44d' })).toEqual({ ok: true });
    expect(checkReactionEmoji({ type: 'unicode_emoji', name: 'thumbs_up', code: '1f44d' })).toEqual({ ok: true });
  });

  it('rejects unknown codes and names that belong to another emoji', () => {
    expect(checkReactionEmoji({ type: 'unicode_emoji', name: '+1', code: 'ffff' })).toMatchObject({
      ok: false,
      reason: 'invalid_code',
      message: 'Invalid emoji code.',
    });
    expect(checkReactionEmoji({ type: 'unicode_emoji', name: 'heart', code: '1f44d' })).toMatchObject({
      ok: false,
      reason: 'invalid_name',
    });
    expect(checkReactionEmoji({ type: 'unicode_emoji', name: '+1', code: '1F44D' })).toMatchObject({ ok: false });
  });

  it('validates realm emoji against the realm', () => {
    expect(checkReactionEmoji({ type: 'realm_emoji', name: 'party', code: '42' }, byId)).toEqual({ ok: true });
    expect(checkReactionEmoji({ type: 'realm_emoji', name: 'other', code: '42' }, byId)).toMatchObject({
      reason: 'invalid_name',
      message: 'Invalid custom emoji name.',
    });
    expect(checkReactionEmoji({ type: 'realm_emoji', name: 'old', code: '43' }, byId)).toMatchObject({
      reason: 'deactivated',
    });
    expect(checkReactionEmoji({ type: 'realm_emoji', name: 'x', code: '99' }, byId)).toMatchObject({
      message: 'Invalid custom emoji.',
    });
  });

  it('knows the service extra emoji and rejects unknown types', () => {
    expect(checkReactionEmoji({ type: 'service_extra_emoji', name: 'zulip', code: 'zulip' })).toEqual({ ok: true });
    expect(checkReactionEmoji({ type: 'service_extra_emoji', name: 'x', code: 'zulip' })).toMatchObject({ ok: false });
    expect(checkReactionEmoji({ type: 'zulip_extra_emoji', name: 'zulip', code: 'zulip' })).toMatchObject({
      reason: 'invalid_type',
    });
  });

  it('resolves a name to a reaction: realm emoji, then zulip, then unicode', () => {
    const byName = (name: string) => (name === 'party' ? { id: '42', sourceUrl: '/p.png' } : undefined);
    expect(resolveReactionEmoji('party', byName)).toEqual({ type: 'realm_emoji', code: '42' });
    expect(resolveReactionEmoji('zulip')).toEqual({ type: 'service_extra_emoji', code: 'zulip' });
    expect(resolveReactionEmoji('heart')).toEqual({ type: 'unicode_emoji', code: '2764' });
    expect(resolveReactionEmoji('nope')).toBeUndefined();
  });
});
