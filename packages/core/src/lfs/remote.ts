/**
 * Fetching a remote's LFS objects after its git history (Forgejo's `StoreMissingLfsObjectsInRepository`): the
 * pointers the fetched history holds are found in the object store, and each object the repository lacks is asked
 * of the remote's LFS API (`<clone address>.git/info/lfs`, or the endpoint the migration names) with the batch
 * API's `download` operation, then streamed into the `lfs` blob space, size and SHA-256 checked on the way. Every
 * address contacted (the endpoint, each download link) passes `checkRemoteAddress` and is connected to pinned.
 */
import type { CoreContext } from '../context.js';
import { BlobsService } from '../blobs/index.js';
import type { RepoKey } from '../git/index.js';
import { checkRemoteAddress, openRemoteRequest, redactCredentials, remoteRequest, type CheckedRemote } from '../remote/index.js';
import { nowUnix } from '../storage/index.js';
import { trimEnd } from '../text.js';
import type { Actor } from '../users/index.js';
import { blobKeyOf, parsePointer, POINTER_MAX_BYTES, type LfsPointer } from './pointer.js';
import { LFS_MEDIA_TYPE } from './schemas.js';
import { LfsStore } from './store.js';
import { LFS_SPACE, verifiedBytes } from './objects.js';

/** Objects one batch request asks for (git-lfs asks for 100 at a time too). */
const BATCH = 100;
/** A batch answer is JSON of this size at most. */
const MAX_BATCH_ANSWER = 10 * 1024 * 1024;
const POINTER_PREFIX = Buffer.from('version https://git-lfs.github.com/spec/v1');

