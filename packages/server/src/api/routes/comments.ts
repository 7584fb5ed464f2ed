import { Type } from '@sinclair/typebox';
import { FastResponse } from 'srvx';
import {
  COMMENT_TYPES,
  CommentSchema,
  CommentWindowQuerySchema,
  CreateIssueCommentOptionSchema,
  EditIssueCommentOptionSchema,
  TimelineCommentSchema,
  toApiComment,
  toApiTimelineComment,
  type ApiComment,
  type Comment,
  type CommentOnIssue,
  type Issue,
  type RepoAccess,
  type RepoHost,
  type ApiView,
  type Actor,
  type EditIssueCommentOption,
} from '@repohost/core';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** The answer Forgejo gives for a comment the operation does not apply to (an event, not a plain comment). */
function noContent(headers: Record<string, string>): Response {
  const out = { ...headers };
  delete out['content-type'];
  return new FastResponse(null, { status: 204, headers: out });
}

async function apiComments(host: RepoHost, access: RepoAccess, comments: readonly Comment[], view: ApiView, issues: readonly Issue[] = []): Promise<ApiComment[]> {
  return (await host.comments.withRelations(access, comments, view, issues)).map(({ comment, relations }) => toApiComment(comment, relations, view));
}

/** Edits a comment's body; a comment without one is answered 204, as Forgejo does. */
async function editComment(
  host: RepoHost,
  actor: Actor,
  access: RepoAccess,
  target: CommentOnIssue,
  body: EditIssueCommentOption,
  view: ApiView,
  headers: Record<string, string>,
): Promise<ApiComment | Response> {
  const edited = await host.comments.edit(actor, access, target, body);
  if (!edited) return noContent(headers);
  return (await apiComments(host, access, [edited], view, [target.issue]))[0]!;
}

/**
 * `PATCH` and `DELETE` of one comment, on a group that loaded it (`/issues/comments/{id}`, and the deprecated
 * `/issues/{index}/comments/{id}`, whose operation ids end in `suffix`).
 */
function addCommentChanges<P extends string, Loaded extends CommentOnIssue & { repo: RepoAccess }>(group: RouteGroup<P, Loaded, true>, suffix: string): void {
  group.add({
    method: 'PATCH',
    path: '',
    operationId: `issueEditComment${suffix}`,
    summary: 'Edit a comment',
    auth: 'token',
    body: EditIssueCommentOptionSchema,
    reply: { status: 200, description: 'Comment', schema: CommentSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'conflict', 'locked'],
    handler: async ({ host, actor, repo, comment, issue, body, view, responseHeaders }) =>
      editComment(host, actor, repo, { comment, issue }, body, view, responseHeaders),
  });

  group.add({
    method: 'DELETE',
    path: '',
    operationId: `issueDeleteComment${suffix}`,
    summary: 'Delete a comment',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, comment, issue }) => {
      await host.comments.delete(actor, repo, { comment, issue });
    },
  });
}

/**
 * Comments on issues and pull requests: per issue (list, create), per repository (list), one comment (get, edit,
 * delete, and the deprecated edit and delete under the issue's path), and an issue's timeline.
 */
export function registerCommentRoutes(_router: ApiRouter, { repoIssues, issue, comment, issueComment: deprecated }: Groups): void {
  issue.add({
    method: 'GET',
    path: '/comments',
    operationId: 'issueGetComments',
    summary: 'List all comments on an issue',
    query: CommentWindowQuerySchema,
    reply: { status: 200, description: 'CommentList', schema: Type.Array(CommentSchema) },
    errors: ['not_found', 'validation'],
    handler: async ({ host, actor, repo, issue, query, view, responseHeaders }) => {
      const { items, total } = await host.comments.listOfIssue(actor, repo, issue, query);
      responseHeaders['x-total-count'] = String(total);
      responseHeaders['access-control-expose-headers'] = 'X-Total-Count';
      return apiComments(host, repo, items, view, [issue]);
    },
  });

  issue.add({
    method: 'POST',
    path: '/comments',
    operationId: 'issueCreateComment',
    summary: 'Add a comment to an issue',
    auth: 'token',
    body: CreateIssueCommentOptionSchema,
    reply: { status: 201, description: 'Comment', schema: CommentSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, body, view }) => {
      const created = await host.comments.create(actor, repo, issue, body);
      return (await apiComments(host, repo, [created], view, [issue]))[0]!;
    },
  });

  repoIssues.add({
    method: 'GET',
    path: '/issues/comments',
    operationId: 'issueGetRepoComments',
    summary: 'List all comments in a repository',
    query: CommentWindowQuerySchema,
    reply: { status: 200, description: 'CommentList', list: CommentSchema },
    errors: ['not_found', 'validation'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const { items, total } = await host.comments.listOfRepo(actor, repo, query, page);
      return { items: await apiComments(host, repo, items, view), total };
    },
  });

  comment.add({
    method: 'GET',
    path: '',
    operationId: 'issueGetComment',
    summary: 'Get a comment',
    reply: { status: 200, description: 'Comment', schema: CommentSchema },
    errors: ['not_found'],
    handler: async ({ host, repo, comment, issue, view, responseHeaders }) => {
      if (comment.type !== COMMENT_TYPES.comment) return noContent(responseHeaders);
      return (await apiComments(host, repo, [comment], view, [issue]))[0]!;
    },
  });

  addCommentChanges(comment, '');
  addCommentChanges(deprecated, 'Deprecated');

  issue.add({
    method: 'GET',
    path: '/timeline',
    operationId: 'issueGetCommentsAndTimeline',
    summary: 'List all comments and events on an issue',
    query: CommentWindowQuerySchema,
    reply: { status: 200, description: 'TimelineList', list: TimelineCommentSchema },
    errors: ['not_found', 'validation'],
    handler: async ({ host, actor, repo, issue, query, page, view }) => mapPage(await host.comments.timeline(actor, repo, issue, view, { since: query.since, before: query.before }, page), (entry) => toApiTimelineComment(entry, view)),
  });
}
