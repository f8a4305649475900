import { Client } from 'pg';
import type { DevUserName, ManagedProcess, World } from '@confab/devkit';
import { expectSuccess } from './support/expect';
import { eventually } from './support/groups';
import { SmtpStub, type ReceivedMail } from './support/smtp-stub';
import { newWorld, startExtraProcess, system } from './support/system';

/**
 * Missed-message email (issue 29), through the gateway, with an SMTP server on 127.0.0.1. Mail is process
 * configuration, so a second push and push-worker (sharing the system's databases and broker, with BullMQ keys under
 * a prefix of their own, and no relay) send to the stub; the system's own push service has no mail configured and so
 * does not take the email events (services/push/README.md). Each user's batching period is their own setting, set
 * short here through the API.
 */
jest.setTimeout(120_000);

let smtp: SmtpStub;
let world: World;
let db: Client;
const extras: ManagedProcess[] = [];

const as = (name: DevUserName) => world.as(name);
const idOf = (name: DevUserName) => world.user(name).id;
const mailsTo = (name: DevUserName) => smtp.received.filter((m) => m.to.includes(world.user(name).email));

/** The one email to the user that quotes `text`, once it arrived. */
async function mailWith(name: DevUserName, text: string): Promise<ReceivedMail> {
  let found: ReceivedMail[] = [];
  await eventually(async () => {
    found = mailsTo(name).filter((m) => m.text.includes(text));
    expect(found.length).toBeGreaterThan(0);
  }, 60_000);
  expect(found).toHaveLength(1);
  return found[0]!;
}

async function send(from: DevUserName, params: Record<string, unknown>): Promise<number> {
  const response = await as(from).post('/messages', params);
  expectSuccess(response, 'POST', '/messages');
  return response.body.id as number;
}

const dm = (from: DevUserName, to: DevUserName[], content: string) =>
  send(from, { type: 'direct', to: JSON.stringify(to.map(idOf)), content });

const toChannel = (from: DevUserName, channel: string, topic: string, content: string) =>
  send(from, { type: 'stream', to: channel, topic, content });

/** Where the email notification of a message for a user stands (email_notifications.status), or null: none. */
async function emailStatus(messageId: number, name: DevUserName): Promise<string | null> {
  const result = await db.query<{ status: string }>(
    'SELECT status FROM email_notifications WHERE message_id = $1 AND user_id = $2',
    [messageId, idOf(name)],
  );
  return result.rows[0]?.status ?? null;
}

async function statusBecomes(messageId: number, name: DevUserName, status: string): Promise<void> {
  await eventually(async () => expect(await emailStatus(messageId, name)).toBe(status), 60_000);
}

/** Every batch of these users has gone out (sent, or empty). */
async function batchesDone(names: readonly DevUserName[]): Promise<void> {
  await eventually(async () => {
    const open = await db.query(
      `SELECT 1 FROM email_batches WHERE user_id = ANY($1::int[]) AND status IN ('open', 'sending')`,
      [names.map(idOf)],
    );
    expect(open.rowCount).toBe(0);
  }, 60_000);
}

/** The user's next request to messaging waits until messaging applied their own changes: they were published. */
async function settled(name: DevUserName): Promise<void> {
  expectSuccess(await as(name).get('/users/me/subscriptions'), 'GET', '/users/me/subscriptions');
}

async function channelId(name: string): Promise<number> {
  return (await as('desdemona').get('/get_stream_id', { stream: name })).body.stream_id as number;
}

async function subscriptionProperty(name: DevUserName, channel: string, property: string, value: unknown) {
  const stream_id = await channelId(channel);
  expectSuccess(
    await as(name).post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([{ stream_id, property, value }]),
    }),
    'POST',
    '/users/me/subscriptions/properties',
  );
}

async function topicPolicy(name: DevUserName, channel: string, topic: string, visibility_policy: number) {
  expectSuccess(
    await as(name).post('/user_topics', { stream_id: await channelId(channel), topic, visibility_policy }),
    'POST',
    '/user_topics',
  );
}

const RECEIVERS: DevUserName[] = ['othello', 'cordelia', 'prospero', 'aaron', 'polonius'];
/** Seconds each receiver's emails wait to be batched: long enough to send twice or read first, short for a test. */
const PERIOD = 6;

beforeAll(async () => {
  smtp = await SmtpStub.start();
  world = await newWorld({ name: 'Missed Email Org' });
  db = new Client({ connectionString: system().databases.push });
  await db.connect();
  const env = {
    CONFAB_SMTP_URL: smtp.url,
    CONFAB_EMAIL_FROM: 'notifications@confab.test',
    CONFAB_PUSH_RELAY_URL: '',
    PUSH_NOTIFY_BACKOFF_MS: '300',
    CONFAB_REDIS_PREFIX: `${system().redisPrefix}:pushmail`,
  };
  const [push, worker] = await Promise.all([startExtraProcess('push', env), startExtraProcess('push-worker', env)]);
  extras.push(push.process, worker.process);
  // The email consumer's queue exists now: the settings changes below reach it before any message.
  for (const name of RECEIVERS) {
    expectSuccess(
      await as(name).patch('/settings', { email_notifications_batching_period_seconds: PERIOD }),
      'PATCH',
      '/settings',
    );
    await settled(name);
  }
}, 240_000);

afterAll(async () => {
  await Promise.all(extras.map((p) => p.stop()));
  await db?.end();
  await smtp?.close();
});

