/**
 * What a quota rule limits: Forgejo's limit subjects, by the names the API and the database use. Each names a
 * sum of usage (`size:repos:all` is public plus private repositories), and falls under a wider one (`size:repos:all`
 * under `size:git:all`, under `size:all`), so a rule on a wider subject limits the narrower ones too.
 */
export const QUOTA_SUBJECTS = [
  'none',
  'size:all',
  'size:repos:all',
  'size:repos:public',
  'size:repos:private',
  'size:git:all',
  'size:git:lfs',
  'size:assets:all',
  'size:assets:attachments:all',
  'size:assets:attachments:issues',
  'size:assets:attachments:releases',
  'size:assets:artifacts',
  'size:assets:packages:all',
  'size:assets:wiki',
] as const;

export type QuotaSubject = (typeof QUOTA_SUBJECTS)[number];

const KNOWN = new Set<string>(QUOTA_SUBJECTS);

export function isQuotaSubject(value: string): value is QuotaSubject {
  return KNOWN.has(value);
}

/**
 * The wider subject each one falls under: a rule on `size:git:all` also limits a check of `size:repos:all`, and
 * one on `size:all` every subject.
 */
const SUBJECT_PARENT: ReadonlyMap<QuotaSubject, QuotaSubject> = new Map<QuotaSubject, QuotaSubject>([
  ['size:git:all', 'size:all'],
  ['size:git:lfs', 'size:git:all'],
  ['size:repos:all', 'size:git:all'],
  ['size:repos:public', 'size:repos:all'],
  ['size:repos:private', 'size:repos:all'],
  ['size:assets:all', 'size:all'],
  ['size:assets:attachments:all', 'size:assets:all'],
  ['size:assets:attachments:issues', 'size:assets:attachments:all'],
  ['size:assets:attachments:releases', 'size:assets:attachments:all'],
  ['size:assets:artifacts', 'size:assets:all'],
  ['size:assets:packages:all', 'size:assets:all'],
  ['size:assets:wiki', 'size:assets:all'],
]);

/** An account's usage, in bytes, as the quota counts it (the wire `QuotaUsed` has the same shape). */
export interface QuotaUsage {
  size: {
    repos: { public: number; private: number };
    git: { LFS: number };
    assets: {
      attachments: { issues: number; releases: number };
      artifacts: number;
      packages: { all: number };
    };
  };
}

export function emptyUsage(): QuotaUsage {
  return {
    size: {
      repos: { public: 0, private: 0 },
      git: { LFS: 0 },
      assets: { attachments: { issues: 0, releases: 0 }, artifacts: 0, packages: { all: 0 } },
    },
  };
}

/** Bytes of `usage` a subject counts. `size:git:all` is the repositories plus LFS, as Forgejo sums it. */
export function usageOf(usage: QuotaUsage, subject: QuotaSubject): number {
  const { repos, git, assets } = usage.size;
  const reposAll = repos.public + repos.private;
  const attachmentsAll = assets.attachments.issues + assets.attachments.releases;
  const assetsAll = attachmentsAll + assets.artifacts + assets.packages.all;
  switch (subject) {
    case 'none':
    case 'size:assets:wiki':
      return 0;
    case 'size:all':
      return git.LFS + reposAll + assetsAll;
    case 'size:repos:all':
      return reposAll;
    case 'size:repos:public':
      return repos.public;
    case 'size:repos:private':
      return repos.private;
    case 'size:git:all':
      return git.LFS + reposAll;
    case 'size:git:lfs':
      return git.LFS;
    case 'size:assets:all':
      return assetsAll;
    case 'size:assets:attachments:all':
      return attachmentsAll;
    case 'size:assets:attachments:issues':
      return assets.attachments.issues;
    case 'size:assets:attachments:releases':
      return assets.attachments.releases;
    case 'size:assets:artifacts':
      return assets.artifacts;
    case 'size:assets:packages:all':
      return assets.packages.all;
  }
}

/** A rule as evaluation needs it. */
export interface EvaluatedRule {
  limit: number;
  subjects: readonly QuotaSubject[];
}

/** A group as evaluation needs it. */
export interface EvaluatedGroup {
  rules: readonly EvaluatedRule[];
}

/**
 * One rule on one subject: undefined when the rule limits neither the subject nor anything it falls under, else
 * whether the usage of the rule's subjects is below its limit (-1 is unlimited). Reaching the limit is over it.
 */
function evaluateRule(rule: EvaluatedRule, usage: QuotaUsage, subject: QuotaSubject): boolean | undefined {
  let covered: QuotaSubject | undefined = subject;
  while (covered !== undefined && !rule.subjects.includes(covered)) covered = SUBJECT_PARENT.get(covered);
  if (covered === undefined) return undefined;
  if (rule.limit === -1) return true;
  const used = rule.subjects.reduce((sum, s) => sum + usageOf(usage, s), 0);
  return used < rule.limit;
}

/** One group on one subject: undefined when none of its rules speaks of it, false when one that does refuses. */
function evaluateGroup(group: EvaluatedGroup, usage: QuotaUsage, subject: QuotaSubject): boolean | undefined {
  let allowed: boolean | undefined;
  for (const rule of group.rules) {
    const ok = evaluateRule(rule, usage, subject);
    if (ok === false) return false;
    if (ok) allowed = true;
  }
  return allowed;
}

/**
 * Whether `usage` is acceptable for `subject` under the account's groups: some group must speak of the subject
 * and allow it. An account in no group is judged by one rule, `[quota.default] TOTAL` on `size:all`.
 */
export function evaluateGroups(groups: readonly EvaluatedGroup[], usage: QuotaUsage, subject: QuotaSubject, defaultTotal: number): boolean {
  const effective = groups.length > 0 ? groups : [{ rules: [{ limit: defaultTotal, subjects: ['size:all'] as const }] }];
  return effective.some((group) => evaluateGroup(group, usage, subject) === true);
}
