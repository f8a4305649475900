import { databaseServices, plannedProcesses, processes } from '../src/catalog';

describe('process catalog', () => {
  it('lists every planned process once, with the processes present in this checkout among them', () => {
    const planned = plannedProcesses().map((p) => p.name);
    expect(new Set(planned).size).toBe(planned.length);
    expect(planned).toEqual(expect.arrayContaining(['settings', 'messaging-worker', 'push-worker', 'gateway']));
    for (const spec of processes()) expect(planned).toContain(spec.name);
    expect(processes().map((p) => p.name)).toEqual(expect.arrayContaining(['settings', 'gateway']));
  });

  it('gives every listening process a port variable and every database service its database variable', () => {
    for (const spec of plannedProcesses().filter((p) => p.entry === 'dist/main.js')) {
      expect(spec.portEnv).toMatch(/_PORT$/);
      expect(spec.devPort).toBeGreaterThan(0);
    }
    for (const spec of databaseServices()) expect(spec.databaseEnv).toMatch(/^[A-Z]+_DATABASE_URL$/);
  });
});
