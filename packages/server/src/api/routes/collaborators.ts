import {
  AddCollaboratorOptionSchema,
  NotFoundError,
  RepoCollaboratorPermissionSchema,
  UserSchema,
  toApiRepoCollaboratorPermission,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, apiUsers } from './common.js';

/**
 * `/repos/{owner}/{repo}/collaborators…`. As Forgejo: every route needs a signed-in caller; anyone who can see the
 * repository may list and check collaborators; repository administrators add and remove them; the permission of
 * an account may be read by site and repository administrators and by the account itself.
 */
export function registerCollaboratorRoutes(_router: ApiRouter, { repoCollaborators, repoAdmin }: Groups): void {
  repoCollaborators.add({
    method: 'GET',
    path: '',
    operationId: 'repoListCollaborators',
    summary: "List a repository's collaborators",
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, actor, repo, page, view }) => apiUsers(await host.collaborators.list(actor, repo, page), view),
  });

  repoCollaborators.add({
    method: 'GET',
    path: '/{collaborator}',
    operationId: 'repoCheckCollaborator',
    summary: 'Check if a user is a collaborator of a repository',
    reply: EMPTY,
    errors: ['unauthorized', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params }) => {
      const user = await host.collaborators.resolveAccount(params.collaborator);
      if (!(await host.collaborators.isCollaborator(actor, repo, user))) throw new NotFoundError();
    },
  });

  repoAdmin.add({
    method: 'PUT',
    path: '/collaborators/{collaborator}',
    operationId: 'repoAddCollaborator',
    summary: 'Add a collaborator to a repository',
    body: AddCollaboratorOptionSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params, body }) => {
      const user = await host.collaborators.resolveAccount(params.collaborator);
      await host.collaborators.add(actor, repo, user, body);
    },
  });

  repoAdmin.add({
    method: 'DELETE',
    path: '/collaborators/{collaborator}',
    operationId: 'repoDeleteCollaborator',
    summary: 'Delete a collaborator from a repository',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params }) => {
      const user = await host.collaborators.resolveAccount(params.collaborator);
      await host.collaborators.remove(actor, repo, user);
    },
  });

  repoCollaborators.add({
    method: 'GET',
    path: '/{collaborator}/permission',
    operationId: 'repoGetRepoPermissions',
    summary: 'Get repository permissions for a user',
    reply: { status: 200, description: 'RepoCollaboratorPermission', schema: RepoCollaboratorPermissionSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params, view }) => {
      const user = await host.collaborators.resolveAccount(params.collaborator, 'not_found');
      return toApiRepoCollaboratorPermission(await host.collaborators.permission(actor, repo, user), view);
    },
  });
}
