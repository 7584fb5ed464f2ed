import type { Generated, Selectable } from 'kysely';

/** A topic any repository may carry; `repo_count` is how many do (Forgejo's `topic`). */
export interface TopicTable {
  id: Generated<number>;
  /** Lower-case: `^[a-z0-9][-.a-z0-9]*$`, at most 35 characters. */
  name: string;
  repo_count: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

/** Which repository carries which topic. */
export interface RepoTopicTable {
  repo_id: number;
  topic_id: number;
}

/** The tables the topics domain owns. */
export interface TopicsTables {
  topic: TopicTable;
  repo_topic: RepoTopicTable;
}

export type Topic = Selectable<TopicTable>;

declare module '../storage/schema.js' {
  interface Schema extends TopicsTables {}
}
