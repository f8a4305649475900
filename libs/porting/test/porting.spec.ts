import { convertSlackText, slackBlocksAndAttachments, truncate } from '../src/sources/slack-markup';
import { safeEntryPath } from '../src/archive';
import { ActivityTracker, sanitizeName, unicodeEmoji } from '../src/sources/source';
import { Progress } from '../src/progress';
import { directMessageGroupHash } from '../src/export/recipients';

const people = new Map([
  ['U1', { id: 'U1', name: 'ava', fullName: 'Ava Owner' }],
  ['U2', { id: 'U2', name: 'ben', fullName: 'Ben Admin' }],
]);
const channels = new Map([['C1', 'general']]);

describe('Slack markup to Zulip Markdown (Zulip’s slack_message_conversion rules)', () => {
  it.each([
    ['*bold* and _italic_ and ~gone~', '**bold** and *italic* and ~~gone~~'],
    ['not*bold*here', 'not*bold*here'],
    ['<@U1> and <@U2|ben>', '@**Ava Owner** and @**Ben Admin**'],
    ['<@U2|someone-else>', '<@U2|someone-else>'],
    ['<!channel> <!here> <!everyone>', '@**all** @**all** @**all**'],
    ['see <#C1|general>', 'see #**general**'],
    ['<https://example.com|the site> and <https://example.com/a>', '[the site](https://example.com) and https://example.com/a'],
    ['<mailto:a@b.com|a@b.com>', 'mailto:a@b.com'],
  ])('%s', (slack, zulip) => {
    expect(convertSlackText(slack, people, channels).content).toBe(zulip);
  });

  it('names the users mentioned and whether there is a link', () => {
    expect(convertSlackText('<@U1> <https://x.com>', people, channels)).toEqual({
      content: '@**Ava Owner** https://x.com',
      mentioned: ['U1'],
      hasLink: true,
    });
  });

  it('renders blocks and attachments of integrations', () => {
    expect(
      slackBlocksAndAttachments({
        blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Deploy' } }, { type: 'divider' }, { type: 'rich_text' }],
        attachments: [{ title: 'Build 12', title_link: 'https://ci/12', text: 'passed', fields: [{ title: 'Branch', value: 'main' }] }],
      }),
    ).toBe('## Deploy\n----\n## [Build 12](https://ci/12)\n\npassed\n\n*Branch*: main');
  });

  it('truncates topics by code points, as Python counts them', () => {
    expect(truncate('2024-01-01 short', 60, '…')).toBe('2024-01-01 short');
    expect(Array.from(truncate(`2024-01-01 ${'😀'.repeat(80)}`, 60, '…'))).toHaveLength(60);
  });
});

describe('archive entry names', () => {
  it.each(['../etc/passwd', 'a/../../b', '/etc/passwd', 'C:/x', 'a\\b', 'a\u0000b'])('refuses %j', (name) => {
    expect(() => safeEntryPath(name)).toThrow();
  });
  it('keeps ordinary ones', () => {
    expect(safeEntryPath('./general/2020-01-01.json')).toBe('general/2020-01-01.json');
    expect(safeEntryPath('a/b/../c.json')).toBe('a/c.json');
  });
});

describe('Zulip’s import rules', () => {
  it('long-term idle: at most ten messages and none in the last 60 days', () => {
    const now = 1_000_000_000;
    const activity = new ActivityTracker(now);
    for (let i = 0; i < 10; i++) activity.sent(1, now - 100 * 86_400);
    for (let i = 0; i < 11; i++) activity.sent(2, now - 100 * 86_400);
    activity.sent(3, now - 86_400);
    expect([1, 2, 3, 4].map((id) => activity.isIdle(id))).toEqual([true, false, false, true]);
  });

  it('emoji names of Slack and Mattermost map to Zulip’s', () => {
    expect(unicodeEmoji('thumbsup')).toEqual({ name: '+1', code: '1f44d' });
    expect(unicodeEmoji('no-such-emoji')).toBeUndefined();
  });

  it('file names in path ids (sanitize_name)', () => {
    expect(sanitizeName('My Report (final).pdf')).toBe('My-Report-final.pdf');
    expect(sanitizeName('..')).toBe('uploaded-file');
  });

  it('direct message group hashes do not depend on the order of the members', () => {
    expect(directMessageGroupHash([3, 1, 2])).toBe(directMessageGroupHash([1, 2, 3]));
  });
});

describe('the progress bar', () => {
  it('shows counts, a bar and the rate; redraws in place on a terminal', () => {
    let now = 0;
    const out: string[] = [];
    const progress = new Progress({ isTTY: true, write: (t) => out.push(t) }, () => now);
    progress.start('messages', 1000);
    now = 2000;
    progress.update(500);
    expect(progress.line()).toBe('messages       [##############--------------]  50% 500/1,000 250/s 2.0s');
    progress.finish();
    expect(out.every((t) => t.startsWith('\r') || t === '\n')).toBe(true);
  });
});
