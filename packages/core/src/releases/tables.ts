import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * A release of a repository, as Forgejo stores it. `sha1` is the commit its tag leads to ('' while a draft's tag
 * does not exist, or after a push deleted the tag); `target` is what the release was asked to be cut from.
 */
export interface ReleaseTable {
  id: Generated<number>;
  repo_id: number;
  publisher_id: number;
  tag_name: string;
  /** `tag_name` lower-cased: unique per repository, what lookups by tag use. */
  lower_tag_name: string;
  original_author: Generated<string>;
  original_author_id: Generated<number>;
  target: Generated<string>;
  title: Generated<string>;
  sha1: Generated<string>;
  hide_archive_links: Generated<number>;
  num_commits: Generated<number>;
  note: Generated<string>;
  is_draft: Generated<number>;
  is_prerelease: Generated<number>;
  /** Forgejo's tag-only rows; never written here (always 0). */
  is_tag: Generated<number>;
  created_unix: number;
}

/** The tables the releases domain owns. */
export interface ReleasesTables {
  release: ReleaseTable;
}

export type Release = Selectable<ReleaseTable>;
export type NewRelease = Insertable<ReleaseTable>;
export type ReleaseChanges = Updateable<ReleaseTable>;

declare module '../storage/schema.js' {
  interface Schema extends ReleasesTables {}
}
