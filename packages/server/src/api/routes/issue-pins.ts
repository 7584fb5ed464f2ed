import { Type } from '@sinclair/typebox';
import { IssueSchema, NewIssuePinsAllowedSchema, toApiIssues } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, addChanges } from './common.js';

/** Go's `ParamsInt64`: a position that is no number reads as 0. */
function positionOf(text: string): number {
  return /^[+-]?\d{1,16}$/.test(text) ? Number(text) : 0;
}

/** Pinned issues: `/issues/{index}/pin…`, `/issues/pinned` and `/new_pin_allowed`. */
export function registerIssuePinRoutes(_router: ApiRouter, { repo, issuePin }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/issues/pinned',
    operationId: 'repoListPinnedIssues',
    summary: "List a repo's pinned issues",
    scopes: ['issue'],
    reply: { status: 200, description: 'IssueListWithoutPagination', schema: Type.Array(IssueSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, view }) => {
      const pinned = await host.issuePins.listPinned(actor, repo);
      return toApiIssues(await host.issues.details(actor, pinned), view);
    },
  });

  repo.add({
    method: 'GET',
    path: '/new_pin_allowed',
    operationId: 'repoNewPinAllowed',
    summary: 'Returns if new Issue Pins are allowed',
    reply: { status: 200, description: 'RepoNewIssuePinsAllowed', schema: NewIssuePinsAllowedSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo }) => ({
      issues: await host.issuePins.newPinAllowed(actor, repo, false),
      pull_requests: await host.issuePins.newPinAllowed(actor, repo, true),
    }),
  });

  addChanges(issuePin, '', [
    { method: 'POST', operationId: 'pinIssue', summary: 'Pin an Issue', errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found'] },
    { method: 'DELETE', operationId: 'unpinIssue', summary: 'Unpin an Issue', errors: ['unauthorized', 'forbidden', 'not_found'] },
  ], async ({ host, actor, repo, issue }, pin) => (pin ? host.issuePins.pin(actor, repo, issue) : host.issuePins.unpin(actor, repo, issue)));

  issuePin.add({
    method: 'PATCH',
    path: '/{position}',
    operationId: 'moveIssuePin',
    summary: 'Moves the Pin to the given Position',
    reply: EMPTY,
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, issue, params }) => host.issuePins.move(actor, repo, issue, positionOf(params.position)),
  });
}
