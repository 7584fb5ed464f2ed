/**
 * The PyPI registry, as Forgejo serves it under `/api/packages/{owner}/pypi…` (outside API v1), for twine and pip:
 * `POST /pypi` twine's upload form (`content` and the metadata fields; 201), `GET /pypi/simple/{name}` the PEP 503
 * page pip reads, `GET /pypi/files/{name}/{version}/{filename}` a file. Answers are plain text as Forgejo's package
 * routes write them; credentials are basic (password or token, as twine and pip send them) or a token header.
 */
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { H3, H3Event } from 'h3';
import { getRouterParam } from 'h3';
import { FastResponse } from 'srvx';
import { AccessMode, PackagesService, PypiPackagesService, isSiteAdmin, spoolPackageUpload, type Actor, type RepoHost, type User } from '@repohost/core';
import { readMultipartFile, type MultipartFile } from '../api/multipart.js';
import { decodeSegment, plainRegistryAnswer, plainText, servePackageFile } from './common.js';

/** The form fields Forgejo reads (twine sends them all, before the file). */
const FORM_FIELDS = [
  'name',
  'version',
  'sha256_digest',
  'author',
  'description',
  'long_description',
  'summary',
  'project_urls',
  'home_page',
  'license',
  'requires_python',
] as const;

/** Registers the PyPI registry's routes on the application (one line in `app.ts`). */
export function registerPypiPackages(app: H3, host: RepoHost): void {
  const pypi = () => host.service(PypiPackagesService);
  const upload = (event: H3Event) =>
    plainRegistryAnswer(host, event, 'pypi', async ({ actor, owner }) => {
      // `reqPackageAccess(write)` before a byte of the body is read.
      await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
      const values: Record<string, string> = {};
      const file = await readMultipartFile(event.req.body as AsyncIterable<Uint8Array> | null, event.req.headers.get('content-type'), 'content', {
        names: FORM_FIELDS,
        values,
      });
      await uploadForm(host, actor, owner, file, values);
      return plainText(201, '');
    }, true);
  // Forgejo's router strips a trailing slash: `/pypi` and `/pypi/` are one route, as are `/simple/{name}[/]`.
  app.post('/api/packages/:owner/pypi', upload);
  app.post('/api/packages/:owner/pypi/', upload);
  const simple = (event: H3Event) =>
    plainRegistryAnswer(host, event, 'pypi', async ({ actor, owner }) => {
      const page = await pypi().simpleIndex(actor, owner, decodeParam(event, 'name'));
      if (page === undefined) return plainText(404, '');
      return new FastResponse(page, {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'access-control-allow-origin': '*' },
      });
    });
  app.get('/api/packages/:owner/pypi/simple/:name', simple);
  app.get('/api/packages/:owner/pypi/simple/:name/', simple);
  app.get('/api/packages/:owner/pypi/files/:name/:version/:filename', (event) =>
    plainRegistryAnswer(host, event, 'pypi', async ({ actor, owner }) => {
      const download = await pypi().download(
        actor,
        owner,
        decodeParam(event, 'name'),
        decodeParam(event, 'version'),
        decodeParam(event, 'filename'),
        event.req.headers.get('range'),
      );
      return servePackageFile(event, download);
    }),
  );
}

/**
 * Stores the form's file. twine sends the name and version before the file: its bytes then stream straight to the
 * package store. A form with the file first (Forgejo reads the whole form before it looks at a field) has its file
 * spooled to a temporary file, bounded by `LIMIT_SIZE_PYPI`, until the form's end gives the name and version.
 */
async function uploadForm(host: RepoHost, actor: Actor, owner: User, file: MultipartFile, values: Record<string, string>): Promise<void> {
  const pypi = host.service(PypiPackagesService);
  if (values.name !== undefined && values.version !== undefined) {
    await pypi.upload(actor, owner, { fields: values, filename: file.filename, content: file.stream });
    return;
  }
  const limit = isSiteAdmin(actor) ? -1 : host.settings.packages.LIMIT_SIZE_PYPI;
  const spooled = await spoolPackageUpload(host.settings, file.stream, limit, 'pypi');
  const content = createReadStream(spooled);
  try {
    await pypi.upload(actor, owner, { fields: values, filename: file.filename, content });
  } finally {
    // A refusal before the bytes are read (a bad name, a file that exists) leaves the stream's descriptor open.
    content.destroy();
    await unlink(spooled).catch(() => {});
  }
}

function decodeParam(event: H3Event, name: string): string {
  return decodeSegment(getRouterParam(event, name) ?? '');
}
