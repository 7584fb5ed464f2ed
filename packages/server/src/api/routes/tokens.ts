import { Type } from '@sinclair/typebox';
import { AccessTokenSchema, CreateAccessTokenOptionSchema, ForbiddenError, NotFoundError, clampPage, isSiteAdmin } from '@repohost/core';
import type { ApiRouter, RequestContext } from '../route.js';
import { PagingQuery } from '../schemas.js';

/**
 * `/users/{username}/tokens`: the user themself or a site administrator; creating and deleting need password
 * basic auth (a token cannot mint tokens).
 */
export function registerTokenRoutes(router: ApiRouter): void {
  router.add({
    method: 'GET',
    path: '/users/{username}/tokens',
    operationId: 'userGetTokens',
    summary: 'List the specified user\'s access tokens',
    tag: 'user',
    scopes: ['user'],
    query: PagingQuery,
    success: { status: 200, response: { description: 'AccessTokenList', schema: Type.Array(AccessTokenSchema), paginated: true } },
    errors: ['forbidden', 'notFound'],
    handler: async (ctx) => {
      await assertSelfOrAdmin(ctx);
      const { host, actor, params, query, paginate } = ctx;
      const page = clampPage(host.settings, query.page, query.limit);
      const result = await host.tokens.list(actor, params.username!, page);
      paginate(page, result.total);
      return result.items.map((t) => host.tokens.toApi(t));
    },
  });

  router.add({
    method: 'POST',
    path: '/users/{username}/tokens',
    operationId: 'userCreateToken',
    summary: 'Generate an access token for the specified user',
    tag: 'user',
    auth: 'basic',
    scopes: assertSelfOrAdminScopes,
    body: CreateAccessTokenOptionSchema,
    success: { status: 201, response: { description: 'AccessToken', schema: AccessTokenSchema } },
    errors: ['error', 'unauthorized', 'forbidden', 'notFound', 'validationError'],
    handler: async ({ host, actor, params, body }) => {
      const created = await host.tokens.create(actor, params.username!, body);
      return host.tokens.toApi(created.token, created.value);
    },
  });

  router.add({
    method: 'DELETE',
    path: '/users/{username}/tokens/{token}',
    operationId: 'userDeleteAccessToken',
    summary: 'Delete an access token from the specified user\'s account',
    tag: 'user',
    auth: 'basic',
    scopes: assertSelfOrAdminScopes,
    success: { status: 204, response: { description: 'APIEmpty is an empty response' } },
    errors: ['unauthorized', 'forbidden', 'notFound', 'error'],
    handler: async ({ host, actor, params }) => {
      await host.tokens.delete(actor, params.username!, params.token!);
    },
  });
}

/**
 * Forgejo checks "self or site admin" before anything else on these routes, so an anonymous or foreign caller
 * learns 403 before being told about credentials or body.
 */
async function assertSelfOrAdmin(ctx: RequestContext<unknown, unknown>): Promise<void> {
  const { actor, params, host } = ctx;
  if (isSiteAdmin(actor)) return;
  const target = await host.users.findByName(params.username!);
  if (actor.kind === 'user' && target && target.id === actor.user.id) return;
  // An account the caller may not see stays invisible.
  if (!target || !host.users.canSee(actor, target)) throw new NotFoundError(`user redirect does not exist [name: ${params.username}]`);
  throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
}

async function assertSelfOrAdminScopes(ctx: RequestContext<unknown, unknown>): Promise<['user']> {
  await assertSelfOrAdmin(ctx);
  return ['user'];
}