export interface RemoteLfsFetch {
  repoId: number;
  key: RepoKey;
  /** Who the fetch is for: the remote checks are made as for them. */
  actor: Actor;
  /** The clone address (checked, pinned) and its credentials. */
  remote: CheckedRemote;
  /** `lfs_endpoint` as given; empty: derived from the clone address. */
  endpoint?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface RemoteLfsResult {
  /** Objects downloaded now. */
  fetched: number;
  /** Objects stored already (recorded for the repository without a download). */
  present: number;
  /** Objects the remote did not have, or refused, or over LFS_MAX_FILE_SIZE: left out, as Forgejo leaves them. */
  skipped: number;
}

/** Forgejo's `DetermineEndpoint`: the clone address with `.git` and `/info/lfs`, unless an endpoint is given. */
export function lfsEndpointOf(cloneUrl: string, endpoint?: string): string {
  if (endpoint && endpoint.trim() !== '') return trimEnd(endpoint.trim(), '/');
  const base = trimEnd(cloneUrl, '/');
  return `${base.endsWith('.git') ? base : `${base}.git`}/info/lfs`;
}

export async function fetchRemoteObjects(ctx: CoreContext, request: RemoteLfsFetch): Promise<RemoteLfsResult> {
  const settings = ctx.settings;
  const store = ctx.store(LfsStore);
  const blobs = ctx.service(BlobsService).storage(LFS_SPACE);
  const result: RemoteLfsResult = { fetched: 0, present: 0, skipped: 0 };
  const deadline = Date.now() + request.timeoutMs;
  const remaining = () => Math.max(1000, deadline - Date.now());

  const wanted = new Map<string, LfsPointer>();
  for (const content of await ctx.git.smallBlobsWithPrefix(request.key, POINTER_PREFIX, POINTER_MAX_BYTES, request.signal)) {
    const pointer = parsePointer(content);
    if (pointer && !(await store.meta(request.repoId, pointer.oid))) wanted.set(pointer.oid, pointer);
  }
  const missing: LfsPointer[] = [];
  for (const pointer of wanted.values()) {
    if (await blobs.exists(blobKeyOf(pointer.oid))) {
      await store.addMeta(request.repoId, pointer.oid, pointer.size, nowUnix());
      result.present++;
    } else missing.push(pointer);
  }
  if (missing.length === 0) return result;

  const endpointUrl = lfsEndpointOf(request.remote.url, request.endpoint);
  const sameOrigin = (a: string, b: string) => new URL(a).origin === new URL(b).origin;
  const endpointCredentials = sameOrigin(endpointUrl, request.remote.url) ? request.remote.credentials : undefined;
  const endpoint = await checkRemoteAddress(settings, request.actor, { address: endpointUrl, ...endpointCredentials });
  if (endpoint.local) throw new Error('an LFS endpoint must be an HTTP(S) address');
  const maxSize = settings.server.LFS_MAX_FILE_SIZE;

  for (let i = 0; i < missing.length; i += BATCH) {
    const objects = missing.slice(i, i + BATCH);
    const answered = await batch(settings, endpoint, 'download', objects.map((p) => ({ oid: p.oid, size: p.size })), remaining(), request.signal);
    const listed = new Map<string, LfsLink>();
    for (const item of answered) {
      const object = item as { oid?: unknown; actions?: { download?: { href?: unknown; header?: unknown } } };
      const link = linkOf(object.actions?.download);
      if (typeof object.oid === 'string' && link) listed.set(object.oid, link);
    }
    for (const pointer of objects) {
      const action = listed.get(pointer.oid);
      if (!action || (maxSize > 0 && pointer.size > maxSize)) {
        result.skipped++;
        continue;
      }
      await download(ctx, request, endpoint, pointer, action, remaining());
      await store.addMeta(request.repoId, pointer.oid, pointer.size, nowUnix());
      result.fetched++;
    }
  }
  return result;
}

/** One object from its download link: checked as any remote address, credentials only to the endpoint's origin. */
async function download(
  ctx: CoreContext,
  request: RemoteLfsFetch,
  endpoint: CheckedRemote,
  pointer: LfsPointer,
  action: LfsLink,
  timeoutMs: number,
): Promise<void> {
  const target = await checkedLink(ctx, request.actor, endpoint, action);
  const answer = await openRemoteRequest(ctx.settings, target, action.href, { headers: action.header, timeoutMs, signal: request.signal });
  if (answer.status !== 200) {
    answer.body.destroy();
    throw new Error(`the LFS server answered the download of ${pointer.oid} with ${answer.status}`);
  }
  try {
    await ctx.service(BlobsService).storage(LFS_SPACE).put(blobKeyOf(pointer.oid), verifiedBytes(answer.body, pointer), { maxBytes: pointer.size });
  } catch (error) {
    answer.body.destroy();
    throw new Error(redactCredentials(`LFS object ${pointer.oid}: ${(error as Error).message}`, target.credentials));
  }
}

export interface RemoteLfsPush {
  repoId: number;
  /** Who the push is for: the remote checks are made as for them. */
  actor: Actor;
  /** The push mirror's address (checked, pinned) and its credentials; the LFS API is derived from it. */
  remote: CheckedRemote;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * A push mirror's LFS objects (Forgejo's `pushAllLFSObjects`): every object the repository holds is offered to the
 * remote's LFS API with the batch `upload` operation; each one it asks for is streamed from blob storage with the
 * link's PUT, then verified when the remote asks for that too. Returns how many were uploaded.
 */
export async function pushRemoteObjects(ctx: CoreContext, request: RemoteLfsPush): Promise<number> {
  const settings = ctx.settings;
  const store = ctx.store(LfsStore);
  const blobs = ctx.service(BlobsService).storage(LFS_SPACE);
  const deadline = Date.now() + request.timeoutMs;
  const remaining = () => Math.max(1000, deadline - Date.now());
  const endpoint = await checkRemoteAddress(settings, request.actor, { address: lfsEndpointOf(request.remote.url), ...request.remote.credentials });
  if (endpoint.local) throw new Error('an LFS endpoint must be an HTTP(S) address');
  let uploaded = 0;
  for (let after = 0; ; ) {
    const metas = await store.metasAfter(request.repoId, after, BATCH);
    if (metas.length === 0) return uploaded;
    after = metas[metas.length - 1]!.id;
    const objects = metas.map((m) => ({ oid: m.oid, size: Number(m.size) }));
    const answered = await batch(settings, endpoint, 'upload', objects, remaining(), request.signal);
    for (const item of answered) {
      const object = item as { oid?: unknown; size?: unknown; actions?: Record<string, { href?: unknown; header?: unknown } | undefined>; error?: { message?: unknown } };
      const pointer = objects.find((o) => o.oid === object.oid);
      if (!pointer) continue;
      if (object.error) throw new Error(`the LFS server refused ${pointer.oid}: ${String(object.error.message ?? '')}`);
      const upload = linkOf(object.actions?.['upload']);
      if (!upload) continue;
      const blob = await blobs.get(blobKeyOf(pointer.oid));
      if (!blob) throw new Error(`LFS object ${pointer.oid} is missing from storage`);
      const target = await checkedLink(ctx, request.actor, endpoint, upload);
      const put = await openRemoteRequest(settings, target, upload.href, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/octet-stream', ...upload.header },
        stream: { source: blob.stream, length: blob.size },
        timeoutMs: remaining(),
        signal: request.signal,
      });
      put.body.resume();
      if (put.status < 200 || put.status > 299) throw new Error(`the LFS server answered the upload of ${pointer.oid} with ${put.status}`);
      const verify = linkOf(object.actions?.['verify']);
      if (verify) {
        const verifyTarget = await checkedLink(ctx, request.actor, endpoint, verify);
        const checked = await remoteRequest(settings, verifyTarget, verify.href, {
          method: 'POST',
          headers: { Accept: LFS_MEDIA_TYPE, 'Content-Type': LFS_MEDIA_TYPE, ...verify.header },
          body: Buffer.from(JSON.stringify(pointer)),
          timeoutMs: remaining(),
          signal: request.signal,
          maxBodyBytes: 0,
        });
        if (checked.status < 200 || checked.status > 299) throw new Error(`the LFS server did not verify ${pointer.oid} (${checked.status})`);
      }
      uploaded++;
    }
  }
}

