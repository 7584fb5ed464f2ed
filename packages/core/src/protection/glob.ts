/**
 * Protection rules' matchers (Forgejo's): branch rule names, protected file patterns and tag rule patterns, over
 * the shared glob dialect (`../glob.ts`) and, for tag patterns between slashes, RE2.
 */
import { Glob, isGlobPattern } from '../glob.js';
import { compileLinearRegex } from '../linear-regex.js';

/** A branch rule's matcher: a plain name equals the branch in any case, a glob uses `/` as its separator. */
export function branchRuleMatcher(ruleName: string): (branch: string) => boolean {
  if (!isGlobPattern(ruleName)) {
    const lower = ruleName.toLowerCase();
    return (branch) => branch.toLowerCase() === lower;
  }
  let glob: Glob;
  try {
    glob = Glob.compile(ruleName, ['/']);
  } catch {
    // Forgejo quotes a glob that does not compile and matches it literally.
    glob = Glob.literal(ruleName, ['/']);
  }
  return (branch) => glob.match(branch);
}

/**
 * Forgejo's file patterns: `;`-separated globs, lower-cased, with `.` and `/` as separators; those that do not
 * compile are skipped. Paths are lower-cased and trimmed before matching.
 */
export function filePatterns(text: string): Glob[] {
  const globs: Glob[] = [];
  for (const part of text.toLowerCase().split(';')) {
    const expr = part.trim();
    if (!expr) continue;
    try {
      globs.push(Glob.compile(expr, ['.', '/']));
    } catch {
      // Skipped, as Forgejo skips an invalid expression.
    }
  }
  return globs;
}

export function matchesAnyFile(globs: readonly Glob[], path: string): boolean {
  const lower = path.trim().toLowerCase();
  return globs.some((g) => g.match(lower));
}

/**
 * A tag rule's matcher: a pattern between slashes is a regular expression (searched, as Go's `MatchString`, and
 * run on RE2 as in Forgejo, so no pattern can backtrack), any other a glob where `*` crosses `/`. A pattern that
 * does not compile matches every tag: the rule then protects more, never less.
 */
export async function tagRuleMatcher(pattern: string): Promise<(tag: string) => boolean> {
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    try {
      const re = await compileLinearRegex(pattern.slice(1, -1));
      return (tag) => re.test(tag);
    } catch {
      return () => true;
    }
  }
  try {
    const glob = Glob.compile(pattern);
    return (tag) => glob.match(tag);
  } catch {
    return () => true;
  }
}
