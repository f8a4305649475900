/**
 * Lua scripts over one queue's keys: `<p>q:<id>` (hash: descriptor, next_id, pruned, poll, w) and `<p>q:<id>:ev`
 * (stream; event N is entry `N-1`). Scripts keep each step atomic, so any number of replicas can share queues.
 * Every script gets the prefix as KEYS[1] and builds the keys of queues, indexes and streams from it: the prefix
 * carries the hash tag `{events}`, so on a Redis Cluster every key of the events store is in the slot of KEYS[1]
 * (docs/architecture.md, "Redis keys"). The ARGV listed below follow it.
 */

/**
 * Appends events to queues, for several broker events at once: each with its de-duplication key (skipped, answered
 * -1, when that event was delivered before) and its (queue id, event JSON) pairs. Queues that have expired are
 * skipped. One wake-up message lists every queue that got something, for the polls waiting on any replica.
 * ARGV: de-duplication ttl (s), wake channel ('' = none), then per event: done key ('' = none), b, b distinct event
 * JSON texts, n, n pairs (queue id, index of its text among the b, from 1). A text many queues share (a message to a
 * thousand of them) is sent once, not once per queue: the command a broadcast writes to Redis was megabytes.
 * Returns, per event, the queue ids appended to, or -1.
 */
export const APPEND = `
local prefix = KEYS[1]
local ttl = tonumber(ARGV[1])
local results = {}
local woken = {}
local wokenList = {}
local i = 3
while i <= #ARGV do
  local done = ARGV[i]
  local texts = i + 1
  local b = tonumber(ARGV[texts])
  local n = tonumber(ARGV[texts + b + 1])
  local first = texts + b + 2
  i = first + 2 * n
  if done ~= '' and not redis.call('SET', done, '1', 'NX', 'EX', ttl) then
    results[#results + 1] = -1
  else
    local appended = {}
    for j = first, first + 2 * n - 1, 2 do
      local qid = ARGV[j]
      local q = prefix .. 'q:' .. qid
      local qttl = redis.call('PTTL', q)
      if qttl > 0 then
        local id = redis.call('HINCRBY', q, 'next_id', 1) - 1
        local ev = q .. ':ev'
        redis.call('XADD', ev, id .. '-1', 'e', ARGV[texts + tonumber(ARGV[j + 1])])
        redis.call('PEXPIRE', ev, qttl)
        appended[#appended + 1] = qid
        if not woken[qid] then
          woken[qid] = true
          wokenList[#wokenList + 1] = qid
        end
      end
    end
    results[#results + 1] = appended
  end
end
if ARGV[2] ~= '' and #wokenList > 0 then
  redis.call('PUBLISH', ARGV[2], cjson.encode({q = wokenList}))
end
return results
`;

/**
 * Starts a poll: checks ownership, acknowledges (prunes) through last_event_id with Zulip's checks, refreshes the
 * queue's lifetime, takes a poll generation and returns the remaining events.
 * ARGV: queue id, user id, last_event_id ('' = do not prune), ttl ms, mark waiting ('1'/'0'), index ttl ms
 * (the user's and realm's queue indexes live as long as one of their queues is polled).
 * Returns {status, generation, previous waiting generation or '', entries...}; status is ok, bad, pruned, notin.
 */
export const POLL = `
local q = KEYS[1] .. 'q:' .. ARGV[1]
local ev = q .. ':ev'
local owner = redis.call('HGET', q, 'user_id')
if owner == false or owner ~= ARGV[2] then return {'bad'} end
-- A queue keeps the idle timeout it was registered with (idle_queue_timeout); older ones the server's.
local ttl = tonumber(redis.call('HGET', q, 'ttl') or ARGV[4])
redis.call('PEXPIRE', q, ttl)
redis.call('PEXPIRE', ev, ttl)
local realm = redis.call('HGET', q, 'realm_id')
local indexTtl = math.max(tonumber(ARGV[6]), ttl + 60000)
redis.call('PEXPIRE', KEYS[1] .. 'u:' .. owner, indexTtl)
redis.call('PEXPIRE', KEYS[1] .. 'r:' .. realm, indexTtl)
redis.call('PEXPIRE', KEYS[1] .. 'rall:' .. realm, indexTtl)
if ARGV[3] ~= '' then
  local last = tonumber(ARGV[3])
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
if #entries == 0 and ARGV[5] == '1' then redis.call('HSET', q, 'w', gen) else redis.call('HDEL', q, 'w') end
local out = {'ok', gen, previous}
for _, entry in ipairs(entries) do
  out[#out + 1] = entry[1]
  out[#out + 1] = entry[2][2]
end
return out
`;

