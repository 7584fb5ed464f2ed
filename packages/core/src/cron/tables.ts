import type { Selectable } from 'kysely';

/** The durable state of one recurring task: a restart keeps its schedule, and one process runs it at a time. */
export interface CronTaskTable {
  name: string;
  next_unix: number;
  prev_unix: number;
  exec_times: number;
  /** The schedule `next_unix` was computed from: a changed schedule recomputes it. */
  schedule: string;
  lease_owner: string;
  lease_until_unix: number;
  last_error: string;
  last_message: string;
  updated_unix: number;
}

export type CronTaskRow = Selectable<CronTaskTable>;

export interface CronTables {
  cron_task: CronTaskTable;
}

declare module '../storage/schema.js' {
  interface Schema extends CronTables {}
}
