import type { Generated, Selectable } from 'kysely';

/** An account given access to a repository it does not own (Forgejo's `collaboration`). */
export interface CollaborationTable {
  id: Generated<number>;
  repo_id: number;
  user_id: number;
  /** AccessMode: 1 read, 2 write, 3 admin. */
  mode: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

/** The tables the access domain owns. */
export interface AccessTables {
  collaboration: CollaborationTable;
}

export type Collaboration = Selectable<CollaborationTable>;

declare module '../storage/schema.js' {
  interface Schema extends AccessTables {}
}
