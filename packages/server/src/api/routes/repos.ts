import { Type } from '@sinclair/typebox';
import {
  AccessMode,
  CreateRepoOptionSchema,
  GenerateRepoOptionSchema,
  EditRepoOptionSchema,
  ForbiddenError,
  RepoOrderBySchema,
  RepositorySchema,
  TransferRepoOptionSchema,
  UserSchema,
  isOrganization,
  isSiteAdmin,
  toApiRepository,
  toApiUser,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** Go's `strconv.ParseInt` syntax, as Forgejo reads an `{id}` path parameter (anything else reads as 0). */
const PATH_ID = /^[+-]?\d{1,19}$/;

/** `/user/repos`, `/repos/{owner}/{repo}` (read, edit, delete, transfer), `/repositories/{id}`. */
export function registerRepoRoutes(router: ApiRouter, { me, repo }: Groups): void {
  me.add({
    method: 'GET',
    path: '/repos',
    operationId: 'userCurrentListRepos',
    summary: 'List the repos that the authenticated user owns',
    tag: 'user',
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
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'Repository', schema: RepositorySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, view }) => {
      const [loaded] = await host.mirrors.withMirrors(await host.forks.withParents(actor, await host.repoTransfers.withPendingTransfers([repo])));
      return toApiRepository(loaded!, view);
    },
  });

  // Forgejo's reqAdmin and reqOwner: checked before the body is read, so a caller who may not gets 403 whatever
  // they sent. (The services check again, for embedders.)
  const repoAdmin = repo.nest('', async ({ repo }) => {
    if (repo.mode < AccessMode.Admin) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
    return {};
  });
  const repoOwner = repo.nest('', async ({ actor, repo }) => {
    if (repo.mode < AccessMode.Owner && !isSiteAdmin(actor)) throw new ForbiddenError('user should be the owner of the repo');
    return {};
  });

  repoAdmin.add({
    method: 'PATCH',
    path: '',
    operationId: 'repoEdit',
    summary: "Edit a repository's properties. Only fields that are set will be changed.",
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
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
    tag: 'repository',
    // Deleting is an act on the owner's account: `write:user` for a user's repository, `write:organization` for an organization's.
    scopes: ({ repo }) => [isOrganization(repo.owner) ? 'organization' : 'user'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo }) => {
      await host.repos.delete(actor, repo);
    },
  });

  repo.add({
    method: 'GET',
    path: '/assignees',
    operationId: 'repoGetAssignees',
    summary: 'Return all users that have write access and can be assigned to issues',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 200, description: 'UserList', schema: Type.Array(UserSchema) },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, actor, repo, view }) => (await host.repoParticipants.assignees(actor, repo)).map((u) => toApiUser(u, view)),
  });

  repo.add({
    method: 'GET',
    path: '/reviewers',
    operationId: 'repoGetReviewers',
    summary: 'Return all users that can be requested to review in this repo',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 200, description: 'UserList', schema: Type.Array(UserSchema) },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, actor, repo, view }) => (await host.repoParticipants.reviewers(actor, repo)).map((u) => toApiUser(u, view)),
  });

  repoOwner.add({
    method: 'POST',
    path: '/transfer',
    operationId: 'repoTransfer',
    summary: 'Transfer a repo ownership',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
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

  /** `/repos/{owner}/{repo}/transfer/…`: a pending transfer the caller may answer (its recipient). */
  const offered = router.group('/repos/{owner}/{repo}/transfer', async ({ host, actor, params }) => ({
    offered: await host.repoTransfers.resolveOffered(actor, params.owner, params.repo),
  }));

  offered.add({
    method: 'POST',
    path: '/accept',
    operationId: 'acceptRepoTransfer',
    summary: 'Accept a repo transfer',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 202, description: 'Repository', schema: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, offered, view }) => toApiRepository(await host.repoTransfers.accept(actor, offered), view),
  });

  offered.add({
    method: 'POST',
    path: '/reject',
    operationId: 'rejectRepoTransfer',
    summary: 'Reject a repo transfer',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 200, description: 'Repository', schema: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, offered, view }) => toApiRepository(await host.repoTransfers.reject(actor, offered), view),
  });

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
      const id = PATH_ID.test(params.id) ? Number(params.id) : 0;
      const [found] = await host.mirrors.withMirrors(await host.forks.withParents(actor, await host.repoTransfers.withPendingTransfers([await host.repos.resolveById(actor, id)])));
      return toApiRepository(found!, view);
    },
  });

  repo.add({
    method: 'POST',
    // The reference names these parameters {template_owner}/{template_repo}; the repository group loads them the same way.
    path: '/generate',
    operationId: 'generateRepo',
    summary: 'Create a repository using a template',
    tag: 'repository',
    scopes: ['repository'],
    body: GenerateRepoOptionSchema,
    reply: { status: 201, description: 'Repository', schema: RepositorySchema },
    errors: ['forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, repo, body, view }) => toApiRepository(await host.repos.generate(actor, repo, body), view),
  });
}
