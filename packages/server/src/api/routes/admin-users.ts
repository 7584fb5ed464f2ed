import { Type } from '@sinclair/typebox';
import {
  CreateUserOptionSchema,
  EditUserOptionSchema,
  RenameUserOptionSchema,
  UserSchema,
  toApiUser,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { addKeyCreation } from './keys.js';
import { addTokenRoutes } from './tokens.js';
import { EMPTY, apiUsers } from './common.js';

/**
 * `/admin/users…`: site administrators create, list, edit, rename and delete accounts, and manage their tokens and
 * SSH keys (Forgejo's admin routes: a token, a site administrator, the `admin` scope).
 */
export function registerAdminUserRoutes(_router: ApiRouter, { admin, adminUser }: Groups): void {
  admin.add({
    method: 'GET',
    path: '/users',
    operationId: 'adminSearchUsers',
    summary: 'Search users according filter conditions',
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
      return apiUsers(result, view);
    },
  });

  admin.add({
    method: 'POST',
    path: '/users',
    operationId: 'adminCreateUser',
    summary: 'Create a user',
    body: CreateUserOptionSchema,
    reply: { status: 201, description: 'User', schema: UserSchema },
    errors: ['bad_request', 'forbidden', 'validation'],
    handler: async ({ host, actor, body, view }) => toApiUser(await host.userAdmin.create(actor, body), view),
  });

  adminUser.add({
    method: 'PATCH',
    path: '',
    operationId: 'adminEditUser',
    summary: 'Edit an existing user',
    body: EditUserOptionSchema,
    reply: { status: 200, description: 'User', schema: UserSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body, view }) => toApiUser(await host.userAdmin.edit(actor, user, body), view),
  });

  adminUser.add({
    method: 'DELETE',
    path: '',
    operationId: 'adminDeleteUser',
    summary: 'Delete user account',
    query: Type.Object({ purge: Type.Optional(Type.Boolean({ description: 'purge the user from the system completely' })) }),
    reply: EMPTY,
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, query }) => host.accounts.adminDeleteUser(actor, user, { purge: query.purge ?? false }),
  });

  adminUser.add({
    method: 'POST',
    path: '/rename',
    operationId: 'adminRenameUser',
    summary: 'Rename a user',
    body: RenameUserOptionSchema,
    reply: EMPTY,
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body }) => {
      await host.accounts.renameUser(actor, user, body);
    },
  });

  addTokenRoutes(adminUser, {
    path: '/tokens',
    operations: ['adminListUserAccessTokens', 'adminCreateUserAccessToken', 'adminDeleteUserAccessToken'],
    errors: [['forbidden', 'not_found'], ['bad_request', 'forbidden', 'not_found', 'validation'], ['forbidden', 'not_found']],
    repositories: false,
  });

  addKeyCreation(adminUser, {
    operationId: 'adminCreatePublicKey',
    summary: "Add an SSH public key to user's account",
    errors: ['forbidden', 'not_found', 'validation'],
    account: ({ user }) => user,
  });

  adminUser.add({
    method: 'DELETE',
    path: '/keys/{id}',
    operationId: 'adminDeleteUserPublicKey',
    summary: 'Remove a public key from user\'s account',
    reply: EMPTY,
    errors: ['forbidden', 'not_found'],
    // Forgejo reads an id that is not a number as 0: no such key.
    handler: async ({ host, actor, user, params }) => host.keys.delete(actor, user, /^\d+$/.test(params.id) ? Number(params.id) : 0),
  });
}
