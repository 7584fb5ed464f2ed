import {
  CreateIssueOptionSchema,
  EditIssueOptionSchema,
  IssueListQuerySchema,
  IssueSchema,
  IssueSearchQuerySchema,
  toApiIssue,
  toApiIssues,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/**
 * Issues: `/repos/{owner}/{repo}/issues` (list, create), `/issues/{index}` (get, edit, delete) and
 * `/repos/issues/search` across the repositories the caller may see. Pull requests are issues here too.
 */
export function registerIssueRoutes(router: ApiRouter, { repo, issue }: Groups): void {
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
    handler: async ({ host, actor, query, page, view }) => {
      const { items, total } = await host.issues.search(actor, query, page);
      return { items: toApiIssues(await host.issues.details(actor, items), view), total };
    },
  });

  repo.add({
    method: 'GET',
    path: '/issues',
    operationId: 'issueListIssues',
    summary: "List a repository's issues",
    tag: 'issue',
    scopes: ['issue'],
    query: IssueListQuerySchema,
    reply: { status: 200, description: 'IssueList', list: IssueSchema },
    errors: ['not_found', 'validation'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const { items, total } = await host.issues.list(actor, repo, query, page);
      return { items: toApiIssues(await host.issues.details(actor, items), view), total };
    },
  });

  repo.add({
    method: 'POST',
    path: '/issues',
    operationId: 'issueCreateIssue',
    summary: 'Create an issue. If using deadline only the date will be taken into account, and time of day ignored.',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: CreateIssueOptionSchema,
    reply: { status: 201, description: 'Issue', schema: IssueSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'precondition_failed', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body, view }) => {
      const created = await host.issues.create(actor, repo, body);
      return toApiIssue(await host.issues.detailsOf(actor, created), view);
    },
  });

  issue.add({
    method: 'GET',
    path: '',
    operationId: 'issueGetIssue',
    summary: 'Get an issue',
    tag: 'issue',
    scopes: ['issue'],
    reply: { status: 200, description: 'Issue', schema: IssueSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, issue, view }) => toApiIssue(await host.issues.detailsOf(actor, issue), view),
  });

  issue.add({
    method: 'PATCH',
    path: '',
    operationId: 'issueEditIssue',
    summary: 'Edit an issue. If using deadline only the date will be taken into account, and time of day ignored.',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: EditIssueOptionSchema,
    reply: { status: 201, description: 'Issue', schema: IssueSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'precondition_failed', 'validation'],
    handler: async ({ host, actor, repo, issue, body, view }) => {
      const edited = await host.issues.edit(actor, repo, issue, body);
      return toApiIssue(await host.issues.detailsOf(actor, edited), view);
    },
  });

  issue.add({
    method: 'DELETE',
    path: '',
    operationId: 'issueDelete',
    summary: 'Delete an issue',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, issue }) => host.issues.delete(actor, repo, issue),
  });
}
