import type { Generated, Insertable, Selectable } from 'kysely';

/** A repository's milestone, as Forgejo stores it; the issue counts are kept by the issues domain's changes. */
export interface MilestoneTable {
  id: Generated<number>;
  repo_id: number;
  name: string;
  content: Generated<string>;
  is_closed: Generated<number>;
  num_issues: Generated<number>;
  num_closed_issues: Generated<number>;
  created_unix: number;
  updated_unix: number;
  /** 0: no due date. */
  deadline_unix: Generated<number>;
  /** 0 while open. */
  closed_date_unix: Generated<number>;
}

/** The tables the milestones domain owns. */
export interface MilestonesTables {
  milestone: MilestoneTable;
}

export type Milestone = Selectable<MilestoneTable>;
export type NewMilestone = Insertable<MilestoneTable>;

declare module '../storage/schema.js' {
  interface Schema extends MilestonesTables {}
}
