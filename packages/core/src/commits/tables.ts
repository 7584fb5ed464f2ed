import type { Generated, Insertable, Selectable } from 'kysely';

/** A status a client reported for a commit (Forgejo's `commit_status`). */
export interface CommitStatusTable {
  id: Generated<number>;
  /** 1, 2, … per commit of a repository, in the order they were reported. */
  index: number;
  repo_id: number;
  state: string;
  /** The complete commit id. */
  sha: string;
  target_url: string;
  description: string;
  /** sha1 of `context`. */
  context_hash: string;
  context: string;
  creator_id: number;
  created_unix: number;
  updated_unix: number;
}

/** The tables the commits domain owns. */
export interface CommitsTables {
  commit_status: CommitStatusTable;
}

export type CommitStatus = Selectable<CommitStatusTable>;
export type NewCommitStatus = Insertable<CommitStatusTable>;

declare module '../storage/schema.js' {
  interface Schema extends CommitsTables {}
}
