import { CATALOG, CATEGORIES } from '@confab/integrations/catalog';
import { hintFor } from '../src/integrations/hints';
import {
  canCreateIncomingWebhook,
  entryLabel,
  inGroupSetting,
  searchCatalog,
  shortNameFor,
  usedCategories,
  webhookUrl,
  type GroupMembers,
} from '../src/integrations/logic';
import { applyIntegrationsEvent, applyIntegrationsRegister, bots, userGroups } from '../src/store/integrations';
import { parseHash, routeHash } from '../src/lib/hash';

const names = { channelName: () => undefined, userName: () => undefined };
const github = { name: 'github' };

describe('the incoming webhook URL', () => {
  const base = 'https://chat.example.com';

  it('has the key, the channel by id and the topic, encoded as Zulip writes them', () => {
    expect(webhookUrl(base, github, 'abcKEY123', { integration: 'github', streamId: 7, topic: 'CI & deploys' })).toBe(
      'https://chat.example.com/api/v1/external/github?api_key=abcKEY123&stream=7&topic=CI+%26+deploys',
    );
  });

  it('without a channel sends DMs to the owner: no stream and no topic', () => {
    expect(webhookUrl(`${base}/`, github, 'k', { integration: 'github', topic: 'ignored' })).toBe(
      'https://chat.example.com/api/v1/external/github?api_key=k',
    );
  });

  it('leaves out an empty topic and writes only_events as a JSON list', () => {
    expect(
      webhookUrl(base, github, 'k', {
        integration: 'github',
        streamId: 3,
        topic: '  ',
        onlyEvents: ['push', 'pull_request'],
      }),
    ).toBe(
      `https://chat.example.com/api/v1/external/github?api_key=k&stream=3&only_events=${encodeURIComponent('["push","pull_request"]')}`,
    );
    expect(webhookUrl(base, github, 'k', { integration: 'github', streamId: 3, onlyEvents: [] })).toBe(
      'https://chat.example.com/api/v1/external/github?api_key=k&stream=3',
    );
  });

  it('has no key for the integrations that sign in with HTTP Basic', () => {
    const freshdesk = CATALOG.find((e) => e.name === 'freshdesk')!;
    expect(freshdesk.auth).toBe('basic');
    expect(webhookUrl(base, freshdesk, 'k', { integration: 'freshdesk', streamId: 2 })).toBe(
      'https://chat.example.com/api/v1/external/freshdesk?stream=2',
    );
    expect(webhookUrl(base, freshdesk, 'k', { integration: 'freshdesk' })).toBe(
      'https://chat.example.com/api/v1/external/freshdesk',
    );
  });
});

describe('the catalog search', () => {
  const shown = (query: string, category: Parameters<typeof searchCatalog>[2] = '') =>
    searchCatalog(CATALOG, query, category).map((e) => e.name);

  it('lists everything sorted by display name without a query', () => {
    const all = searchCatalog(CATALOG, '');
    expect(all).toHaveLength(CATALOG.length);
    const labels = all.map((e) => e.displayName);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
  });

  it('matches the start of a word of the display name or part of the URL name, in any case', () => {
    expect(shown('git')).toEqual(expect.arrayContaining(['github', 'gitlab', 'gitea']));
    expect(shown('ALERT')).toContain('alertmanager');
    expect(shown('manager')).toContain('alertmanager');
    expect(shown('hub')).toContain('github'); // part of the URL name
    expect(shown('prometheus alert')).toEqual(['alertmanager']);
    expect(shown('no such thing')).toEqual([]);
  });

  it('filters by category, with the search', () => {
    const vcs = searchCatalog(CATALOG, '', 'version-control');
    expect(vcs.length).toBeGreaterThan(3);
    expect(vcs.every((e) => e.categories.includes('version-control'))).toBe(true);
    expect(shown('git', 'monitoring')).toEqual([]);
    expect(shown('codeship', 'deployment')).toEqual(['codeship']);
  });

  it('puts a legacy entry after the current one of the same name, and says so', () => {
    const bitbucket = searchCatalog(CATALOG, 'bitbucket').filter((e) => e.displayName === 'Bitbucket');
    expect(bitbucket.map((e) => e.name)).toEqual(['bitbucket2', 'bitbucket']);
    expect(bitbucket.map(entryLabel)).toEqual(['Bitbucket', 'Bitbucket (legacy)']);
  });

  it('offers the categories some integration has, in Zulip order, with their labels', () => {
    const categories = usedCategories(CATALOG, CATEGORIES);
    expect(categories[0]).toBeDefined();
    expect(categories).toContainEqual(['version-control', 'Version control']);
    const used = new Set(CATALOG.flatMap((e) => e.categories));
    expect(categories.map(([c]) => c).sort()).toEqual([...used].sort());
  });
});

describe('hints and names', () => {
  it('has a short hint of its own for GitHub and a general one elsewhere', () => {
    expect(hintFor({ name: 'github', displayName: 'GitHub' })).toMatch(/Settings → Webhooks → Add webhook/);
    expect(hintFor({ name: 'airbrake', displayName: 'Airbrake' })).toMatch(/^In Airbrake, find its webhook/);
    expect(hintFor({ name: 'beanstalk', displayName: 'Beanstalk', auth: 'basic' })).toMatch(/basic authentication/);
    for (const entry of CATALOG) expect(hintFor(entry).length).toBeLessThan(200);
  });

  it("makes a bot's short name from a name", () => {
    expect(shortNameFor('GitHub')).toBe('github');
    expect(shortNameFor('slack_incoming')).toBe('slack-incoming');
    expect(shortNameFor(' Café Deploys! ')).toBe('cafe-deploys');
  });
});

