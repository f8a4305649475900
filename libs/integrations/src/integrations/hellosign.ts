import { InvalidJsonError, WebhookResponse, type Integration, type Json } from '../framework.js';
import { requiredParam } from '../toolkit/params.js';
import { list, str } from '../toolkit/wild.js';

/** "A", "A and B" is not Zulip's: "A, and B", "A, B, and C". */
function recipientsText(names: readonly string[]): string {
  if (names.length === 1) return names[0]!;
  return (
    names
      .slice(0, -1)
      .map((name) => `${name}, `)
      .join('') + `and ${names.at(-1)}`
  );
}

function body(payload: Json): string {
  const title = str(payload.signature_request.title);
  const byStatus = new Map<string, string[]>();
  for (const signature of list(payload.signature_request.signatures) as Json[]) {
    const status = str(signature.status_code);
    if (!byStatus.has(status)) byStatus.set(status, []);
    byStatus.get(status)!.push(str(signature.signer_name));
  }
  let actions = '';
  const awaiting = byStatus.get('awaiting_signature');
  if (awaiting?.length) actions += `is awaiting the signature of ${recipientsText(awaiting)}`;
  const signed = byStatus.get('signed');
  if (signed?.length) {
    const text = `was just signed by ${recipientsText(signed)}`;
    actions = actions ? `${actions}, and ${text}` : text;
  }
  return `The \`${title}\` document ${actions}.`.trim();
}

/**
 * HelloSign (zerver/webhooks/hellosign): who a document awaits and who just signed it, in the topic of its title.
 * HelloSign posts its event as a `json` form field and wants "Hello API Event Received" back.
 */
export const hellosign: Integration = {
  name: 'hellosign',
  webhookName: 'HelloSign',
  handle(request) {
    let payload: Json;
    try {
      payload = JSON.parse(requiredParam(request, 'json'));
    } catch (err) {
      if (err instanceof SyntaxError) throw new InvalidJsonError();
      throw err;
    }
    const messages =
      typeof payload === 'object' && payload !== null && 'signature_request' in payload
        ? [{ topic: str(payload.signature_request.title), content: body(payload) }]
        : [];
    return new WebhookResponse(200, { msg: 'Hello API Event Received' }, undefined, messages);
  },
};
