import type { JobRow } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A job was queued (after commit, the worker of this process looks for due jobs at once). */
    'job.enqueued': { job: JobRow };
  }
}
