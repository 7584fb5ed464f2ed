import {
  BranchSchema,
  CreateBranchRepoOptionSchema,
  UpdateBranchRefOptionSchema,
  UpdateBranchRepoOptionSchema,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { addRefRoutes } from './refs.js';
import { EMPTY } from './common.js';

/** `/repos/{owner}/{repo}/branches…`. */
export function registerBranchRoutes(_router: ApiRouter, groups: Groups): void {
  const writer = groups.refWriter;
  addRefRoutes(groups, {
    path: '/branches',
    param: 'branch',
    name: 'Branch',
    plural: 'Branches',
    schema: BranchSchema,
    create: CreateBranchRepoOptionSchema,
    summaries: ["List a repository's branches", 'Create a branch', 'Retrieve a specific branch from a repository, including its effective branch protection', 'Delete a specific branch from a repository'],
    service: (host) => host.branches,
  });

  writer.add({
    method: 'PATCH',
    path: '/branches/{branch}',
    operationId: 'repoUpdateBranch',
    summary: 'Update a branch',
    body: UpdateBranchRepoOptionSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body }) => host.branches.rename(actor, repo, params.branch, body),
  });

  // Gitea's newer operation (not in Forgejo's reference yet), which the Gitea SDK calls `UpdateRepoBranchRef`.
  writer.add({
    method: 'PUT',
    path: '/branches/{branch}',
    operationId: 'repoUpdateBranchRef',
    summary: 'Move a branch to another commit',
    body: UpdateBranchRefOptionSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body }) => host.branches.updateRef(actor, repo, params.branch, body),
  });
}
