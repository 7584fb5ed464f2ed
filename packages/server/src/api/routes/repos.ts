import { Type } from '@sinclair/typebox';
import { CreateRepoOptionSchema, REPO_ORDER_BY_VALUES, RepositorySchema, clampPage, type ScopeCategory } from '@repohost/core';
import type { ApiRouter } from '../route.js';
import { PagingQuery } from '../schemas.js';

/** `/user/repos` and `/repos/{owner}/{repo}`. */
export function registerRepoRoutes(router: ApiRouter): void {
  router.add({
    method: 'GET',
    path: '/user/repos',
    operationId: 'userCurrentListRepos',
    summary: 'List the repos that the authenticated user owns',
    tag: 'user',
    auth: 'token',
    scopes: ['user', 'repository'],
    query: Type.Object({
      ...PagingQuery.properties,
      order_by: Type.Optional(Type.String({ description: `order the repositories by: ${REPO_ORDER_BY_VALUES.join(', ')}` })),
    }),
    success: { status: 200, response: { description: 'RepositoryList', schema: Type.Array(RepositorySchema), paginated: true } },
    errors: ['unauthorized', 'forbidden', 'validationError'],
    handler: async ({ host, actor, query, paginate }) => {
      const page = clampPage(host.settings, query.page, query.limit);
      const result = await host.repos.listMine(actor, { ...page, orderBy: query.order_by });
      paginate(page, result.total);
      return result.items.map((r) => host.repos.toApi(r, actor));
    },
  });

  router.add({
    method: 'POST',
    path: '/user/repos',
    operationId: 'createCurrentUserRepo',
    summary: 'Create a repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['user', 'repository'],
    body: CreateRepoOptionSchema,
    success: { status: 201, response: { description: 'Repository', schema: RepositorySchema } },
    errors: ['error', 'unauthorized', 'forbidden', 'conflict', 'validationError'],
    handler: async ({ host, actor, body }) => host.repos.toApi(await host.repos.create(actor, body), actor),
  });

  router.add({
    method: 'GET',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoGet',
    summary: 'Get a repository',
    tag: 'repository',
    scopes: ['repository'],
    success: { status: 200, response: { description: 'Repository', schema: RepositorySchema } },
    errors: ['notFound'],
    handler: async ({ host, actor, params }) => host.repos.toApi(await host.repos.get(actor, params.owner!, params.repo!), actor),
  });

  router.add({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoDelete',
    summary: 'Delete a repository',
    tag: 'repository',
    // Deleting is an act on the owner's account: `write:user` for a user's repository (organizations: `write:organization`).
    scopes: async ({ host, actor, params }): Promise<ScopeCategory[]> => {
      const { owner } = await host.repos.get(actor, params.owner!, params.repo!);
      return [owner.type === 1 ? 'organization' : 'user'];
    },
    success: { status: 204, response: { description: 'APIEmpty is an empty response' } },
    errors: ['forbidden', 'notFound'],
    handler: async ({ host, actor, params }) => {
      await host.repos.delete(actor, params.owner!, params.repo!);
    },
  });
}
