import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import type { GroupRef, ModelGroup } from '@confab/porting';
import { NOBODY } from '@confab/zulip';
import { groupRecord, viewsOf, type EventMeta } from './records.js';
import { anonymous, SETTING_CONFIG, simplify } from './setting-values.js';
import type { GroupStore } from './store.js';
import { SETTING_NAMES, type GroupSettings, type SettingValue } from './types.js';

/**
 * An import's user groups (docs/architecture.md, "Moving organizations in and out"), created as createGroup would
 * make them — with the ids the import allocated, their members and subgroups, and their permission settings (Zulip's
 * defaults where the export has none) — and the `group.created` events other services copy them from. The
 * organization's system groups exist already: `applyRealm` made them when the import applied `realm.created`.
 */
export async function importGroups(
  store: GroupStore,
  realmId: number,
  groups: readonly ModelGroup[],
  meta: EventMeta,
): Promise<OutboxRecord[]> {
  const system = new Map(
    (await store.groupsInRealm(realmId, { includeDeactivated: true })).filter((g) => g.isSystemGroup).map((g) => [g.name, g.id]),
  );
  const systemId = (name: string) => {
    const id = system.get(name);
    if (id === undefined) throw new Error(`organization ${realmId} has no system group ${name}`);
    return id;
  };
  const nobodyId = systemId(NOBODY);
  const value = (ref: GroupRef): SettingValue => {
    if ('system' in ref) return systemId(ref.system);
    if ('group' in ref) return ref.group;
    return simplify(anonymous(ref.members, [...ref.subgroups, ...(ref.systemSubgroups ?? []).map(systemId)]), nobodyId);
  };
  const created = [];
  for (const group of groups) {
    const settings = {} as GroupSettings;
    for (const name of SETTING_NAMES) {
      const given = group.settings[name];
      const fallback = SETTING_CONFIG[name].defaultValue;
      settings[name] = given
        ? value(given)
        : fallback === 'creator'
          ? group.creatorId === null
            ? nobodyId
            : anonymous([group.creatorId], [])
          : systemId(fallback);
    }
    created.push(
      await store.createGroup({
        id: group.id,
        realmId,
        name: group.name,
        description: group.description,
        isSystemGroup: false,
        creatorId: group.creatorId,
        settings,
        dateCreated: new Date(group.dateCreated * 1000),
        deactivated: group.deactivated,
      }),
    );
    if (group.members.length > 0) await store.addMembers(group.id, group.members);
  }
  // Subgroups once every group exists (a group may contain one listed after it).
  for (const group of groups) if (group.subgroups.length > 0) await store.addSubgroups(group.id, group.subgroups);
  const views = await viewsOf(store, created);
  const flattened = await store.recursiveMembers(created.map((g) => g.id));
  return views.map((view) =>
    outboxRecord(
      contracts.groupCreated,
      {
        group: groupRecord(view),
        direct_members: view.members,
        direct_subgroups: view.subgroups,
        flattened: [{ group_id: view.group.id, members: flattened.get(view.group.id) ?? [] }],
      },
      meta,
    ),
  );
}
