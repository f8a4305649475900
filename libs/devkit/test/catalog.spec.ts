import { databaseServices, plannedProcesses, processes } from '../src/catalog';

describe('process catalog', () => {
  it('lists every process once, and each one runs from a package and an entry point of this checkout', () => {
    const planned = plannedProcesses().map((p) => p.name);
    expect(new Set(planned).size).toBe(planned.length);
    expect(planned).toEqual(expect.arrayContaining(['settings', 'messaging-worker', 'push-worker', 'gateway']));
    // A catalog entry whose package or entry source is missing would silently not be started: none may be.
    expect(processes().map((p) => p.name)).toEqual(planned);
  });

  it('gives every listening process a port variable and every database service its database variable', () => {
    for (const spec of plannedProcesses().filter((p) => p.entry === 'dist/main.js')) {
      expect(spec.portEnv).toMatch(/_PORT$/);
      expect(spec.devPort).toBeGreaterThan(0);
    }
    for (const spec of databaseServices()) expect(spec.databaseEnv).toMatch(/^[A-Z]+_DATABASE_URL$/);
  });
});
