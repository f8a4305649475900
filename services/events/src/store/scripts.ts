/**
 * Lua scripts over one queue's keys: `<p>q:<id>` (hash: descriptor, next_id, pruned, poll, w) and `<p>q:<id>:ev`
 * (stream; event N is entry `N-1`). Scripts keep each step atomic, so any number of replicas can share queues.
 * Keys are built inside the scripts from the prefix, which assumes a single Redis (not Cluster).
 */

/**
 * Appends events to queues, atomically and at most once per broker event.
 * ARGV: prefix, dedupe key ('' = none), dedupe ttl seconds, wake channel ('' = none), then pairs of queue id and
 * event JSON. Publishes the queue ids that got an event on the wake channel (one notice for the whole fan-out) and
 * returns them, or -1 when the dedupe key was already set.
 */
export const APPEND = `
local prefix = ARGV[1]
if ARGV[2] ~= '' then
  if redis.call('SET', ARGV[2], '1', 'NX', 'EX', tonumber(ARGV[3])) == false then return -1 end
end
local appended = {}
for i = 5, #ARGV, 2 do
  local q = prefix .. 'q:' .. ARGV[i]
  local ttl = redis.call('PTTL', q)
  if ttl > 0 then
    local id = redis.call('HINCRBY', q, 'next_id', 1) - 1
    local ev = q .. ':ev'
    redis.call('XADD', ev, id .. '-1', 'e', ARGV[i + 1])
    redis.call('PEXPIRE', ev, ttl)
    appended[#appended + 1] = ARGV[i]
  end
end
if ARGV[4] ~= '' and #appended > 0 then
  redis.call('PUBLISH', ARGV[4], cjson.encode({q = appended}))
end
return appended
`;

/**
 * Starts a poll: checks ownership, acknowledges (prunes) through last_event_id with Zulip's checks, refreshes the
 * queue's lifetime, takes a poll generation and returns the remaining events.
 * ARGV: prefix, queue id, user id, last_event_id ('' = do not prune), ttl ms, mark waiting ('1'/'0'), index ttl ms
 * (the user's and realm's queue indexes live as long as one of their queues is polled).
 * Returns {status, generation, previous waiting generation or '', entries...}; status is ok, bad, pruned, notin.
 */
export const POLL = `
local q = ARGV[1] .. 'q:' .. ARGV[2]
local ev = q .. ':ev'
local owner = redis.call('HGET', q, 'user_id')
if owner == false or owner ~= ARGV[3] then return {'bad'} end
local ttl = tonumber(ARGV[5])
redis.call('PEXPIRE', q, ttl)
redis.call('PEXPIRE', ev, ttl)
local realm = redis.call('HGET', q, 'realm_id')
local indexTtl = tonumber(ARGV[7])
redis.call('PEXPIRE', ARGV[1] .. 'u:' .. owner, indexTtl)
redis.call('PEXPIRE', ARGV[1] .. 'r:' .. realm, indexTtl)
redis.call('PEXPIRE', ARGV[1] .. 'rall:' .. realm, indexTtl)
if ARGV[4] ~= '' then
  local last = tonumber(ARGV[4])
  local pruned = tonumber(redis.call('HGET', q, 'pruned') or '-1')
  if last < pruned then return {'pruned'} end
  if last >= 0 then
    local newest = redis.call('XREVRANGE', ev, last .. '-1', '-', 'COUNT', 1)
    if #newest > 0 then
      pruned = tonumber(string.match(newest[1][1], '^(%d+)'))
      redis.call('XTRIM', ev, 'MINID', tostring(last + 1))
      redis.call('HSET', q, 'pruned', pruned)
    end
  end
  if pruned ~= last then return {'notin'} end
end
local gen = redis.call('HINCRBY', q, 'poll', 1)
local previous = redis.call('HGET', q, 'w') or ''
local entries = redis.call('XRANGE', ev, '-', '+')
if #entries == 0 and ARGV[6] == '1' then redis.call('HSET', q, 'w', gen) else redis.call('HDEL', q, 'w') end
local out = {'ok', gen, previous}
for _, entry in ipairs(entries) do
  out[#out + 1] = entry[1]
  out[#out + 1] = entry[2][2]
end
return out
`;

/** Ends a wait: clears the waiting mark if it is still this poll's. ARGV: prefix, queue id, generation. */
export const END_WAIT = `
local q = ARGV[1] .. 'q:' .. ARGV[2]
if redis.call('HGET', q, 'w') == ARGV[3] then redis.call('HDEL', q, 'w') end
return 1
`;

/** Deletes a queue if the user owns it. ARGV: prefix, queue id, user id. Returns 1, or 0 when unknown. */
export const DELETE = `
local q = ARGV[1] .. 'q:' .. ARGV[2]
local owner = redis.call('HGET', q, 'user_id')
if owner == false or owner ~= ARGV[3] then return 0 end
local realm = redis.call('HGET', q, 'realm_id')
redis.call('DEL', q, q .. ':ev')
redis.call('SREM', ARGV[1] .. 'u:' .. owner, ARGV[2])
redis.call('SREM', ARGV[1] .. 'r:' .. realm, ARGV[2])
redis.call('SREM', ARGV[1] .. 'rall:' .. realm, ARGV[2])
return 1
`;
