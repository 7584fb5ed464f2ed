import { Type } from '@sinclair/typebox';
import { clampPage, RepositorySchema, UserSchema, toApiUser } from '@repohost/core';
import type { ApiRouter } from '../route.js';
import { PagingQuery } from '../schemas.js';

/** `/user` and `/users/{username}`. */
export function registerUserRoutes(router: ApiRouter): void {
  router.add({
    method: 'GET',
    path: '/user',
    operationId: 'userGetCurrent',
    summary: 'Get the authenticated user',
    tag: 'user',
    auth: 'token',
    scopes: ['user'],
    success: { status: 200, response: { description: 'User', schema: UserSchema } },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor }) => {
      if (actor.kind !== 'user') throw new Error('unreachable: token auth guarantees a user');
      return toApiUser(actor.user, actor, host.settings);
    },
  });

  router.add({
    method: 'GET',
    path: '/users/{username}',
    operationId: 'userGet',
    summary: 'Get a user',
    tag: 'user',
    scopes: ['user'],
    success: { status: 200, response: { description: 'User', schema: UserSchema } },
    errors: ['notFound'],
    handler: async ({ host, actor, params }) => toApiUser(await host.users.get(actor, params.username!), actor, host.settings),
  });

  router.add({
    method: 'GET',
    path: '/users/{username}/repos',
    operationId: 'userListRepos',
    summary: 'List the repos owned by the given user',
    tag: 'user',
    scopes: ['user', 'repository'],
    query: PagingQuery,
    success: { status: 200, response: { description: 'RepositoryList', schema: Type.Array(RepositorySchema), paginated: true } },
    errors: ['notFound'],
    handler: async ({ host, actor, params, query, paginate }) => {
      const page = clampPage(host.settings, query.page, query.limit);
      const result = await host.repos.listOwnedBy(actor, params.username!, page);
      paginate(page, result.total);
      return result.items.map((r) => host.repos.toApi(r, actor));
    },
  });
}
