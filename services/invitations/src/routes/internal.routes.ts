import { invalid, notFound } from '@confab/errors';
import { internal } from '@confab/events';
import { internalRoute, p, route } from '@confab/http';
import type { InvitationsDeps } from '../deps.js';
import { signUpBySso } from '../domain/join.js';

/** Routes other Confab processes (and, with CONFAB_DEV_ENDPOINTS, tests) call; never reachable through the gateway. */
export function internalRoutes(deps: InvitationsDeps) {
  const ssoSignUp = internalRoute(internal.endpoints.acceptInvitationBySso, async (spec) => {
    const outcome = await signUpBySso(
      { repo: deps.repo, owners: deps.owners, defaultWelcomeText: deps.config.defaultWelcomeText, logger: deps.logger },
      spec.realm_id,
      spec.email,
      spec.full_name,
    );
    if (outcome.kind === 'none') return { user_id: null };
    if (outcome.kind === 'created') return { user_id: outcome.userId };
    if (outcome.kind === 'refused') throw invalid(outcome.message);
    throw invalid(
      outcome.completed
        ? `An account for ${spec.email} has already been created. Please sign in again.`
        : `An account for ${spec.email} is being created. Wait a moment, then sign in again.`,
    );
  });
  if (!deps.config.devEndpoints) return [ssoSignUp];
  return [
    ssoSignUp,
    route({
      // Ages a link so tests can see an expired one without waiting (minutes from now; negative: in the past).
      method: 'POST',
      path: '/dev/invites/{invite_id:int}/expiry',
      auth: 'service',
      params: { minutes_from_now: p.int() },
      async handler({ path, params }) {
        const at = new Date(Date.now() + params.minutes_from_now * 60_000);
        if (!(await deps.repo.setExpiry(path.invite_id, at))) throw notFound('No such invitation');
        return {};
      },
    }),
  ];
}
