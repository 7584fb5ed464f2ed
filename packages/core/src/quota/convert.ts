import type { ApiQuotaGroup, ApiQuotaInfo, ApiQuotaRuleInfo } from './schemas.js';
import type { QuotaUsage } from './subjects.js';
import type { QuotaRuleRow } from './tables.js';

/** A group with its rules, as the service loads it. */
export interface LoadedQuotaGroup {
  name: string;
  rules: QuotaRuleRow[];
}

/** The subject names a rule row stores (a JSON array; anything else reads as none). */
export function subjectsOf(rule: Pick<QuotaRuleRow, 'subjects'>): string[] {
  try {
    const parsed: unknown = JSON.parse(rule.subjects);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * A rule on the wire. Names are for site administrators (`withName`); an empty subject list is left out, as Go's
 * `omitempty` leaves it out.
 */
export function toApiQuotaRule(rule: QuotaRuleRow, withName: boolean): ApiQuotaRuleInfo {
  const subjects = subjectsOf(rule);
  return {
    ...(withName ? { name: rule.name } : {}),
    limit: Number(rule.limit),
    ...(subjects.length > 0 ? { subjects } : {}),
  };
}

export function toApiQuotaGroup(group: LoadedQuotaGroup, withNames: boolean): ApiQuotaGroup {
  return { ...(withNames ? { name: group.name } : {}), rules: group.rules.map((r) => toApiQuotaRule(r, withNames)) };
}

/** An account's quota: what it uses and the groups that apply, without names (Forgejo shows none there). */
export function toApiQuotaInfo(usage: QuotaUsage, groups: readonly LoadedQuotaGroup[]): ApiQuotaInfo {
  return { used: usage, groups: groups.map((g) => toApiQuotaGroup(g, false)) };
}
