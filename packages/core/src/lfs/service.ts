import type { Readable } from 'node:stream';
import { firstBytes } from '../streams.js';
import type { CoreContext } from '../context.js';
import { AccessMode, unitMode } from '../access/index.js';
import { BlobTooLargeError, BlobsService, parseByteRange, type BlobStorage } from '../blobs/index.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, PayloadTooLargeError, UnauthorizedError, ValidationError } from '../errors.js';
import { parseGoDuration } from '../go-duration.js';
import { sniffServedType, SNIFF_BYTES, type RawFile } from '../gitdata/index.js';
import { QuotaService } from '../quota/index.js';
import { ReposService, type RepoAccess } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { pathEscape, webUrl } from '../urls.js';
import { UsersPort, canSignIn, userActor, type Actor } from '../users/index.js';
import { isoTime } from '../wire.js';
import { blobKeyOf, cleanLockPath, isValidPointer, parsePointer, POINTER_MAX_BYTES, type LfsPointer } from './pointer.js';
import {
  LFS_MEDIA_TYPE,
  type ApiLfsLock,
  type ApiLfsLockList,
  type ApiLfsLockListVerify,
  type LfsBatchRequest,
  type LfsBatchResponse,
  type LfsLink,
  type LfsLockPaging,
  type LfsObjectError,
  type LfsObjectResponse,
  type LfsOperation,
  type LfsTokenResponse,
} from './schemas.js';
import { LFS_SPACE, SIZE_MISMATCH, verifiedBytes } from './objects.js';
import { fetchRemoteObjects, pushRemoteObjects, type RemoteLfsFetch, type RemoteLfsPush, type RemoteLfsResult } from './remote.js';
import { LfsStore } from './store.js';
import type { LfsLock } from './tables.js';
import { lfsJwtKey, readLfsToken, signLfsToken, type LfsTokenClaims } from './token.js';

/** Repositories holding an object looked at, at most, to decide whether the asker may read it elsewhere. */
const MAX_HOLDERS_CHECKED = 50;
/** A lock path longer than this is refused (Forgejo's column is TEXT; a path git can name is far shorter). */
const MAX_LOCK_PATH = 4096;
/** Locks one verify page holds when LFS_LOCKS_PAGING_NUM sets no bound. */
const DEFAULT_VERIFY_PAGE = 100;

/** A lock that exists already: Forgejo's 409 names it. */
export class LfsLockExistsError extends ConflictError {
  constructor(readonly lock: ApiLfsLock) {
    super('already created lock');
    this.name = 'LfsLockExistsError';
  }
}

/** An object's bytes to send: the range asked for (`start` to `end` inclusive) of `size` bytes. */
export interface LfsDownload {
  size: number;
  start: number;
  end: number;
  partial: boolean;
  stream: Readable;
}

/**
 * Git LFS as Forgejo serves it (`services/lfs/server.go`, `locks.go`, `models/git/lfs*.go`): the batch API, the
 * objects' upload, download and verification, locks, and the JWTs `git-lfs-authenticate` hands out over SSH.
 *
 * An object's bytes are one blob of the `lfs` space, keyed by its oid, so a repository that uploads an object
 * another already stored writes nothing; they are streamed in (SHA-256 and size checked while they pass, nothing
 * stored unless both match) and out. A `lfs_meta_object` row makes the object readable in its repository and counts
 * it in the owner's quota (`size:git:lfs`). A fork gets its parent's rows when it is made (Forgejo copies them), so
 * it reads its parent's objects from then on. Who may do what is the git-over-HTTP rule: reading the code unit for
 * downloads and lock lists, writing it for uploads and locks. Migrations and pull mirrors made with `lfs` fetch
 * the objects their history points to, and push mirrors upload theirs (`remote.ts`).
 */
