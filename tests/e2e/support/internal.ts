import { serviceToken, type ApiResponse } from '@confab/devkit';
import { system } from './system';

type JsonObject = ApiResponse['body'];

/** A call to a service's /internal API, as another Confab process makes it (never through the gateway). */
export async function internalRequest<T = JsonObject>(
  service: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const base = system().serviceUrls[service];
  if (!base) throw new Error(`service ${service} is not running`);
  const response = await fetch(`${base}/internal${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-confab-identity': serviceToken(system()) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** What the settings service contributes to POST /register for this user. */
export async function initialState(userId: number): Promise<JsonObject> {
  const { status, body } = await internalRequest('settings', 'GET', `/users/${userId}/initial-state`);
  if (status !== 200) throw new Error(`initial state of user ${userId}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** Organization policies that have no public API yet. */
export async function setRealmPolicies(
  realmId: number,
  policies: {
    name_changes_disabled?: boolean;
    email_changes_disabled?: boolean;
    default_email_address_visibility?: 1 | 2 | 3 | 4 | 5;
  },
) {
  const { status, body } = await internalRequest('settings', 'PATCH', `/dev/realms/${realmId}`, policies);
  if (status !== 200) throw new Error(`setting realm policies: ${status} ${JSON.stringify(body)}`);
}
