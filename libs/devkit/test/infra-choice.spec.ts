import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chooseInfrastructure, INFRA_IMAGES, infraMode, REAPER_IMAGE, type ContainerProbe } from '../src/infra-choice';

/** An engine that answers (or not) and holds (or can pull) some images. */
function engine(
  answers: boolean,
  usable: readonly string[],
  pullError = 'dial tcp: lookup registry-1.docker.io: no such host',
) {
  const asked: string[] = [];
  const probe: ContainerProbe = {
    engineAnswers: async () => answers,
    ensureImage: async (image) => {
      asked.push(image);
      return usable.includes(image) ? null : pullError;
    },
  };
  return { probe, asked };
}

describe('infraMode (CONFAB_TEST_INFRA)', () => {
  it('reads local, containers, or nothing', () => {
    expect(infraMode(undefined)).toBe('auto');
    expect(infraMode('')).toBe('auto');
    expect(infraMode('local')).toBe('local');
    expect(infraMode('containers')).toBe('containers');
  });

  it('refuses anything else with one clear message', () => {
    expect(() => infraMode('docker')).toThrow(
      'CONFAB_TEST_INFRA must be "local" or "containers" (or unset to decide), not "docker"',
    );
  });
});

describe('chooseInfrastructure', () => {
  it('uses containers when the engine answers and every image is there or pullable', async () => {
    const { probe, asked } = engine(true, [...INFRA_IMAGES, REAPER_IMAGE]);
    expect(await chooseInfrastructure('auto', probe)).toEqual({ kind: 'containers' });
    expect(asked).toEqual([...INFRA_IMAGES, REAPER_IMAGE]);
  });

  it("uses containers without testcontainers' reaper, and says so, when only its image is missing", async () => {
    const { probe } = engine(true, INFRA_IMAGES);
    expect(await chooseInfrastructure('auto', probe)).toEqual({
      kind: 'containers',
      withoutReaper: true,
      note:
        "testcontainers' reaper is not available (testcontainers/ryuk:0.14.0: " +
        'dial tcp: lookup registry-1.docker.io: no such host): running without it',
    });
  });

  it('does not look for the reaper when it is turned off (TESTCONTAINERS_RYUK_DISABLED)', async () => {
    const { probe, asked } = engine(true, INFRA_IMAGES);
    expect(await chooseInfrastructure('containers', probe, true)).toEqual({ kind: 'containers' });
    expect(asked).toEqual([...INFRA_IMAGES]);
  });

  it('uses the local services when no engine answers', async () => {
    const { probe, asked } = engine(false, INFRA_IMAGES);
    expect(await chooseInfrastructure('auto', probe)).toEqual({ kind: 'local' });
    expect(asked).toEqual([]);
  });

  it('uses the local services, and says why, when the engine answers but cannot pull', async () => {
    const { probe } = engine(true, ['redis:7-alpine']);
    const choice = await chooseInfrastructure('auto', probe);
    expect(choice.kind).toBe('local');
    expect(choice.note).toBe(
      'A Docker engine answers, but the images are neither present nor pullable (' +
        'postgres:15-alpine: dial tcp: lookup registry-1.docker.io: no such host; ' +
        'rabbitmq:3.13-alpine: dial tcp: lookup registry-1.docker.io: no such host): ' +
        'using the local services (CONFAB_TEST_INFRA=containers insists)',
    );
  });

  it('never asks the engine when local is forced', async () => {
    const { probe, asked } = engine(true, INFRA_IMAGES);
    expect(await chooseInfrastructure('local', probe)).toEqual({ kind: 'local' });
    expect(asked).toEqual([]);
  });

  it('fails at once when containers are forced but no engine answers', async () => {
    await expect(chooseInfrastructure('containers', engine(false, INFRA_IMAGES).probe)).rejects.toThrow(
      'CONFAB_TEST_INFRA=containers, but no Docker engine answers (is dockerd running?)',
    );
  });

  it('fails at once, naming the images, when containers are forced but cannot be pulled', async () => {
    await expect(
      chooseInfrastructure(
        'containers',
        engine(true, ['postgres:15-alpine', 'redis:7-alpine'], 'manifest unknown').probe,
      ),
    ).rejects.toThrow(
      'CONFAB_TEST_INFRA=containers, but the images are neither present nor pullable (rabbitmq:3.13-alpine: manifest unknown). ' +
        'Build them offline with scripts/offline-images.sh, or unset CONFAB_TEST_INFRA to use the local PostgreSQL, Redis and RabbitMQ.',
    );
  });
});

describe('REAPER_IMAGE', () => {
  it('is the reaper image the installed testcontainers starts', () => {
    const build = dirname(require.resolve('testcontainers'));
    const source = readFileSync(join(build, 'reaper', 'reaper.js'), 'utf8');
    expect(/"(testcontainers\/ryuk:[^"]+)"/.exec(source)?.[1]).toBe(REAPER_IMAGE);
  });
});
