import { Type } from '@sinclair/typebox';
import {
  CreateRepoOptionSchema,
  GenerateRepoOptionSchema,
  EditRepoOptionSchema,
  RepoOrderBySchema,
  RepoAvatarsService,
  RepositorySchema,
  TransferRepoOptionSchema,
  UpdateRepoAvatarOptionSchema,
  UserSchema,
  isOrganization,
  toApiRepository,
  toApiUser,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, pathId } from './common.js';
import { gpgSigningKeyResponse } from './misc.js';

/** `/user/repos`, `/repos/{owner}/{repo}` (read, edit, delete, transfer), `/repositories/{id}`. */
export function registerRepoRoutes(router: ApiRouter, { me, repo, repoAdmin, repoAvatar, repoOwner, repoTransfer }: Groups): void {
  me.add({
    method: 'GET',
    path: '/repos',
    operationId: 'userCurrentListRepos',
    summary: 'List the repos that the authenticated user owns',
    scopes: ['user', 'repository'],
    query: Type.Object({ order_by: Type.Optional(RepoOrderBySchema) }),
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, query, page, view }) => {
      const result = await host.repos.listMine(actor, { ...page, orderBy: query.order_by });
      const items = await host.mirrors.withMirrors(await host.forks.withParents(actor, await host.repoTransfers.withPendingTransfers(result.items)));
      return { items: items.map((r) => toApiRepository(r, view)), total: result.total };
    },
  });

  me.add({
    method: 'POST',
    path: '/repos',
    operationId: 'createCurrentUserRepo',
    summary: 'Create a repository',
    tag: 'repository',
    scopes: ['user', 'repository'],
    body: CreateRepoOptionSchema,
    reply: { status: 201, description: 'Repository', schema: RepositorySchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'conflict', 'quota_exceeded', 'validation'],
    handler: async ({ host, actor, body, view }) => toApiRepository(await host.repos.create(actor, body), view),
  });

  repo.add({
    method: 'GET',
    path: '',
    operationId: 'repoGet',
    summary: 'Get a repository',
    reply: { status: 200, description: 'Repository', schema: RepositorySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, view }) => {
      const [loaded] = await host.mirrors.withMirrors(await host.forks.withParents(actor, await host.repoTransfers.withPendingTransfers([repo])));
      return toApiRepository(loaded!, view);
    },
  });

  repoAdmin.add({
    method: 'PATCH',
    path: '',
    operationId: 'repoEdit',
    summary: "Edit a repository's properties. Only fields that are set will be changed.",
    body: EditRepoOptionSchema,
    reply: { status: 200, description: 'Repository', schema: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, repo, body, view }) => {
      const [edited] = await host.mirrors.withMirrors(await host.repoTransfers.withPendingTransfers([await host.repoSettings.edit(actor, repo, body)]));
      return toApiRepository(edited!, view);
    },
  });

  repo.add({
    method: 'DELETE',
    path: '',
    operationId: 'repoDelete',
    summary: 'Delete a repository',
    // Deleting is an act on the owner's account: `write:user` for a user's repository, `write:organization` for an organization's.
    scopes: ({ repo }) => [isOrganization(repo.owner) ? 'organization' : 'user'],
    reply: EMPTY,
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo }) => {
      await host.repos.delete(actor, repo);
    },
  });

  // The users a repository's issues may be assigned to, and its pull requests' reviews requested from: all at once.
  for (const [path, operationId, summary, participants] of [
    ['/assignees', 'repoGetAssignees', 'Return all users that have write access and can be assigned to issues', 'assignees'],
    ['/reviewers', 'repoGetReviewers', 'Return all users that can be requested to review in this repo', 'reviewers'],
  ] as const) {
    repo.add({
      method: 'GET',
      path,
      operationId,
      summary,
      auth: 'token',
      reply: { status: 200, description: 'UserList', schema: Type.Array(UserSchema) },
      errors: ['unauthorized', 'not_found'],
      handler: async ({ host, actor, repo, view }) => (await host.repoParticipants[participants](actor, repo)).map((u) => toApiUser(u, view)),
    });
  }

  repoOwner.add({
    method: 'POST',
    path: '/transfer',
    operationId: 'repoTransfer',
    summary: 'Transfer a repo ownership',
    body: TransferRepoOptionSchema,
    // 202 when the repository moved; a transfer offered to its recipient answers 201, as Forgejo does.
    reply: { status: 202, description: 'Repository', schema: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, repo, body, view, responseHeaders }) => {
      const outcome = await host.repoTransfers.start(actor, repo, body);
      const result = toApiRepository(outcome.access, view);
      if (!outcome.pending) return result;
      const text = JSON.stringify(result);
      return new Response(text, { status: 201, headers: { ...responseHeaders, 'content-length': String(Buffer.byteLength(text)) } });
    },
  });

  // The recipient's answers to a transfer: accepting moves the repository (202), rejecting leaves it where it was
  // (200); either way the repository comes back as it now is.
  for (const [answer, operationId, summary, status, errors] of [
    ['accept', 'acceptRepoTransfer', 'Accept a repo transfer', 202, ['unauthorized', 'forbidden', 'not_found', 'validation']],
    ['reject', 'rejectRepoTransfer', 'Reject a repo transfer', 200, ['unauthorized', 'forbidden', 'not_found']],
  ] as const) {
    repoTransfer.add({
      method: 'POST',
      path: `/${answer}`,
      operationId,
      summary,
      reply: { status, description: 'Repository', schema: RepositorySchema },
      errors,
      handler: async ({ host, actor, offered, view }) => toApiRepository(await host.repoTransfers[answer](actor, offered), view),
    });
  }

  router.add({
    method: 'GET',
    path: '/repositories/{id}',
    operationId: 'repoGetByID',
    summary: 'Get a repository by id',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 200, description: 'Repository', schema: RepositorySchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, actor, params, view }) => {
      const id = pathId(params.id);
      const [found] = await host.mirrors.withMirrors(await host.forks.withParents(actor, await host.repoTransfers.withPendingTransfers([await host.repos.resolveById(actor, id)])));
      return toApiRepository(found!, view);
    },
  });

  // The repository's avatar, served at `/repo-avatars/<name>` (the Repository's `avatar_url`).
  repoAvatar.add({
    method: 'POST',
    path: '',
    operationId: 'repoUpdateAvatar',
    summary: "Update a repository's avatar",
    body: UpdateRepoAvatarOptionSchema,
    reply: EMPTY,
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, body }) => {
      await host.service(RepoAvatarsService).upload(actor, repo, body);
    },
  });

  repoAvatar.add({
    method: 'DELETE',
    path: '',
    operationId: 'repoDeleteAvatar',
    summary: "Delete a repository's avatar",
    reply: EMPTY,
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo }) => {
      await host.service(RepoAvatarsService).remove(actor, repo);
    },
  });

  repo.add({
    method: 'GET',
    path: '/signing-key.gpg',
    operationId: 'repoSigningKey',
    summary: 'Get signing-key.gpg for given repository',
    // The instance's key (the repository's own git configuration names none): empty when none is configured.
    reply: { status: 200, description: 'GPG armored public key', produces: ['text/plain'] },
    errors: ['not_found'],
    handler: gpgSigningKeyResponse,
  });

  repo.add({
    method: 'POST',
    // The reference names these parameters {template_owner}/{template_repo}; the repository group loads them the same way.
    path: '/generate',
    operationId: 'generateRepo',
    summary: 'Create a repository using a template',
    body: GenerateRepoOptionSchema,
    reply: { status: 201, description: 'Repository', schema: RepositorySchema },
    errors: ['forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, repo, body, view }) => toApiRepository(await host.repos.generate(actor, repo, body), view),
  });
}
