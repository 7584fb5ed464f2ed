import { Type, type Static } from '@sinclair/typebox';

/** The API `Cron` record: a recurring task, its schedule (`-` when not scheduled), and its last and next runs. */
export const CronSchema = Type.Object(
  {
    name: Type.String(),
    schedule: Type.String(),
    next: Type.String({ format: 'date-time' }),
    prev: Type.String({ format: 'date-time' }),
    exec_times: Type.Integer({ format: 'int64' }),
  },
  { $id: 'Cron', description: 'Cron represents a Cron task' },
);
export type ApiCron = Static<typeof CronSchema>;
