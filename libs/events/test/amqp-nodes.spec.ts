import { amqpUrls } from '../src/amqp-nodes';

describe('AMQP_URL with several nodes', () => {
  it('is one URL per node; later nodes without credentials, vhost or query take the first one’s', () => {
    expect(amqpUrls('amqp://guest:guest@127.0.0.1:5672')).toEqual(['amqp://guest:guest@127.0.0.1:5672']);
    expect(
      amqpUrls(
        'amqp://confab:pw@10.0.0.1:5672/prod?heartbeat=5, amqp://10.0.0.2:5672 ,10.0.0.3:5672,amqp://u:v@10.0.0.4',
      ),
    ).toEqual([
      'amqp://confab:pw@10.0.0.1:5672/prod?heartbeat=5',
      'amqp://confab:pw@10.0.0.2:5672/prod?heartbeat=5',
      'amqp://confab:pw@10.0.0.3:5672/prod?heartbeat=5',
      'amqp://u:v@10.0.0.4/prod?heartbeat=5',
    ]);
  });
});
