import { randomUUID } from 'node:crypto';
import type { CoreContext } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { prepend, readHead, type AttachmentUpload } from '../attachments/index.js';
import { EditAttachmentOptionsSchema, type EditAttachmentOptions } from '../attachments/index.js';
import { SNIFF_LENGTH, isAllowedType, mediaTypeOf, sniffContentType } from '../attachments/index.js';
import { AttachmentsPort } from '../attachments/index.js';
import { attachmentBlobKey, type Attachment } from '../attachments/index.js';
import { BlobsService } from '../blobs/index.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { QuotaService } from '../quota/index.js';
import type { RepoAccess } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { ReleaseAssetsStore } from './assets-store.js';
import { ReleasesService, parseReleaseId } from './service.js';
import type { Release } from './tables.js';
import { trimEnd } from '../text.js';

/** What an asset upload request carries, once its form was read as far as the file. */
export interface ReleaseAssetForm {
  /** The file, when the request carries one. */
  file?: AttachmentUpload;
  /** `name`: replaces the file's own name, or names a link. */
  name?: string;
  /** `external_url`: the asset links there instead of holding a file. */
  externalUrl?: string;
}

/**
 * Reads the request (only after the checks passed); it may throw (a malformed form) and the upload is refused
 * with that error.
 */
export type OpenReleaseAsset = () => Promise<ReleaseAssetForm>;

/** Forgejo's check of an external asset's link: an absolute http(s) URL. */
function assertExternalUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadRequestError(`invalid external URL: '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadRequestError(`invalid external URL: '${text}'`);
  return text;
}

/** Go's `path.Base` of a URL's path; `.` (no path at all) is the host instead, as Forgejo names a link. */
function nameOfLink(text: string): string {
  // WHATWG URLs always have a path ("/"); Go's keep it empty when the text has none.
  const rawPath = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/i.exec(text)?.[1] ?? '';
  if (rawPath === '') return new URL(text).host;
  const trimmed = trimEnd(rawPath, '/');
  if (trimmed === '') return '/';
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * Release assets (`/repos/{owner}/{repo}/releases/{id}/assets…`): files uploaded to a release, or links to files
 * elsewhere (`external_url`). Files are attachments with `release_id`, kept in the attachments blob space and
 * served by `/attachments/{uuid}` (their `browser_download_url`); `[attachment] ENABLED` and `MAX_SIZE` apply,
 * `[repository.release] ALLOWED_TYPES` (as Forgejo: empty allows any), and the owner's quota for release attachments.
 */
export class ReleaseAssetsService {
  constructor(private readonly ctx: CoreContext) {}

  private get releases(): ReleasesService {
    return this.ctx.service(ReleasesService);
  }

  async list(_actor: Actor, _access: RepoAccess, release: Release): Promise<Attachment[]> {
    return this.ctx.store(ReleaseAssetsStore).ofReleases([release.id]);
  }

  async get(_actor: Actor, _access: RepoAccess, release: Release, id: string | number): Promise<Attachment> {
    return this.find(release, id);
  }

  /**
   * Adds a file or a link to the release: 400 when the request has both or neither, when a file has no name or a
   * type `[repository.release] ALLOWED_TYPES` refuses, or when the link is no http(s) URL; 413 past `MAX_SIZE` or the quota.
   */
  async upload(actor: Actor, access: RepoAccess, release: Release, open: OpenReleaseAsset): Promise<Attachment> {
    if (!this.ctx.settings.attachment.ENABLED) throw new NotFoundError('Attachment is not enabled');
    this.releases.assertWriter(actor, access);
    const user = actorUser(actor)!;
    await this.ctx.service(QuotaService).assertCanWrite(access.owner, 'size:assets:attachments:releases');
    const input = await open();
    const externalUrl = input.externalUrl ?? '';
    const file = input.file;
    if (file && externalUrl) {
      await drop(file);
      throw new BadRequestError("'attachment' and 'external_url' are mutually exclusive");
    }
    const row = { repo_id: access.repo.id, release_id: release.id, uploader_id: user.id, created_unix: nowUnix() };
    if (externalUrl) {
      assertExternalUrl(externalUrl);
      const name = input.name || nameOfLink(externalUrl);
      return this.ctx.port(AttachmentsPort).insert({ ...row, uuid: randomUUID(), name, external_url: externalUrl });
    }
    if (!file) throw new BadRequestError("One of 'attachment' or 'external_url' is required");
    const name = input.name || file.name;
    if (!name) {
      await drop(file);
      throw new BadRequestError("Missing 'name' parameter");
    }
    const { head, rest } = await readHead(file.source, SNIFF_LENGTH);
    if (!isAllowedType(this.ctx.settings['repository.release'].ALLOWED_TYPES, name, head)) {
      await rest.return?.();
      throw new BadRequestError(`This file extension or type is not allowed to be uploaded. Type: ${mediaTypeOf(sniffContentType(head))}`);
    }
    const uuid = randomUUID();
    const key = attachmentBlobKey(uuid);
    const blobs = this.ctx.service(BlobsService).storage('attachments');
    const maxMiB = this.ctx.settings.attachment.MAX_SIZE;
    const { size } = await blobs.put(key, prepend(head, rest), { maxBytes: maxMiB < 0 ? undefined : maxMiB * 1024 * 1024 });
    try {
      return await this.ctx.port(AttachmentsPort).insert({ ...row, uuid, name, size });
    } catch (error) {
      await blobs.delete(key).catch(() => {});
      throw error;
    }
  }

  /** Renames the asset, or moves a link (`browser_download_url`, links only: 400 for a file). Answers 201 as Forgejo. */
  async edit(actor: Actor, access: RepoAccess, release: Release, id: string | number, input: EditAttachmentOptions): Promise<Attachment> {
    this.releases.assertWriter(actor, access);
    const opts = acceptInput(EditAttachmentOptionsSchema, input);
    let asset = await this.find(release, id);
    if (opts.browser_download_url) {
      if (!asset.external_url) throw new BadRequestError('existing attachment is not external');
      assertExternalUrl(opts.browser_download_url);
    }
    if (opts.name && opts.name !== asset.name) {
      await this.ctx.port(AttachmentsPort).rename(asset.id, opts.name);
      asset = { ...asset, name: opts.name };
    }
    if (opts.browser_download_url && opts.browser_download_url !== asset.external_url) {
      await this.ctx.store(ReleaseAssetsStore).setExternalUrl(asset.id, opts.browser_download_url);
      asset = { ...asset, external_url: opts.browser_download_url };
    }
    return asset;
  }

  async delete(actor: Actor, access: RepoAccess, release: Release, id: string | number): Promise<void> {
    this.releases.assertWriter(actor, access);
    const asset = await this.find(release, id);
    await this.ctx.port(AttachmentsPort).deleteByIds([asset.id]);
    await this.releases.removeBlobs([asset]);
  }

  private async find(release: Release, id: string | number): Promise<Attachment> {
    const number = parseReleaseId(id);
    const asset = number ? await this.ctx.port(AttachmentsPort).byId(number) : undefined;
    if (!asset || asset.release_id !== release.id) throw new NotFoundError();
    return asset;
  }
}

/** Lets a file that will not be stored go: its source stops. */
async function drop(file: AttachmentUpload): Promise<void> {
  await file.source[Symbol.asyncIterator]().return?.();
}
