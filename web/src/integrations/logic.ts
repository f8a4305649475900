/**
 * The pure part of the bots and integrations page: the URL an incoming webhook bot is given (as Zulip's "Generate URL
 * for an integration" builds it), the catalog's search, and who may create bots (the organization's group-valued
 * permissions, as the server checks them for POST /bots). No DOM, no store: the unit tests drive these directly.
 */
import type { Category, CatalogEntry } from '@confab/integrations/catalog';
import type { GroupMembers } from '../store/model';

/** What a webhook URL says beyond the integration: where the messages go and which events are sent. */
export interface UrlChoice {
  integration: string;
  /** A channel's id, as Zulip's generator writes it (a rename keeps the URL working); absent: a DM to the owner. */
  streamId?: number;
  /** Replaces the integration's own topic (only with a channel). */
  topic?: string;
  /** Zulip's `only_events`: the integration's event names; empty or absent sends every event. */
  onlyEvents?: readonly string[];
}

/**
 * The URL to paste into the provider: `<realm>/api/v1/external/<name>?api_key=<key>&stream=<id>&topic=…`, with the
 * parameters in Zulip's order and encoding (URLSearchParams: a space is `+`). The integrations that authenticate with
 * HTTP Basic (the catalog's `auth: 'basic'`) get no `api_key` in the URL: the bot's email and key are their
 * credentials.
 */
export function webhookUrl(
  base: string,
  entry: Pick<CatalogEntry, 'name' | 'auth'>,
  apiKey: string,
  choice: UrlChoice,
) {
  const params = new URLSearchParams();
  if (entry.auth !== 'basic') params.set('api_key', apiKey);
  if (choice.streamId !== undefined) {
    params.set('stream', String(choice.streamId));
    const topic = choice.topic?.trim();
    if (topic) params.set('topic', topic);
  }
  if (choice.onlyEvents && choice.onlyEvents.length > 0) params.set('only_events', JSON.stringify(choice.onlyEvents));
  const query = params.toString();
  return `${base.replace(/\/+$/, '')}/api/v1/external/${entry.name}${query ? `?${query}` : ''}`;
}

/** Lower case without accents, for matching what someone types against names. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * The catalog's entries that match a search and a category (`''` for all), sorted by display name as Zulip's list
 * is: every word typed must start a word of the display name or be part of the URL name ("git" finds GitHub, GitLab
 * and Gitea; "alert" finds Prometheus Alertmanager). Legacy entries come after the current one of the same name.
 */
export function searchCatalog(
  catalog: readonly CatalogEntry[],
  query: string,
  category: Category | '' = '',
): CatalogEntry[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  return catalog
    .filter((entry) => category === '' || entry.categories.includes(category))
    .filter((entry) => {
      const display = fold(entry.displayName);
      const starts = display.split(/[^a-z0-9]+/).filter(Boolean);
      return words.every((w) => entry.name.includes(w) || display.startsWith(w) || starts.some((s) => s.startsWith(w)));
    })
    .sort(
      (a, b) => a.displayName.localeCompare(b.displayName) || Number(a.legacy ?? false) - Number(b.legacy ?? false),
    );
}

/** The categories that some entry has, in the order of Zulip's CATEGORIES, with their labels. */
export function usedCategories(
  catalog: readonly CatalogEntry[],
  labels: Readonly<Record<string, string>>,
): [Category, string][] {
  const used = new Set(catalog.flatMap((entry) => entry.categories));
  return (Object.entries(labels) as [Category, string][]).filter(([category]) => used.has(category));
}

/** How an entry is named in lists: the display name, marked when several entries share it (Bitbucket's legacy hook). */
export function entryLabel(entry: CatalogEntry): string {
  return entry.legacy ? `${entry.displayName} (legacy)` : entry.displayName;
}

/** A bot's short name (the part before `-bot@` of its email) from what someone typed or an integration's name. */
export function shortNameFor(text: string): string {
  return fold(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export type { GroupMembers } from '../store/model';

/** A group-valued setting: a group's id, or an anonymous group of people and groups. */
export type GroupSetting = number | { direct_members: readonly number[]; direct_subgroups: readonly number[] };

/** Whether the user belongs to the setting's group: as a member of it or of any of its subgroups, at any depth. */
export function inGroupSetting(
  setting: GroupSetting | undefined,
  userId: number,
  groups: ReadonlyMap<number, GroupMembers>,
): boolean {
  if (setting === undefined) return false;
  const seen = new Set<number>();
  const inGroup = (id: number): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const group = groups.get(id);
    return !!group && (group.members.includes(userId) || group.direct_subgroup_ids.some(inGroup));
  };
  if (typeof setting === 'number') return inGroup(setting);
  return setting.direct_members.includes(userId) || setting.direct_subgroups.some(inGroup);
}

/**
 * Whether the user may create an incoming webhook bot: the server's rule for POST /bots with bot_type 2 (Zulip's
 * can_create_bots_group, or can_create_write_only_bots_group for incoming webhooks only). Bots never may.
 */
export function canCreateIncomingWebhook(
  settings: Readonly<Record<string, unknown>>,
  userId: number,
  isBot: boolean,
  groups: ReadonlyMap<number, GroupMembers>,
): boolean {
  if (isBot) return false;
  return (
    inGroupSetting(settings.realm_can_create_bots_group as GroupSetting | undefined, userId, groups) ||
    inGroupSetting(settings.realm_can_create_write_only_bots_group as GroupSetting | undefined, userId, groups)
  );
}
