/**
 * The container registry (OCI distribution API), as Forgejo serves it at the root (`routers/api/packages/container`):
 * `GET /v2/` the support check (401 with the Bearer challenge unless signed in), `GET /v2/token` a bearer token for
 * the basic credentials or for anonymous reads, `GET /v2/_catalog`, and under `/v2/{owner}/{image}/`:
 * `blobs/uploads/` (POST: monolithic with `?digest=`, a cross-repository `?mount=&from=`, else a session),
 * `blobs/uploads/{uuid}` (GET, PATCH a chunk, PUT the end with `?digest=`, DELETE), `blobs/{digest}` (HEAD, GET,
 * DELETE), `manifests/{reference}` (HEAD, GET, PUT, DELETE) and `tags/list`. Errors are the OCI bodies
 * `{"errors":[{"code","message"}]}` with Forgejo's statuses.
 */
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import {
  ANONYMOUS,
  AccessMode,
  CONTAINER_MAX_MANIFEST_SIZE,
  ContainerError,
  ContainerPackagesService,
  NotFoundError,
  PackageAccessError,
  PackageQuotaError,
  PackagesService,
  UnauthorizedError,
  assertImageName,
  parseContentRangeStart,
  userActor,
  type Actor,
  type RepoHost,
  type User,
} from '@repohost/core';
import { authenticate } from '../auth.js';
import { requestCredentials } from '../api/router.js';
import { storageFailureAnswer } from '../serve-file.js';
import { decodeSegment } from './common.js';

const API_VERSION = { 'docker-distribution-api-version': 'registry/2.0' };

/** Registers the container registry's routes at `/v2` (one line in `app.ts`, before the catch-all). */
export function registerContainerPackages(app: H3, host: RepoHost): void {
  const handler = (event: H3Event) => answer(host, event);
  app.all('/v2', handler);
  app.all('/v2/**', handler);
}

/** Who asks: `signedIn` is Forgejo's `ctx.Doer != nil` (a user, or the ghost of an anonymous bearer token). */
interface Caller {
  actor: Actor;
  signedIn: boolean;
}

/** Nothing the caller may see is behind this: Forgejo's `apiUnauthorizedError`. */
class ChallengeError extends Error {}

/** A manifest body past Forgejo's `maxManifestSize`. */
class ManifestTooLarge extends Error {}

async function identify(host: RepoHost, event: H3Event): Promise<Caller> {
  const authorization = event.req.headers.get('authorization') ?? '';
  if (authorization.slice(0, 7).toLowerCase() === 'bearer ') {
    const uid = host.service(ContainerPackagesService).verifyToken(authorization.slice(7).trim());
    if (uid === -1) return { actor: ANONYMOUS, signedIn: true };
    if (uid !== undefined) {
      const user = await host.users.findById(uid);
      if (!user || user.is_active !== 1 || user.prohibit_login === 1) throw new ChallengeError();
      return { actor: userActor(user), signedIn: true };
    }
  }
  // Basic credentials or an access token, as on every other route.
  try {
    const { actor } = await authenticate(host, requestCredentials(event), { allowReverseProxy: true });
    return { actor, signedIn: actor.kind !== 'anonymous' };
  } catch (error) {
    if (error instanceof UnauthorizedError) throw new ChallengeError();
    throw error;
  }
}

async function answer(host: RepoHost, event: H3Event): Promise<Response> {
  try {
    if (!host.service(PackagesService).enabled) return plain(404, 'Not Found');
    const path = event.url.pathname;
    const rest = path === '/v2' ? '' : path.slice('/v2/'.length);
    const caller = await identify(host, event);
    const method = event.req.method;
    if (rest === 'token') {
      // Forgejo's `AuthenticateNotImplemented`: no OAuth2 grant, a 404, on which helm and oras fall back to GET at
      // once (a 5xx they retry for seconds first).
      if (method === 'POST') return empty(404);
      if (method !== 'GET') return plain(405, 'Method Not Allowed');
      if (!caller.signedIn && host.settings.service.REQUIRE_SIGNIN_VIEW) throw new ChallengeError();
      // `ctx.JSON`, not the registry's own JSON answer.
      return json(200, { token: host.service(ContainerPackagesService).createToken(caller.actor) }, { 'content-type': 'application/json;charset=utf-8' });
    }
    // `ReqContainerAccess`: everything else needs a doer, a real one or the anonymous token's ghost.
    if (!caller.signedIn) throw new ChallengeError();
    if (rest === '') return empty(200);
    if (rest === '_catalog') {
      if (method !== 'GET') return plain(405, 'Method Not Allowed');
      return catalog(host, event, caller.actor);
    }
    const slash = rest.indexOf('/');
    if (slash <= 0) return plain(404, 'Not Found');
    const owner = await host.users.findByName(decodeSegment(rest.slice(0, slash)));
    if (!owner) return plain(404, 'Not Found');
    // `reqPackageAccess(read)` on the owner's whole group.
    await host.service(PackagesService).assertAccess(caller.actor, owner, AccessMode.Read);
    return await route(host, event, caller.actor, owner, rest.slice(slash + 1));
  } catch (error) {
    return failure(host, error);
  }
}

