import { rmSync } from 'node:fs';
import type { Infrastructure, Stack } from '@confab/devkit';

export default async function globalTeardown(): Promise<void> {
  const stack = (globalThis as Record<string, unknown>).__confabStack as Stack | undefined;
  const infra = (globalThis as Record<string, unknown>).__confabInfra as Infrastructure | undefined;
  await stack?.stop({ cleanUp: true });
  await infra?.stop();
  if (process.env.CONFAB_E2E_STATE) rmSync(process.env.CONFAB_E2E_STATE, { force: true });
}
