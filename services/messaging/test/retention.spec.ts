import { archivingPlan, cutoffFor, deletionEvents } from '../src/domain/retention';
import { attachmentTarget, csvLine, exportRow, formatAddress, checkLimits } from '../src/domain/export-search';

const channel = (id: number, realmId: number, days: number | null) => ({
  id,
  realmId,
  recipientId: id + 100,
  messageRetentionDays: days,
});

describe("archivingPlan (Zulip's get_realms_and_streams_for_archiving)", () => {
  it("applies a channel's own days, the organization's for null, and nothing for -1", () => {
    const plans = archivingPlan(
      [{ id: 1, messageRetentionDays: 10 }],
      [channel(1, 1, null), channel(2, 1, 40), channel(3, 1, -1), channel(4, 2, 5), channel(5, 2, null)],
    );
    expect(plans).toEqual([
      {
        realmId: 1,
        directDays: 10,
        channels: [
          { channel: channel(1, 1, null), days: 10 },
          { channel: channel(2, 1, 40), days: 40 },
        ],
      },
      // An organization that keeps messages forever: only its channels with days of their own, no direct messages.
      { realmId: 2, directDays: null, channels: [{ channel: channel(4, 2, 5), days: 5 }] },
    ]);
  });

  it('counts days back from the given time', () => {
    expect(cutoffFor(new Date('2027-01-11T00:00:00Z'), 10).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('deletionEvents', () => {
  it('tells each conversation its own messages, channel subscribers included', () => {
    const events = deletionEvents(
      [
        { id: 3, channelId: 7, recipientId: 70, topic: 'A', topicKey: 'a', holders: [1] },
        { id: 1, channelId: 7, recipientId: 70, topic: 'a', topicKey: 'a', holders: [2] },
        { id: 2, channelId: null, recipientId: 90, topic: '', topicKey: '', holders: [4, 5] },
      ],
      new Map([[7, [1, 3]]]),
      { realmId: 1, requestId: null },
    );
    expect(events.map((e) => e.envelope.payload)).toEqual([
      { message_ids: [1, 3], message_type: 'stream', stream_id: 7, topic: 'A', user_ids: [1, 2, 3] },
      { message_ids: [2], message_type: 'private', user_ids: [4, 5] },
    ]);
  });
});

describe("export-search rows (Zulip's export_search)", () => {
  it('formats senders, recipients and CSV fields as Python does', () => {
    expect(formatAddress('King Hamlet', 'hamlet@example.com')).toBe('King Hamlet <hamlet@example.com>');
    expect(formatAddress('Hamlet, Prince', 'h@example.com')).toBe('"Hamlet, Prince" <h@example.com>');
    const row = exportRow({
      id: 5,
      dateSent: new Date('2027-03-04T05:06:07.890Z'),
      sender: { fullName: 'Othello', email: 'o@example.com' },
      channel: null,
      participants: [
        { fullName: 'Othello', email: 'o@example.com' },
        { fullName: 'Hamlet', email: 'h@example.com' },
      ],
      content: 'line one\nline "two"',
      editHistory: null,
      attachments: ['2/ab/notes.txt'],
    });
    expect(row).toEqual({
      id: '5',
      'timestamp (UTC)': '2027-03-04 05:06:07',
      sender: 'Othello <o@example.com>',
      recipient: 'Hamlet <h@example.com>, Othello <o@example.com>',
      content: 'line one\nline "two"',
      'edit history': '',
    });
    expect(csvLine(['a', 'b,c', 'd"e'])).toBe('a,"b,c","d""e"\r\n');
  });

  it('refuses a search without limits', () => {
    expect(() =>
      checkLimits({ realmId: 1, keywords: [], senders: [], recipients: [], after: null, before: null }),
    ).toThrow('One or more limits are required!');
  });
});

describe('export-search --write-attachments', () => {
  it('writes an upload under its path id, and never outside the directory for a path id that would leave it', () => {
    const join = (...parts: string[]) => parts.join('/');
    expect(attachmentTarget('/out', '2/ab/notes.txt', join)).toBe('/out/2/ab/notes.txt');
    for (const hostile of ['../etc/passwd', '2/../../x', '/abs/path', '2//x', '2/./x', '2\\..\\x', ''])
      expect(attachmentTarget('/out', hostile, join)).toBeNull();
  });
});
