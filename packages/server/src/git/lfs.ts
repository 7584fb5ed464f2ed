/**
 * Git LFS over HTTP beside git's smart HTTP, at the paths Forgejo serves it (`routers/web/web.go`):
 * `/{owner}/{repo}.git/info/lfs/objects/batch`, `PUT …/objects/{oid}/{size}`, `GET …/objects/{oid}[/{filename}]`,
 * `POST …/verify`, and the locks API under `…/locks`. Served only with `[server] LFS_START_SERVER`.
 *
 * Callers authenticate as for git over HTTP (a password, a token as either half of basic auth, `Authorization:
 * token|Bearer`), or with the bearer JWT `git-lfs-authenticate` gave them over SSH. Answers are
 * `application/vnd.git-lfs+json` with Forgejo's bodies (`{"message": …}`); a 401 carries `WWW-Authenticate: Basic
 * realm=gitea-lfs`, as Forgejo's does, so git-lfs asks for credentials.
 */
import type { Readable } from 'node:stream';
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import {
  LFS_MEDIA_TYPE,
  LfsLockExistsError,
  LfsService,
  NotFoundError,
  PayloadTooLargeError,
  QuotaExceededError,
  RangeNotSatisfiableError,
  UnauthorizedError,
  isRepoHostError,
  isValidLfsOid,
  scopesGrant,
  type Actor,
  type RepoAccess,
  type RepoHost,
} from '@repohost/core';
import { authenticate } from '../auth.js';
import { decodedRouterParams, missingScopeError, readBody, requestCredentials } from '../api/router.js';
import { errorStatus, HttpError } from '../api/errors.js';
import { requestBody } from '../packages/common.js';

/** srvx sends a Node stream given as the body by piping it; its types only know web bodies. */
type ResponseBody = ConstructorParameters<typeof FastResponse>[0];

const PREFIX = '/:owner/:repo/info/lfs';
/** A batch, verify or lock request body is JSON of this size at most. */
const MAX_JSON_BYTES = 10 * 1024 * 1024;
const TWO_FACTOR_PASSWORD_REFUSED =
  'Users with two-factor authentication enabled cannot perform HTTP/HTTPS operations via plain username and password. Please create and use a personal access token on the user settings page';

/** Who asks, and the repository they may do the operation on. */
interface Authorized {
  actor: Actor;
  access: RepoAccess;
  /** The request's Authorization header, repeated in the batch's links. */
  authorization: string | undefined;
}

