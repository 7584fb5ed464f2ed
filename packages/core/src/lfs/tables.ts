import type { Generated, Selectable } from 'kysely';

/** A repository holds an LFS object (Forgejo's `lfs_meta_object`): what makes the object readable there. */
export interface LfsMetaObjectTable {
  id: Generated<number>;
  /** Lower-case hex SHA-256 of the object's bytes; the key of its blob. */
  oid: string;
  size: number;
  repository_id: number;
  created_unix: number;
}

/** A path of a repository locked by a user (Forgejo's `lfs_lock`). */
export interface LfsLockTable {
  id: Generated<number>;
  repo_id: number;
  owner_id: number;
  /** Cleaned: relative, `/`-separated, no `.` or `..` segment. */
  path: string;
  /** Unix seconds. */
  created: number;
}

/** The tables the lfs domain owns. */
export interface LfsTables {
  lfs_meta_object: LfsMetaObjectTable;
  lfs_lock: LfsLockTable;
}

export type LfsMetaObject = Selectable<LfsMetaObjectTable>;
export type LfsLock = Selectable<LfsLockTable>;

declare module '../storage/schema.js' {
  interface Schema extends LfsTables {}
}
