import { Type } from '@sinclair/typebox';
import { CreateRepoOptionSchema, RepositorySchema, toApiRepository } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** `/admin/unadopted`: storage no repository row claims, listed, adopted or deleted by site administrators. */
export function registerAdminRoutes(_router: ApiRouter, { admin }: Groups): void {
  admin.add({
    method: 'GET',
    path: '/unadopted',
    operationId: 'adminUnadoptedList',
    summary: 'List unadopted repositories',
    // The reference names the filter `pattern`; Forgejo itself reads `query`: both are taken.
    query: Type.Object({
      pattern: Type.Optional(Type.String({ description: 'pattern of repositories to search for' })),
      query: Type.Optional(Type.String({ description: 'the same, under the name Forgejo reads' })),
    }),
    reply: { status: 200, description: 'StringSlice', list: Type.String() },
    errors: ['forbidden'],
    handler: async ({ host, actor, query, page }) => host.repoStorage.listUnadopted(actor, { ...page, pattern: query.pattern ?? query.query }),
  });

  admin.add({
    method: 'POST',
    path: '/unadopted/{owner}/{repo}',
    operationId: 'adminAdoptRepository',
    summary: 'Adopt unadopted files as a repository',
    reply: EMPTY,
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.repoStorage.adopt(actor, params.owner, params.repo),
  });

  admin.add({
    method: 'DELETE',
    path: '/unadopted/{owner}/{repo}',
    operationId: 'adminDeleteUnadoptedRepository',
    summary: 'Delete unadopted files',
    reply: EMPTY,
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.repoStorage.deleteUnadopted(actor, params.owner, params.repo),
  });

  admin.add({
    method: 'POST',
    path: '/users/{username}/repos',
    operationId: 'adminCreateRepo',
    summary: 'Create a repository on behalf of a user',
    body: CreateRepoOptionSchema,
    reply: { status: 201, description: 'Repository', schema: RepositorySchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, params, body, view }) => {
      const owner = await host.users.resolve(actor, params.username);
      return toApiRepository(await host.repos.create(actor, body, { owner }), view);
    },
  });
}
