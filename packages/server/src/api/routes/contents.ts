import { Type, type TSchema } from '@sinclair/typebox';
import {
  ChangeFilesOptionsSchema,
  ContentsOrListSchema,
  ContentsQuerySchema,
  ContentsResponseSchema,
  CreateFileOptionsSchema,
  DeleteFileOptionsSchema,
  FileDeleteResponseSchema,
  FileResponseSchema,
  FilesResponseSchema,
  UpdateFileOptionsSchema,
  type CreateFileOptions,
  type UpdateFileOptions,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** Base64 of the files of one change: a bound on what a single request may make the server hold. */
const MAX_CONTENTS_BODY_BYTES = 64 * 1024 * 1024;

/** `/repos/{owner}/{repo}/contents…`: reading a tree's entries and committing file changes. */
export function registerContentsRoutes(_router: ApiRouter, { repo, refWriter }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/contents',
    operationId: 'repoGetContentsList',
    summary: 'Gets the metadata of all the entries of the root dir',
    query: ContentsQuerySchema,
    reply: { status: 200, description: 'ContentsListResponse', schema: Type.Array(ContentsResponseSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, query }) => {
      const listed = await host.contents.get(actor, repo, '', query.ref);
      return Array.isArray(listed) ? listed : [listed];
    },
  });

  repo.add({
    method: 'POST',
    path: '/contents',
    operationId: 'repoChangeFiles',
    summary: 'Modify multiple files in a repository',
    auth: 'token',
    body: ChangeFilesOptionsSchema,
    maxBodyBytes: MAX_CONTENTS_BODY_BYTES,
    reply: { status: 201, description: 'FilesResponse', schema: FilesResponseSchema },
    errors: ['forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body }) => host.contents.change(actor, repo, body),
  });

  repo.add({
    method: 'GET',
    path: '/contents/{filepath}',
    operationId: 'repoGetContents',
    summary: 'Gets the metadata and contents (if a file) of an entry in a repository, or a list of entries if a dir',
    query: ContentsQuerySchema,
    reply: { status: 200, description: 'ContentsResponse', schema: ContentsOrListSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, query }) => host.contents.get(actor, repo, params.filepath, query.ref),
  });

  // Creating and updating a file differ in their words, their body and their status.
  for (const write of [
    { method: 'POST', operationId: 'repoCreateFile', summary: 'Create a file in a repository', body: CreateFileOptionsSchema, status: 201 },
    { method: 'PUT', operationId: 'repoUpdateFile', summary: 'Update a file in a repository', body: UpdateFileOptionsSchema, status: 200 },
  ] as const) {
    repo.add({
      method: write.method,
      path: '/contents/{filepath}',
      operationId: write.operationId,
      summary: write.summary,
      auth: 'token',
      body: write.body as TSchema,
      maxBodyBytes: MAX_CONTENTS_BODY_BYTES,
      reply: { status: write.status, description: 'FileResponse', schema: FileResponseSchema },
      errors: ['forbidden', 'not_found', 'conflict', 'validation', 'locked'],
      handler: async ({ host, actor, repo, params, body }) =>
        write.method === 'POST'
          ? host.contents.createFile(actor, repo, params.filepath, body as CreateFileOptions)
          : host.contents.updateFile(actor, repo, params.filepath, body as UpdateFileOptions),
    });
  }

  repo.add({
    method: 'DELETE',
    path: '/contents/{filepath}',
    operationId: 'repoDeleteFile',
    summary: 'Delete a file in a repository',
    auth: 'token',
    body: DeleteFileOptionsSchema,
    reply: { status: 200, description: 'FileDeleteResponse', schema: FileDeleteResponseSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body }) => host.contents.deleteFile(actor, repo, params.filepath, body),
  });

  // Forgejo binds ApplyDiffPatchFileOptions (its sha required, unused) and documents UpdateFileOptions; `content` is
  // the diff itself, not base64. Forgejo answers 201, whatever its documentation says.
  refWriter.add({
    method: 'POST',
    path: '/diffpatch',
    operationId: 'repoApplyDiffPatch',
    summary: 'Apply diff patch to repository',
    body: UpdateFileOptionsSchema,
    reply: { status: 201, description: 'FileResponse', schema: FileResponseSchema },
    errors: ['forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body }) => host.contents.applyDiffPatch(actor, repo, body),
  });
}
