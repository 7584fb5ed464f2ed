import { AccessTokenSchema, CreateAccessTokenOptionSchema, toApiAccessToken } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/**
 * `/users/{username}/tokens`: the user themself or a site administrator (the group checks it first, as Forgejo
 * does, so an anonymous or foreign caller learns 403 before being told about credentials or body); creating and
 * deleting need password basic auth (a token cannot mint tokens).
 */
export function registerTokenRoutes(_router: ApiRouter, { userTokens }: Groups): void {
  userTokens.add({
    method: 'GET',
    path: '',
    operationId: 'userGetTokens',
    summary: 'List the specified user\'s access tokens',
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'AccessTokenList', list: AccessTokenSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, user, page }) => {
      const result = await host.tokens.list(actor, user, page);
      return { items: result.items.map((t) => toApiAccessToken(t.token, '', t.repositories)), total: result.total };
    },
  });

  userTokens.add({
    method: 'POST',
    path: '',
    operationId: 'userCreateToken',
    summary: 'Generate an access token for the specified user',
    tag: 'user',
    auth: 'basic',
    scopes: ['user'],
    body: CreateAccessTokenOptionSchema,
    reply: { status: 201, description: 'AccessToken', schema: AccessTokenSchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body }) => {
      const created = await host.tokens.create(actor, user, body);
      return toApiAccessToken(created.token, created.value, created.repositories);
    },
  });

  userTokens.add({
    method: 'DELETE',
    path: '/{token}',
    operationId: 'userDeleteAccessToken',
    summary: 'Delete an access token from the specified user\'s account',
    tag: 'user',
    auth: 'basic',
    scopes: ['user'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'bad_request'],
    handler: async ({ host, actor, user, params }) => {
      await host.tokens.delete(actor, user, params.token);
    },
  });
}
