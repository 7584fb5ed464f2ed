import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * A push mirror of a repository, as Forgejo stores it (`push_mirror`), except that the interval is kept in seconds
 * and the remote's credentials are kept apart from its address, encrypted (`credentials`; '' when there are none).
 */
export interface PushMirrorTable {
  id: Generated<number>;
  repo_id: number;
  /** `remote_mirror_<random>`: the mirror's name in the API, unique per repository. */
  remote_name: string;
  /** The address without credentials, as shown. */
  remote_address: string;
  credentials: Generated<string>;
  /** Branches pushed: comma-separated globs; '' for every branch. */
  branch_filter: Generated<string>;
  /** Forgejo's SSH key pair columns; SSH push mirrors are not offered, so they stay ''. */
  public_key: Generated<string>;
  private_key: Generated<string>;
  sync_on_commit: Generated<number>;
  /** 0: pushed only on demand (and on commit when `sync_on_commit`). */
  interval_seconds: Generated<number>;
  created_unix: number;
  /** When the last push attempt ended; 0: never. */
  last_update_unix: Generated<number>;
  last_error: Generated<string>;
}

/** The tables the push mirrors domain owns. */
export interface PushMirrorsTables {
  push_mirror: PushMirrorTable;
}

export type PushMirror = Selectable<PushMirrorTable>;
export type NewPushMirror = Insertable<PushMirrorTable>;

declare module '../storage/schema.js' {
  interface Schema extends PushMirrorsTables {}
}