export function registerLfs(app: H3, host: RepoHost): void {
  const lfs = host.service(LfsService);

  app.post(`${PREFIX}/objects/batch`, (event) =>
    answer(host, event, async () => {
      requireLfsAccept(event);
      const request = lfs.parseBatch(await readJson(event, 'Bad Request', 400));
      const { actor, access, authorization } = await authorize(host, event, request.operation === 'upload' ? 'write' : 'read');
      return lfsJson(200, await lfs.batch(actor, access, request, authorization));
    }),
  );

  app.put(`${PREFIX}/objects/:oid/:size`, (event) =>
    answer(host, event, async () => {
      const { oid, size } = decodedRouterParams(event) as { oid: string; size: string };
      const pointer = lfs.parseObjectPath(oid, size);
      const { actor, access } = await authorize(host, event, 'write');
      await lfs.upload(actor, access, pointer, uploadBody(event));
      return lfsJson(200, { message: 'OK' });
    }),
  );

  const download = (event: H3Event) =>
    answer(host, event, async () => {
      const { oid, filename } = decodedRouterParams(event) as { oid: string; filename?: string };
      if (!isValidLfsOid(oid)) throw new HttpError(422, 'Oid or size are invalid');
      const { access } = await authorize(host, event, 'read');
      const found = await lfs.download(access, oid, event.req.headers.get('range'));
      const headers: Record<string, string> = {
        'content-type': 'application/octet-stream',
        'content-length': String(found.end - found.start + 1),
        'accept-ranges': 'bytes',
      };
      if (found.partial) {
        headers['content-range'] = `bytes ${found.start}-${found.end}/${found.size}`;
        headers['access-control-expose-headers'] = 'Content-Range';
      }
      const name = filename ? decodedFilename(filename) : undefined;
      if (name !== undefined) {
        headers['content-disposition'] = `attachment; filename="${Buffer.from(name.replaceAll('"', '\\"'), 'utf8').toString('latin1')}"`;
        headers['access-control-expose-headers'] = headers['access-control-expose-headers'] ? `${headers['access-control-expose-headers']}, Content-Disposition` : 'Content-Disposition';
      }
      if (event.req.method === 'HEAD') {
        found.stream.destroy();
        return new FastResponse(null, { status: found.partial ? 206 : 200, headers });
      }
      return new FastResponse(found.stream as unknown as ResponseBody, { status: found.partial ? 206 : 200, headers });
    });
  app.get(`${PREFIX}/objects/:oid`, download);
  app.get(`${PREFIX}/objects/:oid/:filename`, download);

  app.post(`${PREFIX}/verify`, (event) =>
    answer(host, event, async () => {
      requireLfsAccept(event);
      const pointer = lfs.parseVerify(await readJson(event, 'Unprocessable Entity', 422));
      const { access } = await authorize(host, event, 'write');
      await lfs.verify(access, pointer);
      return lfsJson(200, { message: 'OK' });
    }),
  );

  app.get(`${PREFIX}/locks`, (event) =>
    answer(host, event, async () => {
      requireLfsAccept(event);
      const { access } = await authorize(host, event, 'read', 'You must have pull access to list locks');
      const query = event.url.searchParams;
      return lfsJson(200, await lfs.listLocks(access, { id: query.get('id'), path: query.get('path'), cursor: query.get('cursor'), limit: query.get('limit') }));
    }),
  );

  app.post(`${PREFIX}/locks`, (event) =>
    answer(host, event, async () => {
      requireLfsAccept(event);
      const { actor, access } = await authorize(host, event, 'write', 'You must have push access to create locks');
      const body = await readJson(event, 'Bad Request', 400);
      return lfsJson(201, { lock: await lfs.createLock(actor, access, body) });
    }),
  );

  app.post(`${PREFIX}/locks/verify`, (event) =>
    answer(host, event, async () => {
      requireLfsAccept(event);
      const { actor, access } = await authorize(host, event, 'write', 'You must have push access to verify locks');
      // git-lfs sends the page's cursor and limit in the body; the query is read too (Forgejo reads only that).
      const body = await readJson(event, 'Bad Request', 400, true);
      const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      const query = event.url.searchParams;
      const cursor = (record['cursor'] as string | number | undefined) ?? query.get('cursor');
      const limit = (record['limit'] as string | number | undefined) ?? query.get('limit');
      return lfsJson(200, await lfs.verifyLocks(actor, access, { cursor, limit }));
    }),
  );

  app.post(`${PREFIX}/locks/:lid/unlock`, (event) =>
    answer(host, event, async () => {
      requireLfsAccept(event);
      const { actor, access } = await authorize(host, event, 'write', 'You must have push access to delete locks');
      const { lid } = decodedRouterParams(event) as { lid: string };
      const body = await readJson(event, 'Bad Request', 400, true);
      return lfsJson(200, { lock: await lfs.unlock(actor, access, lid, body) });
    }),
  );

  // Anything else under info/lfs: Forgejo's catch-all 404.
  app.all(`${PREFIX}/**`, (event) => answer(host, event, async () => {
    throw new NotFoundError('Not Found');
  }));
}

/** Runs a handler: LFS off is a 404; errors become Forgejo's LFS error bodies. */
async function answer(host: RepoHost, event: H3Event, run: () => Promise<Response>): Promise<Response> {
  try {
    if (!host.settings.server.LFS_START_SERVER) throw new NotFoundError('Not Found');
    return await run();
  } catch (error) {
    return lfsError(error, event);
  }
}

/**
 * The caller and the repository, with `mode` on its code (read for downloads and lock lists, write for uploads,
 * verification and lock changes), as git over HTTP decides it. `lockRefusal` is the message the locks API gives an
 * anonymous caller (Forgejo's locks need a signed-in user even to list).
 */
