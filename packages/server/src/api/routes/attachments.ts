import { Type } from '@sinclair/typebox';
import type { H3, H3Event } from 'h3';
import { getRouterParam } from 'h3';
import { FastResponse } from 'srvx';
import {
  AttachmentSchema,
  EditAttachmentOptionsSchema,
  toApiAttachment,
  type AttachmentDownload,
  type AttachmentRedirect,
  type OpenUpload,
  type RepoHost,
} from '@repohost/core';
import { authenticate } from '../../auth.js';
import type { Groups } from '../groups.js';
import { readMultipartFile } from '../multipart.js';
import { pathEscape, rangedFileAnswer, redirectAnswer } from '../../serve-file.js';
import { errorResponse, requestCredentials, type ApiRouter } from '../router.js';

/** `name` (replaces the file's own name) and `updated_at` (a migration's date; site administrators only). */
const UploadQuery = Type.Object({
  name: Type.Optional(Type.String({ description: 'name of the attachment' })),
  updated_at: Type.Optional(Type.String({ format: 'date-time', description: "time of the attachment's creation. This is a timestamp in RFC 3339 format" })),
});

/** Upload bodies are bounded by `[attachment] MAX_SIZE` while they stream, not by the router's JSON limit. */
const UPLOAD_DOC = 'multipart/form-data with the file in field `attachment`';

/**
 * The upload a request carries: the `attachment` file of its multipart form, streamed. An upload past the size
 * limit ends as the router ends a body too large (413, the connection closed after the answer).
 */
function uploadFrom(event: H3Event, name: string | undefined): OpenUpload {
  return async () => {
    const file = await readMultipartFile(event.req.body as AsyncIterable<Uint8Array> | null, event.req.headers.get('content-type'), 'attachment');
    return { name: name || file.filename, source: file.stream };
  };
}

/**
 * Attachments of issues (`/repos/{owner}/{repo}/issues/{index}/assets`) and of comments
 * (`/repos/{owner}/{repo}/issues/comments/{id}/assets`), as Forgejo has them.
 */
export function registerAttachmentRoutes(_router: ApiRouter, { issue, comment }: Groups): void {
  // ---- issue assets ----

  issue.add({
    method: 'GET',
    path: '/assets',
    operationId: 'issueListIssueAttachments',
    summary: "List issue's attachments",
    reply: { status: 200, description: 'AttachmentList', schema: Type.Array(AttachmentSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, issue, view }) => (await host.issueAttachments.listOfIssue(actor, repo, issue)).map((a) => toApiAttachment(a, view)),
  });

  issue.add({
    method: 'POST',
    path: '/assets',
    operationId: 'issueCreateIssueAttachment',
    summary: 'Create an issue attachment',
    auth: 'token',
    query: UploadQuery,
    reply: { status: 201, description: `Attachment (${UPLOAD_DOC})`, schema: AttachmentSchema },
    errors: ['bad_request', 'not_found', 'quota_exceeded', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, query, event, view }) =>
      toApiAttachment(await host.issueAttachments.uploadToIssue(actor, repo, issue, uploadFrom(event, query.name), { updatedAt: query.updated_at }), view),
  });

  issue.add({
    method: 'GET',
    path: '/assets/{attachment_id}',
    operationId: 'issueGetIssueAttachment',
    summary: 'Get an issue attachment',
    reply: { status: 200, description: 'Attachment', schema: AttachmentSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, issue, params, view }) => toApiAttachment(await host.issueAttachments.getOfIssue(actor, repo, issue, params.attachment_id), view),
  });

  issue.add({
    method: 'PATCH',
    path: '/assets/{attachment_id}',
    operationId: 'issueEditIssueAttachment',
    summary: 'Edit an issue attachment',
    auth: 'token',
    body: EditAttachmentOptionsSchema,
    reply: { status: 201, description: 'Attachment', schema: AttachmentSchema },
    errors: ['not_found', 'quota_exceeded', 'locked'],
    handler: async ({ host, actor, repo, issue, params, body, view }) =>
      toApiAttachment(await host.issueAttachments.editOfIssue(actor, repo, issue, params.attachment_id, body), view),
  });

  issue.add({
    method: 'DELETE',
    path: '/assets/{attachment_id}',
    operationId: 'issueDeleteIssueAttachment',
    summary: 'Delete an issue attachment',
    auth: 'token',
    reply: { status: 204, description: 'empty' },
    errors: ['not_found', 'locked'],
    handler: async ({ host, actor, repo, issue, params }) => host.issueAttachments.deleteOfIssue(actor, repo, issue, params.attachment_id),
  });

  // ---- comment assets ----

  comment.add({
    method: 'GET',
    path: '/assets',
    operationId: 'issueListIssueCommentAttachments',
    summary: "List comment's attachments",
    reply: { status: 200, description: 'AttachmentList', schema: Type.Array(AttachmentSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, comment, issue, view }) => (await host.commentAttachments.listOfComment(actor, repo, { comment, issue })).map((a) => toApiAttachment(a, view)),
  });

  comment.add({
    method: 'POST',
    path: '/assets',
    operationId: 'issueCreateIssueCommentAttachment',
    summary: 'Create a comment attachment',
    auth: 'token',
    query: UploadQuery,
    reply: { status: 201, description: `Attachment (${UPLOAD_DOC})`, schema: AttachmentSchema },
    errors: ['bad_request', 'not_found', 'quota_exceeded', 'validation', 'locked'],
    handler: async ({ host, actor, repo, comment, issue, query, event, view }) =>
      toApiAttachment(await host.commentAttachments.uploadToComment(actor, repo, { comment, issue }, uploadFrom(event, query.name), { updatedAt: query.updated_at }), view),
  });

  comment.add({
    method: 'GET',
    path: '/assets/{attachment_id}',
    operationId: 'issueGetIssueCommentAttachment',
    summary: 'Get a comment attachment',
    reply: { status: 200, description: 'Attachment', schema: AttachmentSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, comment, issue, params, view }) =>
      toApiAttachment(await host.commentAttachments.getOfComment(actor, repo, { comment, issue }, params.attachment_id), view),
  });

  comment.add({
    method: 'PATCH',
    path: '/assets/{attachment_id}',
    operationId: 'issueEditIssueCommentAttachment',
    summary: 'Edit a comment attachment',
    auth: 'token',
    body: EditAttachmentOptionsSchema,
    reply: { status: 201, description: 'Attachment', schema: AttachmentSchema },
    errors: ['not_found', 'quota_exceeded', 'locked'],
    handler: async ({ host, actor, repo, comment, issue, params, body, view }) =>
      toApiAttachment(await host.commentAttachments.editOfComment(actor, repo, { comment, issue }, params.attachment_id, body), view),
  });

  comment.add({
    method: 'DELETE',
    path: '/assets/{attachment_id}',
    operationId: 'issueDeleteIssueCommentAttachment',
    summary: 'Delete a comment attachment',
    auth: 'token',
    reply: { status: 204, description: 'empty' },
    errors: ['not_found', 'locked'],
    handler: async ({ host, actor, repo, comment, issue, params }) => host.commentAttachments.deleteOfComment(actor, repo, { comment, issue }, params.attachment_id),
  });
}

