import {
  BranchSchema,
  CreateBranchRepoOptionSchema,
  UpdateBranchRefOptionSchema,
  UpdateBranchRepoOptionSchema,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { refWriter } from './ref-writer.js';

/** `/repos/{owner}/{repo}/branches…`. */
export function registerBranchRoutes(_router: ApiRouter, { repo }: Groups): void {
  const writer = refWriter(repo);

  repo.add({
    method: 'GET',
    path: '/branches',
    operationId: 'repoListBranches',
    summary: "List a repository's branches",
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'BranchList', list: BranchSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, page, view }) => host.branches.list(actor, repo, view, page),
  });

  writer.add({
    method: 'POST',
    path: '/branches',
    operationId: 'repoCreateBranch',
    summary: 'Create a branch',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: CreateBranchRepoOptionSchema,
    reply: { status: 201, description: 'Branch', schema: BranchSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body, view }) => host.branches.create(actor, repo, view, body),
  });

  repo.add({
    method: 'GET',
    path: '/branches/{branch}',
    operationId: 'repoGetBranch',
    summary: 'Retrieve a specific branch from a repository, including its effective branch protection',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'Branch', schema: BranchSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, view }) => host.branches.get(actor, repo, view, params.branch),
  });

  writer.add({
    method: 'DELETE',
    path: '/branches/{branch}',
    operationId: 'repoDeleteBranch',
    summary: 'Delete a specific branch from a repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'locked'],
    handler: async ({ host, actor, repo, params }) => host.branches.delete(actor, repo, params.branch),
  });

  writer.add({
    method: 'PATCH',
    path: '/branches/{branch}',
    operationId: 'repoUpdateBranch',
    summary: 'Update a branch',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: UpdateBranchRepoOptionSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body }) => host.branches.rename(actor, repo, params.branch, body),
  });

  // Gitea's newer operation (not in Forgejo's reference yet), which the Gitea SDK calls `UpdateRepoBranchRef`.
  writer.add({
    method: 'PUT',
    path: '/branches/{branch}',
    operationId: 'repoUpdateBranchRef',
    summary: 'Move a branch to another commit',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: UpdateBranchRefOptionSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body }) => host.branches.updateRef(actor, repo, params.branch, body),
  });
}
