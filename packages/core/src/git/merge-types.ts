/**
 * Types of the git operations merging pull requests needs (`git/native-merge.ts`). Kept apart from backend.ts, which
 * names them, so that neither file imports the other's values.
 */

/** Who wrote or committed a commit, and when (UTC when no offset is given). */
export interface MergeSignature {
  name: string;
  email: string;
  when?: Date;
  /** `+0200`. */
  offset?: string;
}

export interface CommitTreeOptions {
  /** Full id of the tree the commit records. */
  tree: string;
  /** Full commit ids, first parent first. */
  parents: readonly string[];
  /** The message; cleaned up as `git commit` does (trailing spaces, extra blank lines). */
  message: string;
  author: MergeSignature;
  committer: MergeSignature;
}

export interface RebaseOptions {
  /** Full id of the commit the others are replayed onto. */
  onto: string;
  /** Full id of the newest commit replayed (its history down to the merge base with `onto`). */
  head: string;
  /** The committer of every replayed commit (authors are kept). */
  committer: MergeSignature;
  /** Another repository whose objects `onto` or `head` may be in (a fork's). */
  alsoFrom?: { owner: string; name: string };
}

/** A rebase's outcome: the new head, or the commit whose replay conflicted. */
export type RebaseResult = { head: string } | { conflict: string };
