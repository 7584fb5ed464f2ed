/**
 * The npm registry, as Forgejo serves it under `/api/packages/{owner}/npm/…` (outside API v1), for the npm, yarn and
 * pnpm clients: `GET /{name}` the package document, `PUT /{name}` publish (and `npm deprecate`),
 * `GET /{name}/-/{version}/{file}` and `/{name}/-/{file}` the tarball, `DELETE /{name}/-/{version}/{file}/-rev/{rev}`
 * one version, `DELETE /{name}/-rev/{rev}` the package (`PUT` there is unpublish's preview: nothing to do),
 * `/-/package/{name}/dist-tags[/{tag}]` the dist-tags, `/-/v1/search` search. A scoped name comes as
 * `@scope/name` or `@scope%2fname`. Errors are `{"error": "…"}` as Forgejo's npm routes write them; credentials
 * are what npm sends (`Authorization: Bearer <_authToken>`), basic, or a token header.
 */
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import {
  AccessMode,
  BadRequestError,
  ConflictError,
  NotFoundError,
  NpmPackagesService,
  PackageAccessError,
  PackageQuotaError,
  PackagesService,
  QUOTA_TYPE_SIZE,
  type Actor,
  type PackageDownload,
  type RepoHost,
  type User,
} from '@repohost/core';
import { DEFAULT_MAX_BODY_BYTES } from '../api/router.js';
import { rangedFileAnswer, redirectAnswer, storageFailureAnswer } from '../serve-file.js';
import { jsonAnswer, openRegistryRequest, packageAccessRefusal, registrySegments } from './common.js';

/** Room for a publish document's JSON besides its base64 tarball (the manifest, the readme). */
const METADATA_ROOM = 1024 * 1024;

/** A body past its bound: 403 with Forgejo's message when `LIMIT_SIZE_NPM` is what it passed, else 413. */
class BodyTooLarge extends Error {
  constructor(readonly byTypeLimit: boolean) {
    super('request body too large');
  }
}

/** Registers the npm registry's routes on the application (one line in `app.ts`). */
export function registerNpmPackages(app: H3, host: RepoHost): void {
  const handler = (event: H3Event) => answer(host, event, (loaded) => route(host, event, loaded));
  app.all('/api/packages/:owner/npm/**', handler);
}

interface Loaded {
  actor: Actor;
  owner: User;
  /** The path's segments after `/npm/`, decoded. */
  segments: string[];
}

/** `@scope/name` from one segment (`@scope%2fname`) or two; the name and how many segments it took. */
function nameAt(segments: readonly string[], index: number): { name: string; next: number } | undefined {
  const first = segments[index];
  if (first === undefined || first === '') return undefined;
  if (first.startsWith('@') && !first.includes('/') && segments[index + 1] !== undefined) return { name: `${first}/${segments[index + 1]}`, next: index + 2 };
  return { name: first, next: index + 1 };
}

async function route(host: RepoHost, event: H3Event, { actor, owner, segments }: Loaded): Promise<Response> {
  const npm = host.service(NpmPackagesService);
  const packages = host.service(PackagesService);
  const method = event.req.method;
  const write = method === 'PUT' || method === 'DELETE';
  // `reqPackageAccess(write)` before a byte of the body is read.
  if (write) await packages.assertAccess(actor, owner, AccessMode.Write);

  if (segments[0] === '-') {
    if (segments.length === 3 && segments[1] === 'v1' && segments[2] === 'search' && method === 'GET') {
      const query = event.url.searchParams;
      return jsonAnswer(200, await npm.search(actor, owner, query.get('text') ?? '', intParam(query.get('from')), intParam(query.get('size'))));
    }
    if (segments[1] === 'package') {
      const named = nameAt(segments, 2);
      if (named && segments[named.next] === 'dist-tags') {
        const tag = segments[named.next + 1];
        if (segments.length === named.next + 1 && method === 'GET') return jsonAnswer(200, await npm.distTags(actor, owner, named.name));
        if (tag !== undefined && segments.length === named.next + 2) {
          if (method === 'PUT') {
            const body = (await readBounded(event, 64 * 1024, false)).toString('utf8');
            await npm.addTag(actor, owner, named.name, tag, trimQuotes(body.trim()));
            return empty(200);
          }
          if (method === 'DELETE') {
            await npm.deleteTag(actor, owner, named.name, tag);
            return empty(200);
          }
        }
      }
    }
    return notFound();
  }

  const named = nameAt(segments, 0);
  if (!named) return notFound();
  const tail = segments.slice(named.next);
  const name = named.name;
  if (tail.length === 0) {
    if (method === 'GET' || method === 'HEAD') return jsonAnswer(200, await npm.packument(actor, owner, name));
    if (method === 'PUT') {
      const bound = publishBound(host);
      const document = parseJson(await readBounded(event, bound.bytes, bound.byTypeLimit));
      const outcome = await npm.publish(actor, owner, document);
      return empty(outcome === 'published' ? 201 : 200);
    }
  } else if (tail[0] === '-') {
    if (tail.length === 3 && (method === 'GET' || method === 'HEAD')) return serveFile(event, await npm.download(actor, owner, name, tail[1]!, tail[2]!));
    if (tail.length === 2 && (method === 'GET' || method === 'HEAD')) return serveFile(event, await npm.downloadByName(actor, owner, name, tail[1]!));
    if (tail.length === 5 && tail[3] === '-rev' && method === 'DELETE') {
      await npm.deleteVersion(actor, owner, name, tail[1]!);
      return empty(200);
    }
  } else if (tail[0] === '-rev' && tail.length === 2) {
    if (method === 'DELETE') {
      await npm.deletePackage(actor, owner, name);
      return empty(200);
    }
    // Unpublish's preview: the client says which versions it keeps; the versions' DELETEs follow.
    if (method === 'PUT') return empty(200);
  }
  return notFound();
}

