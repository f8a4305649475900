import { commonConfig, commonEnv, int, parseEnv, port, url, z, type CommonConfig } from '@confab/config';

export const Env = z.object({
  ...commonEnv,
  GROUPS_PORT: port(9103),
  GROUPS_DATABASE_URL: url(),
  /** Connections in this process's Postgres pool. Default 6. */
  GROUPS_DB_POOL: int(6, 1, 100),
  /** The settings service, for backfilling organizations and users when this service's tables are empty. */
  SETTINGS_URL: url('http://127.0.0.1:9101'),
  /** How often members whose waiting period has passed join role:fullmembers, in seconds. Default 3600. */
  GROUPS_FULL_MEMBER_SWEEP_SECONDS: int(3600, 1),
});

export interface GroupsConfig extends CommonConfig {
  port: number;
  db: { url: string; poolSize: number };
  settingsUrl: string;
  fullMemberSweepSeconds: number;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): GroupsConfig {
  const e = parseEnv(Env, env);
  return {
    ...commonConfig(e),
    port: e.GROUPS_PORT,
    db: { url: e.GROUPS_DATABASE_URL, poolSize: e.GROUPS_DB_POOL },
    settingsUrl: e.SETTINGS_URL.replace(/\/+$/, ''),
    fullMemberSweepSeconds: e.GROUPS_FULL_MEMBER_SWEEP_SECONDS,
  };
}
