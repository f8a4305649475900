import { randomBytes } from 'node:crypto';
import { ApiClient, type DevUserName, type ManagedProcess, type World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { eventually } from './support/groups';
import { expectError, expectSuccess } from './support/expect';
import { channelIds, logIn, STRONG_PASSWORD, submitSignUp } from './support/invitations';
import { openPage } from './support/pages';
import { SmtpStub, type ReceivedMail } from './support/smtp-stub';
import { newWorld, startExtraProcess } from './support/system';

// Measured: about 40 s on the 2-core machine (a settings, invitations and gateway process of its own, one organization).
jest.setTimeout(90_000);

let world: World;
let smtp: SmtpStub;
let gatewayUrl: string;
const extras: ManagedProcess[] = [];
const fresh = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`;
const linkIn = (mail: ReceivedMail) => /^(https?:\/\/\S+\/join\/[a-z0-9]{24}\/)$/m.exec(mail.text)?.[1] ?? '';

beforeAll(async () => {
  world = await newWorld();
  smtp = await SmtpStub.start();
  // Mail leaves through settings' transport: a settings process with the SMTP stub, and an invitations process and a
  // gateway that use it (same databases, broker and Redis as the rest of the system).
  const settings = await startExtraProcess('settings', {
    CONFAB_SMTP_URL: smtp.url,
    CONFAB_EMAIL_FROM: 'noreply@confab.test',
  });
  extras.push(settings.process);
  const invitations = await startExtraProcess('invitations', { SETTINGS_URL: settings.url });
  extras.push(invitations.process);
  const gateway = await startExtraProcess('gateway', { INVITATIONS_URL: invitations.url });
  extras.push(gateway.process);
  gatewayUrl = gateway.url;
});
afterAll(async () => {
  for (const proc of extras.reverse()) await proc.stop();
  await smtp.close();
});

function as(name: DevUserName): ApiClient {
  const user = world.user(name);
  return new ApiClient(gatewayUrl, { host: world.host, forwardedFor: world.clientAddress }).withCredentials(
    user.email,
    user.apiKey,
  );
}

interface Invite {
  id: number;
  email?: string;
  is_multiuse: boolean;
  invited_as: number;
  notify_referrer_on_join: boolean;
}
const invites = async (name: DevUserName) => (await as(name).get('/invites')).body.invites as Invite[];

describe('POST /invites (email invitations)', () => {
  it('mails each address a link; the sign-up page takes it once; the referrer is told', async () => {
    const ids = await channelIds(world.as('iago'));
    const iago = await EventQueue.register(world.as('iago'), { event_types: ['invites_changed', 'message'] });
    const first = fresh('ophelia');
    const second = fresh('laertes');
    const response = await as('iago').post('/invites', {
      invitee_emails: `${first}, Laertes <${second}>`,
      stream_ids: [ids.Denmark],
    });
    expectSuccess(response, 'POST', '/invites');
    await iago.next((e) => e.type === 'invites_changed');
    const mail = await smtp.mailTo(first);
    expect(mail.subject).toBe(`Iago invited you to join ${world.realm.name}`);
    expect(mail.text).toContain(`Iago (${world.user('iago').email}) wants you to join them in ${world.realm.name}.`);
    await smtp.mailTo(second);
    const listed = (await invites('iago')).filter((i) => !i.is_multiuse);
    expect(listed.map((i) => i.email).sort()).toEqual([first, second].sort());
    expect(listed[0]).toMatchObject({ invited_as: 400, notify_referrer_on_join: true, is_multiuse: false });

    const link = linkIn(mail);
    const page = await openPage(gatewayUrl, link);
    expect(page.text).toContain(`value="${first}"`);
    const wrong = await submitSignUp(link, {
      full_name: 'Ophelia',
      email: fresh('someone'),
      password: STRONG_PASSWORD,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain(`This invitation is for ${first}.`);
    const joined = await submitSignUp(link, { full_name: 'Ophelia', email: first, password: STRONG_PASSWORD });
    expect(joined.status).toBe(200);
    const ophelia = await logIn(world, first, STRONG_PASSWORD);
    const subs = (await ophelia.get('/users/me/subscriptions')).body.subscriptions as { stream_id: number }[];
    expect(subs.map((s) => s.stream_id)).toEqual([ids.Denmark]);
    const notice = await iago.next((e) => e.type === 'message' && e.message.sender_full_name === 'Notification Bot');
    expect(notice.message.content).toMatch(/accepted your invitation to join Zulip!/);
    expect((await invites('iago')).map((i) => i.email)).not.toContain(first);
    expect((await openPage(gatewayUrl, link)).status).toBe(404);
  });

  it("refuses Zulip's way: existing accounts, invalid addresses, roles, guests, missing parameters", async () => {
    const hamlet = world.user('hamlet').email;
    const failed = await as('iago').post('/invites', { invitee_emails: hamlet, stream_ids: [] });
    expectError(failed, 400, 'INVITATION_FAILED', "We weren't able to invite anyone.");
    expect(failed.body).toMatchObject({
      errors: [[hamlet, 'Already has an account.', false]],
      sent_invitations: false,
    });
    const someNew = fresh('horatio');
    const partly = await as('iago').post('/invites', { invitee_emails: `${hamlet}\n${someNew}`, stream_ids: [] });
    expectError(
      partly,
      400,
      'INVITATION_FAILED',
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
    );
    expect(partly.body.sent_invitations).toBe(true);
    await smtp.mailTo(someNew);
    const invalid = await as('iago').post('/invites', { invitee_emails: 'not-an-address', stream_ids: [] });
    expectError(invalid, 400, 'INVITATION_FAILED', "Some emails did not validate, so we didn't send any invitations.");
    expect(invalid.body.errors).toEqual([['not-an-address', 'Invalid address.', false]]);
    expectError(
      await as('iago').post('/invites', { invitee_emails: '', stream_ids: [] }),
      400,
      'BAD_REQUEST',
      'You must specify at least one email address.',
    );
    expectError(
      await as('iago').post('/invites', { invitee_emails: fresh('x') }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'stream_ids' argument",
    );
    expectError(
      await as('hamlet').post('/invites', { invitee_emails: fresh('y'), stream_ids: [], invite_as: 200 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await as('iago').post('/invites', { invitee_emails: fresh('z'), stream_ids: [], invite_as: 100 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await as('polonius').post('/invites', { invitee_emails: fresh('g'), stream_ids: [] }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expectError(
      await as('iago').post('/invites', { invitee_emails: fresh('s'), stream_ids: [99_999_999] }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID 99999999. No invites were sent.',
    );
  });
});

describe('DELETE /invites/{invite_id} and POST /invites/{invite_id}/resend', () => {
  it('resend mails the invitation again; revoking ends it; others and links are told apart', async () => {
    const email = fresh('yorick');
    expectSuccess(await as('hamlet').post('/invites', { invitee_emails: email, stream_ids: [] }), 'POST', '/invites');
    await smtp.mailTo(email);
    const invite = (await invites('hamlet')).find((i) => i.email === email)!;
    expectSuccess(await as('hamlet').post(`/invites/${invite.id}/resend`), 'POST', '/invites/{invite_id}/resend');
    await eventually(async () => expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(2));
    expectError(
      await as('othello').delete(`/invites/${invite.id}`),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(await as('iago').delete(`/invites/multiuse/${invite.id}`), 400, 'BAD_REQUEST', 'No such invitation');
    expectSuccess(await as('iago').delete(`/invites/${invite.id}`), 'DELETE', '/invites/{invite_id}');
    expect((await invites('hamlet')).map((i) => i.id)).not.toContain(invite.id);
    expectError(await as('iago').delete(`/invites/${invite.id}`), 400, 'BAD_REQUEST', 'No such invitation');
    expectError(await as('iago').post('/invites/99999999/resend'), 400, 'BAD_REQUEST', 'No such invitation');
  });
});
