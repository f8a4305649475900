import { randomBytes } from 'node:crypto';
import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

jest.setTimeout(120_000);

/** Zulip's INVITES_DEFAULT_REALM_DAILY_MAX, the deployment's default INVITATIONS_MAX_PER_DAY. */
const DAILY_MAX = 100;
const LIMIT_MSG =
  'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.';

const addresses = (n: number) => {
  const tag = randomBytes(4).toString('hex');
  return Array.from({ length: n }, (_, i) => `guest${i}-${tag}@example.com`);
};

/** Zulip's check_invite_limit: an organization's email invitations per day, counted before the addresses are checked. */
describe('the daily limit of email invitations (POST /invites)', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  const invites = async () => ((await world.as('iago').get('/invites')).body.invites as { id: number }[]).length;

  it('refuses a request that would pass the limit, sends nothing, and counts what was sent today', async () => {
    const tooMany = await world.as('iago').post('/invites', {
      invitee_emails: addresses(DAILY_MAX + 1).join(','),
      stream_ids: [],
    });
    expectError(tooMany, 400, 'INVITATION_FAILED', LIMIT_MSG, {
      errors: [],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: true,
    });
    expect(await invites()).toBe(0);

    // Up to the limit, in two requests by two people: both are counted.
    const first = await world.as('iago').post('/invites', {
      invitee_emails: addresses(DAILY_MAX - 1).join('\n'),
      stream_ids: [],
    });
    expectSuccess(first, 'POST', '/invites');
    const last = await world.as('hamlet').post('/invites', { invitee_emails: addresses(1)[0], stream_ids: [] });
    expectSuccess(last, 'POST', '/invites');
    expect(await invites()).toBe(DAILY_MAX);

    // Even one more address, or mailing one again, is over the limit now.
    const over = await world.as('cordelia').post('/invites', { invitee_emails: addresses(1)[0], stream_ids: [] });
    expectError(over, 400, 'INVITATION_FAILED', LIMIT_MSG, { daily_limit_reached: true, sent_invitations: false });
    const [invite] = (await world.as('hamlet').get('/invites')).body.invites as { id: number }[];
    expectError(await world.as('hamlet').post(`/invites/${invite!.id}/resend`), 400, 'INVITATION_FAILED', LIMIT_MSG);
    expect(await invites()).toBe(DAILY_MAX);

    // Reusable invitation links are not email invitations: not limited.
    expectSuccess(await world.as('iago').post('/invites/multiuse', {}), 'POST', '/invites/multiuse');
  });

  it('counts each invitation mailed again, as Zulip counts every invitation mail of the day', async () => {
    const own = await newWorld();
    const sent = await own.as('iago').post('/invites', {
      invitee_emails: addresses(DAILY_MAX - 2).join(','),
      stream_ids: [],
    });
    expectSuccess(sent, 'POST', '/invites');
    const [invite] = (await own.as('iago').get('/invites')).body.invites as { id: number }[];
    // Two resends fill the day: the 99th and 100th mails.
    expectSuccess(await own.as('iago').post(`/invites/${invite!.id}/resend`), 'POST', '/invites/{invite_id}/resend');
    expectSuccess(await own.as('iago').post(`/invites/${invite!.id}/resend`), 'POST', '/invites/{invite_id}/resend');
    // A new invitation is over the limit now, and so is a third resend.
    const over = await own.as('iago').post('/invites', { invitee_emails: addresses(1)[0], stream_ids: [] });
    expectError(over, 400, 'INVITATION_FAILED', LIMIT_MSG, {
      errors: [],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: true,
    });
    expectError(await own.as('iago').post(`/invites/${invite!.id}/resend`), 400, 'INVITATION_FAILED', LIMIT_MSG, {
      daily_limit_reached: true,
      sent_invitations: false,
    });
    expect(((await own.as('iago').get('/invites')).body.invites as unknown[]).length).toBe(DAILY_MAX - 2);
  });

  it('still checks who may invite first', async () => {
    const own = await newWorld();
    expectSuccess(
      await own
        .as('desdemona')
        .patch('/realm', { can_invite_users_group: JSON.stringify({ new: await adminsGroup(own) }) }),
      'PATCH',
      '/realm',
      { undocumented: true },
    );
    expectError(
      await own.as('hamlet').post('/invites', { invitee_emails: addresses(DAILY_MAX + 1).join(','), stream_ids: [] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });
});

async function adminsGroup(world: World): Promise<number> {
  const groups = (await world.as('iago').get('/user_groups')).body.user_groups as { id: number; name: string }[];
  return groups.find((g) => g.name === 'role:administrators')!.id;
}
