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
import {
  AccessMode,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PackageAccessError,
  PackageQuotaError,
  PackagesService,
  PypiPackagesService,
  UnauthorizedError,
  isSiteAdmin,
  spoolPackageUpload,
  type Actor,
  type PackageDownload,
  type RepoHost,
  type User,
} from '@repohost/core';
import { authenticate } from '../auth.js';
import { requestCredentials } from '../api/router.js';
import { readMultipartFile, type MultipartFile } from '../api/multipart.js';
import { pathEscape, rangedFileAnswer, redirectAnswer, storageFailureAnswer } from '../serve-file.js';

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
    answer(host, event, async ({ actor, owner }) => {
      // `reqPackageAccess(write)` before a byte of the body is read.
      await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
      const values: Record<string, string> = {};
      const file = await readMultipartFile(event.req.body as AsyncIterable<Uint8Array> | null, event.req.headers.get('content-type'), 'content', {
        names: FORM_FIELDS,
        values,
      });
      await uploadForm(host, actor, owner, file, values);
      return plain(201, '');
    }, true);
  // Forgejo's router strips a trailing slash: `/pypi` and `/pypi/` are one route, as are `/simple/{name}[/]`.
  app.post('/api/packages/:owner/pypi', upload);
  app.post('/api/packages/:owner/pypi/', upload);
  const simple = (event: H3Event) =>
    answer(host, event, async ({ actor, owner }) => {
      const page = await pypi().simpleIndex(actor, owner, decodeParam(event, 'name'));
      if (page === undefined) return plain(404, '');
      return new FastResponse(page, {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'access-control-allow-origin': '*' },
      });
    });
  app.get('/api/packages/:owner/pypi/simple/:name', simple);
  app.get('/api/packages/:owner/pypi/simple/:name/', simple);
  app.get('/api/packages/:owner/pypi/files/:name/:version/:filename', (event) =>
    answer(host, event, async ({ actor, owner }) => {
      const download = await pypi().download(
        actor,
        owner,
        decodeParam(event, 'name'),
        decodeParam(event, 'version'),
        decodeParam(event, 'filename'),
        event.req.headers.get('range'),
      );
      return serveFile(event, download);
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
  const raw = getRouterParam(event, name) ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Authenticates, loads the owner, checks read access, runs the handler, and answers errors as Forgejo's PyPI routes do. */
async function answer(
  host: RepoHost,
  event: H3Event,
  handler: (loaded: { actor: Actor; owner: User }) => Promise<Response>,
  upload = false,
): Promise<Response> {
  const refused = await answerOf(host, event, handler);
  // A refused upload may have left its body unread (a bad name, a file that exists, a limit): the connection
  // cannot carry another request.
  if (upload && refused.status >= 400) refused.headers.set('connection', 'close');
  return refused;
}

async function answerOf(host: RepoHost, event: H3Event, handler: (loaded: { actor: Actor; owner: User }) => Promise<Response>): Promise<Response> {
  try {
    if (!host.service(PackagesService).enabled) return plain(404, 'Not Found', true);
    let actor: Actor;
    try {
      ({ actor } = await authenticate(host, requestCredentials(event), { allowReverseProxy: true }));
    } catch (error) {
      if (error instanceof UnauthorizedError) return plain(401, 'authGroup.Verify', true);
      throw error;
    }
    const owner = await host.users.findByName(decodeParam(event, 'owner'));
    if (!owner) return plain(404, 'user does not exist', false);
    // `reqPackageAccess(read)` on the whole group, before anything else.
    if ((await host.service(PackagesService).accessMode(actor, owner)) < AccessMode.Read) throw new PackageAccessError();
    return await handler({ actor, owner });
  } catch (error) {
    if (error instanceof PackageAccessError) {
      const refused = plain(401, 'reqPackageAccess', true);
      refused.headers.set('www-authenticate', 'Basic realm="Gitea Package API"');
      return refused;
    }
    if (error instanceof PackageQuotaError) return plain(403, error.message);
    if (error instanceof BadRequestError) return plain(400, error.message);
    if (error instanceof ConflictError) return plain(409, error.message);
    if (error instanceof NotFoundError) return plain(404, error.message);
    const failed = storageFailureAnswer(error, (status, message) => plain(status, message));
    if (failed) return failed;
    // A client that went away mid-upload gets no answer worth logging.
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') console.error('[repohost] pypi registry error:', error);
    return plain(500, '');
  }
}

/**
 * Forgejo's `ctx.PlainText` (`text/plain;charset=utf-8`, the message as it is) or, with `httpError`, Go's
 * `http.Error` (`text/plain; charset=utf-8`, the message and a newline).
 */
function plain(status: number, message: string, httpError = false): Response {
  const text = httpError ? `${message}\n` : message;
  return new FastResponse(status === 201 && text === '' ? null : text, {
    status,
    headers: {
      'content-type': httpError ? 'text/plain; charset=utf-8' : 'text/plain;charset=utf-8',
      'x-content-type-options': 'nosniff',
    },
  });
}

/** Forgejo's `ServePackageFile` → `ServeContent`: the file as an attachment, its modification time, ranges. */
async function serveFile(event: H3Event, { file, body, range, redirect }: PackageDownload): Promise<Response> {
  if (redirect) return redirectAnswer(redirect);
  const quoted = file.name.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'content-disposition': `attachment; filename="${Buffer.from(quoted, 'utf8').toString('latin1')}"; filename*=UTF-8''${pathEscape(file.name)}`,
    'access-control-expose-headers': 'Content-Disposition',
    'last-modified': new Date(file.created_unix * 1000).toUTCString(),
    'accept-ranges': 'bytes',
  };
  return rangedFileAnswer(event, { body, size: file.blob.size, range }, headers);
}
