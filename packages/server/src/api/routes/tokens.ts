import { AccessTokenSchema, CreateAccessTokenOptionSchema, toApiAccessToken, type RepoHostErrorKind, type User } from '@repohost/core';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** What an account's token routes differ in: theirs (`/users/{username}/tokens`) and a site administrator's. */
export interface TokenRoutes {
  /** The tokens' path under the group. */
  path: '' | '/tokens';
  /** Operation ids of the list, the creation and the deletion. */
  operations: readonly [string, string, string];
  /** Errors of the list, the creation and the deletion. */
  errors: readonly [readonly RepoHostErrorKind[], readonly RepoHostErrorKind[], readonly RepoHostErrorKind[]];
  /** `basic`: creating and deleting need password basic auth. */
  auth?: 'basic';
  /** Whether a created token comes back with the repositories it is limited to. */
  repositories: boolean;
}

/** An account's access tokens (`user`, which the group loaded): listed, created, deleted. */
export function addTokenRoutes<P extends string>(group: RouteGroup<P, { user: User }, true>, { path, operations, errors, auth, repositories }: TokenRoutes): void {
  group.add({
    method: 'GET',
    path,
    operationId: operations[0],
    summary: 'List the specified user\'s access tokens',
    reply: { status: 200, description: 'AccessTokenList', list: AccessTokenSchema },
    errors: errors[0],
    handler: async ({ host, actor, user, page }) => mapPage(await host.tokens.list(actor, user, page), (t) => toApiAccessToken(t.token, '', t.repositories)),
  });

  group.add({
    method: 'POST',
    path,
    operationId: operations[1],
    summary: 'Generate an access token for the specified user',
    ...(auth && { auth }),
    body: CreateAccessTokenOptionSchema,
    reply: { status: 201, description: 'AccessToken', schema: AccessTokenSchema },
    errors: errors[1],
    handler: async ({ host, actor, user, body }) => {
      const created = await host.tokens.create(actor, user, body);
      return toApiAccessToken(created.token, created.value, repositories ? created.repositories : undefined);
    },
  });

  group.add({
    method: 'DELETE',
    path: `${path}/{token}`,
    operationId: operations[2],
    summary: 'Delete an access token from the specified user\'s account',
    ...(auth && { auth }),
    reply: EMPTY,
    errors: errors[2],
    handler: async ({ host, actor, user, params }) => host.tokens.delete(actor, user, params.token),
  });
}

/**
 * `/users/{username}/tokens`: the user themself or a site administrator (the group checks it first, as Forgejo
 * does, so an anonymous or foreign caller learns 403 before being told about credentials or body); creating and
 * deleting need password basic auth (a token cannot mint tokens).
 */
export function registerTokenRoutes(_router: ApiRouter, { userTokens }: Groups): void {
  addTokenRoutes(userTokens, {
    path: '',
    operations: ['userGetTokens', 'userCreateToken', 'userDeleteAccessToken'],
    errors: [['forbidden', 'not_found'], ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'validation'], ['unauthorized', 'forbidden', 'not_found', 'bad_request']],
    auth: 'basic',
    repositories: true,
  });
}
