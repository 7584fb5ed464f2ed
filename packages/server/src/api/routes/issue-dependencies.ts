import { Type } from '@sinclair/typebox';
import { IssueMetaSchema, IssueSchema } from '@repohost/core';
import { PagingQuery, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { apiIssue, apiIssues } from './issues.js';

const IssueListSchema = Type.Array(IssueSchema);

/**
 * The two sides of a dependency, as Forgejo names and words them: the issues this one depends on, and those it
 * blocks (list, add, remove each; only the first refuses a locked repository's changes).
 */
const DIRECTIONS = [
  {
    path: '/dependencies', list: 'blockers', change: 'dependencies', locked: ['locked'],
    operations: ['issueListIssueDependencies', 'issueCreateIssueDependencies', 'issueRemoveIssueDependencies'],
    summaries: ["List an issue's dependencies, i.e all issues that block this issue.", 'Make the issue in the url depend on the issue in the form.', 'Remove an issue dependency'],
  },
  {
    path: '/blocks', list: 'blocked', change: 'blocks', locked: [],
    operations: ['issueListBlocks', 'issueCreateIssueBlocking', 'issueRemoveIssueBlocking'],
    summaries: ['List issues that are blocked by this issue', 'Block the issue given in the body by the issue in path', 'Unblock the issue given in the body by the issue in path'],
  },
] as const;

/**
 * `/repos/{owner}/{repo}/issues/{index}/dependencies` (the issues this one depends on) and `…/blocks` (the issues
 * it blocks): list, add, remove. Lists are pages without pagination headers, as Forgejo sends them.
 */
export function registerIssueDependencyRoutes(_router: ApiRouter, { issue }: Groups): void {
  for (const { path, list, change, locked, operations, summaries } of DIRECTIONS) {
    issue.add({
      method: 'GET',
      path,
      operationId: operations[0],
      summary: summaries[0],
      query: PagingQuery,
      reply: { status: 200, description: 'IssueListWithoutPagination', schema: IssueListSchema },
      errors: ['not_found'],
      handler: async ({ host, actor, repo, issue, query, view }) => apiIssues(host, actor, view, await host.issueDependencies.list(actor, repo, issue, list, query)),
    });

    issue.add({
      method: 'POST',
      path,
      operationId: operations[1],
      summary: summaries[1],
      auth: 'token',
      body: IssueMetaSchema,
      reply: { status: 201, description: 'Issue', schema: IssueSchema },
      errors: ['unauthorized', 'not_found', 'conflict', 'validation', ...locked],
      handler: async ({ host, actor, repo, issue, body, view }) => apiIssue(host, actor, view, await host.issueDependencies.add(actor, repo, issue, body, change)),
    });

    issue.add({
      method: 'DELETE',
      path,
      operationId: operations[2],
      summary: summaries[2],
      auth: 'token',
      body: IssueMetaSchema,
      reply: { status: 200, description: 'Issue', schema: IssueSchema },
      errors: ['unauthorized', 'not_found', 'validation', ...locked],
      handler: async ({ host, actor, repo, issue, body, view }) =>
        apiIssue(host, actor, view, await host.issueDependencies.remove(actor, repo, issue, body, change)),
    });
  }
}
