// The headless Chromium the web benchmarks drive (CONFAB_CHROMIUM, else Debian's), with the organization's
// *.localhost hosts resolving to this machine, and the web client's origin for a world of the bench stack.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CONFAB_CHROMIUM ?? '/usr/bin/chromium';

/** The browser and the origin the world's organization is served at. */
export async function launchFor(world) {
  const client = world.anonymous();
  const origin = `http://${client.options.host ?? new URL(client.baseUrl).host}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--host-resolver-rules=MAP *.localhost 127.0.0.1'],
  });
  return { browser, origin };
}
