import { ActionRunSchema, RunsService, TasksService, toApiActionRun } from '@repohost/core';
import type { ApiRouter } from '../router.js';

/**
 * `GET /actions/run`: a workflow asks, with its own token, which run it belongs to. Forgejo mounts it among the
 * public routes and refuses every caller but a running task's token itself (403), so it is a root route here too.
 */
export function registerActionsRunTokenRoutes(router: ApiRouter): void {
  router.add({
    method: 'GET',
    path: '/actions/run',
    operationId: 'getActionsRun',
    summary: 'Get a workflow run associated with a token',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'ActionRun', schema: ActionRunSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, view }) => {
      const { run, access } = await host.service(TasksService).runOfToken(actor);
      const triggers = await host.service(RunsService).triggerUsers([run]);
      return toApiActionRun(run, access, triggers.get(run.trigger_user_id), view);
    },
  });
}