describe('missed-message email', () => {
  it('emails a direct message to an away user: names the conversation, quotes it, links to it and to the settings', async () => {
    const hamlet = world.user('hamlet');
    const id = await dm('hamlet', ['othello'], 'Are you **there**, Othello?\nSecond line');
    const mail = await mailWith('othello', '> Are you **there**, Othello?\n> Second line');
    expect(mail.subject).toBe(`DMs with ${hamlet.fullName}`);
    expect(mail.headers.get('from')).toContain('Confab notifications');
    expect(mail.text).toContain(`You and ${hamlet.fullName}`);
    expect(mail.text).toContain(`${world.realm.url}/#narrow/dm/${hamlet.id}-`);
    expect(mail.text).toContain(`/near/${id}`);
    expect(mail.text).toContain(`Manage email preferences:\n${world.realm.url}/#settings/notifications`);
    expect(mail.html).toContain('<strong>there</strong>');
    expect(mail.html).toContain(`href="${world.realm.url}/#settings/notifications"`);
    await statusBecomes(id, 'othello', 'sent');
    // Never the sender.
    expect(await emailStatus(id, 'hamlet')).toBeNull();
  });

  it('emails a mention in a channel, with the channel and topic, and not the others subscribed', async () => {
    const id = await toChannel(
      'hamlet',
      'Denmark',
      'castle',
      `@**${world.user('cordelia').fullName}** the ghost walks`,
    );
    const mail = await mailWith('cordelia', 'the ghost walks');
    expect(mail.subject).toBe('#Denmark > castle');
    expect(mail.text).toContain(`${world.user('hamlet').fullName}:\n> @**`);
    expect(mail.text).toContain(
      `${world.realm.url}/#narrow/channel/${await channelId('Denmark')}-Denmark/topic/castle/near/${id}`,
    );
    expect(mail.text).toContain('because you were mentioned');
    expect(await emailStatus(id, 'othello')).toBeNull();
  });

  it('emails a followed topic', async () => {
    await topicPolicy('othello', 'Scotland', 'heath', 3);
    await settled('othello');
    const id = await toChannel('hamlet', 'Scotland', 'heath', 'Thunder and lightning');
    const mail = await mailWith('othello', 'Thunder and lightning');
    expect(mail.subject).toBe('#Scotland > heath');
    expect(mail.text).toContain('email notifications enabled for topics you follow');
    expect(await emailStatus(id, 'cordelia')).toBeNull();
  });

  it('emails a channel with email notifications on, but not in a topic muted there', async () => {
    for (const name of ['othello', 'cordelia'] as const)
      await subscriptionProperty(name, 'Rome', 'email_notifications', true);
    await topicPolicy('cordelia', 'Rome', 'senate', 1);
    await settled('cordelia');
    const loud = await toChannel('hamlet', 'Rome', 'forum', 'Friends, Romans, countrymen');
    expect((await mailWith('cordelia', 'Friends, Romans')).text).toContain('email notifications enabled for #Rome');
    await mailWith('othello', 'Friends, Romans');
    const quiet = await toChannel('hamlet', 'Rome', 'senate', 'Beware the ides of March');
    await mailWith('othello', 'Beware the ides');
    expect(await emailStatus(quiet, 'cordelia')).toBeNull();
    expect(await emailStatus(loud, 'prospero')).toBeNull();
  });

  it('does not email a present user', async () => {
    expectSuccess(
      await as('prospero').post('/users/me/presence', { status: 'active', new_user_input: true }),
      'POST',
      '/users/me/presence',
    );
    const id = await dm('hamlet', ['prospero', 'aaron'], 'The isle is full of noises');
    const mail = await mailWith('aaron', 'The isle is full of noises');
    expect(mail.subject).toMatch(/^Group DMs with /);
    await statusBecomes(id, 'prospero', 'present');
  });

  it('batches: two messages of a conversation within the period make one email', async () => {
    const first = await dm('iago', ['othello'], 'One: I am not what I am');
    const second = await dm('iago', ['othello'], 'Two: beware of jealousy');
    const mail = await mailWith('othello', 'One: I am not what I am');
    expect(mail.text).toContain('Two: beware of jealousy');
    expect(mail.subject).toBe(`DMs with ${world.user('iago').fullName}`);
    await statusBecomes(first, 'othello', 'sent');
    await statusBecomes(second, 'othello', 'sent');
  });

  it('leaves out a message read before the batch went out, and sends nothing for a batch left empty', async () => {
    const read = await dm('hamlet', ['aaron'], 'Read this one on the phone');
    const unread = await dm('hamlet', ['aaron'], 'This one waits for the email');
    const alone = await dm('hamlet', ['polonius'], 'Read at once, never mailed');
    for (const [name, id] of [
      ['aaron', read],
      ['polonius', alone],
    ] as const) {
      expectSuccess(
        await as(name).post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' }),
        'POST',
        '/messages/flags',
      );
    }
    await statusBecomes(read, 'aaron', 'read');
    await statusBecomes(alone, 'polonius', 'read');
    const mail = await mailWith('aaron', 'This one waits for the email');
    expect(mail.text).not.toContain('Read this one on the phone');
    await statusBecomes(unread, 'aaron', 'sent');
    await batchesDone(['polonius']);
    expect(mailsTo('polonius')).toEqual([]);
  });

  it('never emailed those it must not (checked again once every batch has gone out)', async () => {
    await batchesDone(RECEIVERS);
    expect(mailsTo('hamlet')).toEqual([]);
    expect(mailsTo('prospero')).toEqual([]);
    expect(mailsTo('cordelia').filter((m) => m.text.includes('Beware the ides'))).toEqual([]);
    expect(mailsTo('othello').filter((m) => m.text.includes('the ghost walks'))).toEqual([]);
    // One email per conversation and batch: no message quoted twice.
    for (const name of RECEIVERS) {
      const quoted = mailsTo(name).flatMap((m) => m.text.split('\n').filter((line) => line.startsWith('> ')));
      expect(new Set(quoted).size).toBe(quoted.length);
    }
  });
});
