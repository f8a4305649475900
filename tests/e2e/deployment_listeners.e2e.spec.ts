// Issue 30, findings 1 and 5: where the processes of the suite's own deployment listen — its services and the events
// channel on 127.0.0.1 only, /metrics on each process's internal listener only (docs/security.md). A property of the
// one-machine deployment the suite starts: a deployment started elsewhere (CONFAB_TEST_STATE, e.g. the three hosts,
// whose services listen on each host's address by design) is not tested here (jest.config.js, OWN_DEPLOYMENT).
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { processes } from '@confab/devkit';
import { system } from './support/system';

/** One non-loopback IPv4 address of this machine: what another host on the network would connect to. */
function externalAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal);
  if (!found) throw new Error('this machine has no non-loopback IPv4 address to test from');
  return found.address;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(3000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const portOf = (url: string) => Number(new URL(url).port);

describe('where the processes listen (findings 1 and 5)', () => {
  it('answers the services only on 127.0.0.1, not on the machine’s network address', async () => {
    const external = externalAddress();
    for (const [service, url] of Object.entries(system().serviceUrls)) {
      if (service === 'gateway') continue;
      expect({ service, loopback: await accepts('127.0.0.1', portOf(url)) }).toEqual({ service, loopback: true });
      expect({ service, external: await accepts(external, portOf(url)) }).toEqual({ service, external: false });
    }
    // The events service's channel for the gateway too.
    for (const spec of processes().filter((p) => p.channel)) {
      const port = Number(system().processes[spec.name]!.env[spec.channel!.portEnv]);
      expect({ channel: spec.name, loopback: await accepts('127.0.0.1', port) }).toEqual({
        channel: spec.name,
        loopback: true,
      });
      expect({ channel: spec.name, external: await accepts(external, port) }).toEqual({
        channel: spec.name,
        external: false,
      });
    }
  });

  it('serves /metrics of every process on its internal listener only, never on an API port', async () => {
    const external = externalAddress();
    for (const spec of processes()) {
      const metricsUrl = system().metricsUrls[spec.name];
      expect([spec.name, typeof metricsUrl]).toEqual([spec.name, 'string']);
      const response = await fetch(`${metricsUrl}/metrics`);
      expect([spec.name, response.status]).toEqual([spec.name, 200]);
      expect([spec.name, await response.text()]).toEqual([
        spec.name,
        expect.stringMatching(/process_cpu_seconds_total\{service="[\w-]+"\} /),
      ]);
      expect([spec.name, await accepts(external, portOf(metricsUrl!))]).toEqual([spec.name, false]);
    }
    for (const [service, url] of Object.entries(system().serviceUrls)) {
      expect({ service, status: (await fetch(`${url}/metrics`)).status }).toEqual({ service, status: 404 });
    }
  });
});