/** Splits `{image}/{kind}/{tail}` at the last `/blobs/`, `/manifests/` or `/tags/list`: the image may have slashes. */
async function route(host: RepoHost, event: H3Event, actor: Actor, owner: User, rest: string): Promise<Response> {
  const container = host.service(ContainerPackagesService);
  const method = event.req.method;
  const query = event.url.searchParams;
  const base = `/v2/${owner.name.toLowerCase()}`;

  if (rest.endsWith('/tags/list')) {
    const image = rest.slice(0, -'/tags/list'.length);
    assertImageName(image);
    if (method !== 'GET') return plain(405, 'Method Not Allowed');
    const nParam = (query.get('n') ?? '').trim();
    const n = nParam === '' ? -1 : Number.parseInt(nParam, 10) || 0;
    const { tags } = await container.tags(actor, owner, image, n, (query.get('last') ?? '').trim());
    const headers: Record<string, string> = {};
    if (tags.length > 0) {
      const next = new URLSearchParams();
      if (n > 0) next.set('n', String(n));
      next.set('last', tags[tags.length - 1]!);
      headers.link = `<${base}/${image}/tags/list?${next.toString()}>; rel="next"`;
    }
    return json(200, { name: `${owner.name}/${image}`.toLowerCase(), tags }, headers);
  }

  const uploads = rest.lastIndexOf('/blobs/uploads');
  if (uploads > 0) {
    const image = rest.slice(0, uploads);
    const tail = rest.slice(uploads + '/blobs/uploads'.length);
    assertImageName(image);
    if (tail === '' || tail === '/') {
      if (method !== 'POST') return plain(405, 'Method Not Allowed');
      return postUpload(host, event, actor, owner, image, base);
    }
    const uuid = tail.slice(1);
    if (uuid.includes('/')) return plain(404, 'Not Found');
    const location = `${base}/${image}/blobs/uploads/${uuid}`;
    if (method === 'GET') {
      const state = await container.uploadStatus(actor, owner, image, uuid);
      return empty(204, { range: `0-${state.size}`, 'docker-upload-uuid': uuid });
    }
    if (method === 'PATCH') {
      const start = parseContentRangeStart(event.req.headers.get('content-range'));
      const state = await container.appendChunk(actor, owner, image, uuid, body(event), start);
      return empty(202, { location, range: `0-${state.size - 1}`, 'docker-upload-uuid': uuid });
    }
    if (method === 'PUT') {
      const digest = query.get('digest') ?? '';
      await container.finishUpload(actor, owner, image, uuid, digest, body(event));
      return empty(201, { location: `${base}/${image}/blobs/${digest}`, 'docker-content-digest': digest });
    }
    if (method === 'DELETE') {
      await container.cancelUpload(actor, owner, image, uuid);
      return empty(204);
    }
    return plain(405, 'Method Not Allowed');
  }

  const blobs = rest.lastIndexOf('/blobs/');
  if (blobs > 0) {
    const image = rest.slice(0, blobs);
    const digest = decodeSegment(rest.slice(blobs + '/blobs/'.length));
    assertImageName(image);
    if (method === 'DELETE') {
      await container.deleteBlob(actor, owner, image, digest);
      return empty(202);
    }
    if (method !== 'GET' && method !== 'HEAD') return plain(405, 'Method Not Allowed');
    const blob = await container.blob(actor, owner, image, digest);
    const headers: Record<string, string> = { 'docker-content-digest': digest, 'content-length': String(blob.size) };
    // Forgejo's GET names the media type the manifest gave the blob, when one did.
    if (method === 'GET' && blob.mediaType) headers['content-type'] = blob.mediaType;
    if (method === 'HEAD') return empty(200, headers);
    const stored = await container.open(blob.blob);
    return new FastResponse(stored.stream as unknown as ReadableStream, { status: 200, headers: withDigestTag({ ...API_VERSION, ...headers }) });
  }

  const manifests = rest.lastIndexOf('/manifests/');
  if (manifests > 0) {
    const image = rest.slice(0, manifests);
    const reference = decodeSegment(rest.slice(manifests + '/manifests/'.length));
    assertImageName(image);
    if (method === 'PUT') {
      const bytes = await readManifest(event);
      const digest = await container.putManifest(actor, owner, image, reference, event.req.headers.get('content-type') ?? '', bytes);
      return empty(201, { location: `${base}/${image}/manifests/${reference}`, 'docker-content-digest': digest });
    }
    if (method === 'DELETE') {
      await container.deleteManifest(actor, owner, image, reference);
      return empty(202);
    }
    if (method !== 'GET' && method !== 'HEAD') return plain(405, 'Method Not Allowed');
    const manifest = await container.manifest(actor, owner, image, reference);
    const headers = { 'docker-content-digest': manifest.digest, 'content-length': String(manifest.size), 'content-type': manifest.mediaType };
    if (method === 'HEAD') return empty(200, headers);
    const stored = await container.open(manifest.blob);
    return new FastResponse(stored.stream as unknown as ReadableStream, { status: 200, headers: withDigestTag({ ...API_VERSION, ...headers }) });
  }
  return plain(404, 'Not Found');
}

