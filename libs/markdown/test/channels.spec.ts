import { renderMessage, topicKey, type RenderContext } from '../src/index.js';

const context: RenderContext = {
  channels: [
    { id: 5, name: 'general' },
    { id: 7, name: 'design team' },
  ],
  topicMessageIds: new Map([[topicKey('general', 'lunch'), 99]]),
};

const html = (content: string, extra: RenderContext = {}) => renderMessage(content, { ...context, ...extra }).html;

describe('channel and topic links', () => {
  it('links #**channel**', () => {
    expect(html('#**design team**')).toBe(
      '<p><a class="stream" data-stream-id="7" href="/#narrow/channel/7-design-team">#design team</a></p>',
    );
  });

  it("links #**channel>topic**, with Zulip's hash encoding of the topic", () => {
    expect(html('#**design team>Q3 (draft).v2**')).toBe(
      '<p><a class="stream-topic" data-stream-id="7" href="/#narrow/channel/7-design-team/topic/Q3.20.28draft.29.2Ev2">#design team &gt; Q3 (draft).v2</a></p>',
    );
  });

  it('adds the /with/ operand when the topic has a known message', () => {
    expect(html('#**general>lunch**')).toContain('href="/#narrow/channel/5-general/topic/lunch/with/99"');
  });

  it('shows the empty topic by its display name', () => {
    expect(html('#**general>**')).toContain('#general &gt; <em>general chat</em></a>');
    expect(html('#**general>**', { emptyTopicDisplayName: 'no topic' })).toContain('<em>no topic</em>');
  });

  it('links messages with #**channel>topic@id**', () => {
    expect(html('#**general>lunch@123**')).toBe(
      '<p><a class="message-link" href="/#narrow/channel/5-general/topic/lunch/near/123">#general &gt; lunch @ 💬</a></p>',
    );
  });

  it('leaves unknown channels as text', () => {
    expect(html('#**secret**')).toBe('<p>#<strong>secret</strong></p>');
  });

  it('counts channel links as links', () => {
    expect(renderMessage('#**general**', context).hasLink).toBe(true);
  });
});
