import {
  EVERYONE,
  FLAG,
  streamPostPolicy,
  flagNames,
  isResolvedTopic,
  MENTION_BITS,
  OWNERS,
  RESOLVED_TOPIC_PREFIX,
  ROLE_GROUP,
  ROLE_GUEST,
  ROLE_OWNER,
  SYSTEM_GROUPS,
} from '@confab/zulip';

describe('Zulip vocabulary', () => {
  it('names flags as the API lists them, with the deprecated wildcard_mentioned', () => {
    expect(flagNames(FLAG.read | FLAG.topic_wildcard_mentioned)).toEqual([
      'read',
      'topic_wildcard_mentioned',
      'wildcard_mentioned',
    ]);
    expect(flagNames(FLAG.is_private | FLAG.starred)).toEqual(['starred']);
  });

  it('counts mentions, group and wildcard ones included, but not alert words', () => {
    expect(MENTION_BITS & FLAG.group_mentioned).not.toBe(0);
    expect(MENTION_BITS & FLAG.stream_wildcard_mentioned).not.toBe(0);
    expect(MENTION_BITS & FLAG.has_alert_word).toBe(0);
  });

  it('knows resolved topics by their prefix', () => {
    expect(RESOLVED_TOPIC_PREFIX).toBe('✔ ');
    expect(isResolvedTopic('✔ castle')).toBe(true);
    expect(isResolvedTopic('✔castle')).toBe(false);
  });

  it('puts each role in its system group', () => {
    expect(ROLE_GROUP[ROLE_OWNER]).toBe(OWNERS);
    expect(ROLE_GROUP[ROLE_GUEST]).toBe(EVERYONE);
    expect(SYSTEM_GROUPS.map((g) => g.name)).toEqual([
      'role:nobody',
      'role:owners',
      'role:administrators',
      'role:moderators',
      'role:fullmembers',
      'role:members',
      'role:everyone',
      'role:internet',
    ]);
  });
});

describe("the legacy stream_post_policy (Zulip's SYSTEM_GROUPS_ENUM_MAP)", () => {
  it.each([
    ['role:everyone', 1],
    ['role:administrators', 2],
    ['role:fullmembers', 3],
    ['role:moderators', 4],
    ['role:members', 1],
    [null, 1],
  ])('%s is %i', (group, policy) => {
    expect(streamPostPolicy(group)).toBe(policy);
  });
});
