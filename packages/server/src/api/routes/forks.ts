import { CreateForkOptionSchema, ForkSyncService, RepositorySchema, SyncForkInfoSchema, toApiRepository } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** `/repos/{owner}/{repo}/forks`: list a repository's forks, fork it; `/sync_fork…`: bring a fork's branch up to its base's. */
export function registerForkRoutes(_router: ApiRouter, { repo, forkSyncWriter }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/forks',
    operationId: 'listForks',
    summary: "List a repository's forks",
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, page, view }) => {
      const forks = await host.forks.list(actor, repo, page);
      const items = await host.forks.withParents(actor, await host.repoTransfers.withPendingTransfers(forks.items));
      return { items: items.map((f) => toApiRepository(f, view)), total: forks.total };
    },
  });

  repo.add({
    method: 'POST',
    path: '/forks',
    operationId: 'createFork',
    summary: 'Fork a repository',
    auth: 'token',
    body: CreateForkOptionSchema,
    // Forgejo answers 202 (its fork is made before it answers, as here).
    reply: { status: 202, description: 'Repository', schema: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'quota_exceeded', 'validation'],
    handler: async ({ host, actor, repo, body, view }) => {
      const [fork] = await host.forks.withParents(actor, [await host.forks.fork(actor, repo, body ?? {})]);
      return toApiRepository(fork!, view);
    },
  });

  // The default branch and a named one answer alike; `{branch}` spans slashes.
  for (const target of [
    { path: '', info: 'repoSyncForkDefaultInfo', sync: 'repoSyncForkDefault', what: 'the fork default branch', syncWhat: 'the default branch of a fork' },
    { path: '/{branch}', info: 'repoSyncForkBranchInfo', sync: 'repoSyncForkBranch', what: 'a fork branch', syncWhat: 'a fork branch' },
  ] as const) {
    const branchOf = (ctx: { repo: { repo: { default_branch: string } }; params: Record<string, string> }) => ctx.params.branch ?? ctx.repo.repo.default_branch;
    repo.add({
      method: 'GET',
      path: `/sync_fork${target.path}`,
      operationId: target.info,
      summary: `Gets information about syncing ${target.what} with the base branch`,
      reply: { status: 200, description: 'SyncForkInfo', schema: SyncForkInfoSchema },
      errors: ['bad_request', 'not_found'],
      handler: async (ctx) => ctx.host.service(ForkSyncService).info(ctx.actor, ctx.repo, branchOf(ctx)),
    });
    forkSyncWriter.add({
      method: 'POST',
      path: target.path,
      operationId: target.sync,
      summary: `Syncs ${target.syncWhat} with the base branch`,
      reply: EMPTY,
      errors: ['bad_request', 'forbidden', 'not_found', 'conflict', 'locked'],
      handler: async (ctx) => ctx.host.service(ForkSyncService).sync(ctx.actor, ctx.repo, branchOf(ctx)),
    });
  }
}
