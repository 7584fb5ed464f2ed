/**
 * The glob dialect of protection rules (gobwas/glob as Forgejo uses it), as a table: branch rules (`/` is the
 * separator: `*` stays inside a segment, `**` crosses), file patterns (`.` and `/` separate, any case), tag
 * patterns (no separator; `/…/` is a regular expression), and the order in which rules apply (an exact name before
 * any glob, then the oldest).
 */
import { describe, expect, test } from 'vitest';
import { branchRuleMatcher, filePatterns, firstMatchingRule, isGlobPattern, tagRuleMatcher, type BranchRule } from '@repohost/core';

const BRANCH_CASES: [rule: string, branch: string, matches: boolean][] = [
  ['main', 'main', true],
  ['main', 'MAIN', true],
  ['main', 'main2', false],
  ['release/*', 'release/1.0', true],
  ['release/*', 'release/1.0/hotfix', false],
  ['release/*', 'release/', true],
  ['release/**', 'release/1.0/hotfix', true],
  ['release/**', 'release', false],
  ['**', 'a/b/c', true],
  ['*', 'feature', true],
  ['*', 'feature/x', false],
  ['*-stable', '1.0-stable', true],
  ['*-stable', 'v/1.0-stable', false],
  ['v?.x', 'v1.x', true],
  ['v?.x', 'v/.x', false],
  ['v[0-9]', 'v7', true],
  ['v[0-9]', 'va', false],
  ['v[!0-9]', 'va', true],
  ['{main,develop}', 'develop', true],
  ['{main,develop}', 'feature', false],
  ['feat/{a,b}/*', 'feat/b/x', true],
  ['feat/{a,b}/*', 'feat/c/x', false],
  ['a\\*b', 'a*b', true],
  ['a\\*b', 'axb', false],
  // Globs are case-sensitive; only a plain name ignores case.
  ['Release/*', 'release/1', false],
  // A glob that does not compile matches itself literally.
  ['broken[', 'broken[', true],
  ['broken[', 'brokenx', false],
];

const FILE_CASES: [patterns: string, path: string, matches: boolean][] = [
  ['*.md', 'README.md', true],
  ['*.md', 'docs/readme.md', false],
  ['**.md', 'docs/readme.md', true],
  ['*.md', 'a.b.md', false],
  ['docs/**', 'docs/x/y.txt', true],
  ['.github/**;*.lock', 'package.lock', true],
  ['.github/**;*.lock', '.GitHub/workflows/ci.yml', true],
  [' ; ', 'anything', false],
  ['src/*', 'src/main.ts', false],
  ['src/**', 'src/main.ts', true],
];

const TAG_CASES: [pattern: string, tag: string, matches: boolean][] = [
  ['v*', 'v1.0', true],
  ['v*', 'v1/2', true],
  ['v*', 'release', false],
  ['v*-rc', 'v1.0-rc', true],
  ['/^v[0-9]+$/', 'v12', true],
  ['/^v[0-9]+$/', 'v12a', false],
  ['/rc/', 'v1-rc2', true],
  // Expressions run on RE2, as Forgejo's: one that backtracks exponentially in V8 answers as Go's regexp does.
  ['/^(a+)+$/', 'aaaa', true],
  ['/^(a+)+$/', 'anything', false],
  // One that does not compile protects every tag rather than none.
  ['/v[0-9/', 'anything', true],
];

function rule(id: number, ruleName: string, createdUnix: number): BranchRule {
  return {
    id,
    repoId: 1,
    ruleName,
    canPush: false,
    enableWhitelist: false,
    whitelistUserIds: [],
    whitelistTeamIds: [],
    enableMergeWhitelist: false,
    whitelistDeployKeys: false,
    mergeWhitelistUserIds: [],
    mergeWhitelistTeamIds: [],
    enableStatusCheck: false,
    statusCheckContexts: [],
    enableApprovalsWhitelist: false,
    approvalsWhitelistUserIds: [],
    approvalsWhitelistTeamIds: [],
    requiredApprovals: 0,
    blockOnRejectedReviews: false,
    blockOnOfficialReviewRequests: false,
    blockOnOutdatedBranch: false,
    dismissStaleApprovals: false,
    ignoreStaleApprovals: false,
    requireSignedCommits: false,
    protectedFilePatterns: '',
    unprotectedFilePatterns: '',
    applyToAdmins: false,
    createdUnix,
    updatedUnix: createdUnix,
  };
}

describe('protection globs', () => {
  test.each(BRANCH_CASES)('branch rule %j on %j: %s', (ruleName, branch, matches) => {
    expect(branchRuleMatcher(ruleName)(branch)).toBe(matches);
  });

  test.each(FILE_CASES)('file patterns %j on %j: %s', (patterns, path, matches) => {
    const globs = filePatterns(patterns);
    expect(globs.some((g) => g.match(path.toLowerCase()))).toBe(matches);
  });

  test.each(TAG_CASES)('tag pattern %j on %j: %s', async (pattern, tag, matches) => {
    expect((await tagRuleMatcher(pattern))(tag)).toBe(matches);
  });

  test('a rule name is a glob when it holds one of * ? [ ] { } \\', () => {
    for (const name of ['main', 'release/1.0', 'a-b_c.d', 'x,y', 'x!y']) expect(isGlobPattern(name)).toBe(false);
    for (const name of ['a*', 'a?', 'a[', 'a]', 'a{', 'a}', 'a\\b']) expect(isGlobPattern(name)).toBe(true);
  });

  test('an exact branch name wins over a glob, even an older one; among globs the oldest wins', () => {
    // Given in the order `sortBranchRules` keeps: plain names first, then by creation.
    const rules = [rule(3, 'release/1.0', 300), rule(1, 'release/*', 100), rule(2, 'release/**', 200)];
    expect(firstMatchingRule(rules, 'release/1.0')?.id).toBe(3);
    expect(firstMatchingRule(rules, 'release/2.0')?.id).toBe(1);
    expect(firstMatchingRule(rules, 'release/2.0/x')?.id).toBe(2);
    expect(firstMatchingRule(rules, 'main')).toBeUndefined();
  });

  test('matching is linear: a pattern of many stars does not hang on a long name', () => {
    const started = Date.now();
    const glob = branchRuleMatcher('*a*a*a*a*a*a*a*a*a*a*a*a*b');
    expect(glob('a'.repeat(5000))).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('tag expressions are linear: nested and repeated quantifiers do not hang on a long tag', async () => {
    const tag = `${'a'.repeat(5000)}!`;
    const started = Date.now();
    for (const pattern of ['/^(a+)+$/', '/^(a|aa)*$/', '/(.*a){12}c/', '/^(?:a*)*b/']) expect((await tagRuleMatcher(pattern))(tag)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
