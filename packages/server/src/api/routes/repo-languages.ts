import { Type } from '@sinclair/typebox';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** Forgejo's LanguageStatistics: bytes by language name. */
const LanguageStatisticsSchema = Type.Record(Type.String(), Type.Integer({ format: 'int64' }), { description: 'LanguageStatistics' });

/** `GET /repos/{owner}/{repo}/languages`. */
export function registerRepoLanguageRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/languages',
    operationId: 'repoGetLanguages',
    summary: 'Get languages and number of bytes of code written',
    reply: { status: 200, description: 'LanguageStatistics', schema: LanguageStatisticsSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo }) => host.repoLanguages.list(actor, repo),
  });
}
