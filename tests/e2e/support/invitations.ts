import { contracts } from '@confab/events';
import type { ApiClient, World } from '@confab/devkit';
import { DEV_CHANNELS } from '@confab/devkit';
import { publishEvent, waitHandled } from './events';
import { internalRequest } from './internal';
import { openPage, type PageResponse } from './pages';
import { system } from './system';
import { realmRecordOf } from './world-facts';

/** A password the settings service's strength check accepts. */
export const STRONG_PASSWORD = 'violet-otter-harbour-1987';

/** Changes organization permissions as a `realm.updated` event would, and waits until groups and messaging have it. */
export async function setRealmPermissions(world: World, permissions: Record<string, string | number>): Promise<void> {
  const realm = await realmRecordOf(world);
  const eventId = await publishEvent(
    contracts.realmUpdated,
    { realm: { ...realm, permissions: { ...realm.permissions, ...permissions } } },
    realm.realm_id,
    'messaging',
  );
  await waitHandled(system().serviceUrls.groups!, eventId);
}

/** Channel ids of the development channels by name. */
export async function channelIds(client: ApiClient): Promise<Record<(typeof DEV_CHANNELS)[number], number>> {
  const response = await client.get('/streams');
  if (response.status !== 200) throw new Error(`GET /streams failed: ${response.text}`);
  const streams = response.body.streams as { stream_id: number; name: string }[];
  return Object.fromEntries(streams.map((s) => [s.name, s.stream_id])) as Record<(typeof DEV_CHANNELS)[number], number>;
}

/** Creates a link and returns it with its id (from GET /invites). */
export async function createLink(
  client: ApiClient,
  params: Record<string, unknown> = {},
): Promise<{ link: string; id: number; key: string }> {
  const response = await client.post('/invites/multiuse', params);
  if (response.status !== 200) throw new Error(`POST /invites/multiuse failed: ${response.text}`);
  const link = response.body.invite_link as string;
  const listed = await client.get('/invites');
  const invite = (listed.body.invites as { id: number; link_url: string }[]).find((i) => i.link_url === link);
  if (!invite) throw new Error(`${link} is not listed`);
  const key = /\/join\/([a-z0-9]{24})\/$/.exec(link)![1]!;
  return { link, id: invite.id, key };
}

/** Moves a link's expiry (the invitations service's development endpoint). */
export async function setLinkExpiry(inviteId: number, minutesFromNow: number): Promise<void> {
  const { status, body } = await internalRequest(
    'invitations',
    'POST',
    `/dev/invites/${inviteId}/expiry?minutes_from_now=${minutesFromNow}`,
  );
  if (status !== 200) throw new Error(`setting expiry: ${status} ${JSON.stringify(body)}`);
}

/** Submits a link's sign-up form as a browser would. */
export function submitSignUp(
  link: string,
  form: { full_name: string; email: string; password: string },
): Promise<PageResponse> {
  return openPage(system().gatewayUrl, link, { method: 'POST', form });
}

/** Logs in with the password (POST /fetch_api_key) and returns a client for the account. */
export async function logIn(world: World, email: string, password: string): Promise<ApiClient> {
  const response = await world.anonymous().post('/fetch_api_key', { username: email, password });
  if (response.status !== 200) throw new Error(`POST /fetch_api_key failed: ${response.text}`);
  return world.anonymous().withCredentials(response.body.email as string, response.body.api_key as string);
}
