import { RepositorySchema, UserSchema, toApiRepository, toApiUser } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** `/user` and `/users/{username}`. */
export function registerUserRoutes(_router: ApiRouter, { me, user }: Groups): void {
  me.add({
    method: 'GET',
    path: '',
    operationId: 'userGetCurrent',
    summary: 'Get the authenticated user',
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'User', schema: UserSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ me, view }) => toApiUser(me, view),
  });

  user.add({
    method: 'GET',
    path: '',
    operationId: 'userGet',
    summary: 'Get a user',
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'User', schema: UserSchema },
    errors: ['not_found'],
    handler: async ({ user, view }) => toApiUser(user, view),
  });

  user.add({
    method: 'GET',
    path: '/repos',
    operationId: 'userListRepos',
    summary: 'List the repos owned by the given user',
    tag: 'user',
    scopes: ['user', 'repository'],
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, page, view }) => {
      const result = await host.repos.listOwnedBy(actor, user, page);
      return { items: result.items.map((r) => toApiRepository(r, view)), total: result.total };
    },
  });
}
