import type { Generated, Selectable } from 'kysely';

export interface JobTable {
  id: Generated<number>;
  kind: string;
  /** '' for none; jobs of one kind and key never run at once, and a queued one absorbs new ones. */
  key: string;
  /** The payload as JSON. */
  payload: string;
  status: JobStatus;
  attempts: number;
  /** Not claimed before this (a retry's backoff, or a job scheduled for later). */
  run_after_unix: number;
  /** The process holding the job while `running` (until `lease_until_unix`; an expired lease may be taken over). */
  lease_owner: string;
  lease_until_unix: number;
  progress_done: number;
  progress_total: number;
  progress_message: string;
  /** The last failed attempt's error (cleared when an attempt succeeds). */
  error: string;
  created_unix: number;
  updated_unix: number;
  finished_unix: number;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export type JobRow = Selectable<JobTable>;

export interface JobsTables {
  job: JobTable;
}

declare module '../storage/schema.js' {
  interface Schema extends JobsTables {}
}
