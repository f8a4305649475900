import type { IncomingMessage } from 'node:http';
import { p, RawResponse, route } from '@confab/http';
import type { Logger } from '@confab/logging';
import type { SettingsDeps } from '../deps.js';
import { realmForHost } from '../domain/directory.js';
import { realmUrl } from '../domain/realms.js';
import {
  changeOfPatch,
  changeOfResource,
  createUser,
  getUser,
  listUsers,
  scimAuthorized,
  ScimError,
  updateUser,
  type ScimContext,
} from '../domain/sso/scim.js';
import type { Realm } from '../domain/types.js';
import { ssoProvisioning } from '../sso-wiring.js';

function scimJson(status: number, body: unknown): RawResponse {
  return new RawResponse(status, status === 204 ? '' : JSON.stringify(body), {
    'content-type': 'application/scim+json',
    'cache-control': 'no-store',
  });
}

/**
 * SCIM 2.0 at /scim/v2/Users (Okta, Entra ID), only where CONFAB_SCIM_TOKENS gives the organization a token: every
 * answer, errors included, in SCIM's shapes (401 without the organization's bearer token).
 */
export function scimRoutes(deps: SettingsDeps) {
  const tokens = deps.config.sso.scimTokens;
  if (Object.keys(tokens).length === 0) return [];

  function scim(run: (realm: Realm, ctx: ScimContext) => Promise<RawResponse>) {
    return async ({ req, requestId, log }: { req: IncomingMessage; requestId: string; log: Logger }) => {
      try {
        const realm = await realmForHost(deps.db, req.headers.host, deps.config.externalUrl);
        if (!realm || realm.deactivated || !scimAuthorized(tokens, realm, req.headers.authorization)) {
          throw new ScimError(401, 'Authentication credentials were not provided or are invalid.');
        }
        const ctx: ScimContext = {
          provisioning: ssoProvisioning(deps, requestId),
          presence: deps.presence,
          baseUrl: realmUrl(realm, deps.config.externalUrl),
        };
        return await run(realm, ctx);
      } catch (err) {
        if (err instanceof ScimError) return scimJson(err.status, err.body());
        log.error({ err }, 'SCIM request failed');
        return scimJson(500, new ScimError(500, 'Internal server error').body());
      }
    };
  }

  const listParams = {
    filter: p.string().optional(),
    startIndex: p.string().optional(),
    count: p.string().optional(),
  };
  const intOf = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);

  return [
    route({
      method: 'GET',
      path: '/scim/v2/Users',
      auth: 'public',
      params: listParams,
      handler: (c) =>
        scim(async (realm, ctx) =>
          scimJson(
            200,
            await listUsers(ctx, realm, {
              filter: c.params.filter,
              startIndex: intOf(c.params.startIndex),
              count: intOf(c.params.count),
            }),
          ),
        )(c),
    }),
    route({
      method: 'POST',
      path: '/scim/v2/Users',
      auth: 'public',
      json: true,
      handler: (c) => scim(async (realm, ctx) => scimJson(201, await createUser(ctx, realm, c.body.json)))(c),
    }),
    route({
      method: 'GET',
      path: '/scim/v2/Users/{id:str}',
      auth: 'public',
      handler: (c) => scim(async (realm, ctx) => scimJson(200, await getUser(ctx, realm, c.path.id)))(c),
    }),
    route({
      method: 'PUT',
      path: '/scim/v2/Users/{id:str}',
      auth: 'public',
      json: true,
      handler: (c) =>
        scim(async (realm, ctx) =>
          scimJson(200, await updateUser(ctx, realm, c.path.id, changeOfResource(c.body.json))),
        )(c),
    }),
    route({
      method: 'PATCH',
      path: '/scim/v2/Users/{id:str}',
      auth: 'public',
      json: true,
      handler: (c) =>
        scim(async (realm, ctx) => scimJson(200, await updateUser(ctx, realm, c.path.id, changeOfPatch(c.body.json))))(
          c,
        ),
    }),
    route({
      // Zulip deactivates rather than deletes: messages stay, and the account can come back.
      method: 'DELETE',
      path: '/scim/v2/Users/{id:str}',
      auth: 'public',
      handler: (c) =>
        scim(async (realm, ctx) => {
          await updateUser(ctx, realm, c.path.id, { active: false });
          return scimJson(204, null);
        })(c),
    }),
  ];
}
