import type { Generated, Selectable } from 'kysely';

/** A limit on a sum of subjects (Forgejo's `quota_rule`); `subjects` is a JSON array of subject names. */
export interface QuotaRuleTable {
  name: string;
  /** Bytes; -1 is unlimited. */
  limit: number;
  subjects: string;
}

/** A named set of rules (Forgejo's `quota_group`). */
export interface QuotaGroupTable {
  name: string;
}

/** Which rules a group holds. */
export interface QuotaGroupRuleMappingTable {
  id: Generated<number>;
  group_name: string;
  rule_name: string;
}

/** Which accounts a group applies to; `kind` 0 is an account (user or organization), the only kind Forgejo has. */
export interface QuotaGroupMappingTable {
  id: Generated<number>;
  kind: number;
  mapped_id: number;
  group_name: string;
}

/**
 * The repository columns usage is summed from. The repos domain owns the table; the quota store only reads it,
 * and only these columns.
 */
interface RepositorySizeView {
  owner_id: number;
  is_private: number;
  size: number;
}

/** The tables the quota domain owns, and the one it reads. */
export interface QuotaTables {
  quota_rule: QuotaRuleTable;
  quota_group: QuotaGroupTable;
  quota_group_rule_mapping: QuotaGroupRuleMappingTable;
  quota_group_mapping: QuotaGroupMappingTable;
  repository: RepositorySizeView;
}

export type QuotaRuleRow = Selectable<QuotaRuleTable>;
export type QuotaGroupRow = Selectable<QuotaGroupTable>;

/** The kind of a group mapping that names an account. */
export const QUOTA_KIND_USER = 0;

/** The tables the quota domain owns (the schema lists each table once, under its owner). */
type OwnedQuotaTables = Omit<QuotaTables, 'repository'>;

declare module '../storage/schema.js' {
  interface Schema extends OwnedQuotaTables {}
}