/** `POST …/blobs/uploads/`: a mount, a monolithic upload (`?digest=`), or a new session. */
async function postUpload(host: RepoHost, event: H3Event, actor: Actor, owner: User, image: string, base: string): Promise<Response> {
  const container = host.service(ContainerPackagesService);
  const query = event.url.searchParams;
  const mount = query.get('mount') ?? '';
  if (mount !== '' && (await container.mount(actor, owner, image, mount))) {
    return empty(201, { location: `${base}/${image}/blobs/${mount}`, 'docker-content-digest': mount });
  }
  const digest = query.get('digest') ?? '';
  if (digest !== '') {
    await container.storeBlob(actor, owner, image, digest, body(event));
    return empty(201, { location: `${base}/${image}/blobs/${digest}`, 'docker-content-digest': digest });
  }
  const state = await container.startUpload(actor, owner, image);
  return empty(202, { location: `${base}/${image}/blobs/uploads/${state.uuid}`, range: '0-0', 'docker-upload-uuid': state.uuid });
}

/** The request body as a stream of chunks (none: empty). */
function body(event: H3Event): AsyncIterable<Uint8Array> {
  const stream = event.req.body as AsyncIterable<Uint8Array> | null;
  return stream ?? (async function* () {})();
}

/** A manifest's bytes, at most Forgejo's `maxManifestSize`: reading stops at the first chunk past it. */
async function readManifest(event: H3Event): Promise<Buffer> {
  const declared = event.req.headers.get('content-length');
  if (declared !== null && Number(declared) > CONTAINER_MAX_MANIFEST_SIZE) throw new ManifestTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body(event)) {
    size += chunk.byteLength;
    if (size > CONTAINER_MAX_MANIFEST_SIZE) throw new ManifestTooLarge();
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, size);
}

/** `GET /v2/_catalog?n=&last=`: Forgejo's page of at most 100, with a `Link` to the next when it is full. */
async function catalog(host: RepoHost, event: H3Event, actor: Actor): Promise<Response> {
  const query = event.url.searchParams;
  let n = Number.parseInt(query.get('n') ?? '', 10);
  if (!(n > 0) || n > 100) n = 100;
  const { repositories } = await host.service(ContainerPackagesService).catalog(actor, n, (query.get('last') ?? '').trim());
  const headers: Record<string, string> = {};
  if (repositories.length === n) {
    const next = new URLSearchParams({ n: String(n), last: repositories[repositories.length - 1]! });
    headers.link = `</v2/_catalog?${next.toString()}>; rel="next"`;
  }
  return json(200, { repositories }, headers);
}

function failure(host: RepoHost, error: unknown): Response {
  if (error instanceof ChallengeError) return challenge(host);
  if (error instanceof ContainerError) return ociError(error.status, error.code, error.message);
  if (error instanceof ManifestTooLarge) return ociError(413, 'MANIFEST_INVALID', 'Manifest exceeds maximum size', { connection: 'close' });
  if (error instanceof PackageAccessError) {
    const refused = plain(401, 'reqPackageAccess');
    refused.headers.set('www-authenticate', 'Basic realm="Gitea Package API"');
    return refused;
  }
  // Forgejo's `apiError`: the status alone.
  if (error instanceof PackageQuotaError) return empty(403, { connection: 'close' });
  if (error instanceof NotFoundError) return plain(404, 'Not Found');
  const failed = storageFailureAnswer(error, (status) => empty(status));
  if (failed) return failed;
  if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') console.error('[repohost] container registry error:', error);
  return empty(500);
}

/** Forgejo's `apiUnauthorizedError`: the Bearer challenge naming the token endpoint, and UNAUTHORIZED. */
function challenge(host: RepoHost): Response {
  return ociError(401, 'UNAUTHORIZED', '', {
    'www-authenticate': `Bearer realm="${host.settings.server.ROOT_URL}v2/token",service="container_registry",scope="*"`,
  });
}

function ociError(status: number, code: string, message: string, extra: Record<string, string> = {}): Response {
  return json(status, { errors: [{ code, message }] }, extra);
}

/** Forgejo's `jsonResponse`: Go's JSON encoder, which ends the document with a newline. */
function json(status: number, value: unknown, extra: Record<string, string> = {}): Response {
  const text = `${JSON.stringify(value)}\n`;
  return new FastResponse(text, {
    status,
    headers: { ...API_VERSION, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...extra },
  });
}

/** Forgejo's `setResponseHeaders`: a digest goes with its ETag. */
function withDigestTag(headers: Record<string, string>): Record<string, string> {
  const digest = headers['docker-content-digest'];
  return digest ? { ...headers, etag: `"${digest}"` } : headers;
}

function empty(status: number, extra: Record<string, string> = {}): Response {
  return new FastResponse(null, { status, headers: withDigestTag({ ...API_VERSION, 'content-length': '0', ...extra }) });
}

/** Go's `http.Error`. */
function plain(status: number, message: string): Response {
  return new FastResponse(`${message}\n`, {
    status,
    headers: { ...API_VERSION, 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  });
}
