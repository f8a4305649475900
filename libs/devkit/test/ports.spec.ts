import { createServer } from 'node:net';
import { freePort } from '../src/infra';

describe('freePort: ports for test processes to listen on', () => {
  it('hands out distinct ports below the ephemeral range that a process can then listen on', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) expect([port >= 1024, port < 32_768]).toEqual([true, true]);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[0], '0.0.0.0', () => resolve());
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
