import type { Generated, Selectable } from 'kysely';

/** A pull mirror: the repository `repo_id` follows a remote repository (Forgejo's `mirror`). */
export interface MirrorTable {
  id: Generated<number>;
  repo_id: number;
  /** Seconds between scheduled syncs; 0: none (syncs only when asked). */
  interval_seconds: number;
  /** Refs the remote no longer has are deleted here too. */
  enable_prune: number;
  /** When the last sync finished (successfully or not). */
  updated_unix: number;
  /** When the next scheduled sync is due; 0: none. */
  next_update_unix: number;
  /** The remote's address without credentials. */
  remote_address: string;
  /** The remote's credentials, encrypted (see `encryptRemoteCredentials`); '' for none. */
  remote_credentials: string;
  lfs_enabled: Generated<number>;
  lfs_endpoint: Generated<string>;
  /** Why the last sync failed ('' after a successful one), credentials removed. */
  last_error: Generated<string>;
}

export type Mirror = Selectable<MirrorTable>;

export interface MirrorsTables {
  mirror: MirrorTable;
}

declare module '../storage/schema.js' {
  interface Schema extends MirrorsTables {}
}
