import type { Generated, Insertable, Selectable } from 'kysely';

/** A reaction (`type`: `+1`, `heart`, …) of a user on an issue (`comment_id` 0) or on one of its comments. */
export interface ReactionTable {
  id: Generated<number>;
  type: string;
  issue_id: number;
  /** 0: the reaction is on the issue itself. */
  comment_id: Generated<number>;
  user_id: number;
  original_author_id: Generated<number>;
  original_author: Generated<string>;
  created_unix: number;
}

/** The tables the reactions domain owns. */
export interface ReactionsTables {
  reaction: ReactionTable;
}

export type Reaction = Selectable<ReactionTable>;
export type NewReaction = Insertable<ReactionTable>;

declare module '../storage/schema.js' {
  interface Schema extends ReactionsTables {}
}
