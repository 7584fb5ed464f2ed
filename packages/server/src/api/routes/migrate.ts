import { MigrateRepoOptionsSchema, RepositorySchema, toApiRepository } from '@repohost/core';
import type { Groups } from '../groups.js';
import type { ApiRouter } from '../router.js';

/**
 * `POST /repos/migrate` (a repository from a git address or a Gitea/Forgejo instance, optionally a pull mirror),
 * `POST /repos/{owner}/{repo}/mirror-sync` (queue a pull mirror's sync) and `POST /repos/{owner}/{repo}/convert`
 * (a mirror becomes an ordinary repository).
 */
export function registerMigrateRoutes(router: ApiRouter, { repo }: Groups): void {
  router.add({
    method: 'POST',
    path: '/repos/migrate',
    operationId: 'repoMigrate',
    summary: 'Migrate a remote git repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: MigrateRepoOptionsSchema,
    reply: { status: 201, description: 'Repository', schema: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'conflict', 'quota_exceeded', 'validation', 'not_supported'],
    handler: async ({ host, actor, body, view }) => {
      // Forgejo answers when the migration is done; here at the latest shortly before the connection's idle
      // timeout would drop it, with the repository still being migrated then.
      const idleSeconds = host.settings.repohost.HTTP_IDLE_TIMEOUT;
      const maxWaitMs = idleSeconds > 0 ? Math.max(1, idleSeconds - 5) * 1000 : undefined;
      const migrated = await host.migrations.migrate(actor, body, { maxWaitMs });
      const [loaded] = await host.mirrors.withMirrors([migrated]);
      return toApiRepository(loaded!, view);
    },
  });

  repo.add({
    method: 'POST',
    path: '/mirror-sync',
    operationId: 'repoMirrorSync',
    summary: 'Sync a mirrored repository',
    auth: 'token',
    reply: { status: 200, description: 'APIEmpty is an empty response', produces: ['application/json'] },
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found', 'quota_exceeded'],
    handler: async ({ host, repo }) => {
      await host.mirrors.requestSync(repo);
      return new Response(null, { status: 200 });
    },
  });

  repo.add({
    method: 'POST',
    path: '/convert',
    operationId: 'repoConvert',
    summary: 'Convert a mirror repo to a normal repo.',
    auth: 'token',
    reply: { status: 200, description: 'Repository', schema: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, view }) => toApiRepository(await host.mirrors.convertToNormal(actor, repo), view),
  });
}
