import {
  route,
  type AuthMode,
  type ParamDefs,
  type Route,
  type RouteContext,
  type RouteResult,
  type RouteSpec,
} from '@confab/http';
import { actorFor } from '../domain/actor.js';
import type { Domain } from '../domain/context.js';
import type { Actor } from '../domain/actor.js';

type UserAuth = Extract<AuthMode, 'user' | 'human'>;

/** A route of a signed-in user whose handler gets the acting user, resolved once for the request. */
export interface ActorRouteSpec<Path extends string, P extends ParamDefs, A extends UserAuth> extends Omit<
  RouteSpec<Path, P, A>,
  'handler'
> {
  handler(ctx: RouteContext<Path, P, A> & { actor: Actor }): Promise<RouteResult> | RouteResult;
}

/**
 * Declares routes whose handlers act as the caller: the route layer resolves the caller's user and organization
 * records (actorFor) before the handler runs, so no handler does it itself.
 */
export function actorRoute(domain: Domain) {
  return <const Path extends string, P extends ParamDefs = Record<never, never>, A extends UserAuth = 'user'>(
    spec: ActorRouteSpec<Path, P, A>,
  ): Route =>
    route<Path, P, A>({
      ...spec,
      handler: async (ctx) => spec.handler({ ...ctx, actor: await actorFor(domain, ctx.identity, ctx.requestId) }),
    });
}