// ---- downloads ----

/** Forgejo's cache lifetime for served files (`private, max-age=300`). */
const CACHE_CONTROL = 'private, max-age=300';

async function downloadResponse(event: H3Event, download: AttachmentDownload | AttachmentRedirect): Promise<Response> {
  // `SERVE_DIRECT`: the object storage serves it (Forgejo's redirect to a presigned URL).
  if ('redirect' in download) return redirectAnswer(download.redirect);
  const { attachment, size, served, body, range, countDownload } = download;
  // A stored name may hold lone surrogates (JSON allows them); they go out as U+FFFD.
  const name = attachment.name.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  const etag = `"${attachment.uuid}"`;
  const headers: Record<string, string> = { etag, 'cache-control': CACHE_CONTROL, 'x-content-type-options': 'nosniff' };
  const wanted = event.req.headers.get('if-none-match');
  if (wanted && wanted.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    body.destroy();
    return new FastResponse(null, { status: 304, headers });
  }
  // Go sends the name's UTF-8 bytes as they are (newlines as spaces); Node takes header values as Latin-1, so the
  // bytes are handed over as Latin-1 characters, and controls Node refuses become spaces.
  const quoted = name.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, ' ');
  const escaped = Buffer.from(quoted, 'utf8').toString('latin1');
  headers['content-type'] = served.contentType;
  if (served.csp) headers['content-security-policy'] = served.csp;
  headers['content-disposition'] = `inline; filename="${escaped}"; filename*=UTF-8''${pathEscape(name)}`;
  headers['access-control-expose-headers'] = 'Content-Disposition';
  headers['last-modified'] = new Date(attachment.created_unix * 1000).toUTCString();
  headers['accept-ranges'] = 'bytes';
  // Only a response that carries the file counts as a download (not a HEAD, a 304 or a 416).
  return rangedFileAnswer(event, { body, size, range }, headers, countDownload);
}

/**
 * `GET /attachments/{uuid}`, the `browser_download_url` of every attachment: the file, to whoever may read what
 * holds it (tokens and basic authentication are accepted, as Forgejo accepts them for this path); 404 otherwise.
 */
export function registerAttachmentDownloads(app: H3, host: RepoHost): void {
  app.get('/attachments/:uuid', async (event) => {
    try {
      const { actor } = await authenticate(host, requestCredentials(event), { allowReverseProxy: true });
      return await downloadResponse(event, await host.attachments.download(actor, getRouterParam(event, 'uuid') ?? '', event.req.headers.get('range')));
    } catch (error) {
      return errorResponse(host, error);
    }
  });
}
