import { p, parseValue, route, t } from '@confab/http';
import { invalid } from '@confab/errors';
import type { SettingsDeps } from '../deps.js';
import { authenticateApiKey } from '../domain/auth.js';
import { createDevOrganization, DEV_PASSWORD_DEFAULT } from '../domain/provisioning.js';
import { realmRecord } from '../domain/realms.js';
import { userRecord } from '../domain/users.js';

const authenticateBody = t.object({ email: t.string(), api_key: t.string() });
const devRealmBody = t.object(
  {
    string_id: t.string({ maxLength: 40 }),
    name: t.optional(t.string({ maxLength: 100 })),
    password: t.optional(t.string()),
    jwt_key: t.optional(t.nullable(t.string())),
  },
  { extra: 'forbid' },
);

/** Routes other Confab processes call; never reachable through the gateway. */
export function internalRoutes(deps: SettingsDeps) {
  const routes = [
    route({
      method: 'POST',
      path: '/authenticate',
      auth: 'service',
      json: true,
      async handler({ body }) {
        const { email, api_key } = parseValue(authenticateBody, body.json, 'body');
        return { identity: await authenticateApiKey(deps.repo, email, api_key) };
      },
    }),
    route({
      method: 'GET',
      path: '/realms',
      auth: 'service',
      params: { after_id: p.int().default(0) },
      async handler({ params }) {
        const realms = await deps.repo.realmsAfter(params.after_id, 500);
        return { realms: realms.map((r) => realmRecord(r, deps.config.externalUrl)) };
      },
    }),
    route({
      method: 'GET',
      path: '/users',
      auth: 'service',
      params: { after_id: p.int().default(0) },
      async handler({ params }) {
        const users = await deps.repo.usersAfter(params.after_id, 1000);
        return { users: users.map(userRecord) };
      },
    }),
  ];
  if (deps.config.devEndpoints) {
    routes.push(
      route({
        method: 'POST',
        path: '/dev/realms',
        auth: 'service',
        json: true,
        async handler({ body, requestId }) {
          const spec = parseValue(devRealmBody, body.json, 'body');
          const eventIds: string[] = [];
          const created = await createDevOrganization(
            {
              repo: deps.repo,
              externalUrl: deps.config.externalUrl,
              passwordHashCost: deps.config.passwordHashCost,
              requestId,
              onEvents: (ids) => eventIds.push(...ids),
            },
            {
              stringId: spec.string_id,
              name: spec.name,
              password: spec.password ?? DEV_PASSWORD_DEFAULT,
              jwtKey: spec.jwt_key ?? null,
            },
          );
          if (!created) throw invalid(`Subdomain '${spec.string_id}' is already in use`);
          return {
            realm: realmRecord(created.realm, deps.config.externalUrl),
            users: created.users.map(({ user, apiKey }) => ({ ...userRecord(user), api_key: apiKey })),
            event_ids: eventIds,
          };
        },
      }),
    );
  }
  return routes;
}