export class LfsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): LfsStore {
    return this.ctx.store(LfsStore);
  }

  private get blobs(): BlobStorage {
    return this.ctx.service(BlobsService).storage(LFS_SPACE);
  }

  /** `[server] LFS_START_SERVER`. */
  get enabled(): boolean {
    return this.ctx.settings.server.LFS_START_SERVER;
  }

  /** The quota's view of LFS objects and what a fork inherits; once per host. */
  subscribe(): void {
    this.ctx.service(QuotaService).provide('lfs', {
      addUsage: async (ownerId, usage) => {
        usage.size.git.LFS += await this.store.ownerSize(ownerId);
      },
    });
    this.ctx.events.withinTransaction('repo.forked', async ({ payload }, tx) => {
      await tx.store(LfsStore).copyMeta(payload.parent.id, payload.repo.id, nowUnix());
    });
  }

  // ---- who may ----

  /**
   * The repository `owner/name` (a `.git` suffix allowed) for an LFS request needing `mode`, as git over HTTP
   * decides: an anonymous caller gets Unauthorized where credentials could help, a signed-in one that may not see
   * the repository NotFound, one that sees it without the right Forbidden.
   */
  async resolve(actor: Actor, owner: string, name: string, mode: 'read' | 'write'): Promise<RepoAccess> {
    if (!this.enabled) throw new NotFoundError();
    const repoName = name.toLowerCase().endsWith('.git') ? name.slice(0, -4) : name;
    if (mode === 'write' && actor.kind === 'anonymous') throw new UnauthorizedError();
    if (actor.kind === 'anonymous' && this.ctx.settings.service.REQUIRE_SIGNIN_VIEW) throw new UnauthorizedError();
    let access: RepoAccess;
    try {
      access = await this.ctx.service(ReposService).resolve(actor, owner, repoName);
    } catch (error) {
      if (error instanceof NotFoundError && actor.kind === 'anonymous') throw new UnauthorizedError();
      if (error instanceof NotFoundError) throw new NotFoundError('Repository not found');
      throw error;
    }
    this.assertMode(actor, access, mode);
    return access;
  }

  private assertMode(actor: Actor, access: RepoAccess, mode: 'read' | 'write'): void {
    const needed = mode === 'write' ? AccessMode.Write : AccessMode.Read;
    if (unitMode(access, 'repo.code') < needed) {
      if (actor.kind === 'anonymous') throw new UnauthorizedError();
      throw new ForbiddenError('User permission denied');
    }
    if (mode === 'write' && access.repo.is_archived === 1) throw new ForbiddenError('This repository is archived: it can be cloned, but not pushed to.');
  }

  /**
   * The user a bearer token from `git-lfs-authenticate` stands for, with its claims (the repository it is good for
   * and whether it may upload); undefined when the text is not such a token, or its user may no longer sign in.
   */
  async tokenActor(token: string): Promise<{ actor: Actor; claims: LfsTokenClaims } | undefined> {
    if (!token.includes('.')) return undefined;
    const claims = readLfsToken(this.jwtKey, token, nowUnix());
    if (!claims) return undefined;
    const user = await this.ctx.port(UsersPort).byId(claims.userId);
    if (!user || !canSignIn(user)) return undefined;
    return { actor: userActor(user), claims };
  }

  /** Whether a token's claims cover this repository and operation (Forgejo: uploads need an `upload` token). */
  tokenCovers(claims: LfsTokenClaims, access: RepoAccess, mode: 'read' | 'write'): boolean {
    return claims.repoId === access.repo.id && (mode === 'read' || claims.op === 'upload');
  }

  private get jwtKey(): Buffer {
    return lfsJwtKey(this.ctx.settings.server.LFS_JWT_SECRET, this.ctx.settings.security.SECRET_KEY);
  }

  /**
   * `git-lfs-authenticate <repo> <upload|download>` over SSH: where the repository's LFS API is and a bearer token
   * for it, good for `[server] LFS_HTTP_AUTH_EXPIRY`, after the same checks as an HTTP request of that operation.
   */
  async sshAuthenticate(actor: Actor, owner: string, name: string, operation: string): Promise<LfsTokenResponse> {
    if (!this.enabled) throw new ForbiddenError('LFS Server is not enabled');
    if (operation !== 'upload' && operation !== 'download') throw new BadRequestError(`Unknown LFS verb: ${operation}`);
    if (actor.kind !== 'user') throw new UnauthorizedError();
    const access = await this.resolve(actor, owner, name, operation === 'upload' ? 'write' : 'read');
    const now = nowUnix();
    // An unreadable setting keeps Forgejo's default.
    const expiry = Math.max(1, parseGoDuration(this.ctx.settings.server.LFS_HTTP_AUTH_EXPIRY) ?? 24 * 3600);
    const token = signLfsToken(this.jwtKey, { repoId: access.repo.id, op: operation, userId: actor.user.id }, now, expiry);
    return { header: { Authorization: `Bearer ${token}` }, href: this.apiBase(access), expires_at: isoTime(now + expiry) };
  }

  private apiBase(access: RepoAccess): string {
    return webUrl(this.ctx.settings, `${pathEscape(access.owner.name)}/${pathEscape(access.repo.name)}.git/info/lfs`);
  }

  // ---- the batch API ----

  /** Reads a batch request as Forgejo's JSON decoder would: anything malformed, or another operation, is a 400. */
  parseBatch(body: unknown): LfsBatchRequest {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('Bad Request');
    const record = body as Record<string, unknown>;
    const operation = field(record, 'operation');
    if (operation !== undefined && operation !== null && typeof operation !== 'string') throw new BadRequestError('Bad Request');
    const transfers = field(record, 'transfers');
    if (transfers !== undefined && transfers !== null && (!Array.isArray(transfers) || transfers.some((t) => typeof t !== 'string'))) throw new BadRequestError('Bad Request');
    const objects = field(record, 'objects');
    if (objects !== undefined && objects !== null && !Array.isArray(objects)) throw new BadRequestError('Bad Request');
    const pointers = ((objects as unknown[] | null | undefined) ?? []).map(decodePointer);
    if (operation !== 'upload' && operation !== 'download') throw new BadRequestError('Bad Request');
    const max = this.ctx.settings.server.LFS_MAX_BATCH_SIZE;
    if (max > 0 && pointers.length > max) throw new PayloadTooLargeError('Request Entity Too Large');
    return { operation, objects: pointers };
  }

  /**
   * Answers a batch: per object where to send or fetch it, or why not (422 for a bad pointer or a size that
   * disagrees with the stored one, 404 for a download of an object the repository does not hold). An upload of an
   * object stored already, which the caller may read in another repository, is recorded here without a transfer.
   * `authorization` is the request's header, repeated in the links (Forgejo's).
   */
  async batch(actor: Actor, access: RepoAccess, request: LfsBatchRequest, authorization?: string): Promise<LfsBatchResponse> {
    const upload = request.operation === 'upload';
    if (upload) await this.ctx.service(QuotaService).assertCanWrite(access.owner, 'size:git:lfs');
    const header: Record<string, string> = {};
    if (authorization) header['Authorization'] = authorization;
    const base = this.apiBase(access);
    const maxSize = this.ctx.settings.server.LFS_MAX_FILE_SIZE;
    const objects: LfsObjectResponse[] = [];
    for (const pointer of request.objects) {
      if (!isValidPointer(pointer)) {
        objects.push(objectError(pointer, 422, 'Oid or size are invalid'));
        continue;
      }
      const meta = await this.store.meta(access.repo.id, pointer.oid);
      if (meta && Number(meta.size) !== pointer.size) {
        objects.push(objectError(pointer, 422, `Object ${pointer.oid} is not ${pointer.size} bytes`));
        continue;
      }
      let exists = await this.blobs.exists(blobKeyOf(pointer.oid));
      if (upload) {
        if (!exists && maxSize > 0 && pointer.size > maxSize) {
          objects.push(objectError(pointer, 422, `Size must be less than or equal to ${maxSize}`));
          continue;
        }
        if (exists && !meta) {
          if (await this.readableElsewhere(actor, pointer.oid)) await this.store.addMeta(access.repo.id, pointer.oid, pointer.size, nowUnix());
          else exists = false;
        }
        if (exists) {
          objects.push({ oid: pointer.oid, size: pointer.size });
          continue;
        }
        const href = `${base}/objects/${pointer.oid}/${pointer.size}`;
        objects.push({
          oid: pointer.oid,
          size: pointer.size,
          actions: {
            upload: link(href, header),
            // Accept is repeated for the verify request: git-lfs#3662.
            verify: link(`${base}/verify`, { ...header, Accept: LFS_MEDIA_TYPE }),
          },
        });
      } else {
        if (!exists || !meta) {
          objects.push(objectError(pointer, 404, 'Not Found'));
          continue;
        }
        const direct = await this.blobs.directUrl?.(blobKeyOf(pointer.oid), pointer.oid);
        // A presigned URL needs no Authorization (Forgejo drops it: go-gitea/gitea#21525).
        const download = direct ? { href: direct } : link(`${base}/objects/${pointer.oid}`, header);
        objects.push({ oid: pointer.oid, size: pointer.size, actions: { download } });
      }
    }
    return { objects };
  }

  /** Whether the caller may read another repository that holds the object (Forgejo's `LFSObjectAccessible`). */
  private async readableElsewhere(actor: Actor, oid: string): Promise<boolean> {
    const repos = this.ctx.service(ReposService);
    for (const repoId of await this.store.reposHolding(oid, MAX_HOLDERS_CHECKED)) {
      try {
        const access = await repos.resolveById(actor, repoId);
        if (unitMode(access, 'repo.code') >= AccessMode.Read) return true;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return false;
  }

  // ---- objects ----

  /** The object an upload URL names (`…/objects/{oid}/{size}`), checked before anything else (Forgejo's 422s). */
  parseObjectPath(oid: string, sizeText?: string): LfsPointer {
    let size = 0;
    if (sizeText !== undefined) {
      if (!/^[+-]?\d{1,19}$/.test(sizeText)) throw new ValidationError('', `strconv.ParseInt: parsing ${JSON.stringify(sizeText)}: invalid syntax`);
      size = Number(sizeText);
    }
    const pointer = { oid, size };
    if (!isValidPointer(pointer)) throw new ValidationError('', sizeText === undefined ? 'Oid or size are invalid' : 'Unprocessable Entity');
    return pointer;
  }

  /**
   * Stores an object's bytes for the repository: streamed into blob storage, its size and SHA-256 checked on the
   * way (a mismatch stores nothing: 422). An object stored already is not written again: the caller proves it has
   * the bytes by sending them (hashed, not stored) unless it may read the object in another repository.
   */
  async upload(actor: Actor, access: RepoAccess, pointer: LfsPointer, body: AsyncIterable<Uint8Array>): Promise<void> {
    const meta = await this.store.meta(access.repo.id, pointer.oid);
    if (meta) {
      if (Number(meta.size) !== pointer.size) throw new ValidationError('', `Object ${pointer.oid} is not ${pointer.size} bytes`);
      return;
    }
    const maxSize = this.ctx.settings.server.LFS_MAX_FILE_SIZE;
    if (maxSize > 0 && pointer.size > maxSize) throw new ValidationError('', `Size must be less than or equal to ${maxSize}`);
    await this.ctx.service(QuotaService).assertCanWrite(access.owner, 'size:git:lfs');
    const key = blobKeyOf(pointer.oid);
    if (await this.blobs.exists(key)) {
      if (!(await this.readableElsewhere(actor, pointer.oid))) {
        // Whoever claims an object stored for others proves to have its bytes.
        for await (const _ of verifiedBytes(body, pointer)) {
          // hashed on the way
        }
      }
    } else {
      try {
        await this.blobs.put(key, verifiedBytes(body, pointer), { maxBytes: pointer.size });
      } catch (error) {
        if (error instanceof BlobTooLargeError) throw new ValidationError('', SIZE_MISMATCH);
        throw error;
      }
    }
    await this.store.addMeta(access.repo.id, pointer.oid, pointer.size, nowUnix());
  }

  /**
   * The object's bytes for a download, the range of a `Range` header when it names one (Go's `ServeContent` rules:
   * a range past the end is a 416). NotFound unless the repository holds the object.
   */
  async download(access: RepoAccess, oid: string, rangeHeader?: string | null): Promise<LfsDownload> {
    const meta = await this.store.meta(access.repo.id, oid);
    if (!meta) throw new NotFoundError('Not Found');
    const size = Number(meta.size);
    const range = parseByteRange(rangeHeader, size);
    if (range === 'unsatisfiable') throw new RangeNotSatisfiableError(size);
    const blob = await this.blobs.get(blobKeyOf(oid), range ? { start: range.start, end: range.end } : undefined);
    if (!blob) throw new NotFoundError('Not Found');
    if (range) return { size: blob.size, start: range.start, end: range.end, partial: true, stream: blob.stream };
    return { size: blob.size, start: 0, end: blob.size - 1, partial: false, stream: blob.stream };
  }

  /** Reads the pointer of a verify request (Forgejo: a body it cannot decode is a 422). */
  parseVerify(body: unknown): LfsPointer {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('', 'Unprocessable Entity');
    let pointer: LfsPointer;
    try {
      pointer = decodePointer(body);
    } catch {
      throw new ValidationError('', 'Unprocessable Entity');
    }
    if (!isValidPointer(pointer)) throw new ValidationError('', 'Oid or size are invalid');
    return pointer;
  }

  /** The `verify` action after an upload: the repository holds the object and its stored size is the one named. */
  async verify(access: RepoAccess, pointer: LfsPointer): Promise<void> {
    const meta = await this.store.meta(access.repo.id, pointer.oid);
    if (!meta) throw new NotFoundError('Not Found');
    const blob = await this.blobs.get(blobKeyOf(pointer.oid), { start: 0, end: 0 });
    if (blob) blob.stream.destroy();
    if (!blob || blob.size !== pointer.size) throw new NotFoundError('Not Found');
  }

  // ---- remotes ----

  /**
   * After a migration or a pull mirror fetched a remote's history: the LFS objects its pointers name that the
   * repository lacks, fetched from the remote's LFS API (see `remote.ts`). Nothing happens while LFS is not served.
   */
  async fetchFromRemote(request: RemoteLfsFetch): Promise<RemoteLfsResult> {
    if (!this.enabled) return { fetched: 0, present: 0, skipped: 0 };
    return fetchRemoteObjects(this.ctx, request);
  }

  /** After a push mirror's git push: its LFS objects to the remote's LFS API (see `remote.ts`); none while LFS is off. */
  async pushToRemote(request: RemoteLfsPush): Promise<number> {
    if (!this.enabled) return 0;
    return pushRemoteObjects(this.ctx, request);
  }

  // ---- what the API serves of pointers ----

  /** The object behind a pointer the repository holds, when LFS is served; undefined otherwise. */
  async pointed(repoId: number, content: Uint8Array): Promise<{ pointer: LfsPointer; size: number } | undefined> {
    if (!this.enabled || content.byteLength > POINTER_MAX_BYTES) return undefined;
    const pointer = parsePointer(content);
    if (!pointer) return undefined;
    const meta = await this.store.meta(repoId, pointer.oid);
    return meta ? { pointer, size: Number(meta.size) } : undefined;
  }

  /**
   * `/media/{filepath}`: the raw file, or, when it is an LFS pointer whose object the repository holds (and LFS
   * is served), that object in its place (Forgejo's `GetRawFileOrLFS`, with the oid as the ETag).
   */
  async media(access: RepoAccess, file: RawFile): Promise<RawFile> {
    if (!Buffer.isBuffer(file.body)) return file;
    const found = await this.pointed(access.repo.id, file.body);
    if (!found) return file;
    const blob = await this.blobs.get(blobKeyOf(found.pointer.oid));
    if (!blob) return file;
    const head = await firstBytes(blob.stream, Math.min(SNIFF_BYTES, blob.size));
    return { id: found.pointer.oid, size: blob.size, objectType: file.objectType, fileName: file.fileName, lastModified: file.lastModified, served: sniffServedType(head), body: blob.stream };
  }

  // ---- locks ----

  /** The repository's locks, one by `id` or `path`, or a page (cursor and limit as the previous page said). */
  async listLocks(access: RepoAccess, query: { id?: string | null; path?: string | null } & LfsLockPaging): Promise<ApiLfsLockList> {
    const repoId = access.repo.id;
    if (query.id) {
      if (!/^[+-]?\d{1,19}$/.test(query.id)) throw new BadRequestError(`bad request : strconv.ParseInt: parsing ${JSON.stringify(query.id)}: invalid syntax`);
      const id = Number(query.id);
      const lock = Number.isSafeInteger(id) && id > 0 ? await this.store.lockById(repoId, id) : undefined;
      return { locks: lock ? await this.toApi([lock]) : [] };
    }
    if (query.path) {
      // No stored path holds a NUL (PostgreSQL's text cannot), or is longer than a lock may be.
      if (query.path.includes('\0') || query.path.length > MAX_LOCK_PATH) return { locks: [] };
      const lock = await this.store.lockByPath(repoId, cleanLockPath(query.path));
      return { locks: lock ? await this.toApi([lock]) : [] };
    }
    const { offset, limit, cursor } = this.paging(query, 0);
    const locks = await this.store.locks(repoId, offset, limit);
    const list: ApiLfsLockList = { locks: await this.toApi(locks) };
    if (limit > 0 && locks.length === limit) list.next_cursor = String(cursor + 1);
    return list;
  }

  /** Locks a path for the caller; 409 naming the lock when the path is locked already. */
  async createLock(actor: Actor, access: RepoAccess, body: unknown): Promise<ApiLfsLock> {
    if (actor.kind !== 'user') throw new UnauthorizedError('You must have push access to create locks');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('Bad Request');
    const given = field(body as Record<string, unknown>, 'path');
    if (given !== undefined && given !== null && typeof given !== 'string') throw new BadRequestError('Bad Request');
    if (typeof given === 'string' && given.length > MAX_LOCK_PATH) throw new ValidationError('path', `MaxSize(${MAX_LOCK_PATH})`);
    const path = cleanLockPath(typeof given === 'string' ? given : '');
    if (path === '') throw new ValidationError('path', 'Required');
    if (path.includes('\0')) throw new ValidationError('path', 'may not contain NUL');
    const inserted = await this.store.insertLock({ repo_id: access.repo.id, owner_id: actor.user.id, path, created: nowUnix() });
    if (!inserted) {
      const existing = await this.store.lockByPath(access.repo.id, path);
      if (existing) throw new LfsLockExistsError((await this.toApi([existing]))[0]!);
      throw new ConflictError('already created lock');
    }
    return (await this.toApi([inserted]))[0]!;
  }

  /** A page of the repository's locks split into the caller's and others' (what git-lfs checks before a push). */
  async verifyLocks(actor: Actor, access: RepoAccess, paging: LfsLockPaging): Promise<ApiLfsLockListVerify> {
    if (actor.kind !== 'user') throw new UnauthorizedError('You must have push access to verify locks');
    const { offset, limit, cursor } = this.paging(paging, DEFAULT_VERIFY_PAGE);
    const locks = await this.store.locks(access.repo.id, offset, limit);
    const api = await this.toApi(locks);
    const result: ApiLfsLockListVerify = { ours: [], theirs: [] };
    locks.forEach((lock, i) => (lock.owner_id === actor.user.id ? result.ours : result.theirs).push(api[i]!));
    if (limit > 0 && locks.length === limit) result.next_cursor = String(cursor + 1);
    return result;
  }

  /** Removes a lock: the caller's own, or anyone's with `force` (writers may, as in Forgejo). */
  async unlock(actor: Actor, access: RepoAccess, idText: string, body: unknown): Promise<ApiLfsLock> {
    if (actor.kind !== 'user') throw new UnauthorizedError('You must have push access to delete locks');
    let force = false;
    if (body !== undefined && body !== null) {
      if (typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('Bad Request');
      const given = field(body as Record<string, unknown>, 'force');
      if (given !== undefined && given !== null && typeof given !== 'boolean') throw new BadRequestError('Bad Request');
      force = given === true;
    }
    const id = /^\d{1,15}$/.test(idText) ? Number(idText) : 0;
    const lock = id > 0 ? await this.store.lockById(access.repo.id, id) : undefined;
    if (!lock) throw new NotFoundError('unable to delete lock : lock does not exist');
    if (!force && lock.owner_id !== actor.user.id) throw new ForbiddenError("You must have push access to delete locks : user doesn't own lock and force flag is not set");
    const [api] = await this.toApi([lock]);
    await this.store.deleteLock(lock.id);
    return api!;
  }

  /**
   * Which page: `cursor` is the page's number from 0 (what `next_cursor` said), `limit` at most
   * `LFS_LOCKS_PAGING_NUM` (also when absent). `fallback` is the page size when neither bounds it (0: all).
   */
  private paging(paging: LfsLockPaging, fallback: number): { offset: number; limit: number; cursor: number } {
    const cap = this.ctx.settings.server.LFS_LOCKS_PAGING_NUM;
    const number = (value: unknown) => {
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
      return /^\d{1,9}$/.test(text) ? Number(text) : 0;
    };
    const cursor = number(paging.cursor);
    let limit = number(paging.limit);
    if (cap > 0 && (limit === 0 || limit > cap)) limit = cap;
    if (limit === 0) limit = fallback;
    return { offset: limit > 0 ? cursor * limit : 0, limit, cursor };
  }

  private async toApi(locks: readonly LfsLock[]): Promise<ApiLfsLock[]> {
    const owners = await this.ctx.port(UsersPort).byIds([...new Set(locks.map((l) => l.owner_id))]);
    return locks.map((lock) => ({
      id: String(lock.id),
      path: lock.path,
      locked_at: isoTime(Number(lock.created)),
      owner: { name: owners.get(lock.owner_id)?.name ?? '' },
    }));
  }
}

/** A `Range` that names only bytes past the end of the object: a 416. */
export class RangeNotSatisfiableError extends BadRequestError {
  constructor(readonly size: number) {
    super('Requested Range Not Satisfiable');
    this.name = 'RangeNotSatisfiableError';
  }
}

function link(href: string, header: Record<string, string>): LfsLink {
  return Object.keys(header).length > 0 ? { href, header } : { href };
}

function objectError(pointer: LfsPointer, code: number, message: string): LfsObjectResponse {
  const error: LfsObjectError = { code, message };
  return { oid: pointer.oid, size: pointer.size, error };
}

/** A JSON object's member as Go's decoder matches names: exactly, else case-insensitively. */
function field(record: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(record, name)) return record[name];
  for (const key of Object.keys(record)) if (key.toLowerCase() === name) return record[key];
  return undefined;
}

/** A `{oid, size}` as Go decodes it into a Pointer: a wrong type or a size that is no int64 is a 400. */
function decodePointer(value: unknown): LfsPointer {
  if (value === null) return { oid: '', size: 0 };
  if (typeof value !== 'object' || Array.isArray(value)) throw new BadRequestError('Bad Request');
  const record = value as Record<string, unknown>;
  const oid = field(record, 'oid');
  const size = field(record, 'size');
  if (oid !== undefined && oid !== null && typeof oid !== 'string') throw new BadRequestError('Bad Request');
  if (size !== undefined && size !== null && (typeof size !== 'number' || !Number.isInteger(size) || Math.abs(size) > 9223372036854775807)) throw new BadRequestError('Bad Request');
  return { oid: (oid as string | null | undefined) ?? '', size: (size as number | null | undefined) ?? 0 };
}

