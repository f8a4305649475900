import type { ExportData, ExportGroupValue } from './data.js';

/** An anonymous group value: the members and subgroups of a group without a name. */
type AnonymousGroup = { direct_members: number[]; direct_subgroups: number[] };

/**
 * Zulip's user group tables of an export (zerver_usergroup, zerver_namedusergroup, zerver_usergroupmembership,
 * zerver_groupgroupmembership). Group-valued settings are written as group ids: an anonymous value becomes an
 * unnamed zerver_usergroup row, as Zulip stores them, so the tables grow while settings are written.
 */
export class ExportGroups {
  readonly usergroups: Record<string, unknown>[];
  readonly memberships: Record<string, unknown>[] = [];
  readonly groupEdges: Record<string, unknown>[] = [];
  readonly namedgroups: Record<string, unknown>[];
  private readonly system: ReadonlyMap<string, number>;
  private nextGroupId: number;

  constructor(
    private readonly realmId: number,
    groups: ExportData['groups'],
  ) {
    this.system = new Map(groups.filter((g) => g.isSystemGroup).map((g) => [g.name, g.id]));
    this.nextGroupId = Math.max(0, ...groups.map((g) => g.id)) + 1;
    this.usergroups = groups.map((g) => ({ id: g.id, realm: realmId }));
    for (const g of groups) this.addMembers(g.id, g.members, g.subgroups);
    this.namedgroups = groups.map((g) => ({
      id: g.id,
      usergroup_ptr: g.id,
      name: g.name,
      description: g.description,
      is_system_group: g.isSystemGroup,
      realm_for_sharding: realmId,
      creator: g.creatorId,
      date_created: g.dateCreated,
      deactivated: g.deactivated,
      ...this.settings(g.settings),
    }));
  }

  /** A setting's group id: a system group's by its name (nobody when unknown), a new unnamed group for an anonymous one. */
  value(value: ExportGroupValue): number {
    if (typeof value === 'number') return value;
    if (typeof value === 'string') return this.system.get(value) ?? this.system.get('role:nobody')!;
    return this.anonymous(value);
  }

  /** Group-valued settings by name, as group ids. */
  settings(values: Record<string, ExportGroupValue>): Record<string, number> {
    return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, this.value(v)]));
  }

  private anonymous(v: AnonymousGroup): number {
    const id = this.nextGroupId++;
    this.usergroups.push({ id, realm: this.realmId });
    this.addMembers(id, v.direct_members, v.direct_subgroups);
    return id;
  }

  private addMembers(groupId: number, members: readonly number[], subgroups: readonly number[]): void {
    for (const u of members)
      this.memberships.push({ id: this.memberships.length + 1, user_group: groupId, user_profile: u });
    for (const s of subgroups)
      this.groupEdges.push({ id: this.groupEdges.length + 1, supergroup: groupId, subgroup: s });
  }
}
