import { Type } from '@sinclair/typebox';
import {
  ApiUserViews,
  ChangedFileSchema,
  CommitSchema,
  CreatePullRequestOptionSchema,
  EditPullRequestOptionSchema,
  PullCommitsQuerySchema,
  PullFilesQuerySchema,
  PullListQuerySchema,
  PullRequestSchema,
  repoWebPath,
  toApiChangedFile,
  toApiCommit,
  toApiPullRequest,
  toApiPullRequests,
  NotFoundError,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { commitLikePage, textResponse } from './commits.js';

/**
 * Pull requests: `/repos/{owner}/{repo}/pulls` (list, create), `/pulls/{index}` (get, edit), its diff or patch,
 * commits and files, `/pulls/{base}/{head}` and `/pulls/pinned`. Merging and reviews have their own modules.
 */
export function registerPullRoutes(_router: ApiRouter, { repo, pull }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/pulls',
    operationId: 'repoListPullRequests',
    summary: "List a repo's pull requests",
    query: PullListQuerySchema,
    reply: { status: 200, description: 'PullRequestList', list: PullRequestSchema },
    errors: ['bad_request', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const { items, total } = await host.pulls.list(actor, repo, query, page);
      return { items: toApiPullRequests(await host.pulls.details(actor, items), view), total };
    },
  });

  repo.add({
    method: 'POST',
    path: '/pulls',
    operationId: 'repoCreatePullRequest',
    summary: 'Create a pull request',
    auth: 'token',
    body: CreatePullRequestOptionSchema,
    reply: { status: 201, description: 'PullRequest', schema: PullRequestSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body, view }) => {
      const created = await host.pulls.create(actor, repo, body);
      return toApiPullRequest((await host.pulls.details(actor, [created]))[0]!, view);
    },
  });

  repo.add({
    method: 'GET',
    path: '/pulls/pinned',
    operationId: 'repoListPinnedPullRequests',
    summary: "List a repo's pinned pull requests",
    reply: { status: 200, description: 'PullRequestList', schema: Type.Array(PullRequestSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, view }) => {
      if (!host.pulls.mayRead(repo)) throw new NotFoundError();
      const pinned = await host.pulls.ofIssues(await host.issuePins.listPinned(actor, repo, true));
      return toApiPullRequests(await host.pulls.details(actor, pinned), view);
    },
  });

  repo.add({
    method: 'GET',
    path: '/pulls/{base}/{head}',
    operationId: 'repoGetPullRequestByBaseHead',
    summary: 'Get a pull request by base and head',
    reply: { status: 200, description: 'PullRequest', schema: PullRequestSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, view }) => {
      const found = await host.pulls.byBaseHead(actor, repo, params.base, params.head);
      return toApiPullRequest((await host.pulls.details(actor, [found]))[0]!, view);
    },
  });

  pull.add({
    method: 'GET',
    path: '',
    operationId: 'repoGetPullRequest',
    summary: 'Get a pull request',
    reply: { status: 200, description: 'PullRequest', schema: PullRequestSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, pull, view }) => toApiPullRequest((await host.pulls.details(actor, [pull]))[0]!, view),
  });

  pull.add({
    method: 'PATCH',
    path: '',
    operationId: 'repoEditPullRequest',
    summary: 'Update a pull request. If using deadline only the date will be taken into account, and time of day ignored.',
    auth: 'token',
    body: EditPullRequestOptionSchema,
    reply: { status: 201, description: 'PullRequest', schema: PullRequestSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'precondition_failed', 'validation'],
    handler: async ({ host, actor, repo, pull, body, view }) => {
      const edited = await host.pulls.edit(actor, repo, pull, body);
      return toApiPullRequest((await host.pulls.details(actor, [edited]))[0]!, view);
    },
  });

  repo.add({
    method: 'GET',
    path: '/pulls/{index}.{diffType}',
    operationId: 'repoDownloadPullDiffOrPatch',
    summary: 'Get a pull request diff or patch',
    query: Type.Object({
      binary: Type.Optional(Type.Boolean({ description: 'whether to include binary file changes. if true, the diff is applicable with `git apply`' })),
    }),
    reply: { status: 200, description: 'APIString is a string response', produces: ['text/plain'] },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, query, responseHeaders }) => {
      if (params.diffType !== 'diff' && params.diffType !== 'patch') throw new NotFoundError();
      const found = await host.pulls.resolve(actor, repo, params.index);
      return textResponse(await host.pulls.diff(actor, repo, found, params.diffType, query.binary ?? false), responseHeaders);
    },
  });

  pull.add({
    method: 'GET',
    path: '/commits',
    operationId: 'repoGetPullRequestCommits',
    summary: 'Get commits for a pull request',
    query: PullCommitsQuerySchema,
    reply: { status: 200, description: 'CommitList', list: CommitSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, pull, query, page, view, responseHeaders }) => {
      const path = repoWebPath(repo.owner, repo.repo);
      const users = new ApiUserViews(view);
      return commitLikePage(await host.pulls.commits(actor, repo, pull, query, page), responseHeaders, (commit) => toApiCommit(commit, path, view, users));
    },
  });

  pull.add({
    method: 'GET',
    path: '/files',
    operationId: 'repoGetPullRequestFiles',
    summary: 'Get changed files for a pull request',
    query: PullFilesQuerySchema,
    reply: { status: 200, description: 'ChangedFileList', list: ChangedFileSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, pull, query, page, view, responseHeaders }) => {
      const result = await host.pulls.files(actor, repo, pull, query, page);
      return commitLikePage(result, responseHeaders, (file) => toApiChangedFile(file, repo.owner, repo.repo, result.head, view));
    },
  });
}
