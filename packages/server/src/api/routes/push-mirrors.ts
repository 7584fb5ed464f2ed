import { CreatePushMirrorOptionSchema, PushMirrorSchema, toApiPushMirror } from '@repohost/core';
import type { Groups } from '../groups.js';
import { mapPage, type ApiRouter } from '../router.js';

const EMPTY = 'APIEmpty is an empty response';

/**
 * `/repos/{owner}/{repo}/push_mirrors…` and `…/push_mirrors-sync`: a repository's push mirrors, for its
 * administrators (Forgejo checks the administrator before the token, so the anonymous get a 403 as well).
 */
export function registerPushMirrorRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/push_mirrors',
    operationId: 'repoListPushMirrors',
    summary: 'Get all push mirrors of the repository',
    reply: { status: 200, description: 'PushMirrorList', list: PushMirrorSchema },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, page }) => mapPage(await host.pushMirrors.list(actor, repo, page), (m) => toApiPushMirror(m, repo.repo)),
  });

  repo.add({
    method: 'POST',
    path: '/push_mirrors',
    operationId: 'repoAddPushMirror',
    summary: 'Set up a new push mirror in a repository',
    body: CreatePushMirrorOptionSchema,
    reply: { status: 200, description: 'PushMirror', schema: PushMirrorSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation', 'locked', 'not_supported'],
    handler: async ({ host, actor, repo, body }) => toApiPushMirror(await host.pushMirrors.add(actor, repo, body), repo.repo),
  });

  repo.add({
    method: 'GET',
    path: '/push_mirrors/{name}',
    operationId: 'repoGetPushMirrorByRemoteName',
    summary: 'Get push mirror of the repository by remoteName',
    reply: { status: 200, description: 'PushMirror', schema: PushMirrorSchema },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params }) => toApiPushMirror(await host.pushMirrors.get(actor, repo, params.name), repo.repo),
  });

  repo.add({
    method: 'DELETE',
    path: '/push_mirrors/{name}',
    operationId: 'repoDeletePushMirror',
    summary: 'Remove a push mirror from a repository by remoteName',
    reply: { status: 204, description: EMPTY },
    errors: ['bad_request', 'forbidden', 'not_found', 'locked'],
    handler: async ({ host, actor, repo, params }) => {
      await host.pushMirrors.delete(actor, repo, params.name);
    },
  });

  repo.add({
    method: 'POST',
    path: '/push_mirrors-sync',
    operationId: 'repoPushMirrorSync',
    summary: 'Sync all push mirrored repository',
    reply: { status: 200, description: EMPTY, produces: ['application/json'] },
    errors: ['bad_request', 'forbidden', 'not_found', 'locked', 'not_supported'],
    handler: async ({ host, actor, repo }) => {
      await host.pushMirrors.syncAll(actor, repo);
      return new Response(null, { status: 200 });
    },
  });
}