/** A batch request to the remote's LFS API (`…/objects/batch`, basic transfer): the objects of its answer. */
async function batch(settings: CoreContext['settings'], endpoint: CheckedRemote, operation: 'download' | 'upload', objects: { oid: string; size: number }[], timeoutMs: number, signal?: AbortSignal): Promise<unknown[]> {
  const answer = await remoteRequest(settings, endpoint, `${endpoint.url}/objects/batch`, {
    method: 'POST',
    headers: { Accept: LFS_MEDIA_TYPE, 'Content-Type': LFS_MEDIA_TYPE },
    body: Buffer.from(JSON.stringify({ operation, transfers: ['basic'], objects })),
    timeoutMs,
    signal,
    maxBodyBytes: MAX_BATCH_ANSWER,
  });
  if (answer.status !== 200) throw new Error(`the LFS server answered the batch request with ${answer.status}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new Error('the LFS server answered the batch request with something else than JSON');
  }
  const answered = (parsed as { objects?: unknown }).objects;
  return Array.isArray(answered) ? answered : [];
}

/** A link of a batch answer's action: its address and the headers to send (string values only). */
type LfsLink = { href: string; header: Record<string, string> };

function linkOf(action: { href?: unknown; header?: unknown } | undefined): LfsLink | undefined {
  if (!action || typeof action.href !== 'string') return undefined;
  const header: Record<string, string> = {};
  if (action.header && typeof action.header === 'object') for (const [name, value] of Object.entries(action.header)) if (typeof value === 'string') header[name] = value;
  return { href: action.href, header };
}

/** A link the LFS server gave, checked as any remote address; credentials only to the endpoint's own origin. */
async function checkedLink(ctx: CoreContext, actor: Actor, endpoint: CheckedRemote, link: LfsLink): Promise<CheckedRemote> {
  const same = new URL(link.href).origin === new URL(endpoint.url).origin;
  const credentials = same && !Object.keys(link.header).some((h) => h.toLowerCase() === 'authorization') ? endpoint.credentials : undefined;
  const target = await checkRemoteAddress(ctx.settings, actor, { address: link.href, ...credentials });
  if (target.local) throw new Error('an LFS link must be an HTTP(S) address');
  return target;
}