/** Ends a wait: clears the waiting mark if it is still this poll's. ARGV: queue id, generation. */
export const END_WAIT = `
local q = KEYS[1] .. 'q:' .. ARGV[1]
if redis.call('HGET', q, 'w') == ARGV[2] then redis.call('HDEL', q, 'w') end
return 1
`;

/**
 * Reads a woken poll's events and, when it answers (events found, or `ending` '1'), ends its wait in the same step
 * (END_WAIT's work): one round trip per answered poll instead of two. ARGV: queue id, generation, ending.
 * Returns {status, entries...}: status 'ok', or 'bad' when the queue is gone (Redis lost its data, or it expired),
 * which the poll answers at once with BAD_EVENT_QUEUE_ID rather than waiting on for events that cannot come.
 */
export const READ_ENDING = `
local q = KEYS[1] .. 'q:' .. ARGV[1]
if redis.call('EXISTS', q) == 0 then return {'bad'} end
local entries = redis.call('XRANGE', q .. ':ev', '-', '+')
if (#entries > 0 or ARGV[3] == '1') and redis.call('HGET', q, 'w') == ARGV[2] then redis.call('HDEL', q, 'w') end
local out = {'ok'}
for _, entry in ipairs(entries) do
  out[#out + 1] = entry[1]
  out[#out + 1] = entry[2][2]
end
return out
`;

/** Deletes a queue if the user owns it. ARGV: queue id, user id. Returns 1, or 0 when unknown. */
export const DELETE = `
local q = KEYS[1] .. 'q:' .. ARGV[1]
local owner = redis.call('HGET', q, 'user_id')
if owner == false or owner ~= ARGV[2] then return 0 end
local realm = redis.call('HGET', q, 'realm_id')
redis.call('DEL', q, q .. ':ev')
redis.call('SREM', KEYS[1] .. 'u:' .. owner, ARGV[1])
redis.call('SREM', KEYS[1] .. 'r:' .. realm, ARGV[1])
redis.call('SREM', KEYS[1] .. 'rall:' .. realm, ARGV[1])
return 1
`;

/**
 * Creates a queue and indexes it under its user and realm, unless the user already holds `cap` live queues (0: no
 * cap). Counting and creating are one step, so clients registering at once cannot pass the cap together; the
 * user's index loses the ids of queues that have expired on the way.
 * ARGV: queue id, user id, realm id, descriptor JSON, ttl ms, index ttl ms, all public streams ('1'/'0'), cap.
 * Returns {1, 0} when created, {0, ms until the user's soonest queue expires (-1: unknown)} when at the cap.
 */
export const CREATE = `
local p = KEYS[1]
local u = p .. 'u:' .. ARGV[2]
local cap = tonumber(ARGV[8])
if cap > 0 then
  local live = 0
  local soonest = -1
  for _, id in ipairs(redis.call('SMEMBERS', u)) do
    local pttl = redis.call('PTTL', p .. 'q:' .. id)
    if pttl == -2 then
      redis.call('SREM', u, id)
    else
      live = live + 1
      if pttl > 0 and (soonest < 0 or pttl < soonest) then soonest = pttl end
    end
  end
  if live >= cap then return {0, soonest} end
end
local q = p .. 'q:' .. ARGV[1]
redis.call('HSET', q, 'user_id', ARGV[2], 'realm_id', ARGV[3], 'd', ARGV[4], 'next_id', 0, 'pruned', -1, 'poll', 0, 'ttl', ARGV[5])
redis.call('PEXPIRE', q, ARGV[5])
redis.call('SADD', u, ARGV[1])
redis.call('PEXPIRE', u, ARGV[6])
local r = p .. 'r:' .. ARGV[3]
redis.call('SADD', r, ARGV[1])
redis.call('PEXPIRE', r, ARGV[6])
if ARGV[7] == '1' then
  local all = p .. 'rall:' .. ARGV[3]
  redis.call('SADD', all, ARGV[1])
  redis.call('PEXPIRE', all, ARGV[6])
end
return {1, 0}
`;
