import { Store } from '../storage/index.js';
import { QUOTA_KIND_USER, type QuotaGroupRow, type QuotaRuleRow, type QuotaTables } from './tables.js';

/** A rule with the group that holds it. */
export type GroupedRuleRow = QuotaRuleRow & { group_name: string };

/** The `quota_*` tables, and the sizes of an owner's repositories (read only). */
export class QuotaStore extends Store<QuotaTables> {
  // ---- rules ----

  listRules(): Promise<QuotaRuleRow[]> {
    return this.db.selectFrom('quota_rule').selectAll().orderBy('name').execute();
  }

  findRule(name: string): Promise<QuotaRuleRow | undefined> {
    return this.db.selectFrom('quota_rule').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async insertRule(row: QuotaRuleRow): Promise<void> {
    await this.db.insertInto('quota_rule').values(row).execute();
  }

  async updateRule(name: string, changes: Partial<Omit<QuotaRuleRow, 'name'>>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.db.updateTable('quota_rule').set(changes).where('name', '=', name).execute();
  }

  /** Removes the rule and takes it out of every group. */
  async deleteRule(name: string): Promise<void> {
    await this.db.deleteFrom('quota_group_rule_mapping').where('rule_name', '=', name).execute();
    await this.db.deleteFrom('quota_rule').where('name', '=', name).execute();
  }

  // ---- groups ----

  listGroups(): Promise<QuotaGroupRow[]> {
    return this.db.selectFrom('quota_group').selectAll().orderBy('name').execute();
  }

  findGroup(name: string): Promise<QuotaGroupRow | undefined> {
    return this.db.selectFrom('quota_group').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** The groups of these names that exist, by name. */
  findGroups(names: readonly string[]): Promise<QuotaGroupRow[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('quota_group').selectAll().where('name', 'in', [...names]).orderBy('name').execute();
  }

  async insertGroup(name: string): Promise<void> {
    await this.db.insertInto('quota_group').values({ name }).execute();
  }

  /** Removes the group, its rule links and its members (the rules stay). */
  async deleteGroup(name: string): Promise<void> {
    await this.db.deleteFrom('quota_group_mapping').where('group_name', '=', name).execute();
    await this.db.deleteFrom('quota_group_rule_mapping').where('group_name', '=', name).execute();
    await this.db.deleteFrom('quota_group').where('name', '=', name).execute();
  }

  /** Every rule of these groups, in one query, by group then rule name. */
  rulesOfGroups(groupNames: readonly string[]): Promise<GroupedRuleRow[]> {
    if (groupNames.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('quota_group_rule_mapping as m')
      .innerJoin('quota_rule as r', 'r.name', 'm.rule_name')
      .select(['r.name', 'r.limit', 'r.subjects', 'm.group_name'])
      .where('m.group_name', 'in', [...groupNames])
      .orderBy('m.group_name')
      .orderBy('r.name')
      .execute();
  }

  async hasRuleInGroup(groupName: string, ruleName: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('quota_group_rule_mapping')
      .select('id')
      .where('group_name', '=', groupName)
      .where('rule_name', '=', ruleName)
      .executeTakeFirst();
    return row !== undefined;
  }

  async addRuleToGroup(groupName: string, ruleName: string): Promise<void> {
    await this.db.insertInto('quota_group_rule_mapping').values({ group_name: groupName, rule_name: ruleName }).execute();
  }

  async removeRuleFromGroup(groupName: string, ruleName: string): Promise<void> {
    await this.db.deleteFrom('quota_group_rule_mapping').where('group_name', '=', groupName).where('rule_name', '=', ruleName).execute();
  }

  // ---- members ----

  /** Ids of the accounts in a group, oldest membership first. */
  async memberIds(groupName: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('quota_group_mapping')
      .select('mapped_id')
      .where('kind', '=', QUOTA_KIND_USER)
      .where('group_name', '=', groupName)
      .orderBy('id')
      .execute();
    return rows.map((r) => Number(r.mapped_id));
  }

  async isMember(groupName: string, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('quota_group_mapping')
      .select('id')
      .where('kind', '=', QUOTA_KIND_USER)
      .where('mapped_id', '=', userId)
      .where('group_name', '=', groupName)
      .executeTakeFirst();
    return row !== undefined;
  }

  async addMember(groupName: string, userId: number): Promise<void> {
    await this.db.insertInto('quota_group_mapping').values({ kind: QUOTA_KIND_USER, mapped_id: userId, group_name: groupName }).execute();
  }

  async removeMember(groupName: string, userId: number): Promise<void> {
    await this.db
      .deleteFrom('quota_group_mapping')
      .where('kind', '=', QUOTA_KIND_USER)
      .where('mapped_id', '=', userId)
      .where('group_name', '=', groupName)
      .execute();
  }

  /** Takes an account out of every group. */
  async removeMemberEverywhere(userId: number): Promise<void> {
    await this.db.deleteFrom('quota_group_mapping').where('kind', '=', QUOTA_KIND_USER).where('mapped_id', '=', userId).execute();
  }

  /** The names of the groups an account is in, by name. */
  async groupNamesOf(userId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('quota_group_mapping')
      .select('group_name')
      .where('kind', '=', QUOTA_KIND_USER)
      .where('mapped_id', '=', userId)
      .orderBy('group_name')
      .execute();
    return rows.map((r) => r.group_name);
  }

  // ---- usage ----

  /** Bytes of git storage of an owner's repositories, public and private apart. */
  async repositorySizes(ownerId: number): Promise<{ public: number; private: number }> {
    const rows = await this.db
      .selectFrom('repository')
      .select((eb) => ['is_private', eb.fn.sum<number | string | bigint>('size').as('total')])
      .where('owner_id', '=', ownerId)
      .groupBy('is_private')
      .execute();
    const sizes = { public: 0, private: 0 };
    for (const row of rows) {
      const total = Number(row.total ?? 0);
      if (Number(row.is_private) === 1) sizes.private += total;
      else sizes.public += total;
    }
    return sizes;
  }
}
