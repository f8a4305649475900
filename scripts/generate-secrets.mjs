#!/usr/bin/env node
// Creates the secrets of a deployment once: for each, a file of 64 random hex characters (32 bytes) in the directory
// given (default /data/secrets), unless it exists. `docker compose up` runs it before any process (the `secrets`
// service), which read them with CONFAB_INTERNAL_SECRET_FILE, CONFAB_UPLOAD_URL_KEY_FILE and
// CONFAB_MEETING_TOKEN_KEY_FILE (docs/security.md). A file missing from an older volume is added on the next `up`.
// `--rotate` replaces them; restart every process afterwards (`docker compose up -d --force-recreate`).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const rotate = args.includes('--rotate');
const dir = args.find((a) => !a.startsWith('--')) ?? '/data/secrets';
/** The internal identity secret, the key of temporary upload URLs, the key sealing stored meeting provider tokens. */
const NAMES = ['internal_secret', 'upload_url_key', 'meeting_token_key'];

mkdirSync(dir, { recursive: true, mode: 0o700 });
for (const name of NAMES) {
  const path = join(dir, name);
  if (existsSync(path) && !rotate) {
    console.log(`[secrets] keeping ${path}`);
    continue;
  }
  const fresh = `${path}.new`;
  writeFileSync(fresh, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  renameSync(fresh, path);
  console.log(`[secrets] ${rotate ? 'replaced' : 'generated'} ${path}`);
}
