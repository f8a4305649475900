import type { RedisClient } from '@confab/runtime';
import type { PresenceEntry, PresenceRules, PresenceStore, PresenceWrite } from '../domain/ports.js';

/**
 * Presence in Redis, four keys per organization (hash-tagged by realm so they share a cluster slot; see the
 * README): `seq` the update counter, `u` a hash user id → "active:idle:update id", `id` and `t` sorted sets of
 * user ids by update id and by idle (last connected) time. Every change is one script (one round trip) that also
 * drops entries older than the retention and renews the keys' expiry, so an organization nobody reports for
 * disappears by itself.
 */
const REPORT = `
local user = ARGV[1]
local now = tonumber(ARGV[2])
local cur = redis.call('HGET', KEYS[2], user)
local a, c, id = nil, nil, 0
if cur then
  local s1 = string.find(cur, ':', 1, true)
  local s2 = string.find(cur, ':', s1 + 1, true)
  local astr = string.sub(cur, 1, s1 - 1)
  if astr ~= '' then a = tonumber(astr) end
  c = tonumber(string.sub(cur, s1 + 1, s2 - 1))
  id = tonumber(string.sub(cur, s2 + 1))
end
local created, changed, online = 0, 0, 0
local na, nc = a, c
if ARGV[6] == '1' then
  created, changed = 1, 1
  na = nil
  if ARGV[7] ~= '' then na = tonumber(ARGV[7]) end
  nc = tonumber(ARGV[8])
else
  local active = ARGV[3] == '1'
  local minUpdate = tonumber(ARGV[4])
  if active and (a == nil or now - a > tonumber(ARGV[5])) then online = 1 end
  if not cur then
    created, changed = 1, 1
    nc = now
    if active then na = now end
  else
    if now - c > minUpdate then nc = now; changed = 1 end
    if active and (a == nil or now - a > minUpdate) then
      na = now
      changed = 1
      if nc < now then nc = now end
    end
  end
end
if changed == 1 then
  if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SET', KEYS[1], ARGV[11]) end
  id = redis.call('INCR', KEYS[1])
  local astr = ''
  if na then astr = string.format('%d', na) end
  redis.call('HSET', KEYS[2], user, astr .. ':' .. string.format('%d', nc) .. ':' .. string.format('%d', id))
  redis.call('ZADD', KEYS[3], id, user)
  redis.call('ZADD', KEYS[4], nc, user)
  local old = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. ARGV[10], 'LIMIT', 0, 100)
  for _, u in ipairs(old) do
    redis.call('HDEL', KEYS[2], u)
    redis.call('ZREM', KEYS[3], u)
    redis.call('ZREM', KEYS[4], u)
  end
  for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[9]) end
end
local astr = ''
if na then astr = string.format('%d', na) end
return {created, changed, online, astr, string.format('%d', nc), string.format('%d', id)}
`;

/** The realm's entries changed after an update id, or connected since a time: user ids and values, one round trip. */
const READ = `
local users
if ARGV[1] == 'id' then
  users = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[2], '+inf')
else
  users = redis.call('ZRANGEBYSCORE', KEYS[3], ARGV[2], '+inf')
end
local out = {}
for i = 1, #users, 1000 do
  local chunk = {}
  for j = i, math.min(i + 999, #users) do table.insert(chunk, users[j]) end
  local vals = redis.call('HMGET', KEYS[1], unpack(chunk))
  for j, u in ipairs(chunk) do
    if vals[j] then
      table.insert(out, u)
      table.insert(out, vals[j])
    end
  end
end
return out
`;

const REMOVE = `
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`;

interface PresenceCommands {
  presenceReport(...args: (string | number)[]): Promise<string[] & (string | number)[]>;
  presenceRead(...args: (string | number)[]): Promise<string[]>;
  presenceRemove(...args: (string | number)[]): Promise<number>;
}

function parseEntry(userId: number, value: string): PresenceEntry {
  const [active, idle, id] = value.split(':');
  return {
    userId,
    activeTimestamp: active ? Number(active) : null,
    idleTimestamp: Number(idle),
    lastUpdateId: Number(id),
  };
}

export class RedisPresenceStore implements PresenceStore {
  private readonly redis: RedisClient & PresenceCommands;

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
    /** Entries idle for longer than this are dropped, and an organization's keys expire after it. */
    private readonly retentionSeconds: number,
  ) {
    redis.defineCommand('presenceReport', { numberOfKeys: 4, lua: REPORT });
    redis.defineCommand('presenceRead', { numberOfKeys: 3, lua: READ });
    redis.defineCommand('presenceRemove', { numberOfKeys: 3, lua: REMOVE });
    this.redis = redis as RedisClient & PresenceCommands;
  }

  private keys(realmId: number) {
    const base = `${this.prefix}:presence:{${realmId}}`;
    return { seq: `${base}:seq`, users: `${base}:u`, byId: `${base}:id`, byTime: `${base}:t` };
  }

  private async run(realmId: number, userId: number, args: (string | number)[]): Promise<PresenceWrite> {
    const k = this.keys(realmId);
    const now = Math.floor(Date.now() / 1000);
    const [created, changed, online, active, idle, id] = await this.redis.presenceReport(
      k.seq,
      k.users,
      k.byId,
      k.byTime,
      String(userId),
      ...args,
      this.retentionSeconds,
      now - this.retentionSeconds,
      // A missing counter starts from the clock (ms), so ids stay above those clients saw before Redis lost it.
      Date.now(),
    );
    return {
      created: Number(created) === 1,
      changed: Number(changed) === 1,
      becameOnline: Number(online) === 1,
      entry: {
        userId,
        activeTimestamp: active === '' ? null : Number(active),
        idleTimestamp: Number(idle),
        lastUpdateId: Number(id),
      },
    };
  }

  report(realmId: number, userId: number, now: number, active: boolean, rules: PresenceRules): Promise<PresenceWrite> {
    return this.run(realmId, userId, [
      now,
      active ? '1' : '0',
      rules.minUpdateSeconds,
      rules.onlineGapSeconds,
      '0',
      '',
      0,
    ]);
  }

  reset(realmId: number, userId: number, entry: { active: number | null; idle: number }): Promise<PresenceWrite> {
    return this.run(realmId, userId, [entry.idle, '0', 0, 0, '1', entry.active ?? '', entry.idle]);
  }

  async realm(realmId: number, query: { afterUpdateId: number | null; since: number }): Promise<PresenceEntry[]> {
    const k = this.keys(realmId);
    const flat =
      query.afterUpdateId !== null
        ? await this.redis.presenceRead(k.users, k.byId, k.byTime, 'id', query.afterUpdateId)
        : await this.redis.presenceRead(k.users, k.byId, k.byTime, 't', query.since);
    const out: PresenceEntry[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push(parseEntry(Number(flat[i]), flat[i + 1]!));
    return out;
  }

  async user(realmId: number, userId: number): Promise<PresenceEntry | null> {
    const value = await this.redis.hget(this.keys(realmId).users, String(userId));
    return value === null ? null : parseEntry(userId, value);
  }

  async remove(realmId: number, userId: number): Promise<void> {
    const k = this.keys(realmId);
    await this.redis.presenceRemove(k.users, k.byId, k.byTime, String(userId));
  }
}