describe('who may create an incoming webhook bot', () => {
  // 1 everyone ⊃ 2 members ⊃ 3 admins; 9 nobody. Hamlet (10) a member, Iago (11) an administrator.
  const groups = new Map<number, GroupMembers>([
    [1, { members: [], direct_subgroup_ids: [2] }],
    [2, { members: [10], direct_subgroup_ids: [3] }],
    [3, { members: [11], direct_subgroup_ids: [] }],
    [9, { members: [], direct_subgroup_ids: [] }],
  ]);

  it('follows subgroups to any depth, and anonymous groups of people and groups', () => {
    expect(inGroupSetting(1, 11, groups)).toBe(true);
    expect(inGroupSetting(3, 10, groups)).toBe(false);
    expect(inGroupSetting({ direct_members: [10], direct_subgroups: [] }, 10, groups)).toBe(true);
    expect(inGroupSetting({ direct_members: [], direct_subgroups: [3] }, 11, groups)).toBe(true);
    expect(inGroupSetting({ direct_members: [], direct_subgroups: [3] }, 10, groups)).toBe(false);
    expect(inGroupSetting(undefined, 10, groups)).toBe(false);
    // A cycle ends.
    const cyclic = new Map<number, GroupMembers>([
      [5, { members: [], direct_subgroup_ids: [6] }],
      [6, { members: [], direct_subgroup_ids: [5] }],
    ]);
    expect(inGroupSetting(5, 10, cyclic)).toBe(false);
  });

  it('is either permission; never a bot', () => {
    const open = { realm_can_create_bots_group: 2, realm_can_create_write_only_bots_group: 9 };
    expect(canCreateIncomingWebhook(open, 10, false, groups)).toBe(true);
    const writeOnly = { realm_can_create_bots_group: 3, realm_can_create_write_only_bots_group: 2 };
    expect(canCreateIncomingWebhook(writeOnly, 10, false, groups)).toBe(true);
    const closed = { realm_can_create_bots_group: 9, realm_can_create_write_only_bots_group: 9 };
    expect(canCreateIncomingWebhook(closed, 10, false, groups)).toBe(false);
    expect(canCreateIncomingWebhook(closed, 11, false, groups)).toBe(false);
    expect(canCreateIncomingWebhook(open, 10, true, groups)).toBe(false);
  });
});

describe("the bots' store", () => {
  it('follows realm_bot and user_group events', () => {
    applyIntegrationsRegister({
      queue_id: 'q',
      last_event_id: -1,
      realm_bots: [
        { user_id: 50, email: 'a-bot@x', full_name: 'A', bot_type: 2, is_active: true, api_key: 'k1', owner_id: 10 },
      ],
      realm_user_groups: [{ id: 2, members: [10], direct_subgroup_ids: [] }],
    });
    applyIntegrationsEvent({ id: 1, type: 'realm_bot', op: 'update', bot: { user_id: 50, api_key: 'k2' } });
    expect(bots.value.get(50)).toMatchObject({ full_name: 'A', api_key: 'k2' });
    applyIntegrationsEvent({ id: 2, type: 'realm_bot', op: 'delete', bot: { user_id: 50 } });
    expect(bots.value.has(50)).toBe(false);
    applyIntegrationsEvent({ id: 3, type: 'user_group', op: 'add_members', group_id: 2, user_ids: [12] });
    applyIntegrationsEvent({ id: 4, type: 'user_group', op: 'remove_members', group_id: 2, user_ids: [10] });
    applyIntegrationsEvent({ id: 5, type: 'user_group', op: 'add_subgroups', group_id: 2, direct_subgroup_ids: [7] });
    expect(userGroups.value.get(2)).toEqual({ members: [12], direct_subgroup_ids: [7] });
  });

  it("keeps a group's name, description and state for the compose box's @ completion", () => {
    applyIntegrationsRegister({
      queue_id: 'q',
      last_event_id: -1,
      realm_user_groups: [{ id: 3, name: 'watch', description: 'd', is_system_group: false, deactivated: false }],
    });
    applyIntegrationsEvent({ id: 1, type: 'user_group', op: 'update', group_id: 3, data: { name: 'night watch' } });
    applyIntegrationsEvent({ id: 2, type: 'user_group', op: 'update', group_id: 3, data: { deactivated: true } });
    applyIntegrationsEvent({
      id: 3,
      type: 'user_group',
      op: 'add',
      group: { id: 4, name: 'role:members', members: [], direct_subgroup_ids: [], is_system_group: true },
    });
    expect(userGroups.value.get(3)).toMatchObject({ name: 'night watch', description: 'd', deactivated: true });
    expect(userGroups.value.get(4)).toMatchObject({ name: 'role:members', is_system_group: true });
  });
});

describe("the bots page's address", () => {
  it("is Zulip's #settings/your-bots, both ways", () => {
    expect(parseHash('#settings/your-bots')).toEqual({ view: 'bots' });
    expect(routeHash({ view: 'bots' }, names)).toBe('#settings/your-bots');
    expect(parseHash('#settings')).toEqual({ view: 'settings' });
  });
});
