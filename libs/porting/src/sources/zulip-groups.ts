import type { GroupRef, ModelGroup } from '../model.js';
import { num, rows, str, type LocalUser, type Row } from './zulip-tables.js';

/**
 * User groups of a Zulip export: system groups are made by the groups service and referred to by name; named ones
 * come across; anonymous ones (the values of group settings) are referred to by their members and subgroups.
 */
export class ZulipGroups {
  private readonly named: Map<number, Row>;
  private readonly members = new Map<number, number[]>();
  private readonly subgroups = new Map<number, number[]>();

  /** Numbers the named groups into `groupIds` (old id → local id). */
  constructor(
    data: Row,
    private readonly groupIds: Map<number, number>,
    private readonly local: LocalUser,
  ) {
    this.named = new Map(rows(data, 'zerver_namedusergroup').map((g) => [Number(g.id ?? g.usergroup_ptr), g]));
    for (const m of rows(data, 'zerver_usergroupmembership')) {
      const group = Number(m.user_group);
      this.members.set(group, [...(this.members.get(group) ?? []), local(m.user_profile)]);
    }
    for (const m of rows(data, 'zerver_groupgroupmembership')) {
      const group = Number(m.supergroup);
      this.subgroups.set(group, [...(this.subgroups.get(group) ?? []), Number(m.subgroup)]);
    }
    for (const g of this.named.values())
      if (g.is_system_group !== true) groupIds.set(Number(g.id ?? g.usergroup_ptr), groupIds.size + 1);
  }

  /** A group-valued setting's value (a zerver_usergroup id) as a reference. */
  ref(old: unknown): GroupRef | null {
    if (old === null || old === undefined) return null;
    const id = Number(old);
    const group = this.named.get(id);
    if (group) return group.is_system_group === true ? { system: str(group.name) } : { group: this.groupIds.get(id)! };
    // An anonymous group: its members and subgroups.
    const subs = this.subgroups.get(id) ?? [];
    return {
      members: this.members.get(id) ?? [],
      subgroups: subs.filter((s) => this.groupIds.has(s)).map((s) => this.groupIds.get(s)!),
      systemSubgroups: subs
        .filter((s) => this.named.get(s)?.is_system_group === true)
        .map((s) => str(this.named.get(s)!.name)),
    };
  }

  /** The group-valued settings of a row (`can_…_group`, `…_group`) as references. */
  settings(row: Row): Record<string, GroupRef> {
    const out: Record<string, GroupRef> = {};
    for (const [k, v] of Object.entries(row)) {
      if (!/^can_.*_group$|_group$/.test(k) || k.endsWith('_id')) continue;
      const ref = this.ref(v);
      if (ref) out[k] = ref;
    }
    return out;
  }

  /** The named groups that are not system groups. */
  models(): ModelGroup[] {
    const groups: ModelGroup[] = [];
    for (const g of this.named.values()) {
      if (g.is_system_group === true) continue;
      const old = Number(g.id ?? g.usergroup_ptr);
      groups.push({
        id: this.groupIds.get(old)!,
        name: str(g.name),
        description: str(g.description),
        deactivated: g.deactivated === true,
        creatorId: g.creator === null || g.creator === undefined ? null : this.local(g.creator),
        dateCreated: num(g.date_created) ?? Date.now() / 1000,
        members: this.members.get(old) ?? [],
        subgroups: (this.subgroups.get(old) ?? [])
          .filter((s) => this.groupIds.has(s))
          .map((s) => this.groupIds.get(s)!),
        settings: this.settings(g),
      });
    }
    return groups;
  }
}
