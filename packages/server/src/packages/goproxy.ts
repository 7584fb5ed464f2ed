/**
 * The Go registry, as Forgejo serves it under `/api/packages/{owner}/go/…` (outside API v1): `PUT /go/upload` a
 * module zip (the raw body, as `curl --upload-file` sends it; 201), and the GOPROXY protocol the `go` command reads
 * with `GOPROXY={root}api/packages/{owner}/go`: `{module}/@v/list`, `{module}/@v/{version}.info`, `.mod`, `.zip`
 * and `{module}/@latest` (`latest` as a version reads the newest). Module paths and versions come case-encoded
 * (`!` and a lower-case letter for a capital) as the protocol writes them, and are decoded here (Forgejo matches
 * them as sent, so `go` cannot fetch a module with a capital from it); text that is not so encoded is taken as sent.
 * `sumdb/sum.golang.org/supported` is 404: the `go` command then asks the checksum database directly. Answers are
 * plain text as Forgejo's package routes write them; credentials are basic (password or token, as `go` sends
 * those of the GOPROXY URL or `.netrc`) or a token header.
 */
import type { H3, H3Event } from 'h3';
import { getRouterParam } from 'h3';
import { FastResponse } from 'srvx';
import {
  AccessMode,
  BadRequestError,
  ConflictError,
  GoPackagesService,
  NotFoundError,
  PackageAccessError,
  PackageQuotaError,
  PackagesService,
  UnauthorizedError,
  unescapeGoPath,
  type Actor,
  type PackageDownload,
  type RepoHost,
  type User,
} from '@repohost/core';
import { authenticate } from '../auth.js';
import { requestCredentials } from '../api/router.js';
import { pathEscape, rangedFileAnswer, redirectAnswer, storageFailureAnswer } from '../serve-file.js';

/** Registers the Go registry's routes on the application (one line in `app.ts`). */
export function registerGoPackages(app: H3, host: RepoHost): void {
  app.all('/api/packages/:owner/go/**', (event) => answer(host, event, (loaded) => route(host, event, loaded)));
}

interface Loaded {
  actor: Actor;
  owner: User;
  /** The path after `/go/`, percent-decoded. */
  rest: string;
}

async function route(host: RepoHost, event: H3Event, { actor, owner, rest }: Loaded): Promise<Response> {
  const go = host.service(GoPackagesService);
  const method = event.req.method;
  if (rest === 'upload') {
    if (method !== 'PUT') return plain(405, '');
    // `reqPackageAccess(write)` before a byte of the body is read.
    await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
    await go.upload(actor, owner, bodyOf(event));
    return plain(201, '');
  }
  if (method !== 'GET' && method !== 'HEAD') return plain(405, '');
  if (rest === 'sumdb/sum.golang.org/supported') return plain(404, '');
  if (rest.endsWith('/@latest')) return infoAnswer(await go.info(actor, owner, moduleName(rest.slice(0, -'/@latest'.length)), 'latest'));
  const at = rest.indexOf('/@v/');
  if (at < 0) return plain(404, '');
  const name = moduleName(rest.slice(0, at));
  const file = rest.slice(at + '/@v/'.length);
  if (file === 'list') {
    const list = await go.versionList(actor, owner, name);
    // Forgejo's `apiError(404, nil)`: no message.
    return list === undefined ? plain(404, '') : plain(200, list);
  }
  if (file.endsWith('.zip')) return serveFile(event, await go.download(actor, owner, name, version(file.slice(0, -4)), event.req.headers.get('range')));
  if (file.endsWith('.info')) return infoAnswer(await go.info(actor, owner, name, version(file.slice(0, -5))));
  if (file.endsWith('.mod')) return plain(200, await go.goMod(actor, owner, name, version(file.slice(0, -4))));
  return plain(404, '');
}

/** The protocol's case-encoding undone; a path that is not so encoded is taken as it is (as Forgejo takes it). */
function moduleName(escaped: string): string {
  return unescapeGoPath(escaped) ?? escaped;
}

function version(escaped: string): string {
  return unescapeGoPath(escaped) ?? escaped;
}

/** Forgejo's `ctx.JSON` of `{Version, Time}`. */
function infoAnswer(info: { Version: string; Time: string }): Response {
  const text = JSON.stringify(info);
  return new FastResponse(text, { status: 200, headers: { 'content-type': 'application/json;charset=utf-8', 'content-length': String(Buffer.byteLength(text)) } });
}

/** The request's bytes as they arrive; stopping early leaves the rest unread instead of cancelling the socket's stream. */
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

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Authenticates, loads the owner, checks read access, runs the route, and answers errors as Forgejo's Go routes do. */
async function answer(host: RepoHost, event: H3Event, handler: (loaded: Loaded) => Promise<Response>): Promise<Response> {
  const refused = await answerOf(host, event, handler);
  // An upload refused before its body was read leaves bytes on the connection that no request can follow.
  if (event.req.method === 'PUT' && refused.status >= 400) refused.headers.set('connection', 'close');
  return refused;
}

async function answerOf(host: RepoHost, event: H3Event, handler: (loaded: Loaded) => Promise<Response>): Promise<Response> {
  try {
    if (!host.service(PackagesService).enabled) return plain(404, 'Not Found', true);
    let actor: Actor;
    try {
      ({ actor } = await authenticate(host, requestCredentials(event), { allowReverseProxy: true }));
    } catch (error) {
      if (error instanceof UnauthorizedError) return plain(401, 'authGroup.Verify', true);
      throw error;
    }
    const owner = await host.users.findByName(decode(getRouterParam(event, 'owner') ?? ''));
    if (!owner) return plain(404, 'user does not exist');
    // `reqPackageAccess(read)` on the whole group, before anything else.
    if ((await host.service(PackagesService).accessMode(actor, owner)) < AccessMode.Read) throw new PackageAccessError();
    const marker = '/go/';
    const pathname = event.url.pathname;
    const start = pathname.indexOf(marker, '/api/packages/'.length);
    let rest = decode(pathname.slice(start + marker.length));
    // Forgejo's router strips a trailing slash.
    if (rest.endsWith('/')) rest = rest.slice(0, -1);
    return await handler({ actor, owner, rest });
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
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') console.error('[repohost] go registry error:', error);
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

/** Forgejo's `ServePackageFile`: the zip as an attachment, with its length, modification time and ranges. */
async function serveFile(event: H3Event, { file, body, range, redirect }: PackageDownload): Promise<Response> {
  if (redirect) return redirectAnswer(redirect);
  const quoted = file.name.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'content-disposition': `attachment; filename="${quoted}"; filename*=UTF-8''${pathEscape(file.name)}`,
    'access-control-expose-headers': 'Content-Disposition',
    'last-modified': new Date(file.created_unix * 1000).toUTCString(),
    'accept-ranges': 'bytes',
  };
  return rangedFileAnswer(event, { body, size: file.blob.size, range }, headers);
}
