import { connect } from 'amqplib';
import { makeEnvelope, type EventContract } from '@confab/events';
import { serviceToken } from '@confab/devkit';
import { system } from './system';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Publishes an event on the run's exchange as its owning service would (for facts no endpoint of the system can
 * change yet, such as organization settings), and waits until the given service has handled it.
 */
export async function publishEvent<T>(
  contract: EventContract<T>,
  payload: T,
  realmId: number | null,
  waitFor = 'messaging',
): Promise<string> {
  const info = system();
  const envelope = makeEnvelope(contract, payload, { realmId });
  const connection = await connect(info.amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    await new Promise<void>((resolve, reject) => {
      channel.publish(
        info.exchange,
        contract.type,
        Buffer.from(JSON.stringify(envelope)),
        { persistent: true, contentType: 'application/json' },
        (err: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()),
      );
    });
    await channel.close();
  } finally {
    await connection.close();
  }
  const base = info.serviceUrls[waitFor];
  if (!base) throw new Error(`service ${waitFor} is not running`);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${base}/internal/events/processed/${envelope.event_id}`, {
      headers: { 'x-confab-identity': serviceToken(info) },
    });
    const body = (await response.json()) as { processed?: boolean };
    if (body.processed) return envelope.event_id;
    if (Date.now() > deadline) throw new Error(`${waitFor} did not handle ${contract.type} ${envelope.event_id}`);
    await sleep(25);
  }
}
