import { Type } from '@sinclair/typebox';
import {
  AccessTokenSchema,
  CreateAccessTokenOptionSchema,
  CreateKeyOptionSchema,
  CreateUserOptionSchema,
  EditUserOptionSchema,
  PublicKeySchema,
  RenameUserOptionSchema,
  UserSchema,
  toApiAccessToken,
  toApiPublicKey,
  toApiUser,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/**
 * `/admin/users…`: site administrators create, list, edit, rename and delete accounts, and manage their tokens and
 * SSH keys (Forgejo's admin routes: a token, a site administrator, the `admin` scope).
 */
export function registerAdminUserRoutes(_router: ApiRouter, { admin }: Groups): void {
  /** `/admin/users/{username}/…`: any account, whatever its visibility (the caller is a site administrator). */
  const account = admin.nest('/users/{username}', async ({ host, actor, params }) => ({
    user: await host.users.resolve(actor, params.username),
  }));

  admin.add({
    method: 'GET',
    path: '/users',
    operationId: 'adminSearchUsers',
    summary: 'Search users according filter conditions',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    query: Type.Object({
      source_id: Type.Optional(Type.Integer({ format: 'int64', description: 'ID of the user\'s login source to search for' })),
      login_name: Type.Optional(Type.String({ description: 'user\'s login name to search for' })),
      is_2fa_enabled: Type.Optional(Type.Boolean({ description: 'whether or not to filter users with the 2fa enabled' })),
      // Not an enum here: Forgejo sorts alphabetically by anything it does not know, rather than refusing it.
      sort: Type.Optional(
        Type.String({ description: 'sort order of results: oldest, newest, alphabetically, reversealphabetically, recentupdate, leastupdate' }),
      ),
    }),
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['forbidden'],
    handler: async ({ host, actor, query, page, view }) => {
      const result = await host.userAdmin.search(
        actor,
        { sourceId: query.source_id, loginName: query.login_name?.trim(), twoFactorEnabled: query.is_2fa_enabled, sort: query.sort },
        page,
      );
      return { items: result.items.map((u) => toApiUser(u, view)), total: result.total };
    },
  });

  admin.add({
    method: 'POST',
    path: '/users',
    operationId: 'adminCreateUser',
    summary: 'Create a user',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    body: CreateUserOptionSchema,
    reply: { status: 201, description: 'User', schema: UserSchema },
    errors: ['bad_request', 'forbidden', 'validation'],
    handler: async ({ host, actor, body, view }) => toApiUser(await host.userAdmin.create(actor, body), view),
  });

  account.add({
    method: 'PATCH',
    path: '',
    operationId: 'adminEditUser',
    summary: 'Edit an existing user',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    body: EditUserOptionSchema,
    reply: { status: 200, description: 'User', schema: UserSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body, view }) => toApiUser(await host.userAdmin.edit(actor, user, body), view),
  });

  account.add({
    method: 'DELETE',
    path: '',
    operationId: 'adminDeleteUser',
    summary: 'Delete user account',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    query: Type.Object({ purge: Type.Optional(Type.Boolean({ description: 'purge the user from the system completely' })) }),
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, query }) => host.userAdmin.delete(actor, user, { purge: query.purge ?? false }),
  });

  account.add({
    method: 'POST',
    path: '/rename',
    operationId: 'adminRenameUser',
    summary: 'Rename a user',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    body: RenameUserOptionSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body }) => {
      await host.userAdmin.rename(actor, user, body);
    },
  });

  account.add({
    method: 'GET',
    path: '/tokens',
    operationId: 'adminListUserAccessTokens',
    summary: 'List the specified user\'s access tokens',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 200, description: 'AccessTokenList', list: AccessTokenSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, user, page }) => {
      const result = await host.tokens.list(actor, user, page);
      return { items: result.items.map((t) => toApiAccessToken(t.token, '', t.repositories)), total: result.total };
    },
  });

  account.add({
    method: 'POST',
    path: '/tokens',
    operationId: 'adminCreateUserAccessToken',
    summary: 'Generate an access token for the specified user',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    body: CreateAccessTokenOptionSchema,
    reply: { status: 201, description: 'AccessToken', schema: AccessTokenSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body }) => {
      const created = await host.tokens.create(actor, user, body);
      return toApiAccessToken(created.token, created.value);
    },
  });

  account.add({
    method: 'DELETE',
    path: '/tokens/{token}',
    operationId: 'adminDeleteUserAccessToken',
    summary: 'Delete an access token from the specified user\'s account',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, user, params }) => host.tokens.delete(actor, user, params.token),
  });

  account.add({
    method: 'POST',
    path: '/keys',
    operationId: 'adminCreatePublicKey',
    summary: 'Add an SSH public key to user\'s account',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    body: CreateKeyOptionSchema,
    reply: { status: 201, description: 'PublicKey', schema: PublicKeySchema },
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body, view }) => toApiPublicKey(await host.keys.add(actor, user, body), user, view),
  });

  account.add({
    method: 'DELETE',
    path: '/keys/{id}',
    operationId: 'adminDeleteUserPublicKey',
    summary: 'Remove a public key from user\'s account',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['forbidden', 'not_found'],
    // Forgejo reads an id that is not a number as 0: no such key.
    handler: async ({ host, actor, user, params }) => host.keys.delete(actor, user, /^\d+$/.test(params.id) ? Number(params.id) : 0),
  });
}
