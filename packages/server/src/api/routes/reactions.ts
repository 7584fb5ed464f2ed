import { Type } from '@sinclair/typebox';
import { FastResponse } from 'srvx';
import { EditReactionOptionSchema, ReactionSchema, toApiReaction, type ApiReaction, type ReactionAdded } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { commentGroup } from './comments.js';

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

/** Reactions on an issue (`/issues/{index}/reactions`) and on a comment (`/issues/comments/{id}/reactions`). */
export function registerReactionRoutes(_router: ApiRouter, { repo, issue }: Groups): void {
  const comment = commentGroup(repo);

  issue.add({
    method: 'GET',
    path: '/reactions',
    operationId: 'issueGetIssueReactions',
    summary: 'Get a list reactions of an issue',
    tag: 'issue',
    scopes: ['issue'],
    reply: { status: 200, description: 'ReactionList', list: ReactionSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo, issue, page, view }) => {
      const { items, total } = await host.reactions.listOfIssue(actor, repo, issue, page);
      return { items: items.map(({ reaction, user }) => toApiReaction(reaction, user, view)), total };
    },
  });

  issue.add({
    method: 'POST',
    path: '/reactions',
    operationId: 'issuePostIssueReaction',
    summary: 'Add a reaction to an issue',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: EditReactionOptionSchema,
    reply: { status: 201, description: 'Reaction', schema: ReactionSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, issue, body, view, responseHeaders }) => {
      const added = await host.reactions.add(actor, repo, issue, null, body.content ?? '');
      return reactionResponse(added, toApiReaction(added.reaction, added.user, view), responseHeaders);
    },
  });

  issue.add({
    method: 'DELETE',
    path: '/reactions',
    operationId: 'issueDeleteIssueReaction',
    summary: 'Remove a reaction from an issue',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: EditReactionOptionSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, issue, body, responseHeaders }) => {
      await host.reactions.remove(actor, repo, issue, null, body.content ?? '');
      return emptyOk(responseHeaders);
    },
  });

  comment.add({
    method: 'GET',
    path: '/reactions',
    operationId: 'issueGetCommentReactions',
    summary: 'Get a list of reactions from a comment of an issue',
    tag: 'issue',
    scopes: ['issue'],
    reply: { status: 200, description: 'ReactionList', schema: Type.Array(ReactionSchema) },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo, comment, view }) =>
      (await host.reactions.listOfComment(actor, repo, comment)).map(({ reaction, user }) => toApiReaction(reaction, user, view)),
  });

  comment.add({
    method: 'POST',
    path: '/reactions',
    operationId: 'issuePostCommentReaction',
    summary: 'Add a reaction to a comment of an issue',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: EditReactionOptionSchema,
    reply: { status: 201, description: 'Reaction', schema: ReactionSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, comment, issue, body, view, responseHeaders }) => {
      const added = await host.reactions.add(actor, repo, issue, comment, body.content ?? '');
      return reactionResponse(added, toApiReaction(added.reaction, added.user, view), responseHeaders);
    },
  });

  comment.add({
    method: 'DELETE',
    path: '/reactions',
    operationId: 'issueDeleteCommentReaction',
    summary: 'Remove a reaction from a comment of an issue',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: EditReactionOptionSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, comment, issue, body, responseHeaders }) => {
      await host.reactions.remove(actor, repo, issue, comment, body.content ?? '');
      return emptyOk(responseHeaders);
    },
  });
}
