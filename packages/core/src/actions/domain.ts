import { defineDomain } from '../domain.js';
import type { Settings } from '../config/index.js';
import { ActionsService } from './service.js';
import { RunnersService } from './runners.js';
import { RunsService } from './runs.js';
import { ArtifactsService } from './artifacts.js';
import { SchedulesService } from './schedules.js';
import { TasksService } from './tasks.js';
import { RunHooks } from './run-hooks.js';

/**
 * Actions: a repository's or an account's secrets, variables, runner registration tokens and runners go with it (its
 * `repo.deleted` and `user.deleted` handlers), and the secrets and registration tokens, encrypted, move with
 * `repohost admin regenerate secrets`.
 */
const actionsOn = (settings: Settings) => settings.actions.ENABLED;

export const actionsDomain = defineDomain({
  name: 'actions',
  subscribe(ctx) {
    ctx.service(ActionsService).subscribe();
    ctx.service(RunnersService).subscribe();
    ctx.service(RunsService).subscribe();
    ctx.service(ArtifactsService).subscribe();
    ctx.service(SchedulesService).subscribe();
    ctx.service(RunHooks).subscribe();
  },
  jobs: {
    // Idempotent: a run remembers the detection that made it (its trigger key), so a retried attempt adds none.
    'actions.detect': { maxAttempts: 3, timeoutSeconds: 300, handle: (ctx, run) => ctx.service(RunsService).handleDetect(run) },
    'actions.schedules': { maxAttempts: 3, timeoutSeconds: 3600, handle: (ctx, run) => ctx.service(SchedulesService).handleJob(run) },
  },
  repairs: [
    // `[actions] ENABLED` switched off removes every plan and cancels the scheduled runs; on again makes them again.
    { run: (ctx) => ctx.service(SchedulesService).reconcileInstanceSwitch() },
  ],
  secrets: [
    { kind: 'actions secrets', reencrypt: (ctx, tx, rekey) => ctx.service(ActionsService).reencryptSecrets(tx, rekey) },
    { kind: 'runner registration tokens', reencrypt: (ctx, tx, rekey) => ctx.service(RunnersService).reencryptTokens(tx, rekey) },
  ],
});

/**
 * Forgejo's Actions cron tasks (`initActionsTasks`), a record of their own so that `/admin/cron` lists them where
 * Forgejo does, between its basic and extended tasks (`domains.ts` keeps the order); registered only while Actions is on.
 */
export const actionsTasksDomain = defineDomain({
  name: 'actions.tasks',
  cron: [
    { name: 'stop_zombie_tasks', timeoutSeconds: 600, registered: actionsOn, run: (ctx, signal) => ctx.service(TasksService).stopStaleTasks('zombie', signal) },
    { name: 'stop_endless_tasks', timeoutSeconds: 600, registered: actionsOn, run: (ctx, signal) => ctx.service(TasksService).stopStaleTasks('endless', signal) },
    { name: 'cancel_abandoned_jobs', timeoutSeconds: 600, registered: actionsOn, run: (ctx, signal) => ctx.service(TasksService).cancelAbandonedJobs(signal) },
    { name: 'start_schedule_tasks', timeoutSeconds: 600, registered: actionsOn, run: (ctx, signal) => ctx.service(SchedulesService).startDue(signal) },
    { name: 'cleanup_actions', timeoutSeconds: 3600, registered: actionsOn, run: (ctx, signal) => ctx.service(ArtifactsService).cleanup(signal) },
  ],
});
