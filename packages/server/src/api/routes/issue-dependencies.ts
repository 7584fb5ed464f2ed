import { Type } from '@sinclair/typebox';
import { IssueMetaSchema, IssueSchema, toApiIssue, toApiIssues, type ApiIssue, type ApiView, type Issue, type RepoHost, type Actor } from '@repohost/core';
import { PagingQuery, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

const IssueListSchema = Type.Array(IssueSchema);

async function apiIssues(host: RepoHost, actor: Actor, view: ApiView, issues: Issue[]): Promise<ApiIssue[]> {
  return toApiIssues(await host.issues.details(actor, issues), view);
}

async function apiIssue(host: RepoHost, actor: Actor, view: ApiView, issue: Issue): Promise<ApiIssue> {
  return toApiIssue(await host.issues.detailsOf(actor, issue), view);
}

/**
 * `/repos/{owner}/{repo}/issues/{index}/dependencies` (the issues this one depends on) and `…/blocks` (the issues
 * it blocks): list, add, remove. Lists are pages without pagination headers, as Forgejo sends them.
 */
export function registerIssueDependencyRoutes(_router: ApiRouter, { issue }: Groups): void {
  issue.add({
    method: 'GET',
    path: '/dependencies',
    operationId: 'issueListIssueDependencies',
    summary: "List an issue's dependencies, i.e all issues that block this issue.",
    tag: 'issue',
    scopes: ['issue'],
    query: PagingQuery,
    reply: { status: 200, description: 'IssueListWithoutPagination', schema: IssueListSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, issue, query, view }) =>
      apiIssues(host, actor, view, await host.issueDependencies.list(actor, repo, issue, 'blockers', query)),
  });

  issue.add({
    method: 'POST',
    path: '/dependencies',
    operationId: 'issueCreateIssueDependencies',
    summary: 'Make the issue in the url depend on the issue in the form.',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: IssueMetaSchema,
    reply: { status: 201, description: 'Issue', schema: IssueSchema },
    errors: ['unauthorized', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, body, view }) =>
      apiIssue(host, actor, view, await host.issueDependencies.add(actor, repo, issue, body, 'dependencies')),
  });

  issue.add({
    method: 'DELETE',
    path: '/dependencies',
    operationId: 'issueRemoveIssueDependencies',
    summary: 'Remove an issue dependency',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: IssueMetaSchema,
    reply: { status: 200, description: 'Issue', schema: IssueSchema },
    errors: ['unauthorized', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, body, view }) =>
      apiIssue(host, actor, view, await host.issueDependencies.remove(actor, repo, issue, body, 'dependencies')),
  });

  issue.add({
    method: 'GET',
    path: '/blocks',
    operationId: 'issueListBlocks',
    summary: 'List issues that are blocked by this issue',
    tag: 'issue',
    scopes: ['issue'],
    query: PagingQuery,
    reply: { status: 200, description: 'IssueListWithoutPagination', schema: IssueListSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, issue, query, view }) =>
      apiIssues(host, actor, view, await host.issueDependencies.list(actor, repo, issue, 'blocked', query)),
  });

  issue.add({
    method: 'POST',
    path: '/blocks',
    operationId: 'issueCreateIssueBlocking',
    summary: 'Block the issue given in the body by the issue in path',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: IssueMetaSchema,
    reply: { status: 201, description: 'Issue', schema: IssueSchema },
    errors: ['unauthorized', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, repo, issue, body, view }) =>
      apiIssue(host, actor, view, await host.issueDependencies.add(actor, repo, issue, body, 'blocks')),
  });

  issue.add({
    method: 'DELETE',
    path: '/blocks',
    operationId: 'issueRemoveIssueBlocking',
    summary: 'Unblock the issue given in the body by the issue in path',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: IssueMetaSchema,
    reply: { status: 200, description: 'Issue', schema: IssueSchema },
    errors: ['unauthorized', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, issue, body, view }) =>
      apiIssue(host, actor, view, await host.issueDependencies.remove(actor, repo, issue, body, 'blocks')),
  });
}
