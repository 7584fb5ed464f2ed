import type { Readable } from 'node:stream';
import { FastResponse } from 'srvx';
import { apiUrl, repoWebPath } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** srvx sends a Node stream given as the body by piping it into the socket; its types only know web bodies. */
type ResponseBody = ConstructorParameters<typeof FastResponse>[0];

/** `attachment` with the name both plainly (quoted, escaped) and percent-encoded, as Forgejo sends it. */
function contentDisposition(fileName: string): string {
  const quoted = fileName.replace(/[\\"]/g, (c) => `\\${c}`);
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${quoted}"; filename*=UTF-8''${encoded}`;
}

/**
 * Resolves once the stream has bytes to read or has ended; rejects if git failed before writing anything, so a
 * failure becomes an error status rather than a cut-off 200.
 */
function firstBytes(output: Readable, done: Promise<void>): Promise<void> {
  if (output.readableLength > 0 || output.readableEnded) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: unknown) => {
      output.off('readable', onReadable);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onReadable = () => settle();
    output.on('readable', onReadable);
    done.then(() => settle(), settle);
  });
}

/** `GET /repos/{owner}/{repo}/archive/{ref}.zip|.tar.gz|.bundle`: the archive, streamed from git. */
export function registerRepoArchiveRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/archive/{archive}',
    operationId: 'repoGetArchive',
    summary: 'Get an archive of a repository',
    reply: { status: 200, description: 'success', produces: ['application/octet-stream', 'application/zip', 'application/gzip'] },
    errors: ['bad_request', 'not_found'],
    handler: async ({ host, actor, repo, params, event, responseHeaders }) => {
      const archive = await host.repoArchives.open(actor, repo, params.archive, { signal: event.req.signal });
      try {
        await firstBytes(archive.output, archive.done);
      } catch (error) {
        archive.output.destroy();
        throw error;
      }
      const headers = { ...responseHeaders };
      delete headers['content-length'];
      headers['content-type'] = archive.contentType;
      headers['content-disposition'] = contentDisposition(archive.fileName);
      headers['access-control-expose-headers'] = 'Content-Disposition';
      // Names the archive by commit, so that tools pinning downloads (nix) can fetch the same bytes again.
      const byCommit = apiUrl(host.settings, `/repos/${repoWebPath(repo.owner, repo.repo)}/archive/${archive.commit}.${archive.format}`);
      headers.link = `<${byCommit}?rev=${archive.commit}>; rel="immutable"`;
      return new FastResponse(archive.output as unknown as ResponseBody, { status: 200, headers });
    },
  });
}
