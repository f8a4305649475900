import { initialStateRoute, ParamIssue, p, parseValue, route, t, type Schema } from '@confab/http';
import { invalid, notFound } from '@confab/errors';
import type { SettingsDeps } from '../deps.js';
import { authenticateApiKey } from '../domain/auth.js';
import {
  personalFiltersAfter,
  realmEmojiAfter,
  realmsAfter,
  userSettingsAfter,
  usersAfter,
} from '../domain/backfill.js';
import { outgoingServicesOf } from '../domain/bots.js';
import { initialState } from '../domain/initial-state.js';
import { awayUsers } from '../domain/presence.js';
import { createDevOrganization, DEV_PASSWORD_DEFAULT, setRealmPolicies } from '../domain/provisioning.js';
import { realmRecord, subdomainFromHost } from '../domain/realms.js';
import { userRecord } from '../domain/users.js';
import { settingsExportPart } from '../domain/export-part.js';

// No email: an incoming webhook's `api_key` parameter, which names no user (Zulip's webhook_view).
const authenticateBody = t.object({ email: t.optional(t.string()), api_key: t.string(), host: t.optional(t.string()) });
const devRealmBody = t.object(
  {
    string_id: t.string({ maxLength: 40 }),
    name: t.optional(t.string({ maxLength: 100 })),
    password: t.optional(t.string()),
    jwt_key: t.optional(t.nullable(t.string())),
  },
  { extra: 'forbid' },
);
/** Group-valued permissions to change: setting name → system group name ("role:members") or group id. */
const groupRefs: Schema<Record<string, string | number>> = {
  parse(value, loc) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ParamIssue('dict_type', loc);
    const out: Record<string, string | number> = {};
    for (const [key, ref] of Object.entries(value as Record<string, unknown>))
      out[key] = t.union(t.string(), t.int()).parse(ref, [...loc, key]);
    return out;
  },
};

const devRealmPolicies = t.object(
  {
    name_changes_disabled: t.optional(t.bool()),
    email_changes_disabled: t.optional(t.bool()),
    presence_disabled: t.optional(t.bool()),
    waiting_period_threshold: t.optional(t.int({ min: 0 })),
    permissions: t.optional(groupRefs),
    /** The email_address_visibility new users start with (Zulip's realm user default). */
    default_email_address_visibility: t.optional(t.literal(1, 2, 3, 4, 5)),
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
        const { email, api_key, host } = parseValue(authenticateBody, body.json, 'body');
        // The organization the request came to, when the gateway says (Basic-authenticated API requests).
        const subdomain = host === undefined ? undefined : subdomainFromHost(host, deps.config.externalUrl);
        return { identity: await authenticateApiKey(deps.db, email ?? null, api_key, subdomain) };
      },
    }),
    route({
      method: 'GET',
      path: '/realms',
      auth: 'service',
      // `limit` 1 with after_id one below an id reads that one organization (push's missed-message emails).
      params: { after_id: p.int().default(0), limit: p.int().default(500) },
      async handler({ params }) {
        return { realms: await realmsAfter(deps.db, params.after_id, deps.config.externalUrl, params.limit) };
      },
    }),
    route({
      // Messaging's export job: this service's part of an organization's export in Zulip's format.
      method: 'GET',
      path: '/realms/{realm_id:int}/export',
      auth: 'service',
      params: { export_type: p.int({ min: 1, max: 3 }) },
      async handler({ path, params }) {
        const part = await settingsExportPart(
          { db: deps.db, avatars: deps.images, emoji: deps.files },
          path.realm_id,
          params.export_type,
        );
        if (!part) throw notFound('No such organization');
        return part;
      },
    }),
    route({
      method: 'GET',
      path: '/users',
      auth: 'service',
      params: { after_id: p.int().default(0), limit: p.int().default(1000) },
      async handler({ params }) {
        return { users: await usersAfter(deps.db, params.after_id, params.limit) };
      },
    }),
    initialStateRoute(
      {
        fetch_event_types: p.json(t.nullable(t.list(t.string()))).default(null),
        client_gravatar: p.bool().default(true),
        slim_presence: p.bool().default(false),
        presence_history_limit_days: p.int().optional(),
        presence_last_update_id: p.int().optional(),
      },
      (userId, params) =>
        initialState(deps, userId, {
          fetchEventTypes: params.fetch_event_types,
          clientGravatar: params.client_gravatar,
          slimPresence: params.slim_presence,
          presenceHistoryLimitDays: params.presence_history_limit_days,
          presenceLastUpdateId: params.presence_last_update_id,
        }),
    ),
    route({
      // Custom emoji by organization, for services that render with them (messaging's backfill).
      method: 'GET',
      path: '/realm_emoji',
      auth: 'service',
      params: { after_id: p.int().default(0) },
      async handler({ params }) {
        return { realms: await realmEmojiAfter(deps.db, params.after_id) };
      },
    }),
    route({
      // Muted users and alert words by user, for services that filter with them (messaging's backfill).
      method: 'GET',
      path: '/personal_filters',
      auth: 'service',
      params: { after_id: p.int().default(0) },
      async handler({ params }) {
        return { users: await personalFiltersAfter(deps.db, params.after_id) };
      },
    }),
    route({
      // An outgoing webhook bot's services, for messaging's deliverer (internal.botServices).
      method: 'GET',
      path: '/bots/{bot_id:int}/services',
      auth: 'service',
      async handler({ path }) {
        return { services: await outgoingServicesOf(deps.db, path.bot_id) };
      },
    }),
    route({
      // Which of these users are away (no recent activity), for the push service's notifications.
      method: 'GET',
      path: '/presence/away',
      auth: 'service',
      params: { realm_id: p.int(), user_ids: p.json(t.list(t.int())) },
      async handler({ params }) {
        return { away_user_ids: await awayUsers(deps.presence, params.realm_id, params.user_ids.slice(0, 10_000)) };
      },
    }),
    route({
      // Every user's full settings, for services that keep a copy (backfill; changes come as user_settings.changed).
      method: 'GET',
      path: '/user_settings',
      auth: 'service',
      params: { after_id: p.int().default(0), limit: p.int().default(500) },
      async handler({ params }) {
        return { user_settings: await userSettingsAfter(deps.db, params.after_id, params.limit) };
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
              db: deps.db,
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
      route({
        // Organization policies that have no API yet (PATCH /realm belongs to no service so far).
        method: 'PATCH',
        path: '/dev/realms/{realm_id:int}',
        auth: 'service',
        json: true,
        async handler({ path, body, requestId }) {
          const spec = parseValue(devRealmPolicies, body.json, 'body');
          const realm = await setRealmPolicies(
            {
              db: deps.db,
              externalUrl: deps.config.externalUrl,
              passwordHashCost: deps.config.passwordHashCost,
              requestId,
            },
            path.realm_id,
            {
              nameChangesDisabled: spec.name_changes_disabled,
              emailChangesDisabled: spec.email_changes_disabled,
              presenceDisabled: spec.presence_disabled,
              waitingPeriodThreshold: spec.waiting_period_threshold,
              permissions: spec.permissions,
              defaultEmailAddressVisibility: spec.default_email_address_visibility,
            },
          );
          if (!realm) throw notFound('No such organization');
          return { realm: realmRecord(realm, deps.config.externalUrl) };
        },
      }),
    );
  }
  return routes;
}
