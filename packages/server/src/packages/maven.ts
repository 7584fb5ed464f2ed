/**
 * The Maven registry, as Forgejo serves it under `/api/packages/{owner}/maven/…` (outside API v1), for Maven and
 * Gradle: `PUT` of a file at its Maven path (201; its checksums 200 when they match the stored file; the package's
 * `maven-metadata.xml` 200 and ignored), `GET`/`HEAD` of a file, of its checksums, and of the package's
 * `maven-metadata.xml` Forgejo builds from the versions. Errors are plain text as Forgejo's Maven routes write them;
 * credentials are basic (password or token, as `settings.xml` gives them) or a token header.
 */
import type { H3, H3Event } from 'h3';
import { getRouterParam } from 'h3';
import { FastResponse } from 'srvx';
import {
  AccessMode,
  BadRequestError,
  ConflictError,
  MavenPackagesService,
  NotFoundError,
  PackageAccessError,
  PackageQuotaError,
  PackagesService,
  UnauthorizedError,
  parseMavenPath,
  type Actor,
  type MavenAnswer,
  type RepoHost,
  type User,
} from '@repohost/core';
import { authenticate } from '../auth.js';
import { requestCredentials } from '../api/router.js';
import { pathEscape, rangedFileAnswer, redirectAnswer, storageFailureAnswer } from '../serve-file.js';

/** Registers the Maven registry's routes on the application (one line in `app.ts`). */
export function registerMavenPackages(app: H3, host: RepoHost): void {
  app.all('/api/packages/:owner/maven/**', (event) => answer(host, event, (loaded) => route(host, event, loaded)));
}

interface Loaded {
  actor: Actor;
  owner: User;
  /** The path's segments after `/maven/`, decoded. */
  segments: string[];
}

async function route(host: RepoHost, event: H3Event, { actor, owner, segments }: Loaded): Promise<Response> {
  const maven = host.service(MavenPackagesService);
  const method = event.req.method;
  if (method === 'PUT') {
    // `reqPackageAccess(write)` before the path is read or a byte of the body.
    await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
    const outcome = await maven.upload(actor, owner, parseMavenPath(segments), bodyOf(event));
    if (outcome === 'ignored') {
      // Forgejo answers without reading the body: the connection cannot carry another request unless it was empty.
      const ignored = empty(200);
      if (event.req.headers.get('content-length') !== '0') ignored.headers.set('connection', 'close');
      return ignored;
    }
    return empty(outcome === 'created' ? 201 : 200);
  }
  if (method === 'GET' || method === 'HEAD') {
    const path = parseMavenPath(segments);
    return serve(event, await maven.get(actor, owner, path, method === 'GET', event.req.headers.get('range')));
  }
  return plain(405, 'Method Not Allowed');
}

/** Forgejo's answers: the generated metadata as `text/xml`, checksums as plain text, files as `ServePackageFile` gives them. */
async function serve(event: H3Event, found: MavenAnswer): Promise<Response> {
  if (found.kind === 'checksum') {
    const answered = plain(200, found.text);
    if (found.lastModified !== undefined) answered.headers.set('last-modified', httpDate(found.lastModified));
    return answered;
  }
  if (found.kind === 'metadata') {
    return new FastResponse(event.req.method === 'HEAD' ? null : found.xml, {
      status: 200,
      headers: { 'content-type': 'text/xml', 'content-length': String(found.xml.length), 'last-modified': httpDate(found.lastModified) },
    });
  }
  const { file, body, range, redirect } = found.download;
  const headers: Record<string, string> = {
    'content-type': found.contentType,
    'last-modified': httpDate(file.created_unix),
    'x-content-type-options': 'nosniff',
  };
  if (event.req.method === 'HEAD') {
    headers['content-length'] = String(file.blob.size);
    return new FastResponse(null, { status: 200, headers });
  }
  if (redirect) return redirectAnswer(redirect);
  const quoted = file.name.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  headers['content-disposition'] = `attachment; filename="${Buffer.from(quoted, 'utf8').toString('latin1')}"; filename*=UTF-8''${pathEscape(file.name)}`;
  headers['access-control-expose-headers'] = 'Content-Disposition';
  headers['accept-ranges'] = 'bytes';
  return rangedFileAnswer(event, { body, size: file.blob.size, range }, headers);
}

function httpDate(unix: number): string {
  return new Date(unix * 1000).toUTCString();
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Authenticates, loads the owner, checks read access, runs the route, and answers errors as Forgejo's Maven routes do. */
async function answer(host: RepoHost, event: H3Event, handler: (loaded: Loaded) => Promise<Response>): Promise<Response> {
  try {
    if (!host.service(PackagesService).enabled) return plain(404, 'Not Found', true);
    let actor: Actor;
    try {
      ({ actor } = await authenticate(host, requestCredentials(event), { allowReverseProxy: true }));
    } catch (error) {
      if (error instanceof UnauthorizedError) return plain(401, 'authGroup.Verify', true);
      throw error;
    }
    const owner = await host.users.findByName(decodeSegment(getRouterParam(event, 'owner') ?? ''));
    if (!owner) return plain(404, 'user does not exist');
    // `reqPackageAccess(read)` on the whole group, before anything else.
    if ((await host.service(PackagesService).accessMode(actor, owner)) < AccessMode.Read) throw new PackageAccessError();
    const marker = '/maven/';
    const path = event.url.pathname;
    const start = path.indexOf(marker, path.indexOf('/api/packages/') + '/api/packages/'.length);
    const segments = path.slice(start + marker.length).split('/').map(decodeSegment);
    return await handler({ actor, owner, segments });
  } catch (error) {
    if (error instanceof PackageAccessError) {
      const refused = plain(401, 'reqPackageAccess', true);
      refused.headers.set('www-authenticate', 'Basic realm="Gitea Package API"');
      return refused;
    }
    if (error instanceof PackageQuotaError) {
      const refused = plain(403, error.message);
      // An upload stopped at a limit leaves the rest of its body unread.
      if (event.req.method === 'PUT') refused.headers.set('connection', 'close');
      return refused;
    }
    if (error instanceof BadRequestError) return plain(400, error.message);
    if (error instanceof ConflictError) return plain(409, error.message);
    if (error instanceof NotFoundError) return plain(404, error.message || 'Not Found');
    const failed = storageFailureAnswer(error, (status, message) => plain(status, message));
    if (failed) return failed;
    // A client that went away mid-upload gets no answer worth logging.
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') console.error('[repohost] maven registry error:', error);
    return plain(500, '');
  }
}

function empty(status: number): Response {
  return new FastResponse(null, { status });
}

/**
 * Forgejo's `ctx.PlainText` (`text/plain;charset=utf-8`, the message as it is) or, with `httpError`, Go's
 * `http.Error` (`text/plain; charset=utf-8`, the message and a newline).
 */
function plain(status: number, message: string, httpError = false): Response {
  const text = httpError ? `${message}\n` : message;
  return new FastResponse(text, {
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
