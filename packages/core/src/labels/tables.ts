import type { Generated, Insertable, Selectable } from 'kysely';

/** A label of a repository (`repo_id`) or of an organization (`org_id`, `repo_id` 0), as Forgejo stores it. */
export interface LabelTable {
  id: Generated<number>;
  repo_id: number;
  org_id: number;
  name: string;
  /** 1 when at most one label of its scope (the part before the last `/`) may be set on an issue. */
  exclusive: number;
  description: string;
  /** `#rrggbb`. */
  color: string;
  num_issues: number;
  num_closed_issues: number;
  created_unix: number;
  updated_unix: number;
  /** 0 unless archived. */
  archived_unix: number;
}

/** The tables the labels domain owns. */
export interface LabelsTables {
  label: LabelTable;
}

export type Label = Selectable<LabelTable>;
export type NewLabel = Insertable<LabelTable>;

declare module '../storage/schema.js' {
  interface Schema extends LabelsTables {}
}
