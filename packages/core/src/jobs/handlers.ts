/**
 * The one list of job handlers: each domain that queues jobs declares its kind (augmenting `JobPayloads` in its
 * own folder) and adds one line here. Handlers must be idempotent: a job interrupted by a crash runs again.
 */
import type { JobHandlers } from './service.js';
import { PushMirrorsService } from '../pushmirrors/service.js';
import { MirrorsService } from '../mirrors/service.js';
import { MigrateService } from '../migrate/service.js';

export const JOB_HANDLERS: JobHandlers = {
  // One attempt: a failed push is recorded in the mirror's last_error; the next push, commit or interval tries again.
  'pushmirror.sync': { maxAttempts: 1, timeoutSeconds: 3600, handle: (ctx, run) => ctx.service(PushMirrorsService).handleSync(run) },
  // One attempt: a failed fetch is recorded in the mirror's last_error; the next interval or mirror-sync tries again.
  // The fetch itself stops at `[git.timeout] MIRROR`.
  'mirror.sync': { maxAttempts: 1, timeoutSeconds: 3600, handle: (ctx, run) => ctx.service(MirrorsService).handleSync(run) },
  // One attempt: a failed migration removes its repository (the caller sees why). The clone stops at
  // `[git.timeout] MIGRATE`; content imports may take longer.
  'migrate.run': { maxAttempts: 1, timeoutSeconds: 6 * 3600, handle: (ctx, run) => ctx.service(MigrateService).handleRun(run) },
};
