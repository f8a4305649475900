import { removeLeftovers, type ImportLoaders } from '../src/orchestrator';
import type { ServiceLoader } from '../src/loader';

/**
 * The organizations each fake service holds, and those purged from it. Settings creates organization 52 (as
 * `POST /dev/realms` or a sign-up does) the moment the first other service is asked: by the time that service's
 * answer is in, the new organization has reached it through settings' events.
 */
function fakeServices() {
  const held: Record<string, number[]> = { settings: [1], groups: [1, 7], messaging: [1, 7], push: [1], events: [] };
  const purged: Record<string, number[]> = { settings: [], groups: [], messaging: [], push: [], events: [] };
  let created = false;
  const loader = (name: string): ServiceLoader => ({
    realms: async () => {
      if (name !== 'settings' && !created) {
        created = true;
        held.settings!.push(52);
        held.groups!.push(52);
        held.messaging!.push(52);
      }
      return [...held[name]!];
    },
    purge: async (realmId: number) => {
      purged[name]!.push(realmId);
      held[name] = held[name]!.filter((id) => id !== realmId);
    },
    allocate: async () => ({}),
    apply: async () => undefined,
    stage: async () => ({ counts: {}, events: [] }),
    commit: async () => undefined,
    abort: async () => undefined,
    close: async () => undefined,
  });
  const loaders = Object.fromEntries(
    ['settings', 'groups', 'messaging', 'push', 'events'].map((n) => [n, loader(n)]),
  ) as unknown as ImportLoaders;
  return { loaders, held, purged };
}

describe('removing the leftovers of an interrupted import', () => {
  it('removes the organizations settings never got, from every other service', async () => {
    const { loaders, purged, held } = fakeServices();
    const lines: string[] = [];
    await removeLeftovers(loaders, (line) => lines.push(line));
    expect(purged).toEqual({ settings: [], groups: [7], messaging: [7], push: [], events: [] });
    expect(lines).toEqual([
      'groups: removing the leftovers of an interrupted import (organization 7)',
      'messaging: removing the leftovers of an interrupted import (organization 7)',
    ]);
    expect(held.messaging).toEqual([1, 52]);
  });

  it('keeps an organization created while it looks (its users stay in groups and messaging)', async () => {
    const { loaders, purged, held } = fakeServices();
    await removeLeftovers(loaders, () => undefined);
    expect(purged.groups).not.toContain(52);
    expect(purged.messaging).not.toContain(52);
    expect(held.groups).toContain(52);
  });
});
