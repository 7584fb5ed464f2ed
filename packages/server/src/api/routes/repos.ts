import { Type } from '@sinclair/typebox';
import { CreateRepoOptionSchema, RepoOrderBySchema, RepositorySchema, isOrganization, toApiRepository } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** `/user/repos` and `/repos/{owner}/{repo}`. */
export function registerRepoRoutes(_router: ApiRouter, { me, repo }: Groups): void {
  me.add({
    method: 'GET',
    path: '/repos',
    operationId: 'userCurrentListRepos',
    summary: 'List the repos that the authenticated user owns',
    tag: 'user',
    scopes: ['user', 'repository'],
    query: Type.Object({ order_by: Type.Optional(RepoOrderBySchema) }),
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, query, page, view }) => {
      const result = await host.repos.listMine(actor, { ...page, orderBy: query.order_by });
      return { items: result.items.map((r) => toApiRepository(r, view)), total: result.total };
    },
  });

  me.add({
    method: 'POST',
    path: '/repos',
    operationId: 'createCurrentUserRepo',
    summary: 'Create a repository',
    tag: 'repository',
    scopes: ['user', 'repository'],
    body: CreateRepoOptionSchema,
    reply: { status: 201, description: 'Repository', schema: RepositorySchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'conflict', 'validation'],
    handler: async ({ host, actor, body, view }) => toApiRepository(await host.repos.create(actor, body), view),
  });

  repo.add({
    method: 'GET',
    path: '',
    operationId: 'repoGet',
    summary: 'Get a repository',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'Repository', schema: RepositorySchema },
    errors: ['not_found'],
    handler: async ({ repo, view }) => toApiRepository(repo, view),
  });

  repo.add({
    method: 'DELETE',
    path: '',
    operationId: 'repoDelete',
    summary: 'Delete a repository',
    tag: 'repository',
    // Deleting is an act on the owner's account: `write:user` for a user's repository, `write:organization` for an organization's.
    scopes: ({ repo }) => [isOrganization(repo.owner) ? 'organization' : 'user'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo }) => {
      await host.repos.delete(actor, repo);
    },
  });
}
