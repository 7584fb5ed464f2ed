import { CreateForkOptionSchema, RepositorySchema, toApiRepository } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** `/repos/{owner}/{repo}/forks`: list a repository's forks, fork it. */
export function registerForkRoutes(_router: ApiRouter, { repo }: Groups): void {
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
}
