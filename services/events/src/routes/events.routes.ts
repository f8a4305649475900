import { invalid } from '@confab/errors';
import { p, RawResponse, route } from '@confab/http';
import type { EventsDeps } from '../deps.js';
import { badEventQueue } from '../domain/errors.js';
import { eventsJson, getEvents } from '../domain/polling.js';
import { allocateQueue, register } from '../domain/register.js';
import { queueParams, registerInput, registerParams } from './events.params.js';

const getEventsParams = {
  queue_id: p.string().optional(),
  last_event_id: p.int().optional(),
  dont_block: p.bool().default(false),
  ...queueParams,
};

const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };

export function eventRoutes(deps: EventsDeps) {
  return [
    route({
      method: 'POST',
      path: '/register',
      auth: 'user',
      params: registerParams,
      handler: ({ identity, params }) => deps.registers.run(() => register(deps, identity, registerInput(params))),
    }),
    route({
      method: 'GET',
      path: '/events',
      auth: 'user',
      params: getEventsParams,
      async handler({ identity, params, res, ignored: ignoredParameters }) {
        if (params.queue_id === undefined) {
          // Zulip registers a queue on the fly for a non-blocking poll without one (no initial state).
          if (!params.dont_block) throw invalid("Missing 'queue_id' argument");
          const queueId = await allocateQueue(deps, identity, registerInput(params));
          return { events: [], queue_id: queueId };
        }
        const clientGone = new Promise<void>((resolve) => res.once('close', () => resolve()));
        const events = await getEvents(deps, {
          userId: identity.userId,
          realmId: identity.realmId,
          queueId: params.queue_id,
          lastEventId: params.last_event_id,
          dontBlock: params.dont_block,
          clientGone,
        });
        // The stored JSON goes out as it is (no parse and re-serialise per event); like Zulip, queue_id is echoed
        // only for a queue made by this request.
        const ignored = ignoredParameters();
        const extra = ignored.length > 0 ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}` : '';
        return new RawResponse(200, `{"result":"success","msg":"","events":${eventsJson(events)}${extra}}`, JSON_TYPE);
      },
    }),
    route({
      method: 'DELETE',
      path: '/events',
      auth: 'user',
      params: { queue_id: p.string() },
      async handler({ identity, params }) {
        if (!(await deps.store.delete(params.queue_id, identity.userId))) throw badEventQueue(params.queue_id);
        // A poll still waiting on the queue answers now, as Zulip finishes the handler before collecting the queue.
        await deps.wakeups.announceSuperseded(params.queue_id, Number.MAX_SAFE_INTEGER);
        return {};
      },
    }),
  ];
}