/** Base64 takes 4 bytes per 3: the tarball `LIMIT_SIZE_NPM` allows, plus its document; never past the body limit. */
function publishBound(host: RepoHost): { bytes: number; byTypeLimit: boolean } {
  const limit = host.settings.packages.LIMIT_SIZE_NPM;
  const byType = limit < 0 ? Infinity : Math.ceil(limit / 3) * 4 + METADATA_ROOM;
  return byType < DEFAULT_MAX_BODY_BYTES ? { bytes: byType, byTypeLimit: true } : { bytes: DEFAULT_MAX_BODY_BYTES, byTypeLimit: false };
}

function intParam(value: string | null): number {
  const n = value === null ? NaN : Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : 0;
}

function trimQuotes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x22) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x22) end--;
  return text.slice(start, end);
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BadRequestError('invalid JSON body');
  }
}

/**
 * The request body, at most `limit` bytes: a declared length past it is refused before reading, and reading stops
 * at the first chunk past it (the connection is closed rather than drained).
 */
async function readBounded(event: H3Event, limit: number, byTypeLimit: boolean): Promise<Buffer> {
  const declared = event.req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw new BodyTooLarge(byTypeLimit);
  const body = event.req.body as AsyncIterable<Uint8Array> | null;
  if (!body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = body[Symbol.asyncIterator]();
  for (;;) {
    const next = await reader.next();
    if (next.done) break;
    size += next.value.byteLength;
    if (size > limit) throw new BodyTooLarge(byTypeLimit);
    chunks.push(Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength));
  }
  return Buffer.concat(chunks, size);
}

/** Authenticates, loads the owner, checks read access, runs the route, and answers errors as Forgejo's npm routes do. */
async function answer(host: RepoHost, event: H3Event, handler: (loaded: Loaded) => Promise<Response>): Promise<Response> {
  try {
    const opened = await openRegistryRequest(host, event, plain);
    if (opened instanceof Response) return opened;
    return await handler({ ...opened, segments: registrySegments(event, 'npm') });
  } catch (error) {
    if (error instanceof PackageAccessError) {
      return packageAccessRefusal(plain);
    }
    if (error instanceof BodyTooLarge) {
      const refused = error.byTypeLimit ? jsonAnswer(403, { error: QUOTA_TYPE_SIZE }) : jsonAnswer(413, { error: error.message });
      // The rest of the body stays unread: the connection cannot carry another request.
      refused.headers.set('connection', 'close');
      return refused;
    }
    if (error instanceof PackageQuotaError) return jsonAnswer(403, { error: error.message });
    if (error instanceof BadRequestError) return jsonAnswer(400, { error: error.message });
    if (error instanceof ConflictError) return jsonAnswer(409, { error: error.message });
    if (error instanceof NotFoundError) return jsonAnswer(404, { error: error.message || 'Not Found' });
    const failed = storageFailureAnswer(error, (status, message) => jsonAnswer(status, { error: message }));
    if (failed) return failed;
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') console.error('[repohost] npm registry error:', error);
    return jsonAnswer(500, { error: '' });
  }
}

function notFound(): Response {
  return jsonAnswer(404, { error: 'Not Found' });
}

function empty(status: number): Response {
  return new FastResponse(null, { status });
}

/** Go's `http.Error`, as `ctx.Error` writes the group's refusals. */
function plain(status: number, message: string): Response {
  return new FastResponse(`${message}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  });
}

/** Forgejo's `ServePackageFile`: the tarball as an attachment, with its length and modification time (no ranges). */
async function serveFile(event: H3Event, { file, body, redirect }: PackageDownload): Promise<Response> {
  if (redirect) return redirectAnswer(redirect);
  if (!body) throw new NotFoundError();
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'content-disposition': `attachment; filename="${file.name.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
    'last-modified': new Date(file.created_unix * 1000).toUTCString(),
    'x-content-type-options': 'nosniff',
  };
  return rangedFileAnswer(event, { body, size: file.blob.size, range: undefined }, headers);
}
