import type { Generated, Selectable } from 'kysely';

/** `user_id` follows `follow_id` (Forgejo's `follow`). */
export interface FollowTable {
  id: Generated<number>;
  user_id: number;
  follow_id: number;
  created_unix: number;
}

/** `uid` starred `repo_id` (Forgejo's `star`). */
export interface StarTable {
  id: Generated<number>;
  uid: number;
  repo_id: number;
  created_unix: number;
}

/** The tables the social domain owns. */
export interface SocialTables {
  follow: FollowTable;
  star: StarTable;
}

export type Follow = Selectable<FollowTable>;
export type Star = Selectable<StarTable>;

declare module '../storage/schema.js' {
  interface Schema extends SocialTables {}
}
