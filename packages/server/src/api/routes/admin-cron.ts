import { CronSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** `/admin/cron`: the recurring tasks, listed and run by site administrators. */
export function registerAdminCronRoutes(_router: ApiRouter, { admin }: Groups): void {
  admin.add({
    method: 'GET',
    path: '/cron',
    operationId: 'adminCronList',
    summary: 'List cron tasks',
    reply: { status: 200, description: 'CronList', list: CronSchema },
    errors: ['forbidden'],
    handler: async ({ host, actor, page }) => host.cron.list(actor, page),
  });

  admin.add({
    method: 'POST',
    path: '/cron/{task}',
    operationId: 'adminCronRun',
    summary: 'Run cron task',
    reply: EMPTY,
    errors: ['not_found'],
    handler: async ({ host, actor, params }) => host.cron.run(actor, params.task),
  });
}
