import { Type } from '@sinclair/typebox';
import { EditGitHookOptionSchema, GitHookSchema, GitHooksService } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/**
 * `/repos/{owner}/{repo}/hooks/git…`: the repository's own server-side git hooks, on the webhooks group (token,
 * repository admin), for those `GitHooksService` lets edit them (403 otherwise, as Forgejo's reqGitHook).
 */
export function registerGitHookRoutes(_router: ApiRouter, { repoHooks }: Groups): void {
  const errors = ['unauthorized', 'forbidden', 'not_found'] as const;

  repoHooks.add({
    method: 'GET',
    path: '/git',
    operationId: 'repoListGitHooks',
    summary: 'List the Git hooks in a repository',
    reply: { status: 200, description: 'GitHookList', schema: Type.Array(GitHookSchema) },
    errors,
    handler: ({ host, actor, repo }) => host.service(GitHooksService).list(actor, repo),
  });

  repoHooks.add({
    method: 'GET',
    path: '/git/{id}',
    operationId: 'repoGetGitHook',
    summary: 'Get a Git hook',
    reply: { status: 200, description: 'GitHook', schema: GitHookSchema },
    errors,
    handler: ({ host, actor, repo, params }) => host.service(GitHooksService).get(actor, repo, params.id),
  });

  repoHooks.add({
    method: 'PATCH',
    path: '/git/{id}',
    operationId: 'repoEditGitHook',
    summary: 'Edit a Git hook in a repository',
    body: EditGitHookOptionSchema,
    reply: { status: 200, description: 'GitHook', schema: GitHookSchema },
    errors: [...errors, 'validation'],
    handler: ({ host, actor, repo, params, body }) => host.service(GitHooksService).edit(actor, repo, params.id, body),
  });

  repoHooks.add({
    method: 'DELETE',
    path: '/git/{id}',
    operationId: 'repoDeleteGitHook',
    summary: 'Delete a Git hook in a repository',
    reply: EMPTY,
    errors,
    handler: async ({ host, actor, repo, params }) => {
      await host.service(GitHooksService).delete(actor, repo, params.id);
    },
  });
}
