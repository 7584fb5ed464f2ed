import { Type } from '@sinclair/typebox';
import type { H3Event } from 'h3';
import {
  AttachmentSchema,
  CreateReleaseOptionSchema,
  EditAttachmentOptionsSchema,
  EditReleaseOptionSchema,
  NotFoundError,
  ReleaseListQuerySchema,
  ReleaseSchema,
  toApiAttachment,
  toApiRelease,
  type OpenReleaseAsset,
  type ReleaseDetails,
  type RepoAccess,
} from '@repohost/core';
import type { PathParams, RequestBase } from '../contract.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';
import { readOptionalMultipartFile } from '../multipart.js';
import { mapPage, type ApiRouter } from '../router.js';

/** `name` (replaces the file's own name) and `external_url` (a link instead of a file), read from the query. */
const AssetUploadQuery = Type.Object({
  name: Type.Optional(Type.String({ description: 'name of the attachment' })),
  external_url: Type.Optional(Type.String({ description: 'url to external asset (this parameter is incompatible with `attachment`)' })),
});

const UPLOAD_DOC = 'multipart/form-data with the file in field `attachment`, or the file as the body (application/octet-stream)';

/**
 * What an asset upload carries, as Forgejo's form helpers read it: `name` and `external_url` from the form (a
 * multipart form's fields before its file) or else the query; the file is the form's `attachment`, or (any other
 * body) the body itself, which then needs `name`. An empty non-form body carries no file.
 */
function assetUploadFrom(event: H3Event, query: { name?: string; external_url?: string }): OpenReleaseAsset {
  const headers = event.req.headers;
  const contentType = headers.get('content-type');
  const body = event.req.body as AsyncIterable<Uint8Array> | null;
  return async () => {
    if (contentType && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) {
      const fields = { names: ['name', 'external_url'], values: {} as Record<string, string> };
      const file = await readOptionalMultipartFile(body, contentType, 'attachment', fields);
      const fromForm = { name: fields.values.name || query.name, externalUrl: fields.values.external_url || query.external_url };
      return file ? { file: { name: file.filename, source: file.stream }, ...fromForm } : fromForm;
    }
    const length = headers.get('content-length');
    const empty = length === '0' || (length === null && !headers.has('transfer-encoding'));
    const file = !body || empty ? undefined : { name: '', source: uncancelled(body) };
    return { file, name: query.name, externalUrl: query.external_url };
  };
}

/**
 * The body's bytes; stopping early leaves the rest unread rather than cancelling the request's stream (on Node
 * that tears down the socket the answer is to use).
 */
async function* uncancelled(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  for (;;) {
    const next = await chunks.next();
    if (next.done) return;
    yield next.value;
  }
}

/** What a release's reader sees of the request: the repository, and the path's parameters naming the release. */
type ReleaseRequest<Path extends string> = RequestBase<PathParams<`/repos/{owner}/{repo}${Path}`>> & { repo: RepoAccess };

/**
 * `GET` of one release (the latest, by tag, by id), with its assets: alike but for the path, the words (operation
 * id, summary) and how the release is found (`find`, a 404 when there is none the caller may see).
 */
function addReleaseRead<const Path extends string>(
  repo: Groups['repo'],
  path: Path,
  [operationId, summary]: readonly [string, string],
  find: (request: ReleaseRequest<Path>) => Promise<ReleaseDetails>,
): void {
  repo.add({
    method: 'GET',
    path,
    operationId,
    summary,
    reply: { status: 200, description: 'Release', schema: ReleaseSchema },
    errors: ['not_found'],
    handler: async (ctx) => toApiRelease(await find(ctx), ctx.view),
  });
}

