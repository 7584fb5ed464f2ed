import { Type } from '@sinclair/typebox';
import {
  CreatePullReviewCommentReplyOptionsSchema,
  CreatePullReviewCommentSchema,
  CreatePullReviewOptionsSchema,
  DismissPullReviewOptionsSchema,
  PullReviewCommentSchema,
  PullReviewRequestOptionsSchema,
  PullReviewSchema,
  SubmitPullReviewOptionsSchema,
  type ApiPullReviewComment,
  type Comment,
  type Pull,
  type RepoAccess,
  type Review,
} from '@repohost/core';
import type { RequestBase } from '../contract.js';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** What a route of a pull request's review sees: the pull request its group loaded, and the path's review `{id}`. */
type ReviewRequest = RequestBase<{ readonly id: string }> & { readonly repo: RepoAccess; readonly pull: Pull };

/**
 * The handler of a route under `/reviews/{id}`, given the review the path names, which it looks up first (a 404
 * when the pull request has none the caller may see).
 */
function withReview<Ctx extends ReviewRequest, T>(handle: (ctx: Ctx, review: Review) => Promise<T>): (ctx: Ctx) => Promise<T> {
  return async (ctx) => handle(ctx, await ctx.host.reviews.resolve(ctx.actor, ctx.repo, ctx.pull, ctx.params.id));
}

/** One comment of a review as the wire shows it. */
async function apiReviewComment(
  { host, repo, pull, view }: Pick<ReviewRequest, 'host' | 'repo' | 'pull' | 'view'>,
  review: Review,
  comment: Comment,
): Promise<ApiPullReviewComment> {
  return (await host.reviews.commentsToApi(repo, pull, review, [comment], view))[0]!;
}

/**
 * Pull request reviews: `/pulls/{index}/reviews…` (list, create, get, submit, delete, line comments, dismissals),
 * `/pulls/{index}/requested_reviewers`, and Gitea's replies to and resolution of review comments.
 */
