import { getRouterParams, type H3Event } from 'h3';
import {
  CreateWikiPageOptionsSchema,
  WikiCommitListSchema,
  WikiPageMetaDataSchema,
  WikiPageSchema,
  WikiRevisionsQuerySchema,
  WikiService,
} from '@repohost/core';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';
import type { ApiRouter } from '../router.js';

/**
 * `{pageName}` as the URL has it, still escaped: a page's name is unescaped by the wiki's own rules (Forgejo reads
 * it with PathParamRaw), where `%2F` is part of the name and `+` a space.
 */
function rawPageName(event: H3Event): string {
  return (getRouterParams(event) as Record<string, string | undefined>).pageName ?? '';
}

/**
 * Forgejo's wiki API (routers/api/v1/repo/wiki.go). Reads need the wiki unit readable, writes writable; the
 * checks are the wiki service's, in Forgejo's order (404, 423, 401, 403), so no group guard is involved.
 */
export function registerWikiRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'POST',
    path: '/wiki/new',
    operationId: 'repoCreateWikiPage',
    summary: 'Create a wiki page',
    body: CreateWikiPageOptionsSchema,
    reply: { status: 201, description: 'WikiPage', schema: WikiPageSchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'quota_exceeded', 'locked'],
    handler: ({ host, actor, repo, body }) => host.service(WikiService).create(actor, repo, body),
  });

  repo.add({
    method: 'GET',
    path: '/wiki/page/{pageName}',
    operationId: 'repoGetWikiPage',
    summary: 'Get a wiki page',
    reply: { status: 200, description: 'WikiPage', schema: WikiPageSchema },
    errors: ['not_found'],
    handler: ({ host, actor, repo, event }) => host.service(WikiService).get(actor, repo, rawPageName(event)),
  });

  repo.add({
    method: 'PATCH',
    path: '/wiki/page/{pageName}',
    operationId: 'repoEditWikiPage',
    summary: 'Edit a wiki page',
    body: CreateWikiPageOptionsSchema,
    reply: { status: 200, description: 'WikiPage', schema: WikiPageSchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'quota_exceeded', 'locked'],
    handler: ({ host, actor, repo, event, body }) => host.service(WikiService).edit(actor, repo, rawPageName(event), body),
  });

  repo.add({
    method: 'DELETE',
    path: '/wiki/page/{pageName}',
    operationId: 'repoDeleteWikiPage',
    summary: 'Delete a wiki page',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'locked'],
    handler: async ({ host, actor, repo, event }) => {
      await host.service(WikiService).delete(actor, repo, rawPageName(event));
    },
  });

  repo.add({
    method: 'GET',
    path: '/wiki/pages',
    operationId: 'repoGetWikiPages',
    summary: 'Get all wiki pages',
    reply: { status: 200, description: 'WikiPageList', list: WikiPageMetaDataSchema },
    errors: ['not_found'],
    handler: ({ host, actor, repo, page }) => host.service(WikiService).list(actor, repo, page),
  });

  repo.add({
    method: 'GET',
    path: '/wiki/revisions/{pageName}',
    operationId: 'repoGetWikiPageRevisions',
    summary: 'Get revisions of a wiki page',
    query: WikiRevisionsQuerySchema,
    reply: { status: 200, description: 'WikiCommitList', schema: WikiCommitListSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, event, query, responseHeaders }) => {
      const revisions = await host.service(WikiService).revisions(actor, repo, rawPageName(event), query.page);
      responseHeaders['x-total-count'] = String(revisions.count);
      responseHeaders['access-control-expose-headers'] = 'X-Total-Count';
      return revisions;
    },
  });
}
