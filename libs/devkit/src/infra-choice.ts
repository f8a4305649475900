/** The images the test infrastructure runs when it uses containers (the same tags as docker-compose.yml). */
export const INFRA_IMAGES = ['postgres:15-alpine', 'redis:7-alpine', 'rabbitmq:3.13-alpine'] as const;

/** testcontainers' reaper (Ryuk), the image testcontainers 11.9 starts to remove what a crashed run leaves. */
export const REAPER_IMAGE = 'testcontainers/ryuk:0.14.0';

/** `CONFAB_TEST_INFRA`: `local` forces the machine's services, `containers` forces testcontainers, unset decides. */
export type InfraMode = 'auto' | 'local' | 'containers';

export function infraMode(value: string | undefined): InfraMode {
  if (value === undefined || value === '' || value === 'auto') return 'auto';
  if (value === 'local' || value === 'containers') return value;
  throw new Error(`CONFAB_TEST_INFRA must be "local" or "containers" (or unset to decide), not "${value}"`);
}

/** What the choice needs to know about the container engine. */
export interface ContainerProbe {
  engineAnswers(): Promise<boolean>;
  /** Makes the image available (present already, or pulled now): null when it is, otherwise why not. */
  ensureImage(image: string): Promise<string | null>;
}

export interface InfraChoice {
  kind: 'containers' | 'local';
  /** Containers without testcontainers' reaper, whose image is not available (set TESTCONTAINERS_RYUK_DISABLED). */
  withoutReaper?: boolean;
  /** Why containers were not used although an engine answers (said once to the person running the tests). */
  note?: string;
}

/**
 * Containers only when the engine answers and every image is present or pullable, so an engine without registry
 * access never fails the suite halfway with a pull error; forced modes fail at once with one clear message.
 */
export async function chooseInfrastructure(
  mode: InfraMode,
  probe: ContainerProbe,
  reaperDisabled = false,
): Promise<InfraChoice> {
  if (mode === 'local') return { kind: 'local' };
  if (!(await probe.engineAnswers())) {
    if (mode === 'containers') {
      throw new Error('CONFAB_TEST_INFRA=containers, but no Docker engine answers (is dockerd running?)');
    }
    return { kind: 'local' };
  }
  const problems: string[] = [];
  for (const image of INFRA_IMAGES) {
    const problem = await probe.ensureImage(image);
    if (problem !== null) problems.push(`${image}: ${problem}`);
  }
  if (problems.length === 0) {
    if (reaperDisabled) return { kind: 'containers' };
    // Without a registry the reaper cannot be had either; every test removes the containers it starts itself.
    const reaper = await probe.ensureImage(REAPER_IMAGE);
    if (reaper === null) return { kind: 'containers' };
    return {
      kind: 'containers',
      withoutReaper: true,
      note: `testcontainers' reaper is not available (${REAPER_IMAGE}: ${reaper}): running without it`,
    };
  }
  const detail = `the images are neither present nor pullable (${problems.join('; ')})`;
  if (mode === 'containers') {
    throw new Error(
      `CONFAB_TEST_INFRA=containers, but ${detail}. Build them offline with scripts/offline-images.sh, ` +
        'or unset CONFAB_TEST_INFRA to use the local PostgreSQL, Redis and RabbitMQ.',
    );
  }
  return {
    kind: 'local',
    note: `A Docker engine answers, but ${detail}: using the local services (CONFAB_TEST_INFRA=containers insists)`,
  };
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref()),
  ]);

/** The probe through testcontainers' own client (the engine testcontainers would then use). */
export const testcontainersProbe: ContainerProbe = {
  async engineAnswers() {
    try {
      const { getContainerRuntimeClient } = await import('testcontainers');
      await within(getContainerRuntimeClient(), 5000, 'finding a container engine');
      return true;
    } catch {
      return false;
    }
  },
  async ensureImage(image) {
    try {
      const { getContainerRuntimeClient, ImageName } = await import('testcontainers');
      const client = await getContainerRuntimeClient();
      const name = ImageName.fromString(image);
      if (await client.image.exists(name)) return null;
      await within(client.image.pull(name), 120_000, 'pulling');
      // A failed pull can end without an error: only the image being there counts.
      return (await client.image.exists(name)) ? null : 'not present after pulling';
    } catch (err) {
      return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
    }
  },
};
