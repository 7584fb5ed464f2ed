import { Type } from '@sinclair/typebox';
import { FastResponse } from 'srvx';
import { CommitSchema, CompareSchema, PullRequestSchema, repoWebPath, ApiUserViews, toApiCommit, toApiPullRequest, type Page, type PageRequest } from '@repohost/core';
import { jsonResponse, mapPage, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

const CommitViewQuery = {
  stat: Type.Optional(Type.Boolean({ description: "include diff stats for every commit (disable for speedup, default 'true')" })),
  verification: Type.Optional(Type.Boolean({ description: "include verification for every commit (disable for speedup, default 'true')" })),
  files: Type.Optional(Type.Boolean({ description: "include a list of affected files for every commit (disable for speedup, default 'true')" })),
};

/** A git-made text body (a diff, a patch) with its length, so HEAD answers as GET does. */
export function textResponse(body: Buffer, headers: Record<string, string>): Response {
  const out = { ...headers, 'content-type': 'text/plain; charset=utf-8', 'content-length': String(body.length) };
  return new FastResponse(new Uint8Array(body.buffer, body.byteOffset, body.length), { status: 200, headers: out });
}

/**
 * A page of a commit-like list (commits, a pull request's changed files) as a list route returns it, its items
 * converted (`convert`), after setting Forgejo's extra paging headers of those lists (`X-Page`, `X-PerPage`,
 * `X-PageCount`, `X-HasMore`) besides the router's (`X-Total-Count`, `Link`). `result.page` is the page the
 * service read.
 */
export function commitLikePage<T, U>(result: Page<T> & { page: PageRequest }, headers: Record<string, string>, convert: (item: T) => U): Page<U> {
  const { page, total } = result;
  const pageCount = Math.ceil(total / page.limit);
  headers['x-page'] = String(page.page);
  headers['x-perpage'] = String(page.limit);
  headers['x-pagecount'] = String(pageCount);
  headers['x-hasmore'] = String(page.page < pageCount);
  return mapPage(result, convert);
}

/** `/repos/{owner}/{repo}/commits`, `/git/commits/{sha}[.diff|.patch]`, `/compare/{basehead}`: reading history. */
export function registerCommitRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/commits',
    operationId: 'repoGetAllCommits',
    summary: 'Get a list of all commits from a repository',
    query: Type.Object({
      sha: Type.Optional(Type.String({ description: "SHA or branch to start listing commits from (usually 'master')" })),
      path: Type.Optional(Type.String({ description: 'filepath of a file/dir' })),
      since: Type.Optional(Type.String({ description: 'Only commits after this date will be returned (ISO 8601 format)', format: 'date-time' })),
      until: Type.Optional(Type.String({ description: 'Only commits before this date will be returned (ISO 8601 format)', format: 'date-time' })),
      ...CommitViewQuery,
      not: Type.Optional(Type.String({ description: 'commits that match the given specifier will not be listed.' })),
    }),
    reply: { status: 200, description: 'CommitList', list: CommitSchema },
    errors: ['bad_request', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, repo, query, page, view, responseHeaders }) => {
      const result = await host.commits.list(actor, repo, query, page);
      const path = repoWebPath(repo.owner, repo.repo);
      const users = new ApiUserViews(view);
      return commitLikePage(result, responseHeaders, (commit) => toApiCommit(commit, path, view, users));
    },
  });

  repo.add({
    method: 'GET',
    path: '/git/commits/{sha}',
    operationId: 'repoGetSingleCommit',
    summary: 'Get a single commit from a repository',
    query: Type.Object(CommitViewQuery),
    reply: { status: 200, description: 'Commit', schema: CommitSchema },
    errors: ['not_found', 'validation'],
    handler: async ({ host, actor, repo, params, query, view }) =>
      toApiCommit(await host.commits.get(actor, repo, params.sha, query), repoWebPath(repo.owner, repo.repo), view),
  });

  repo.add({
    method: 'GET',
    path: '/git/commits/{sha}.{diffType}',
    operationId: 'repoDownloadCommitDiffOrPatch',
    summary: "Get a commit's diff or patch",
    reply: { status: 200, description: 'APIString is a string response', produces: ['text/plain'] },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, view, responseHeaders }) => {
      const { sha, diffType } = params;
      if (diffType === 'diff' || diffType === 'patch') return textResponse(await host.commits.diff(actor, repo, sha, diffType), responseHeaders);
      // A ref with a dot in its name (`v1.2`) names a commit, as Forgejo's route (`.diff|.patch` only) reads it.
      const commit = await host.commits.get(actor, repo, `${sha}.${diffType}`);
      return jsonResponse(200, JSON.stringify(toApiCommit(commit, repoWebPath(repo.owner, repo.repo), view)), { ...responseHeaders, 'content-type': 'application/json;charset=utf-8' });
    },
  });

  repo.add({
    method: 'GET',
    path: '/commits/{sha}/pull',
    operationId: 'repoGetCommitPullRequest',
    summary: 'Get the pull request of the commit',
    reply: { status: 200, description: 'PullRequest', schema: PullRequestSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, view }) => {
      const pull = await host.pulls.byMergedCommit(actor, repo, params.sha);
      return toApiPullRequest((await host.pulls.details(actor, [pull]))[0]!, view);
    },
  });

  repo.add({
    method: 'GET',
    path: '/compare/{basehead}',
    operationId: 'repoCompareDiff',
    summary: 'Get commit comparison information',
    query: Type.Object({
      verification: Type.Optional(Type.Boolean({ default: true, description: 'include verification status for each commit' })),
      files: Type.Optional(Type.Boolean({ default: true, description: 'include which files changed by a commit' })),
    }),
    reply: { status: 200, description: 'Compare', schema: CompareSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, query, view }) => {
      const result = await host.commits.compare(actor, repo, params.basehead, query);
      const path = repoWebPath(repo.owner, repo.repo);
      const users = new ApiUserViews(view);
      return { total_commits: result.total, commits: result.items.map((commit) => toApiCommit(commit, path, view, users)) };
    },
  });
}