/** `/repos/{owner}/{repo}/releases…`: releases and their assets, as Forgejo has them. */
export function registerReleaseRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/releases',
    operationId: 'repoListReleases',
    summary: "List a repo's releases",
    query: ReleaseListQuerySchema,
    reply: { status: 200, description: 'ReleaseList', list: ReleaseSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, query, page, view }) => mapPage(await host.releases.list(actor, repo, query, page), (r) => toApiRelease(r, view)),
  });

  repo.add({
    method: 'POST',
    path: '/releases',
    operationId: 'repoCreateRelease',
    summary: 'Create a release',
    auth: 'token',
    body: CreateReleaseOptionSchema,
    reply: { status: 201, description: 'Release', schema: ReleaseSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body, view }) => toApiRelease(await host.releases.create(actor, repo, body), view),
  });

  addReleaseRead(
    repo,
    '/releases/latest',
    ['repoGetLatestRelease', 'Gets the most recent non-prerelease, non-draft release of a repository, sorted by created_at'],
    ({ host, actor, repo }) => host.releases.latest(actor, repo),
  );

  addReleaseRead(repo, '/releases/tags/{tag}', ['repoGetReleaseByTag', 'Get a release by tag name'], async ({ host, actor, repo, params }) =>
    host.releases.detailsOf(repo, await host.releases.resolveByTag(actor, repo, params.tag)),
  );

  repo.add({
    method: 'DELETE',
    path: '/releases/tags/{tag}',
    operationId: 'repoDeleteReleaseByTag',
    summary: 'Delete a release by tag name',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params }) => host.releases.deleteByTag(actor, repo, params.tag),
  });

  addReleaseRead(repo, '/releases/{id}', ['repoGetRelease', 'Get a release'], async ({ host, actor, repo, params }) =>
    host.releases.detailsOf(repo, await host.releases.resolve(actor, repo, params.id)),
  );

  repo.add({
    method: 'PATCH',
    path: '/releases/{id}',
    operationId: 'repoEditRelease',
    summary: 'Update a release',
    auth: 'token',
    body: EditReleaseOptionSchema,
    reply: { status: 200, description: 'Release', schema: ReleaseSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body, view }) => {
      // Forgejo checks the writer before it looks the release up.
      host.releases.assertWriter(actor, repo);
      const release = await host.releases.resolve(actor, repo, params.id);
      return toApiRelease(await host.releases.edit(actor, repo, release, body), view);
    },
  });

  repo.add({
    method: 'DELETE',
    path: '/releases/{id}',
    operationId: 'repoDeleteRelease',
    summary: 'Delete a release',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params }) => {
      host.releases.assertWriter(actor, repo);
      await host.releases.delete(actor, repo, await host.releases.resolve(actor, repo, params.id));
    },
  });

  // ---- assets ----

  repo.add({
    method: 'GET',
    path: '/releases/{id}/assets',
    operationId: 'repoListReleaseAttachments',
    summary: "List release's attachments",
    reply: { status: 200, description: 'AttachmentList', schema: Type.Array(AttachmentSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, view }) => {
      const release = await host.releases.resolve(actor, repo, params.id);
      return (await host.releaseAssets.list(actor, repo, release)).map((a) => toApiAttachment(a, view));
    },
  });

  repo.add({
    method: 'POST',
    path: '/releases/{id}/assets',
    operationId: 'repoCreateReleaseAttachment',
    summary: 'Create a release attachment',
    auth: 'token',
    query: AssetUploadQuery,
    reply: { status: 201, description: `Attachment (${UPLOAD_DOC})`, schema: AttachmentSchema },
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found', 'quota_exceeded', 'locked'],
    handler: async ({ host, actor, repo, params, query, event, view }) => {
      if (!host.settings.attachment.ENABLED) throw new NotFoundError('Attachment is not enabled');
      host.releases.assertWriter(actor, repo);
      const release = await host.releases.resolve(actor, repo, params.id);
      return toApiAttachment(await host.releaseAssets.upload(actor, repo, release, assetUploadFrom(event, query)), view);
    },
  });

  repo.add({
    method: 'GET',
    path: '/releases/{id}/assets/{attachment_id}',
    operationId: 'repoGetReleaseAttachment',
    summary: 'Get a release attachment',
    reply: { status: 200, description: 'Attachment', schema: AttachmentSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, view }) => {
      const release = await host.releases.resolve(actor, repo, params.id);
      return toApiAttachment(await host.releaseAssets.get(actor, repo, release, params.attachment_id), view);
    },
  });

  repo.add({
    method: 'PATCH',
    path: '/releases/{id}/assets/{attachment_id}',
    operationId: 'repoEditReleaseAttachment',
    summary: 'Edit a release attachment',
    auth: 'token',
    body: EditAttachmentOptionsSchema,
    reply: { status: 201, description: 'Attachment', schema: AttachmentSchema },
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found', 'locked'],
    handler: async ({ host, actor, repo, params, body, view }) => {
      host.releases.assertWriter(actor, repo);
      const release = await host.releases.resolve(actor, repo, params.id);
      return toApiAttachment(await host.releaseAssets.edit(actor, repo, release, params.attachment_id, body), view);
    },
  });

  repo.add({
    method: 'DELETE',
    path: '/releases/{id}/assets/{attachment_id}',
    operationId: 'repoDeleteReleaseAttachment',
    summary: 'Delete a release attachment',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'locked'],
    handler: async ({ host, actor, repo, params }) => {
      host.releases.assertWriter(actor, repo);
      const release = await host.releases.resolve(actor, repo, params.id);
      await host.releaseAssets.delete(actor, repo, release, params.attachment_id);
    },
  });
}
