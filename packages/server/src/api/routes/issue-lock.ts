import { IssueLockOptionSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** `PUT/DELETE /repos/{owner}/{repo}/issues/{index}/lock`: lock and unlock an issue's conversation. */
export function registerIssueLockRoutes(_router: ApiRouter, { issue }: Groups): void {
  issue.add({
    method: 'PUT',
    path: '/lock',
    operationId: 'lockIssue',
    summary: 'Lock an issue',
    auth: 'token',
    body: IssueLockOptionSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, repo, issue, body }) => {
      await host.issueLocks.lock(actor, repo, issue, body);
    },
  });

  issue.add({
    method: 'DELETE',
    path: '/lock',
    operationId: 'unlockIssue',
    summary: 'Unlock an issue',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict'],
    handler: async ({ host, actor, repo, issue }) => {
      await host.issueLocks.unlock(actor, repo, issue);
    },
  });
}
