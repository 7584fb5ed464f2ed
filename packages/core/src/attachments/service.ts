import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { CoreContext, CoreTransaction } from '../context.js';
import { actorUser, isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { BlobsService } from '../blobs/index.js';
import { parseByteRange, type RangeAnswer } from '../blobs/index.js';
import type { BlobSource, BlobStorage } from '../blobs/index.js';
import { SNIFF_BYTES, sniffServedType, type ServedType } from '../gitdata/index.js';
import { ForbiddenError, LockedError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import type { Page, PageRequest } from '../paging.js';
import { QuotaService } from '../quota/index.js';
import type { ApiQuotaUsedAttachment } from '../quota/index.js';
import type { RepoAccess } from '../repos/index.js';
import '../repos/index.js';
import { ReposService } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { apiUrl, webUrl } from '../urls.js';
import type { User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import './issues.js';
import { EditAttachmentOptionsSchema, type EditAttachmentOptions } from './schemas.js';
import { SNIFF_LENGTH, isAllowedType } from './sniff.js';
import { AttachmentOrphansStore } from './orphans-store.js';
import { AttachmentsStore } from './store.js';
import { attachmentBlobKey, type Attachment } from './tables.js';
import { AttachmentUsageStore, type OwnedAttachmentRow } from './usage-store.js';

/** A file on its way in: its name (the form's file name, or the `name` query) and its bytes. */
export interface AttachmentUpload {
  name: string;
  source: BlobSource;
}

/**
 * Produces the upload once the checks passed, so nothing is read from a request the caller may not make. It may
 * throw (a malformed form) and the upload is refused with that error.
 */
export type OpenUpload = () => Promise<AttachmentUpload>;

/** What an upload may say besides its file. */
export interface UploadOptions {
  /**
   * `updated_at` (RFC 3339): the time the upload is dated and the issue's updated time become, as a migration
   * sets them; site administrators only (Forgejo's `SetIssueUpdateDate`).
   */
  updatedAt?: string;
}

/** An attachment being downloaded: its row, how to serve it, and its bytes. */
export interface AttachmentDownload {
  attachment: Attachment;
  size: number;
  /** The type sniffed from its first bytes, as Forgejo serves raw files (with a CSP for SVG and PDF). */
  served: ServedType;
  /** The bytes (those of `range` when one was asked for), to read once: send them, or destroy the stream. */
  body: Readable;
  /** What the `Range` asked for: the bytes `body` holds, or none it could give (416); absent: the whole file. */
  range: RangeAnswer;
  /**
   * Counts the download (`download_count`); call it when the bytes are sent, not for a HEAD, a 304 or a 416, so
   * that only what was downloaded counts.
   */
  countDownload(): Promise<void>;
}

/**
 * An attachment the object storage serves itself (`[attachment] SERVE_DIRECT`, as Forgejo): where to send the client, a
 * presigned URL valid for a few minutes. The download is counted already.
 */
export interface AttachmentRedirect {
  attachment: Attachment;
  redirect: string;
}

/** How long a blob without a row is left alone by the sweep: an upload may be between its blob and its row. */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** Uuids asked about per query while sweeping. */
const SWEEP_BATCH = 500;

/** Where an upload goes: the issue, and the comment (0: the issue itself). */
export interface AttachmentHolder {
  issueId: number;
  commentId: number;
}

/**
 * Files attached to issues and comments (Forgejo's `[attachment]`): upload, rename, delete and download, with
 * Forgejo's type and size limits, and the owner's quota. Bytes live in the host's `attachments` blob space under
 * `attachmentBlobKey(uuid)`. The routes of an issue's files are `IssueAttachmentsService` (issues) and those of a
 * comment's `CommentAttachmentsService` (comments), which sit above and call this one.
 *
 * Consistency: an upload writes the blob, then the row (a failed insert removes the blob); a deletion removes the
 * rows, then the blobs after commit. A crash between the two leaves a blob without a row, which is never served
 * (downloads go through the row) and which `reconcile()` removes at start-up; a row whose blob is gone answers 404.
 */
export class AttachmentsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): AttachmentsStore {
    return this.ctx.store(AttachmentsStore);
  }

  private get blobs(): BlobStorage {
    return this.ctx.service(BlobsService).storage('attachments');
  }

  /** `[attachment] ENABLED`: when off, every attachment route answers 404. */
  get enabled(): boolean {
    return this.ctx.settings.attachment.ENABLED;
  }

  /** Registers the quota's view of attachments and the clean-ups that follow deletions; once per host. */
  subscribe(): void {
    this.ctx.service(QuotaService).provide('attachments', {
      addUsage: async (ownerId, usage) => {
        const sizes = await this.ctx.store(AttachmentUsageStore).sizes(ownerId);
        usage.size.assets.attachments.issues += sizes.issues;
        usage.size.assets.attachments.releases += sizes.releases;
      },
      list: async (ownerId, page) => this.listOwned(ownerId, page),
    });
    // After commit: the rows go first, then the blobs; a crash in between leaves blobs the sweep removes. Those of
    // a deleted issue or comment go the same way (`IssueAttachmentsService`, `CommentAttachmentsService`).
    this.ctx.events.on('repo.deleted', async ({ payload }) => this.removeAll(await this.store.allOfRepo(payload.repo.id)));
  }

  /** Removes the rows, then the blobs, of these attachments. */
  async removeAll(attachments: readonly Attachment[]): Promise<void> {
    if (attachments.length === 0) return;
    await this.store.deleteByIds(attachments.map((a) => a.id));
    await this.removeBlobs(attachments);
  }

  private async removeBlobs(attachments: readonly Attachment[]): Promise<void> {
    for (const attachment of attachments) {
      if (!attachment.external_url) await this.blobs.delete(attachmentBlobKey(attachment.uuid));
    }
  }

  // ---- downloads ----

  /**
   * The attachment `uuid` and its bytes (`GET /attachments/{uuid}`), the download counted only by its
   * `countDownload()`: 404 when it does not exist, when the actor may not read what holds it (the issue's or pull
   * request's unit, the releases unit), or when its bytes are gone. An attachment held by nothing is its uploader's
   * alone. With `SERVE_DIRECT` on object storage, where the object itself is (counted as a download, as Forgejo does).
   */
  async download(actor: Actor, uuid: string, rangeHeader?: string | null): Promise<AttachmentDownload | AttachmentRedirect> {
    const attachment = /^[0-9a-f-]{36}$/i.test(uuid) ? await this.store.byUuid(uuid) : undefined;
    if (!attachment || attachment.external_url) throw new NotFoundError();
    await this.assertMayRead(actor, attachment);
    const direct = await this.blobs.directUrl?.(attachmentBlobKey(attachment.uuid), attachment.name);
    if (direct) {
      await this.store.countDownload(attachment.id);
      return { attachment, redirect: direct };
    }
    const blob = await this.blobs.get(attachmentBlobKey(attachment.uuid));
    if (!blob) throw new NotFoundError();
    const { head, rest } = await readHead(blob.stream, SNIFF_BYTES);
    const served = sniffServedType(Buffer.from(head));
    const range = parseByteRange(rangeHeader, blob.size);
    const countDownload = () => this.store.countDownload(attachment.id);
    if (range === undefined || range === 'unsatisfiable') {
      return { attachment, size: blob.size, served, range, countDownload, body: Readable.from(prepend(head, rest), { objectMode: false }) };
    }
    // The type came from the first bytes; the answer is only the range's.
    await rest.return?.();
    const part = await this.blobs.get(attachmentBlobKey(attachment.uuid), range);
    if (!part) throw new NotFoundError();
    return { attachment, size: blob.size, served, range, countDownload, body: part.stream };
  }

  private async assertMayRead(actor: Actor, attachment: Attachment): Promise<void> {
    const linked = attachment.issue_id > 0 || attachment.release_id > 0;
    if (!linked) {
      if (actorUser(actor)?.id !== attachment.uploader_id) throw new NotFoundError();
      return;
    }
    const access = await this.ctx.service(ReposService).resolveById(actor, attachment.repo_id);
    if (attachment.issue_id > 0) {
      if (!(await this.ctx.provider('attachments.issues').mayReadIssueOf(access, attachment))) throw new NotFoundError();
      return;
    }
    if (unitMode(access, 'repo.releases') < AccessMode.Read) throw new NotFoundError();
  }

  // ---- start-up ----

  /**
   * Removes what interrupted uploads and deletions left: temporary files, rows whose holder is gone (with their
   * blobs), and blobs older than an hour that no row names. Returns how many row-less blobs were removed. Run by
   * one process at start-up.
   */
  async reconcile(): Promise<number> {
    const blobs = this.blobs;
    // Only what is older than any upload takes: another process sharing the storage may be writing.
    await blobs.cleanup({ olderThanMs: ORPHAN_GRACE_MS });
    // Rows whose issue, comment or repository is gone (their deletion's clean-up did not run): rows, then blobs.
    await this.removeAll(await this.ctx.store(AttachmentOrphansStore).orphanedRows());
    const before = Date.now() - ORPHAN_GRACE_MS;
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      const uuids = batch.map((key) => key.slice(key.lastIndexOf('/') + 1));
      const known = await this.store.existingUuids(uuids);
      for (let i = 0; i < batch.length; i++) {
        if (known.has(uuids[i]!)) continue;
        await blobs.delete(batch[i]!);
        removed++;
      }
      batch = [];
    };
    for await (const { key, modifiedMs } of blobs.list()) {
      if (modifiedMs > before) continue;
      batch.push(key);
      if (batch.length >= SWEEP_BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    return removed;
  }

  // ---- shared ----

  assertEnabled(): void {
    if (!this.enabled) throw new NotFoundError();
  }

  /** A signed-in user, on a repository that is not archived. */
  assertMayChange(actor: Actor, access: RepoAccess): User {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    if (access.repo.is_archived) throw new LockedError('repo is archived');
    return user;
  }

  /**
   * What an upload to an issue or one of its comments asks first, in Forgejo's order: attachments enabled, a
   * signed-in user on a writable repository, room in the owner's issue-attachment quota. The uploader.
   */
  async assertMayUploadToIssues(actor: Actor, access: RepoAccess): Promise<User> {
    this.assertEnabled();
    const user = this.assertMayChange(actor, access);
    await this.ctx.service(QuotaService).assertCanWrite(access.owner, 'size:assets:attachments:issues');
    return user;
  }

  async findInRepo(access: RepoAccess, id: string | number): Promise<Attachment> {
    const number = parseId(id);
    const attachment = number === undefined ? undefined : await this.store.byId(number);
    if (!attachment) throw new NotFoundError(`attachment does not exist [id: ${number ?? 0}, uuid: ]`);
    if (attachment.repo_id !== access.repo.id) throw new NotFoundError('no such attachment in repo');
    return attachment;
  }

  /** Only the name changes (an empty one leaves it), as in Forgejo. */
  async rename(attachment: Attachment, input: EditAttachmentOptions): Promise<Attachment> {
    const opts = acceptInput(EditAttachmentOptionsSchema, input);
    if (opts.name === undefined || opts.name === '' || opts.name === attachment.name) return attachment;
    await this.store.rename(attachment.id, opts.name);
    return { ...attachment, name: opts.name };
  }

  /**
   * Stores the file, then its row; `datedUnix` (a migration's date) replaces now for the row and the issue.
   * `touchHolder` runs in the row's transaction, right after the insert: it moves the holder's updated time.
   */
  async upload(
    user: User,
    access: RepoAccess,
    holder: AttachmentHolder,
    open: OpenUpload,
    datedUnix: number | undefined,
    touchHolder: (tx: CoreTransaction) => Promise<void>,
  ): Promise<Attachment> {
    const { name, source } = await open();
    const { head, rest } = await readHead(source, SNIFF_LENGTH);
    if (!isAllowedType(this.ctx.settings.attachment.ALLOWED_TYPES, name, head)) {
      await rest.return?.();
      throw new ValidationError('', 'This file extension or type is not allowed to be uploaded.');
    }
    const uuid = randomUUID();
    const key = attachmentBlobKey(uuid);
    const maxMiB = this.ctx.settings.attachment.MAX_SIZE;
    const { size } = await this.blobs.put(key, prepend(head, rest), { maxBytes: maxMiB < 0 ? undefined : maxMiB * 1024 * 1024 });
    try {
      return await this.ctx.transaction(async (tx) => {
        const row = await tx.store(AttachmentsStore).insert({
          uuid,
          repo_id: access.repo.id,
          issue_id: holder.issueId,
          comment_id: holder.commentId,
          uploader_id: user.id,
          name,
          size,
          created_unix: datedUnix ?? nowUnix(),
        });
        await touchHolder(tx);
        return row;
      });
    } catch (error) {
      await this.blobs.delete(key).catch(() => {});
      throw error;
    }
  }

  private async listOwned(ownerId: number, page: PageRequest): Promise<Page<ApiQuotaUsedAttachment>> {
    const { items, total } = await this.ctx.store(AttachmentUsageStore).list(ownerId, page);
    return { items: items.map((row) => this.toQuotaItem(row)), total };
  }

  private toQuotaItem(row: OwnedAttachmentRow): ApiQuotaUsedAttachment {
    const settings = this.ctx.settings;
    const repoPath = `${row.owner_name}/${row.repo_name}`;
    let api: string;
    let containerApi: string;
    let containerHtml: string;
    if (row.release_id > 0) {
      api = apiUrl(settings, `/repos/${repoPath}/releases/${row.release_id}/assets/${row.id}`);
      containerApi = apiUrl(settings, `/repos/${repoPath}/releases/${row.release_id}`);
      containerHtml = webUrl(settings, `${repoPath}/releases`);
    } else {
      const issueHtml = webUrl(settings, `${repoPath}/${row.issue_is_pull ? 'pulls' : 'issues'}/${row.issue_index ?? 0}`);
      if (row.comment_id > 0) {
        api = apiUrl(settings, `/repos/${repoPath}/issues/comments/${row.comment_id}/assets/${row.id}`);
        containerApi = apiUrl(settings, `/repos/${repoPath}/issues/comments/${row.comment_id}`);
        containerHtml = `${issueHtml}#issuecomment-${row.comment_id}`;
      } else {
        api = apiUrl(settings, `/repos/${repoPath}/issues/${row.issue_index ?? 0}/assets/${row.id}`);
        containerApi = apiUrl(settings, `/repos/${repoPath}/issues/${row.issue_index ?? 0}`);
        containerHtml = issueHtml;
      }
    }
    return { api_url: api, contained_in: { api_url: containerApi, html_url: containerHtml }, name: row.name, size: row.size };
  }
}

/** RFC 3339, as Go's time.RFC3339 parses it. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** The unix time of `updated_at`, for site administrators; 422 when malformed, 403 for anyone else. */
export function dateOf(actor: Actor, { updatedAt }: UploadOptions): number | undefined {
  if (updatedAt === undefined || updatedAt === '') return undefined;
  const ms = RFC3339.test(updatedAt) ? Date.parse(updatedAt) : NaN;
  if (Number.isNaN(ms)) throw new ValidationError('updated_at', `parsing time ${JSON.stringify(updatedAt)} as RFC 3339 failed`);
  if (!isSiteAdmin(actor)) throw new ForbiddenError('permission denied');
  return Math.floor(ms / 1000);
}

/** A decimal id as Forgejo's ParamsInt64 reads it; undefined when it is not one. */
export function parseId(id: string | number): number | undefined {
  const n = typeof id === 'number' ? id : /^\d{1,16}$/.test(id) ? Number(id) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The first `length` bytes of a source (fewer when it is shorter), and an iterator over the rest. */
export async function readHead(source: BlobSource, length: number): Promise<{ head: Uint8Array; rest: AsyncIterator<Uint8Array> }> {
  const rest = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < length) {
    const next = await rest.next();
    if (next.done) break;
    chunks.push(next.value);
    size += next.value.byteLength;
  }
  return { head: Buffer.concat(chunks, size), rest };
}

/** `head`, then what is left of the iterator. */
export async function* prepend(head: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncIterable<Uint8Array> {
  let finished = false;
  try {
    if (head.byteLength > 0) yield head;
    for (;;) {
      const next = await rest.next();
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Abandoned early (too large, a failed write): let the source stop too.
    if (!finished) await rest.return?.();
  }
}
