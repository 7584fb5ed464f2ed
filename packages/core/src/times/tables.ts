import type { Generated, Insertable, Selectable } from 'kysely';

/** Seconds a user spent on an issue, as Forgejo stores them; a deleted entry stays, marked `deleted`. */
export interface TrackedTimeTable {
  id: Generated<number>;
  issue_id: number;
  user_id: number;
  created_unix: number;
  /** Seconds. */
  time: number;
  deleted: Generated<number>;
}

/** A running timer of a user on an issue (at most one per user and issue). */
export interface StopwatchTable {
  id: Generated<number>;
  issue_id: number;
  user_id: number;
  created_unix: number;
}

/** The tables the times domain owns. */
export interface TimesTables {
  tracked_time: TrackedTimeTable;
  stopwatch: StopwatchTable;
}

export type TrackedTime = Selectable<TrackedTimeTable>;
export type NewTrackedTime = Insertable<TrackedTimeTable>;
export type Stopwatch = Selectable<StopwatchTable>;

/** Which tracked times a list shows (deleted ones never); every field narrows it. */
export interface TrackedTimeFilter {
  issueId?: number;
  userId?: number;
  /** Times on issues of this repository. */
  repoId?: number;
  /** Created at or after (unix seconds). */
  since?: number;
  /** Created at or before (unix seconds). */
  before?: number;
}

declare module '../storage/schema.js' {
  interface Schema extends TimesTables {}
}
