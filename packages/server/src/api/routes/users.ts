import { RepositorySchema, UserSchema, UserSearchQuerySchema, UserSearchResultsSchema, clampPage, toApiRepository, toApiUser } from '@repohost/core';
import { setPaginationHeaders, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** `/user`, `/users/search` and `/users/{username}`. */
export function registerUserRoutes(router: ApiRouter, { me, user }: Groups): void {
  // A static segment: the router matches it before `/users/{username}`, whatever the registration order.
  router.add({
    method: 'GET',
    path: '/users/search',
    operationId: 'userSearch',
    summary: 'Search for users',
    tag: 'user',
    scopes: ['user'],
    query: UserSearchQuerySchema,
    reply: { status: 200, description: 'SearchResults of a successful search', schema: UserSearchResultsSchema },
    handler: async ({ host, actor, query, view, event, responseHeaders }) => {
      const found = await host.users.search(actor, query);
      setPaginationHeaders(responseHeaders, host.settings.server.ROOT_URL, event.url, clampPage(host.settings, query), found.total);
      return { ok: true, data: found.items.map((u) => toApiUser(u, view)) };
    },
  });

  me.add({
    method: 'GET',
    path: '',
    operationId: 'userGetCurrent',
    summary: 'Get the authenticated user',
    reply: { status: 200, description: 'User', schema: UserSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ me, view }) => toApiUser(me, view),
  });

  user.add({
    method: 'GET',
    path: '',
    operationId: 'userGet',
    summary: 'Get a user',
    reply: { status: 200, description: 'User', schema: UserSchema },
    errors: ['not_found'],
    handler: async ({ user, view }) => toApiUser(user, view),
  });

  user.add({
    method: 'GET',
    path: '/repos',
    operationId: 'userListRepos',
    summary: 'List the repos owned by the given user',
    scopes: ['user', 'repository'],
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, page, view }) => {
      const result = await host.repos.listOwnedBy(actor, user, page);
      return { items: (await host.mirrors.withMirrors(result.items)).map((r) => toApiRepository(r, view)), total: result.total };
    },
  });
}
