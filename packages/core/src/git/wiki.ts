import type { RepoKey } from './types.js';

/**
 * The key of a repository's wiki: Forgejo keeps it as `<name>.wiki.git` beside the repository's `<name>.git`, so
 * it is a repository of its own under the same owner (no repository may be named `*.wiki`, so the two never meet).
 * Every place that stores, moves or removes a repository reaches its wiki through this one function.
 */
export function wikiRepoKey(key: RepoKey): RepoKey {
  return { owner: key.owner, name: `${key.name}${WIKI_SUFFIX}` };
}

/** What a wiki's key adds to its repository's name (and what a git URL's `<name>.wiki.git` ends with before `.git`). */
export const WIKI_SUFFIX = '.wiki';
