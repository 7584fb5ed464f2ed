import {
  RepoSearchQuerySchema,
  SearchResultsSchema,
  searchPage,
  isRepoHostError,
  toApiRepository,
  type ApiSearchError,
  type ApiView,
  type PendingTransferView,
  type RepoAccess,
  type Repository,
} from '@repohost/core';
import { jsonResponse, setPaginationHeaders, type ApiRouter } from '../router.js';

/**
 * Repositories as anonymous callers see them, serialized, by row object and ROOT_URL. Search answers from rows
 * that stay the same objects until the database changes (see repos/search-catalog.ts), and an anonymous view
 * depends on nothing but what the database held when they were read (the row, its owner, a pending transfer)
 * and the settings, so a repeated search serializes nothing again. Rows the catalog drops are dropped here too;
 * other viewers are serialized each time.
 */
const anonymousJson = new WeakMap<Repository, { rootUrl: string; json: string }>();

function repositoryJson(access: RepoAccess & { pendingTransfer?: PendingTransferView }, view: ApiView): string {
  if (view.viewer.kind !== 'anonymous') return JSON.stringify(toApiRepository(access, view));
  const rootUrl = view.settings.server.ROOT_URL;
  const cached = anonymousJson.get(access.repo);
  if (cached?.rootUrl === rootUrl) return cached.json;
  const json = JSON.stringify(toApiRepository(access, view));
  anonymousJson.set(access.repo, { rootUrl, json });
  return json;
}

/** `GET /repos/search`. */
export function registerRepoSearchRoutes(router: ApiRouter): void {
  router.add({
    method: 'GET',
    path: '/repos/search',
    operationId: 'repoSearch',
    summary: 'Search for repositories',
    tag: 'repository',
    scopes: ['repository'],
    query: RepoSearchQuerySchema,
    reply: { status: 200, description: 'SearchResults', schema: SearchResultsSchema },
    errors: ['validation'],
    handler: async ({ host, actor, query, event, view, responseHeaders }) => {
      let found;
      try {
        found = await host.repoSearch.search(actor, query);
      } catch (error) {
        if (isRepoHostError(error)) throw error;
        // Forgejo answers a search that failed inside with `{"ok": false, "error": …}`.
        console.error('[repohost] repository search failed:', error);
        const body: ApiSearchError = { ok: false, error: 'Internal Server Error' };
        return jsonResponse(500, JSON.stringify(body), responseHeaders);
      }
      const items = await host.repoTransfers.withPendingTransfers(found.items);
      setPaginationHeaders(responseHeaders, host.settings.server.ROOT_URL, event.url, searchPage(host.settings, query), found.total);
      // The body SearchResultsSchema describes, assembled from each repository's serialization.
      return jsonResponse(200, `{"ok":true,"data":[${items.map((r) => repositoryJson(r, view)).join(',')}]}`, responseHeaders);
    },
  });
}