export function registerPullReviewRoutes(_router: ApiRouter, { repo, pull }: Groups): void {
  pull.add({
    method: 'GET',
    path: '/reviews',
    operationId: 'repoListPullReviews',
    summary: 'List all reviews for a pull request',
    reply: { status: 200, description: 'PullReviewList', list: PullReviewSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, pull, page, view }) => {
      const { items, total } = await host.reviews.list(actor, repo, pull, page);
      return { items: await host.reviews.toApi(repo, pull, items, view), total };
    },
  });

  pull.add({
    method: 'POST',
    path: '/reviews',
    operationId: 'repoCreatePullReview',
    summary: 'Create a review to an pull request',
    auth: 'token',
    body: CreatePullReviewOptionsSchema,
    reply: { status: 200, description: 'PullReview', schema: PullReviewSchema },
    errors: ['unauthorized', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, pull, body, view }) => host.reviews.toApiOne(repo, pull, await host.reviews.create(actor, repo, pull, body), view),
  });

  pull.add({
    method: 'GET',
    path: '/reviews/{id}',
    operationId: 'repoGetPullReview',
    summary: 'Get a specific review for a pull request',
    reply: { status: 200, description: 'PullReview', schema: PullReviewSchema },
    errors: ['not_found'],
    handler: withReview(({ host, repo, pull, view }, review) => host.reviews.toApiOne(repo, pull, review, view)),
  });

  pull.add({
    method: 'POST',
    path: '/reviews/{id}',
    operationId: 'repoSubmitPullReview',
    summary: 'Submit a pending review to an pull request',
    auth: 'token',
    body: SubmitPullReviewOptionsSchema,
    reply: { status: 200, description: 'PullReview', schema: PullReviewSchema },
    errors: ['unauthorized', 'not_found', 'validation', 'locked'],
    handler: withReview(async ({ host, actor, repo, pull, body, view }, review) =>
      host.reviews.toApiOne(repo, pull, await host.reviews.submit(actor, repo, pull, review, body), view),
    ),
  });

  pull.add({
    method: 'DELETE',
    path: '/reviews/{id}',
    operationId: 'repoDeletePullReview',
    summary: 'Delete a specific review from a pull request',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: withReview(({ host, actor, repo, pull }, review) => host.reviews.delete(actor, repo, pull, review)),
  });

  pull.add({
    method: 'GET',
    path: '/reviews/{id}/comments',
    operationId: 'repoGetPullReviewComments',
    summary: 'Get a specific review for a pull request',
    reply: { status: 200, description: 'PullReviewCommentList', schema: Type.Array(PullReviewCommentSchema) },
    errors: ['not_found'],
    handler: withReview(({ host, actor, repo, pull, view }, review) => host.reviews.comments(actor, repo, pull, review, view)),
  });

  pull.add({
    method: 'POST',
    path: '/reviews/{id}/comments',
    operationId: 'repoCreatePullReviewComment',
    summary: 'Add a new comment to a pull request review',
    auth: 'token',
    body: CreatePullReviewCommentSchema,
    reply: { status: 200, description: 'PullReviewComment', schema: PullReviewCommentSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: withReview(async (ctx, review) => {
      const { host, actor, repo, pull, body } = ctx;
      return apiReviewComment(ctx, review, await host.reviews.addComment(actor, repo, pull, review, body));
    }),
  });

  pull.add({
    method: 'GET',
    path: '/reviews/{id}/comments/{comment}',
    operationId: 'repoGetPullReviewComment',
    summary: 'Get a pull review comment',
    reply: { status: 200, description: 'PullReviewComment', schema: PullReviewCommentSchema },
    errors: ['not_found'],
    handler: withReview(async (ctx, review) => {
      const { host, actor, repo, pull, params } = ctx;
      return apiReviewComment(ctx, review, await host.reviews.comment(actor, repo, pull, review, params.comment));
    }),
  });

  pull.add({
    method: 'DELETE',
    path: '/reviews/{id}/comments/{comment}',
    operationId: 'repoDeletePullReviewComment',
    summary: 'Delete a pull review comment',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'locked'],
    handler: withReview(async ({ host, actor, repo, pull, params }, review) => {
      const comment = await host.reviews.comment(actor, repo, pull, review, params.comment);
      await host.reviews.deleteComment(actor, repo, pull, review, comment);
    }),
  });

  // Dismissing a review (with a message, the body) and taking the dismissal back (no body) answer the review as it now is.
  for (const [path, operationId, summary, dismissed] of [
    ['/reviews/{id}/dismissals', 'repoDismissPullReview', 'Dismiss a review for a pull request', true],
    ['/reviews/{id}/undismissals', 'repoUnDismissPullReview', 'Cancel to dismiss a review for a pull request', false],
  ] as const) {
    pull.add({
      method: 'POST',
      path,
      operationId,
      summary,
      auth: 'token',
      body: dismissed ? DismissPullReviewOptionsSchema : undefined,
      reply: { status: 200, description: 'PullReview', schema: PullReviewSchema },
      errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
      handler: withReview(async ({ host, actor, repo, pull, body, view }, review) =>
        host.reviews.toApiOne(repo, pull, await host.reviews.dismiss(actor, repo, pull, review, body ?? {}, dismissed), view),
      ),
    });
  }

  pull.add({
    method: 'POST',
    path: '/requested_reviewers',
    operationId: 'repoCreatePullReviewRequests',
    summary: 'create review requests for a pull request',
    auth: 'token',
    body: PullReviewRequestOptionsSchema,
    reply: { status: 201, description: 'PullReviewListWithoutPagination', schema: Type.Array(PullReviewSchema) },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, pull, body, view }) => host.reviews.toApi(repo, pull, await host.reviews.request(actor, repo, pull, body, true), view),
  });

  pull.add({
    method: 'DELETE',
    path: '/requested_reviewers',
    operationId: 'repoDeletePullReviewRequests',
    summary: 'cancel review requests for a pull request',
    auth: 'token',
    body: PullReviewRequestOptionsSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, pull, body }) => {
      await host.reviews.request(actor, repo, pull, body, false);
    },
  });

  // Gitea's API (not in Forgejo's contract): replies to a review comment, and resolving its conversation.
  pull.add({
    method: 'POST',
    path: '/comments/{id}/replies',
    operationId: 'repoCreatePullReviewCommentReply',
    summary: 'Reply to a pull review comment',
    auth: 'token',
    body: CreatePullReviewCommentReplyOptionsSchema,
    reply: { status: 201, description: 'PullReviewComment', schema: PullReviewCommentSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, pull, params, body, view }) => {
      const { comment, review } = await host.reviews.reply(actor, repo, pull, params.id, body);
      return apiReviewComment({ host, repo, pull, view }, review, comment);
    },
  });

  for (const [action, resolved] of [
    ['resolve', true],
    ['unresolve', false],
  ] as const) {
    repo.add({
      method: 'POST',
      path: `/pulls/comments/{id}/${action}`,
      operationId: resolved ? 'repoResolvePullReviewComment' : 'repoUnresolvePullReviewComment',
      summary: resolved ? 'Resolve a pull review comment' : 'Unresolve a pull review comment',
      auth: 'token',
      reply: EMPTY,
      errors: ['unauthorized', 'forbidden', 'not_found', 'locked'],
      handler: async ({ host, actor, repo, params }) => {
        await host.reviews.markConversation(actor, repo, params.id, resolved);
      },
    });
  }
}