async function authorize(host: RepoHost, event: H3Event, mode: 'read' | 'write', lockRefusal?: string): Promise<Authorized> {
  const lfs = host.service(LfsService);
  const { owner, repo } = decodedRouterParams(event) as { owner: string; repo: string };
  const authorization = event.req.headers.get('authorization') ?? undefined;
  try {
    // The JWT `git-lfs-authenticate` handed out over SSH, good for one repository (and uploads only when it says so).
    const bearer = tokenOf(authorization);
    const byToken = bearer ? await lfs.tokenActor(bearer) : undefined;
    if (byToken) {
      const access = await lfs.resolve(byToken.actor, owner, repo, mode);
      if (!lfs.tokenCovers(byToken.claims, access, mode)) throw new UnauthorizedError();
      return { actor: byToken.actor, access, authorization };
    }
    const auth = await authenticate(host, requestCredentials(event), { allowReverseProxy: false });
    if (auth.method === 'basic_password' && auth.twoFactor) throw new UnauthorizedError(TWO_FACTOR_PASSWORD_REFUSED);
    if (lockRefusal && auth.actor.kind === 'anonymous') throw new UnauthorizedError(lockRefusal);
    if (auth.scopes !== null && !scopesGrant(auth.scopes, 'repository', mode)) throw missingScopeError(['repository'], mode);
    const access = await lfs.resolve(auth.actor, owner, repo, mode);
    return { actor: auth.actor, access, authorization };
  } catch (error) {
    if (lockRefusal && error instanceof UnauthorizedError) throw new UnauthorizedError(lockRefusal);
    throw error;
  }
}

function tokenOf(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const space = authorization.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = authorization.slice(0, space).toLowerCase();
  if (scheme !== 'bearer' && scheme !== 'token') return undefined;
  const value = authorization.slice(space + 1).trim();
  return value.includes('.') ? value : undefined;
}

/** Forgejo's `CheckAcceptMediaType`: the batch, verify and lock routes answer only clients that accept LFS JSON. */
function requireLfsAccept(event: H3Event): void {
  const accept = event.req.headers.get('accept') ?? '';
  if (accept.split(';')[0] !== LFS_MEDIA_TYPE) throw new HttpError(415, 'Unsupported Media Type');
}

/** The request's JSON, bounded; a body that is not JSON is `status` with `message` (an empty one may be allowed). */
async function readJson(event: H3Event, message: string, status: number, emptyAllowed = false): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readBody(event, MAX_JSON_BYTES);
  } catch (error) {
    if (error instanceof HttpError || isRepoHostError(error)) throw error;
    throw new PayloadTooLargeError('Request Entity Too Large');
  }
  if (emptyAllowed && bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new HttpError(status, message);
  }
}

/**
 * The bytes of an upload: the Node request itself when there is one (read as the blob storage writes, so the
 * socket is paused while the disk or the bucket catches up), else the web body.
 */
function uploadBody(event: H3Event): AsyncIterable<Uint8Array> {
  const node = (event.runtime as { node?: { req?: Readable } } | undefined)?.node?.req;
  if (node && !node.readableEnded && !node.destroyed) return node;
  return requestBody(event);
}

/** A `{filename}` segment: Forgejo's unpadded base64url of the name; anything else names none. */
function decodedFilename(segment: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(segment)) return undefined;
  return Buffer.from(segment, 'base64url').toString('utf8');
}

function lfsJson(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  return new FastResponse(text, { status, headers: { ...extra, 'content-type': LFS_MEDIA_TYPE, 'content-length': String(Buffer.byteLength(text)) } });
}

/** Forgejo's LFS error answers: `{"message": …}` (a lock conflict names the lock), a challenge with a 401. */
function lfsError(error: unknown, event: H3Event): Response {
  if (error instanceof LfsLockExistsError) return lfsJson(409, { lock: error.lock, message: error.message });
  if (error instanceof RangeNotSatisfiableError) {
    return lfsJson(416, { message: error.message }, { 'content-range': `bytes */${error.size}` });
  }
  if (error instanceof QuotaExceededError) return lfsJson(413, { message: 'quota exceeded' });
  let { status, message } = errorStatus(error);
  if (status === 500) {
    // A client that went away hears nothing; anything else is ours to log.
    if (event.req.signal.aborted) return lfsJson(499, { message: 'the client closed the request' });
    console.error('[repohost] lfs request failed:', error);
    message = 'Internal Server Error';
  }
  if (status === 404 && error instanceof NotFoundError && message === "The target couldn't be found.") message = 'Not Found';
  return lfsJson(status, { message }, status === 401 ? { 'www-authenticate': 'Basic realm=gitea-lfs' } : {});
}
