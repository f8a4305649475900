import { renderMessage, type RenderContext } from '../src/index.js';

const context: RenderContext = {
  users: [
    { id: 1, fullName: 'Ada Lovelace' },
    { id: 2, fullName: 'Grace Hopper', isActive: false },
    { id: 3, fullName: 'Ada Lovelace' },
  ],
  groups: [
    { id: 10, name: 'backend' },
    { id: 11, name: 'old-team', deactivated: true },
    { id: 12, name: 'role:everyone', displayName: 'everyone' },
  ],
};

const render = (content: string) => renderMessage(content, context);

describe('user mentions', () => {
  it('renders @**Full Name** case-insensitively with the stored name and flags the user', () => {
    const result = render('hi @**ada lovelace**');
    expect(result.html).toBe('<p>hi <span class="user-mention" data-user-id="1">@Ada Lovelace</span></p>');
    expect(result.mentionedUserIds).toEqual([1]);
    expect(result.silentlyMentionedUserIds).toEqual([]);
  });

  it('resolves @**Name|id** and @**|id**, and rejects a name that does not match the id', () => {
    expect(render('@**Ada Lovelace|3**').html).toBe(
      '<p><span class="user-mention" data-user-id="3">@Ada Lovelace</span></p>',
    );
    expect(render('@**|3**').mentionedUserIds).toEqual([3]);
    expect(render('@**Grace Hopper|3**').html).toBe('<p>@<strong>Grace Hopper|3</strong></p>');
  });

  it('renders silent mentions without @ and does not flag them', () => {
    const result = render('@_**Ada Lovelace**');
    expect(result.html).toBe('<p><span class="user-mention silent" data-user-id="1">Ada Lovelace</span></p>');
    expect(result.mentionedUserIds).toEqual([]);
    expect(result.silentlyMentionedUserIds).toEqual([1]);
  });

  it('mentions deactivated users silently', () => {
    const result = render('@**Grace Hopper**');
    expect(result.html).toContain('class="user-mention silent" data-user-id="2">Grace Hopper<');
    expect(result.mentionedUserIds).toEqual([]);
  });

  it('silences mentions inside quotes, as Zulip does', () => {
    const result = render('> @**Ada Lovelace** said @*backend*\n\n```quote\n@**all**\n```');
    expect(result.html).toContain('<span class="user-mention silent" data-user-id="1">Ada Lovelace</span>');
    expect(result.html).toContain('<span class="user-group-mention silent" data-user-group-id="10">backend</span>');
    expect(result.mentionedUserIds).toEqual([]);
    expect(result.mentionedGroupIds).toEqual([]);
    expect(result.wildcard).toBeNull();
  });

  it('leaves unknown names as text, like Zulip (the stars then make it bold)', () => {
    const result = render('@**Nobody Here**');
    expect(result.html).toBe('<p>@<strong>Nobody Here</strong></p>');
    expect(result.mentionedUserIds).toEqual([]);
  });

  it('needs whitespace or an opening bracket before the @', () => {
    expect(render('mail@**Ada Lovelace**').mentionedUserIds).toEqual([]);
    expect(render('(@**Ada Lovelace**)').mentionedUserIds).toEqual([1]);
  });

  it('does not mention inside code', () => {
    expect(render('`@**Ada Lovelace**`').mentionedUserIds).toEqual([]);
  });
});

describe('wildcard mentions', () => {
  it.each(['all', 'everyone', 'channel', 'stream'])('@**%s** is a channel-wide wildcard', (name) => {
    const result = render(`@**${name}**`);
    expect(result.html).toBe(
      `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${name}</span></p>`,
    );
    expect(result.wildcard).toBe('channel');
    expect(result.wildcards).toEqual({ channel: true, topic: false });
  });

  it('@**topic** is a topic wildcard', () => {
    const result = render('@**topic**');
    expect(result.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect(result.wildcard).toBe('topic');
  });

  it('reports the channel wildcard when both kinds appear', () => {
    const result = render('@**topic** @**all**');
    expect(result.wildcard).toBe('channel');
    expect(result.wildcards).toEqual({ channel: true, topic: true });
  });

  it('silent wildcards render but notify nobody', () => {
    const result = render('@_**all**');
    expect(result.html).toContain('class="user-mention channel-wildcard-mention silent" data-user-id="*">all<');
    expect(result.wildcard).toBeNull();
  });
});

describe('group mentions', () => {
  it('renders @*group* and flags the group', () => {
    const result = render('ping @*Backend*');
    expect(result.html).toBe('<p>ping <span class="user-group-mention" data-user-group-id="10">@backend</span></p>');
    expect(result.mentionedGroupIds).toEqual([10]);
  });

  it('renders silent and deactivated groups without notifying', () => {
    expect(render('@_*backend*').html).toContain('class="user-group-mention silent" data-user-group-id="10">backend<');
    const deactivated = render('@*old-team*');
    expect(deactivated.html).toContain('class="user-group-mention silent"');
    expect(deactivated.mentionedGroupIds).toEqual([]);
  });

  it('shows system groups by their display name', () => {
    expect(render('@*role:everyone*').html).toContain('>@everyone</span>');
  });

  it('leaves unknown groups as text', () => {
    expect(render('@*nope*').html).toBe('<p>@<em>nope</em></p>');
  });
});
