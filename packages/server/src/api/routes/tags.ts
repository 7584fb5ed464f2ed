import { CreateTagOptionSchema, TagSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { refWriter } from './ref-writer.js';

/** `/repos/{owner}/{repo}/tags…`. */
export function registerTagRoutes(_router: ApiRouter, { repo }: Groups): void {
  const writer = refWriter(repo);

  repo.add({
    method: 'GET',
    path: '/tags',
    operationId: 'repoListTags',
    summary: "List a repository's tags",
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'TagList', list: TagSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, page, view }) => host.tags.list(actor, repo, view, page),
  });

  writer.add({
    method: 'POST',
    path: '/tags',
    operationId: 'repoCreateTag',
    summary: 'Create a new git tag in a repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: CreateTagOptionSchema,
    reply: { status: 201, description: 'Tag', schema: TagSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body, view }) => host.tags.create(actor, repo, view, body),
  });

  repo.add({
    method: 'GET',
    path: '/tags/{tag}',
    operationId: 'repoGetTag',
    summary: 'Get the tag of a repository by tag name',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'Tag', schema: TagSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, view }) => host.tags.get(actor, repo, view, params.tag),
  });

  writer.add({
    method: 'DELETE',
    path: '/tags/{tag}',
    operationId: 'repoDeleteTag',
    summary: "Delete a repository's tag by name",
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'locked'],
    handler: async ({ host, actor, repo, params }) => host.tags.delete(actor, repo, params.tag),
  });
}
