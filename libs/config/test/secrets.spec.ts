import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkedSecret,
  commonConfig,
  commonEnv,
  ConfigError,
  DEVELOPMENT_INTERNAL_SECRET,
  parseEnv,
  readSecret,
  z,
} from '@confab/config';

const load = (env: Record<string, string | undefined>) => commonConfig(parseEnv(z.object(commonEnv), env));
const REAL = 'f3a1c9e07b5d4e2a8c6b0d9f1e3a5c7b9d2f4e6a8c0b1d3e';

function problems(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('no ConfigError');
}

describe('the internal identity secret', () => {
  it('is production without NODE_ENV, which refuses a missing secret and says how to set one', () => {
    const message = problems(() => load({}));
    expect(message).toMatch(/CONFAB_INTERNAL_SECRET is not set, and NODE_ENV=production requires a real secret/);
    expect(message).toMatch(/openssl rand -hex 32/);
    expect(message).toMatch(/docs\/security\.md/);
  });

  it('refuses the development default, placeholders and short secrets outside development', () => {
    for (const env of [{}, { NODE_ENV: 'production' }]) {
      expect(problems(() => load({ ...env, CONFAB_INTERNAL_SECRET: DEVELOPMENT_INTERNAL_SECRET }))).toMatch(
        /published default or placeholder/,
      );
      expect(
        problems(() => load({ ...env, CONFAB_INTERNAL_SECRET: 'placeholder-internal-secret-change-me-please' })),
      ).toMatch(/published default or placeholder/);
      expect(problems(() => load({ ...env, CONFAB_INTERNAL_SECRET: 'a'.repeat(40) }))).toMatch(/placeholder/);
      expect(problems(() => load({ ...env, CONFAB_INTERNAL_SECRET: REAL.slice(0, 31) }))).toMatch(
        /too short \(31 characters; NODE_ENV=production needs at least 32\)/,
      );
    }
    expect(load({ CONFAB_INTERNAL_SECRET: REAL }).internalSecret).toBe(REAL);
  });

  it('falls back to the development default only when development or test is said explicitly', () => {
    expect(load({ NODE_ENV: 'development' }).internalSecret).toBe(DEVELOPMENT_INTERNAL_SECRET);
    expect(load({ NODE_ENV: 'test' }).internalSecret).toBe(DEVELOPMENT_INTERNAL_SECRET);
    expect(load({ NODE_ENV: 'development', CONFAB_INTERNAL_SECRET: 'sixteen-chars-ok' }).internalSecret).toBe(
      'sixteen-chars-ok',
    );
    expect(problems(() => load({ NODE_ENV: 'development', CONFAB_INTERNAL_SECRET: 'short' }))).toMatch(/16/);
  });

  it('is read from a file (CONFAB_INTERNAL_SECRET_FILE), and a previous one is accepted for a rotation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confab-secret-'));
    try {
      writeFileSync(join(dir, 'internal'), `${REAL}\n`);
      const previous = REAL.split('').reverse().join('');
      const config = load({
        CONFAB_INTERNAL_SECRET_FILE: join(dir, 'internal'),
        CONFAB_INTERNAL_SECRET_PREVIOUS: previous,
      });
      expect(config.internalSecret).toBe(REAL);
      expect(config.internalSecretPrevious).toBe(previous);
      expect(problems(() => load({ CONFAB_INTERNAL_SECRET_FILE: join(dir, 'missing') }))).toMatch(
        /CONFAB_INTERNAL_SECRET_FILE: cannot read/,
      );
      expect(
        problems(() => load({ CONFAB_INTERNAL_SECRET: REAL, CONFAB_INTERNAL_SECRET_PREVIOUS: 'too-short' })),
      ).toMatch(/CONFAB_INTERNAL_SECRET_PREVIOUS is too short/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks any named secret the same way', () => {
    expect(problems(() => checkedSecret('CONFAB_UPLOAD_URL_KEY', undefined, 'production'))).toMatch(
      /CONFAB_UPLOAD_URL_KEY is not set/,
    );
    expect(() => checkedSecret('X', undefined, 'development')).toThrow(/X is not set/);
    expect(readSecret('X', '', undefined)).toBeUndefined();
  });
});

describe('CONFAB_OUTGOING_ALLOWED_CIDRS', () => {
  const dev = { NODE_ENV: 'test' };
  it('is empty by default, and lists CIDRs and addresses separated by commas or spaces', () => {
    expect(load(dev).outgoingAllowedCidrs).toEqual([]);
    expect(
      load({ ...dev, CONFAB_OUTGOING_ALLOWED_CIDRS: '10.0.0.0/8, fd00::/8  127.0.0.9' }).outgoingAllowedCidrs,
    ).toEqual(['10.0.0.0/8', 'fd00::/8', '127.0.0.9']);
  });

  it('refuses to start with an entry that is neither', () => {
    expect(problems(() => load({ ...dev, CONFAB_OUTGOING_ALLOWED_CIDRS: '10.0.0.0/33,intranet' }))).toMatch(
      /CONFAB_OUTGOING_ALLOWED_CIDRS: 10\.0\.0\.0\/33 is neither a CIDR[\s\S]*intranet is neither/,
    );
  });
});
