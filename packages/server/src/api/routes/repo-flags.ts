import { Type } from '@sinclair/typebox';
import { RepoFlagsService, ReplaceFlagsOptionSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** `/repos/{owner}/{repo}/flags…`: site administrators' repository flags (`[repository] ENABLE_FLAGS`). */
export function registerRepoFlagRoutes(_router: ApiRouter, { repoFlags }: Groups): void {
  const errors = ['unauthorized', 'forbidden', 'not_found'] as const;

  repoFlags.add({
    method: 'GET',
    path: '',
    operationId: 'repoListFlags',
    summary: "List a repository's flags",
    reply: { status: 200, description: 'StringSlice', schema: Type.Array(Type.String()) },
    errors,
    handler: async ({ host, actor, repo, responseHeaders }) => {
      const flags = await host.service(RepoFlagsService).list(actor, repo);
      // All of them at once, with their count, as Forgejo answers.
      responseHeaders['x-total-count'] = String(flags.length);
      return flags;
    },
  });

  repoFlags.add({
    method: 'PUT',
    path: '',
    operationId: 'repoReplaceAllFlags',
    summary: 'Replace all flags of a repository',
    body: ReplaceFlagsOptionSchema,
    reply: EMPTY,
    errors: [...errors, 'validation'],
    handler: async ({ host, actor, repo, body }) => {
      await host.service(RepoFlagsService).replace(actor, repo, body);
    },
  });

  repoFlags.add({
    method: 'DELETE',
    path: '',
    operationId: 'repoDeleteAllFlags',
    summary: 'Remove all flags from a repository',
    reply: EMPTY,
    errors,
    handler: async ({ host, actor, repo }) => {
      await host.service(RepoFlagsService).replace(actor, repo, { flags: [] });
    },
  });

  for (const [method, operationId, summary, act] of [
    ['GET', 'repoCheckFlag', 'Check if a repository has a given flag', 'check'],
    ['PUT', 'repoAddFlag', 'Add a flag to a repository', 'add'],
    ['DELETE', 'repoDeleteFlag', 'Remove a flag from a repository', 'remove'],
  ] as const) {
    repoFlags.add({
      method,
      path: '/{flag}',
      operationId,
      summary,
      reply: EMPTY,
      errors,
      handler: async ({ host, actor, repo, params }) => {
        await host.service(RepoFlagsService)[act](actor, repo, params.flag);
      },
    });
  }
}
