import { ConfabError, notFound } from '@confab/errors';
import { RawResponse, route, type HttpMethod } from '@confab/http';
import { catalogEntry, integration, webhookRequest } from '@confab/integrations';
import { handleWebhook, type WebhookDeps } from '../domain/webhooks.js';

/** Zulip's success envelope of a webhook, as it is: no ignored_parameters_unsupported (webhooks take any). */
const SUCCESS = JSON.stringify({ result: 'success', msg: '' });

/** Zulip routes every method of a webhook URL to its view (Trello's HEAD, Dropbox's GET challenge among them). */
const METHODS: readonly HttpMethod[] = ['POST', 'GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'];

/** `/api/v1/external/{name}`: one incoming webhook request of any integration of the catalog. */
export function externalRoutes(deps: WebhookDeps) {
  return METHODS.map((method) =>
    route({
      method,
      path: '/external/{name:str}',
      auth: 'user',
      rawBody: true,
      async handler({ path, identity, body, req }) {
        const entry = catalogEntry(path.name);
        if (!entry) throw notFound('Not Found', 'NOT_FOUND');
        const module = integration(path.name);
        // An integration of Zulip's list whose translation is not written yet: the URL exists, the answer says so.
        if (!module) {
          throw new ConfabError(`The ${entry.displayName} integration is not available on this server yet`, {
            status: 501,
          });
        }
        const url = req.url ?? '';
        const queryIndex = url.indexOf('?');
        const contentType = (req.headers['content-type'] ?? '').toLowerCase();
        const request = webhookRequest({
          method,
          path: queryIndex === -1 ? url : url.slice(0, queryIndex),
          query: queryIndex === -1 ? '' : url.slice(queryIndex + 1),
          headers: req.headers,
          body: (body.raw ?? Buffer.alloc(0)).toString('utf8'),
          ...(contentType.startsWith('multipart/form-data') ? { form: body.fields } : {}),
        });
        const answer = await handleWebhook(deps, module, request, {
          realmId: identity.realmId,
          userId: identity.userId,
        });
        if (answer.kind === 'raw') {
          return new RawResponse(answer.status, answer.body, { 'Content-Type': answer.contentType });
        }
        const text =
          Object.keys(answer.data).length === 0
            ? SUCCESS
            : // Zulip's json_success(request, data): the data's keys win (HelloSign's own `msg`).
              JSON.stringify({ result: 'success', msg: '', ...answer.data });
        return new RawResponse(200, text, { 'Content-Type': 'application/json; charset=utf-8' });
      },
    }),
  );
}
