import { MergePullRequestOptionSchema, PullUpdateQuerySchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

const EMPTY = 'APIEmpty is an empty response';

/** An answer without a body, with the status Forgejo gives (200 merged, 201 scheduled). */
function emptyResponse(status: number): Response {
  return new Response(null, { status });
}

/**
 * Merging pull requests: `/repos/{owner}/{repo}/pulls/{index}/merge` (is merged, merge with every style or schedule
 * the merge, cancel the scheduled merge) and `…/update` (bring the base into the head).
 */
export function registerPullMergeRoutes(_router: ApiRouter, { pull }: Groups): void {
  pull.add({
    method: 'GET',
    path: '/merge',
    operationId: 'repoPullRequestIsMerged',
    summary: 'Check if a pull request has been merged',
    reply: { status: 204, description: 'pull request has been merged' },
    errors: ['not_found'],
    handler: async ({ host, pull }) => {
      host.pullMerge.assertMerged(pull);
    },
  });

  pull.add({
    method: 'POST',
    path: '/merge',
    operationId: 'repoMergePullRequest',
    summary: 'Merge a pull request',
    auth: 'token',
    body: MergePullRequestOptionSchema,
    reply: { status: 200, description: EMPTY, produces: ['application/json'] },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'quota_exceeded', 'locked', 'validation'],
    handler: async ({ host, actor, repo, pull, body }) => {
      const outcome = await host.pullMerge.merge(actor, repo, pull, body);
      return emptyResponse(outcome === 'scheduled' ? 201 : 200);
    },
  });

  pull.add({
    method: 'DELETE',
    path: '/merge',
    operationId: 'repoCancelScheduledAutoMerge',
    summary: 'Cancel the scheduled auto merge for the given pull request',
    auth: 'token',
    reply: { status: 204, description: EMPTY },
    errors: ['unauthorized', 'forbidden', 'not_found', 'locked'],
    handler: async ({ host, actor, repo, pull }) => {
      await host.pullAutoMerge.cancelScheduled(actor, repo, pull);
    },
  });

  pull.add({
    method: 'POST',
    path: '/update',
    operationId: 'repoUpdatePullRequest',
    summary: "Merge PR's baseBranch into headBranch",
    auth: 'token',
    query: PullUpdateQuerySchema,
    reply: { status: 200, description: EMPTY, produces: ['application/json'] },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'quota_exceeded', 'validation'],
    handler: async ({ host, actor, repo, pull, query }) => {
      await host.pullUpdate.update(actor, repo, pull, query.style ?? 'merge');
      return emptyResponse(200);
    },
  });
}
