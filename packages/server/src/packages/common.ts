/**
 * What every package registry's routes do alike, as Forgejo's package router does it for each format: the registry
 * switched off, the credentials, the owner in the path and read access to its packages before anything else; file
 * downloads; and, for the formats that answer in plain text (generic, PyPI, Go, Maven), their refusals. Each format
 * file keeps what is its own: its paths, its answers, and the shape of its errors where Forgejo gives it one (npm's
 * `{"error"}`, Cargo's `{"errors"}`, the container registry's OCI errors).
 */
import type { H3Event } from 'h3';
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
import { jsonResponse, requestCredentials } from '../api/router.js';
import { pathEscape, rangedFileAnswer, redirectAnswer, storageFailureAnswer } from '../serve-file.js';

/** Who asks and whose packages, once the registry let the request in. */
export interface RegistryRequest {
  actor: Actor;
  owner: User;
}

/** A format's refusal in its own words (`httpError`: Go's `http.Error`, where Forgejo answers with it). */
export type Refuse = (status: number, message: string, httpError?: boolean) => Response;

/** A path segment decoded; a malformed escape stays as it came. */
export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The registry's checks in Forgejo's order: 404 when packages are off, 401 for credentials that do not sign in,
 * 404 for an unknown owner, then `reqPackageAccess(read)` (a `PackageAccessError`, which the format answers).
 */
export async function openRegistryRequest(host: RepoHost, event: H3Event, refuse: Refuse): Promise<RegistryRequest | Response> {
  if (!host.service(PackagesService).enabled) return refuse(404, 'Not Found', true);
  let actor: Actor;
  try {
    ({ actor } = await authenticate(host, requestCredentials(event), { allowReverseProxy: true }));
  } catch (error) {
    if (error instanceof UnauthorizedError) return refuse(401, 'authGroup.Verify', true);
    throw error;
  }
  const owner = await host.users.findByName(decodeSegment(getRouterParam(event, 'owner') ?? ''));
  if (!owner) return refuse(404, 'user does not exist');
  if ((await host.service(PackagesService).accessMode(actor, owner)) < AccessMode.Read) throw new PackageAccessError();
  return { actor, owner };
}

/** The path after `/api/packages/{owner}/{type}/`, undecoded ('' when there is none). */
export function registryPath(event: H3Event, type: string): string {
  const pathname = event.url.pathname;
  const marker = `/${type}/`;
  const start = pathname.indexOf(marker, pathname.indexOf('/api/packages/') + '/api/packages/'.length);
  return start < 0 ? '' : pathname.slice(start + marker.length);
}

/** The path after `/{type}/` in decoded segments, without the empty one a trailing slash leaves. */
export function registrySegments(event: H3Event, type: string): string[] {
  const segments = registryPath(event, type).split('/').map(decodeSegment);
  if (segments[segments.length - 1] === '') segments.pop();
  return segments;
}

/**
 * Forgejo's `ctx.PlainText` (`text/plain;charset=utf-8`, the message as it is) or, with `httpError`, Go's
 * `http.Error` (`text/plain; charset=utf-8`, the message and a newline).
 */
export function plainText(status: number, message: string, httpError = false): Response {
  const text = httpError ? `${message}\n` : message;
  return new FastResponse(status === 201 && text === '' ? null : text, {
    status,
    headers: {
      'content-type': httpError ? 'text/plain; charset=utf-8' : 'text/plain;charset=utf-8',
      'x-content-type-options': 'nosniff',
    },
  });
}

/** Forgejo's refusal without package access: 401 with the challenge clients answer with credentials. */
export function packageAccessRefusal(refuse: Refuse): Response {
  const refused = refuse(401, 'reqPackageAccess', true);
  refused.headers.set('www-authenticate', 'Basic realm="Gitea Package API"');
  return refused;
}

/**
 * A registry's answer to what a route threw, as Forgejo's `apiError` gives it, in the format's own words (`answer`);
 * anything else is logged (`label` names the registry) and a 500, except a client that went away mid-upload.
 */
export function registryRefusal(error: unknown, label: string, answer: (status: number, message: string) => Response): Response {
  if (error instanceof PackageAccessError) return packageAccessRefusal(plainText);
  if (error instanceof PackageQuotaError) return answer(403, error.message);
  if (error instanceof BadRequestError) return answer(400, error.message);
  if (error instanceof ConflictError) return answer(409, error.message);
  if (error instanceof NotFoundError) return answer(404, error.message);
  const failed = storageFailureAnswer(error, answer);
  if (failed) return failed;
  if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') console.error(`[repohost] ${label} registry error:`, error);
  return answer(500, '');
}

/** A plain-text registry's words for a refusal (a 404 without a message says Not Found). */
function plainAnswer(status: number, message: string): Response {
  return plainText(status, status === 404 ? message || 'Not Found' : message);
}

/**
 * A registry's request: the registry's checks, then `handler`, its errors answered by `registryRefusal` in the
 * format's words (`answer`). `upload`: a refusal closes the connection, since it may have left the body unread.
 */
export async function registryAnswer(
  host: RepoHost,
  event: H3Event,
  label: string,
  handler: (request: RegistryRequest) => Promise<Response>,
  { upload = false, answer }: { upload?: boolean; answer: (status: number, message: string) => Response },
): Promise<Response> {
  let answered: Response;
  try {
    const opened = await openRegistryRequest(host, event, plainText);
    answered = opened instanceof Response ? opened : await handler(opened);
  } catch (error) {
    answered = registryRefusal(error, label, answer);
  }
  if (upload && answered.status >= 400) answered.headers.set('connection', 'close');
  return answered;
}

/** A plain-text registry's request (`registryAnswer` in plain text). */
export function plainRegistryAnswer(
  host: RepoHost,
  event: H3Event,
  label: string,
  handler: (request: RegistryRequest) => Promise<Response>,
  upload = false,
): Promise<Response> {
  return registryAnswer(host, event, label, handler, { upload, answer: plainAnswer });
}

/** Forgejo's `ServePackageFile` → `ServeContent`: the file as an attachment, its modification time, ranges. */
export async function servePackageFile(event: H3Event, { file, body, range, redirect }: PackageDownload, contentType = 'application/octet-stream'): Promise<Response> {
  if (redirect) return redirectAnswer(redirect);
  const quoted = file.name.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  const headers: Record<string, string> = {
    'content-type': contentType,
    'x-content-type-options': 'nosniff',
    // A header value is Latin-1: the name's UTF-8 bytes as such (what Go writes), and the exact name escaped.
    'content-disposition': `attachment; filename="${Buffer.from(quoted, 'utf8').toString('latin1')}"; filename*=UTF-8''${pathEscape(file.name)}`,
    'access-control-expose-headers': 'Content-Disposition',
    'last-modified': new Date(file.created_unix * 1000).toUTCString(),
    'accept-ranges': 'bytes',
  };
  return rangedFileAnswer(event, { body, size: file.blob.size, range }, headers);
}

/** The request's bytes; stopping early leaves the rest unread instead of cancelling the socket's stream. */
export async function* requestBody(event: H3Event): AsyncIterable<Uint8Array> {
  const body = event.req.body as AsyncIterable<Uint8Array> | null;
  if (!body) return;
  const chunks = body[Symbol.asyncIterator]();
  for (;;) {
    const next = await chunks.next();
    if (next.done) return;
    yield next.value;
  }
}

/** A JSON answer of a registry's own API (npm, Cargo, Composer), encoded once with its length. */
export function jsonAnswer(status: number, value: unknown): Response {
  return jsonResponse(status, JSON.stringify(value), { 'content-type': 'application/json;charset=utf-8' });
}
