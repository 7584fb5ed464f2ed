import { Type } from '@sinclair/typebox';
import { FastResponse } from 'srvx';
import { EditReactionOptionSchema, ReactionSchema, toApiReaction, type ApiReaction, type Comment, type Issue, type ReactionAdded, type RepoAccess } from '@repohost/core';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** Forgejo answers an existing reaction with 200 and a new one with 201, both with the reaction. */
function reactionResponse(added: ReactionAdded, reaction: ApiReaction, headers: Record<string, string>): ApiReaction | Response {
  if (added.created) return reaction;
  const body = JSON.stringify(reaction);
  return new FastResponse(body, { status: 200, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } });
}

/** A 200 without a body: what Forgejo answers a removed reaction with. */
function emptyOk(headers: Record<string, string>): Response {
  const out = { ...headers };
  delete out['content-type'];
  return new FastResponse(null, { status: 200, headers: out });
}

/**
 * `POST` and `DELETE …/reactions`: a reaction added to or removed from an issue, or one of its comments (`comment`
 * gives it, from what the group loaded; null for the issue itself). `name` and `what` word the operation ids and
 * summaries.
 */
function addReactionChanges<P extends string, Loaded extends { repo: RepoAccess; issue: Issue }>(
  group: RouteGroup<P, Loaded, true>,
  name: string,
  what: string,
  comment: (loaded: Loaded) => Comment | null,
): void {
  group.add({
    method: 'POST',
    path: '/reactions',
    operationId: `issuePost${name}Reaction`,
    summary: `Add a reaction to ${what}`,
    auth: 'token',
    body: EditReactionOptionSchema,
    reply: { status: 201, description: 'Reaction', schema: ReactionSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      const added = await ctx.host.reactions.add(ctx.actor, ctx.repo, ctx.issue, comment(ctx), ctx.body.content ?? '');
      return reactionResponse(added, toApiReaction(added.reaction, added.user, ctx.view), ctx.responseHeaders);
    },
  });

  group.add({
    method: 'DELETE',
    path: '/reactions',
    operationId: `issueDelete${name}Reaction`,
    summary: `Remove a reaction from ${what}`,
    auth: 'token',
    body: EditReactionOptionSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      await ctx.host.reactions.remove(ctx.actor, ctx.repo, ctx.issue, comment(ctx), ctx.body.content ?? '');
      return emptyOk(ctx.responseHeaders);
    },
  });
}

/** Reactions on an issue (`/issues/{index}/reactions`) and on a comment (`/issues/comments/{id}/reactions`). */
export function registerReactionRoutes(_router: ApiRouter, { issue, comment }: Groups): void {
  issue.add({
    method: 'GET',
    path: '/reactions',
    operationId: 'issueGetIssueReactions',
    summary: 'Get a list reactions of an issue',
    reply: { status: 200, description: 'ReactionList', list: ReactionSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo, issue, page, view }) => mapPage(await host.reactions.listOfIssue(actor, repo, issue, page), ({ reaction, user }) => toApiReaction(reaction, user, view)),
  });

  addReactionChanges(issue, 'Issue', 'an issue', () => null);

  comment.add({
    method: 'GET',
    path: '/reactions',
    operationId: 'issueGetCommentReactions',
    summary: 'Get a list of reactions from a comment of an issue',
    reply: { status: 200, description: 'ReactionList', schema: Type.Array(ReactionSchema) },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo, comment, view }) =>
      (await host.reactions.listOfComment(actor, repo, comment)).map(({ reaction, user }) => toApiReaction(reaction, user, view)),
  });

  addReactionChanges(comment, 'Comment', 'a comment of an issue', ({ comment }) => comment);
}
