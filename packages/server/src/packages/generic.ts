/**
 * The generic package registry, as Forgejo serves it under `/api/packages/{owner}/generic/…` (outside API v1):
 * `PUT …/{name}/{version}/{filename}` uploads a file (201), `GET` of it downloads it, `DELETE` of it removes it
 * (the version with its last file), `DELETE …/{name}/{version}` removes the version (204). Answers are plain text
 * as Forgejo's package routes write them; credentials are basic (password or token) or a token header.
 */
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
  UnauthorizedError,
  type Actor,
  type PackageDownload,
  type RepoHost,
  type User,
} from '@repohost/core';
import { authenticate } from '../auth.js';
import { requestCredentials } from '../api/router.js';
import { pathEscape, rangedFileAnswer, redirectAnswer, storageFailureAnswer } from '../serve-file.js';

const PREFIX = '/api/packages/:owner/generic/:name/:version';

/** Registers the generic registry's routes on the application (one line in `app.ts`). */
export function registerGenericPackages(app: H3, host: RepoHost): void {
  const service = () => host.service(PackagesService);
  const params = (event: H3Event) => ({
    name: decodeParam(event, 'name'),
    version: decodeParam(event, 'version'),
    filename: decodeParam(event, 'filename'),
  });

  app.put(`${PREFIX}/:filename`, (event) =>
    answer(host, event, async ({ actor, owner }) => {
      const { name, version, filename } = params(event);
      // Refused before a byte of the body is read: no write access (401), a bad name (400).
      await service().assertAccess(actor, owner, AccessMode.Write);
      await service().uploadGeneric(actor, owner, name, version, filename, bodyOf(event));
      return plain(201, '');
    }),
  );
  app.get(`${PREFIX}/:filename`, (event) =>
    answer(host, event, async ({ actor, owner }) => {
      const { name, version, filename } = params(event);
      return serveFile(event, await service().download(actor, owner, { type: 'generic', name, version }, filename, event.req.headers.get('range')));
    }),
  );
  app.delete(`${PREFIX}/:filename`, (event) =>
    answer(host, event, async ({ actor, owner }) => {
      const { name, version, filename } = params(event);
      await service().deleteFile(actor, owner, { type: 'generic', name, version }, filename);
      return new FastResponse(null, { status: 204 });
    }),
  );
  app.delete(PREFIX, (event) =>
    answer(host, event, async ({ actor, owner }) => {
      const { name, version } = params(event);
      await service().deleteVersion(actor, owner, { type: 'generic', name, version });
      return new FastResponse(null, { status: 204 });
    }),
  );
}

function decodeParam(event: H3Event, name: string): string {
  const raw = getRouterParam(event, name) ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Authenticates, loads the owner, runs the handler, and answers errors as Forgejo's package routes do. */
async function answer(host: RepoHost, event: H3Event, handler: (loaded: { actor: Actor; owner: User }) => Promise<Response>): Promise<Response> {
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
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') console.error('[repohost] package registry error:', error);
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

/** The request's bytes; stopping early leaves the rest unread instead of cancelling the socket's stream. */
async function* bodyOf(event: H3Event): AsyncIterable<Uint8Array> {
  const body = event.req.body as AsyncIterable<Uint8Array> | null;
  if (!body) return;
  const chunks = body[Symbol.asyncIterator]();
  for (;;) {
    const next = await chunks.next();
    if (next.done) return;
    yield next.value;
  }
}

/**
 * Forgejo's `ServePackageFile` → `ServeContent`: `application/octet-stream`, an attachment disposition with the
 * file's name, `Last-Modified` of the file, ranges as Go's `http.ServeContent` answers them.
 */
async function serveFile(event: H3Event, { file, body, range, redirect }: PackageDownload): Promise<Response> {
  if (redirect) return redirectAnswer(redirect);
  const size = file.blob.size;
  const quoted = file.name.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'content-disposition': `attachment; filename="${Buffer.from(quoted, 'utf8').toString('latin1')}"; filename*=UTF-8''${pathEscape(file.name)}`,
    'access-control-expose-headers': 'Content-Disposition',
    'last-modified': new Date(file.created_unix * 1000).toUTCString(),
    'accept-ranges': 'bytes',
  };
  return rangedFileAnswer(event, { body, size, range }, headers);
}
