import { Type } from '@sinclair/typebox';
import { CreateEmailOptionSchema, DeleteEmailOptionSchema, EmailSchema, toApiEmail } from '@repohost/core';
import { mapPage, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** `/user/emails`, and the site administrators' `/admin/emails` and `/admin/users/{username}/emails`. */
export function registerUserEmailRoutes(_router: ApiRouter, { me, admin, adminUser }: Groups): void {
  me.add({
    method: 'GET',
    path: '/emails',
    operationId: 'userListEmails',
    summary: 'List all email addresses of the current user',
    reply: { status: 200, description: 'EmailList', schema: Type.Array(EmailSchema) },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me }) => (await host.userEmails.list(actor, me)).map((e) => toApiEmail(e)),
  });

  me.add({
    method: 'POST',
    path: '/emails',
    operationId: 'userAddEmail',
    summary: "Add an email addresses to the current user's account",
    body: CreateEmailOptionSchema,
    reply: { status: 201, description: 'EmailList', schema: Type.Array(EmailSchema) },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, me, body }) => (await host.userEmails.add(actor, me, body)).map((e) => toApiEmail(e)),
  });

  me.add({
    method: 'DELETE',
    path: '/emails',
    operationId: 'userDeleteEmail',
    summary: "Delete email addresses from the current user's account",
    body: DeleteEmailOptionSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, me, body }) => host.userEmails.delete(actor, me, body),
  });

  admin.add({
    method: 'GET',
    path: '/emails',
    operationId: 'adminGetAllEmails',
    summary: "List all users' email addresses",
    reply: { status: 200, description: 'EmailList', list: EmailSchema },
    errors: ['forbidden'],
    handler: async ({ host, actor, page }) => {
      const found = await host.userEmails.search(actor, '', page);
      return mapPage(found, ({ email, owner }) => toApiEmail(email, owner));
    },
  });

  admin.add({
    method: 'GET',
    path: '/emails/search',
    operationId: 'adminSearchEmails',
    summary: "Search users' email addresses",
    query: Type.Object({ q: Type.Optional(Type.String({ description: 'keyword' })) }),
    reply: { status: 200, description: 'EmailList', list: EmailSchema },
    errors: ['forbidden'],
    handler: async ({ host, actor, query, page }) => {
      const found = await host.userEmails.search(actor, query.q ?? '', page);
      return mapPage(found, ({ email, owner }) => toApiEmail(email, owner));
    },
  });

  adminUser.add({
    method: 'GET',
    path: '/emails',
    operationId: 'adminListUserEmails',
    summary: 'List all email addresses for a user',
    reply: { status: 200, description: 'EmailList', schema: Type.Array(EmailSchema) },
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user }) => (await host.userEmails.list(actor, user)).map((e) => toApiEmail(e, user)),
  });

  adminUser.add({
    method: 'DELETE',
    path: '/emails',
    operationId: 'adminDeleteUserEmails',
    summary: "Delete email addresses from a user's account",
    body: DeleteEmailOptionSchema,
    reply: EMPTY,
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body }) => host.userEmails.delete(actor, user, body),
  });
}
