import {
  CreateIssueOptionSchema,
  EditIssueOptionSchema,
  IssueListQuerySchema,
  IssueSchema,
  IssueSearchQuerySchema,
  toApiIssue,
  toApiIssues,
  type Actor,
  type ApiIssue,
  type ApiView,
  type Issue,
  type Page,
  type RepoHost,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** Issues as the wire shows them, with what they refer to (labels, milestone, assignees, …). */
export async function apiIssues(host: RepoHost, actor: Actor, view: ApiView, issues: readonly Issue[]): Promise<ApiIssue[]> {
  return toApiIssues(await host.issues.details(actor, issues), view);
}

export async function apiIssue(host: RepoHost, actor: Actor, view: ApiView, issue: Issue): Promise<ApiIssue> {
  return toApiIssue(await host.issues.detailsOf(actor, issue), view);
}

async function apiIssuePage(host: RepoHost, actor: Actor, view: ApiView, page: Page<Issue>): Promise<Page<ApiIssue>> {
  return { items: await apiIssues(host, actor, view, page.items), total: page.total };
}

/**
 * Issues: `/repos/{owner}/{repo}/issues` (list, create), `/issues/{index}` (get, edit, delete) and
 * `/repos/issues/search` across the repositories the caller may see. Pull requests are issues here too.
 */
export function registerIssueRoutes(router: ApiRouter, { repoIssues, issue }: Groups): void {
  router.add({
    method: 'GET',
    path: '/repos/issues/search',
    operationId: 'issueSearchIssues',
    summary: 'Search for issues across the repositories that the user has access to',
    tag: 'issue',
    scopes: ['issue'],
    query: IssueSearchQuerySchema,
    reply: { status: 200, description: 'IssueList', list: IssueSchema },
    errors: ['unauthorized', 'validation'],
    handler: async ({ host, actor, query, page, view }) => apiIssuePage(host, actor, view, await host.issues.search(actor, query, page)),
  });

  repoIssues.add({
    method: 'GET',
    path: '/issues',
    operationId: 'issueListIssues',
    summary: "List a repository's issues",
    query: IssueListQuerySchema,
    reply: { status: 200, description: 'IssueList', list: IssueSchema },
    errors: ['not_found', 'validation'],
    handler: async ({ host, actor, repo, query, page, view }) => apiIssuePage(host, actor, view, await host.issues.list(actor, repo, query, page)),
  });

  repoIssues.add({
    method: 'POST',
    path: '/issues',
    operationId: 'issueCreateIssue',
    summary: 'Create an issue. If using deadline only the date will be taken into account, and time of day ignored.',
    auth: 'token',
    body: CreateIssueOptionSchema,
    reply: { status: 201, description: 'Issue', schema: IssueSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'precondition_failed', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body, view }) => apiIssue(host, actor, view, await host.issues.create(actor, repo, body)),
  });

  issue.add({
    method: 'GET',
    path: '',
    operationId: 'issueGetIssue',
    summary: 'Get an issue',
    reply: { status: 200, description: 'Issue', schema: IssueSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, issue, view }) => apiIssue(host, actor, view, issue),
  });

  issue.add({
    method: 'PATCH',
    path: '',
    operationId: 'issueEditIssue',
    summary: 'Edit an issue. If using deadline only the date will be taken into account, and time of day ignored.',
    auth: 'token',
    body: EditIssueOptionSchema,
    reply: { status: 201, description: 'Issue', schema: IssueSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'precondition_failed', 'validation'],
    handler: async ({ host, actor, repo, issue, body, view }) => apiIssue(host, actor, view, await host.issues.edit(actor, repo, issue, body)),
  });

  issue.add({
    method: 'DELETE',
    path: '',
    operationId: 'issueDelete',
    summary: 'Delete an issue',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, issue }) => host.issues.delete(actor, repo, issue),
  });
}
