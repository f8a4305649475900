import { ApiClient, type World } from '@confab/devkit';
import { EventTap } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { setRealmPolicies } from './support/internal';
import { openPage } from './support/pages';
import { SmtpStub, type ReceivedMail } from './support/smtp-stub';
import { newWorld, system } from './support/system';
import { SettingsVariant } from './support/variant';

// The first request to a freshly started settings process warms its database client up (about 2 s).
jest.setTimeout(30_000);

/** The confirmation link in a mail (the only URL on a line of its own). */
function linkIn(mail: ReceivedMail): string {
  const line = mail.text.split('\n').find((l) => /^https?:\/\/\S+$/.test(l.trim()));
  if (!line) throw new Error(`no link in ${mail.text}`);
  return line.trim();
}

describe('PATCH /settings email', () => {
  let world: World;
  let smtp: SmtpStub;
  let variant: SettingsVariant;
  let tap: EventTap;

  beforeAll(async () => {
    world = await newWorld();
    smtp = await SmtpStub.start();
    variant = await SettingsVariant.start({
      CONFAB_SMTP_URL: smtp.url,
      CONFAB_EMAIL_FROM: 'Confab <noreply@confab.test>',
    });
    tap = await EventTap.open(['user.updated']);
  });
  afterAll(async () => {
    await tap.close();
    await variant.stop();
    await smtp.close();
  });

  it('mails a confirmation link to the new address and changes the address only when the link is followed', async () => {
    const hamlet = world.user('hamlet');
    const response = await variant.as(world, 'hamlet').patch('/settings', { email: '  prince@denmark.test ' });
    expectSuccess(response, 'PATCH', '/settings');
    // Nothing changes until the link is followed.
    expect((await variant.as(world, 'hamlet').get('/users/me')).body.email).toBe(hamlet.email);

    const mail = await smtp.mailTo('prince@denmark.test');
    expect(mail.from).toBe('noreply@confab.test');
    expect(mail.subject).toBe(`Verify your new email address for ${world.host}`);
    expect(mail.text).toContain(`from ${hamlet.email} to prince@denmark.test`);
    const link = linkIn(mail);
    expect(link).toMatch(new RegExp(`^${world.realm.url}/accounts/confirm_new_email/[a-z0-9]{24}$`));

    // Opening the link shows a confirmation form (mail scanners that fetch links change nothing).
    const page = await openPage(variant.gatewayUrl, link);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('prince@denmark.test');
    const key = /name="key" value="([a-z0-9]{24})"/.exec(page.text)?.[1];
    expect(key).toBe(link.split('/').pop());
    expect((await variant.as(world, 'hamlet').get('/users/me')).body.email).toBe(hamlet.email);

    const confirmed = await openPage(variant.gatewayUrl, `${world.realm.url}/accounts/confirm_new_email`, {
      method: 'POST',
      form: { key: key! },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Email address changed');

    const event = await tap.next((e) => e.payload.user.user_id === hamlet.id);
    expect(event.payload.user).toMatchObject({ email: 'prince@denmark.test', delivery_email: 'prince@denmark.test' });
    // The same API key now goes with the new address; the old address no longer authenticates.
    const renamed = new ApiClient(variant.gatewayUrl, { host: world.host }).withCredentials(
      'prince@denmark.test',
      hamlet.apiKey,
    );
    const me = await renamed.get('/users/me');
    expectSuccess(me, 'GET', '/users/me');
    expect(me.body).toMatchObject({ email: 'prince@denmark.test', delivery_email: 'prince@denmark.test' });
    // The gateways drop cached credentials when they hear user.updated, which may take a moment.
    let old = await variant.as(world, 'hamlet').get('/users/me');
    for (let i = 0; i < 100 && old.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      old = await variant.as(world, 'hamlet').get('/users/me');
    }
    expectError(old, 401, 'UNAUTHORIZED', 'Invalid API key');
    // So does logging in with a password.
    const login = await world
      .anonymous()
      .post('/fetch_api_key', { username: 'prince@denmark.test', password: 'confab-dev' });
    expect(login.body).toMatchObject({ result: 'success', email: 'prince@denmark.test', user_id: hamlet.id });

    // The old address is told.
    const notice = await smtp.mailTo(hamlet.email);
    expect(notice.text).toContain(`from ${hamlet.email} to prince@denmark.test`);

    // A link works once.
    const again = await openPage(variant.gatewayUrl, `${world.realm.url}/accounts/confirm_new_email`, {
      method: 'POST',
      form: { key: key! },
    });
    expect(again.status).toBe(404);
    expect(again.text).toContain('already been used');
    expect((await openPage(variant.gatewayUrl, link)).status).toBe(404);
  });

  it('answers unknown links with a page, through the main gateway too', async () => {
    const page = await openPage(
      system().gatewayUrl,
      `${world.realm.url}/accounts/confirm_new_email/abcdefghijklmnopqrstuvwx`,
    );
    expect(page.status).toBe(404);
    expect(page.text).toContain('could not find this confirmation link');
  });

  it('keeps only the newest request working', async () => {
    expectSuccess(
      await variant.as(world, 'cordelia').patch('/settings', { email: 'first@lear.test' }),
      'PATCH',
      '/settings',
    );
    const first = linkIn(await smtp.mailTo('first@lear.test'));
    expectSuccess(
      await variant.as(world, 'cordelia').patch('/settings', { email: 'second@lear.test' }),
      'PATCH',
      '/settings',
    );
    const second = linkIn(await smtp.mailTo('second@lear.test'));
    expect((await openPage(variant.gatewayUrl, first)).status).toBe(404);
    const key = second.split('/').pop()!;
    expect(
      (
        await openPage(variant.gatewayUrl, `${world.realm.url}/accounts/confirm_new_email`, {
          method: 'POST',
          form: { key },
        })
      ).status,
    ).toBe(200);
    expect((await world.as('iago').get(`/users/${world.user('cordelia').id}`)).body.user.email).toBe(
      'second@lear.test',
    );
  });

  it.each([
    ['not-an-address', 'Invalid address.'],
    ['othello@zulip.com', 'Already has an account.'],
    ['OTHELLO@zulip.com', 'Already has an account.'],
  ])('refuses %j with %j and sends nothing', async (email, msg) => {
    const before = smtp.received.length;
    expectError(await variant.as(world, 'prospero').patch('/settings', { email }), 400, 'BAD_REQUEST', msg);
    expect(smtp.received.length).toBe(before);
  });

  it("refuses a deactivated user's address", async () => {
    expectSuccess(
      await world.as('iago').delete(`/users/${world.user('aaron').id}`),
      'DELETE',
      `/users/${world.user('aaron').id}`,
    );
    expectError(
      await variant.as(world, 'prospero').patch('/settings', { email: 'aaron@zulip.com' }),
      400,
      'BAD_REQUEST',
      'Account has been deactivated.',
    );
  });

  it('changes nothing when the address is the current one', async () => {
    const before = smtp.received.length;
    expectSuccess(
      await variant.as(world, 'prospero').patch('/settings', { email: world.user('prospero').email }),
      'PATCH',
      '/settings',
    );
    expect(smtp.received.length).toBe(before);
  });

  it('is refused when the organization disables email changes, except for administrators', async () => {
    const other = await newWorld();
    await setRealmPolicies(other.realm.realm_id, { email_changes_disabled: true });
    expectError(
      await variant.as(other, 'hamlet').patch('/settings', { email: 'hamlet2@denmark.test' }),
      400,
      'BAD_REQUEST',
      'Email address changes are disabled in this organization.',
    );
    expectSuccess(
      await variant.as(other, 'iago').patch('/settings', { email: 'iago2@venice.test' }),
      'PATCH',
      '/settings',
    );
    await smtp.mailTo('iago2@venice.test');
  });

  it('limits how many changes a user starts', async () => {
    const client = variant.as(world, 'shiva');
    expectSuccess(await client.patch('/settings', { email: 'shiva1@example.test' }), 'PATCH', '/settings');
    expectSuccess(await client.patch('/settings', { email: 'shiva2@example.test' }), 'PATCH', '/settings');
    const limited = await client.patch('/settings', { email: 'shiva3@example.test' });
    expectError(limited, 429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit');
    expect(limited.body['retry-after']).toBeGreaterThan(0);
  });

  it('says so when the server has no way to send mail', async () => {
    expectError(
      await world.as('polonius').patch('/settings', { email: 'polonius@elsewhere.test' }),
      400,
      'BAD_REQUEST',
      'Outgoing email is not configured on this server.',
    );
  });
});
