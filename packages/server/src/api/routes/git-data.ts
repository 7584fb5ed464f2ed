/**
 * Git data under `/repos/{owner}/{repo}`: `/git/blobs/{sha}`, `/git/trees/{sha}`, `/git/refs[/{ref}]`,
 * `/git/tags/{sha}`, `/raw/{filepath}`, `/media/{filepath}`, `/editorconfig/{filepath}`.
 */
import { Type } from '@sinclair/typebox';
import { FastResponse } from 'srvx';
import {
  AnnotatedTagSchema,
  EditorConfigDefinitionSchema,
  GitBlobResponseSchema,
  GitBlobsQuerySchema,
  GitTreeQuerySchema,
  GitTreeResponseSchema,
  LfsService,
  NoteOptionsSchema,
  NoteQuerySchema,
  NoteSchema,
  RefQuerySchema,
  ReferenceSchema,
  repoWebPath,
  toApiCommit,
  type ApiView,
  type CommitView,
  type RawFile,
  type RepoAccess,
} from '@repohost/core';
import { jsonResponse, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';
import { pathEscape } from '../../serve-file.js';

/** srvx sends a Node stream given as the body by piping it into the socket; its types only know web bodies. */
type ResponseBody = ConstructorParameters<typeof FastResponse>[0];

/** `Mon, 02 Jan 2006 15:04:05 GMT`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * A raw file as Forgejo serves it: sniffed type, `inline` disposition with the file's name, the blob id as ETag
 * and the last commit's time as Last-Modified (a matching If-None-Match or If-Modified-Since is a 304),
 * `X-Gitea-Object-Type`/`X-Forgejo-Object-Type`, and a length so that HEAD answers as GET does.
 */
function rawResponse(file: RawFile, headers: Record<string, string>, request: Request): Response {
  const ifNoneMatch = request.headers.get('if-none-match');
  const etag = `"${file.id}"`;
  headers.etag = etag;
  headers['x-gitea-object-type'] = file.objectType;
  headers['x-forgejo-object-type'] = file.objectType;
  // Forgejo's Last-Modified is the last commit that changed the file; If-Modified-Since at or after it is a 304.
  if (file.lastModified) headers['last-modified'] = file.lastModified.toUTCString();
  const ifModifiedSinceText = request.headers.get('if-modified-since') ?? '';
  // Only the HTTP date form counts, as Go's time.Parse(http.TimeFormat) reads it.
  const ifModifiedSince = HTTP_DATE.test(ifModifiedSinceText) ? Date.parse(ifModifiedSinceText) : NaN;
  const notModifiedSince = file.lastModified !== undefined && !Number.isNaN(ifModifiedSince) && Math.floor(file.lastModified.getTime() / 1000) <= Math.floor(ifModifiedSince / 1000);
  if ((ifNoneMatch !== null && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) || notModifiedSince) {
    if (!Buffer.isBuffer(file.body)) file.body.destroy();
    delete headers['content-type'];
    return new FastResponse(null, { status: 304, headers });
  }
  headers['content-type'] = file.served.contentType;
  if (file.served.csp) headers['content-security-policy'] = file.served.csp;
  headers['content-disposition'] = `inline; filename*=UTF-8''${pathEscape(file.fileName)}`;
  headers['access-control-expose-headers'] = 'Content-Disposition';
  headers['content-length'] = String(file.size);
  if (request.method === 'HEAD') {
    // Headers only: a streamed blob's git process is stopped rather than read.
    if (!Buffer.isBuffer(file.body)) file.body.destroy();
    return new FastResponse(null, { status: 200, headers });
  }
  const body = Buffer.isBuffer(file.body) ? new Uint8Array(file.body.buffer, file.body.byteOffset, file.body.byteLength) : (file.body as unknown as ResponseBody);
  return new FastResponse(body, { status: 200, headers });
}

/**
 * What the reads of one git object by its id share (`/git/blobs/{sha}`, `/git/trees/{sha}`, `/git/tags/{sha}`): the
 * path, and Forgejo's answers to an id that is not one (400) or names no such object (404).
 */
function gitObjectRead<const Kind extends 'blobs' | 'trees' | 'tags'>(kind: Kind) {
  return { method: 'GET', path: `/git/${kind}/{sha}`, errors: ['bad_request', 'not_found'] } as const;
}

export function registerGitDataRoutes(_router: ApiRouter, { repo, codeWriter }: Groups): void {
  repo.add({
    ...gitObjectRead('blobs'),
    operationId: 'GetBlob',
    summary: 'Gets the blob of a repository.',
    reply: { status: 200, description: 'GitBlob', schema: GitBlobResponseSchema },
    handler: async ({ host, actor, repo, params }) => host.gitData.blob(actor, repo, params.sha),
  });

  repo.add({
    method: 'GET',
    path: '/git/blobs',
    operationId: 'GetBlobs',
    summary: 'Gets multiple blobs of a repository.',
    query: GitBlobsQuerySchema,
    reply: { status: 200, description: 'GitBlobList', schema: Type.Array(GitBlobResponseSchema, { description: 'GitBlobList' }) },
    errors: ['bad_request'],
    handler: async ({ host, actor, repo, query }) => host.gitData.blobs(actor, repo, query),
  });

  repo.add({
    ...gitObjectRead('trees'),
    operationId: 'GetTree',
    summary: 'Gets the tree of a repository.',
    query: GitTreeQuerySchema,
    reply: { status: 200, description: 'GitTreeResponse', schema: GitTreeResponseSchema },
    handler: async ({ host, actor, repo, params, query }) => host.gitData.tree(actor, repo, params.sha, query),
  });

  // Forgejo documents the refs, all of them or filtered by `{ref}`, as one operation on two paths: these words are both's.
  const refList = {
    method: 'GET',
    summary: "Get specified ref or filtered repository's refs",
    reply: { status: 200, description: 'ReferenceList', schema: Type.Array(ReferenceSchema, { description: 'ReferenceList' }) },
    errors: ['not_found'],
  } as const;
  repo.add({
    ...refList,
    path: '/git/refs',
    operationId: 'repoListAllGitRefs',
    handler: async ({ host, actor, repo }) => (await host.gitData.refs(actor, repo)).refs,
  });

  repo.add({
    ...refList,
    path: '/git/refs/{ref}',
    operationId: 'repoListGitRefs',
    handler: async ({ host, actor, repo, params, responseHeaders }) => {
      const { refs, exact } = await host.gitData.refs(actor, repo, params.ref);
      if (!exact) return refs;
      // The one ref the filter names in full is answered alone, not in a list, as Forgejo does.
      return jsonResponse(200, JSON.stringify(exact), responseHeaders);
    },
  });

  repo.add({
    ...gitObjectRead('tags'),
    operationId: 'GetAnnotatedTag',
    summary: 'Gets the tag object of an annotated tag (not lightweight tags)',
    reply: { status: 200, description: 'AnnotatedTag', schema: AnnotatedTagSchema },
    handler: async ({ host, actor, repo, params }) => host.gitData.annotatedTag(actor, repo, params.sha),
  });

  // What the note routes share: the path, Forgejo's answers to a bad ref (422) and a missing object (404), the Note.
  const noteRoute = { path: '/git/notes/{sha}', errors: ['not_found', 'validation'] } as const;
  const noteReply = { status: 200, description: 'Note', schema: NoteSchema } as const;
  const toApiNote = (note: { message: string; commit: CommitView }, repo: RepoAccess, view: ApiView) => ({
    message: note.message,
    commit: toApiCommit(note.commit, repoWebPath(repo.owner, repo.repo), view),
  });

  repo.add({
    ...noteRoute,
    method: 'GET',
    operationId: 'repoGetNote',
    summary: 'Get a note corresponding to a single commit from a repository',
    query: NoteQuerySchema,
    reply: noteReply,
    handler: async ({ host, actor, repo, params, query, view }) => toApiNote(await host.gitData.note(actor, repo, params.sha, query), repo, view),
  });

  codeWriter.add({
    ...noteRoute,
    method: 'POST',
    operationId: 'repoSetNote',
    summary: 'Set a note corresponding to a single commit from a repository',
    body: NoteOptionsSchema,
    reply: noteReply,
    handler: async ({ host, actor, repo, params, body, view }) => toApiNote(await host.gitData.setNote(actor, repo, params.sha, body), repo, view),
  });

  codeWriter.add({
    ...noteRoute,
    method: 'DELETE',
    operationId: 'repoRemoveNote',
    summary: 'Removes a note corresponding to a single commit from a repository',
    reply: EMPTY,
    handler: async ({ host, actor, repo, params }) => host.gitData.removeNote(actor, repo, params.sha),
  });

  // `/media` is `/raw` but for an LFS pointer, whose object it serves instead when the LFS server is on and holds
  // the object for this repository (the oid is the ETag); otherwise the pointer blob itself, as Forgejo does.
  for (const [path, operationId, summary] of [
    ['/raw/{filepath}', 'repoGetRawFile', 'Get a file from a repository'],
    ['/media/{filepath}', 'repoGetRawFileOrLFS', "Get a file or it's LFS object from a repository"],
  ] as const) {
    repo.add({
      method: 'GET',
      path,
      operationId,
      summary,
      query: RefQuerySchema,
      reply: { status: 200, description: 'Returns raw file content.', produces: ['application/octet-stream'] },
      errors: ['not_found'],
      handler: async ({ host, actor, repo, params, query, event, responseHeaders }) => {
        const file = await host.gitData.raw(actor, repo, params.filepath, query.ref);
        return rawResponse(operationId === 'repoGetRawFileOrLFS' ? await host.service(LfsService).media(repo, file) : file, responseHeaders, event.req);
      },
    });
  }

  repo.add({
    method: 'GET',
    path: '/editorconfig/{filepath}',
    operationId: 'repoGetEditorConfig',
    summary: 'Get the EditorConfig definitions of a file in a repository',
    query: RefQuerySchema,
    reply: { status: 200, description: 'definitions', schema: EditorConfigDefinitionSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, query }) => host.gitData.editorConfig(actor, repo, params.filepath, query.ref),
  });
}
