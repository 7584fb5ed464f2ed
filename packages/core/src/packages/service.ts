import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { CoreContext } from '../context.js';
import { actorUser, isOrganization, isSiteAdmin, UsersPort, canSeeAccount, type Actor, type User } from '../users/index.js';
import { AccessMode, unitMode, type AccessModeValue } from '../access/index.js';
import { BlobsService, parseByteRange, type BlobSource, type BlobStorage, type RangeAnswer } from '../blobs/index.js';
import { teamUnits } from '../orgs/index.js';
import { QuotaService } from '../quota/index.js';
import { ReposService, toApiRepository } from '../repos/index.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { Page, PageRequest } from '../paging.js';
import { nowUnix } from '../storage/index.js';
import { webUrl } from '../urls.js';
import type { ApiView } from '../wire.js';
import { toApiPackage } from './convert.js';
import { assertGenericUpload } from './names.js';
import type { ApiPackage, ListPackagesQuery } from './schemas.js';
import { PackagesStore, type FileWithBlob, type VersionWithPackage } from './store.js';
import { packageBlobKey, type PackageFile } from './tables.js';
import './events.js';
import {
  DUPLICATE_PACKAGE_FILE,
  DUPLICATE_PACKAGE_VERSION,
  PACKAGE_FILE_NOT_EXIST,
  PACKAGE_NOT_EXIST,
  PackageAccessError,
  PackageQuotaError,
  QUOTA_TOTAL_COUNT,
  QUOTA_TOTAL_SIZE,
} from './errors.js';
import { spoolPackageUpload } from './spool.js';

export {
  DUPLICATE_PACKAGE_FILE,
  DUPLICATE_PACKAGE_VERSION,
  NO_PACKAGE_ACCESS,
  PACKAGE_FILE_NOT_EXIST,
  PACKAGE_NOT_EXIST,
  PackageAccessError,
  PackageQuotaError,
  QUOTA_TOTAL_COUNT,
  QUOTA_TOTAL_SIZE,
  QUOTA_TYPE_SIZE,
} from './errors.js';

/** What names a version: the owner, the type, the package's name and the version. */
export interface PackageCoordinates {
  type: string;
  name: string;
  version: string;
}

/** A file being downloaded. */
export interface PackageDownload {
  file: FileWithBlob;
  /** The bytes (those of `range` when one was asked for and could be given); read once or destroy. */
  body: Readable | undefined;
  range: RangeAnswer;
  /** With `[packages] SERVE_DIRECT` on object storage: the object's presigned URL, to redirect to instead (no body). */
  redirect?: string;
}

/** What a format adds to an upload (`addFile`). */
export interface AddFileOptions {
  /** The version must not exist yet (npm, PyPI…): an existing one is Forgejo's `ErrDuplicatePackageVersion`, 409. */
  newVersion?: boolean;
  /** The version's metadata (Forgejo's `metadata_json`), written when the upload creates the version. */
  metadataJson?: string;
  /** Whether the package's versions are semver (Forgejo's `semver_compatible`); default: generic's. */
  semverCompatible?: boolean;
  /** A file of that name in the version is replaced (Helm's re-upload, Forgejo's `OverwriteExisting`), not a 409. */
  replace?: boolean;
  /** The file's composite key (Debian's `{distribution}|{component}`): one name may repeat across keys. */
  compositeKey?: string;
  /** Runs in the upload's transaction after the file row (a format's properties: npm's dist-tags). */
  afterInsert?: (store: PackagesStore, version: VersionWithPackage, file: PackageFile) => Promise<void>;
}

interface Spooled {
  file: string;
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

/**
 * The package registry's core (Forgejo's `models/packages` and `services/packages`): packages per owner and type,
 * their versions and files, and content-addressed blobs in the `packages` blob space.
 *
 * An upload is streamed to a temporary file under `[server] APP_DATA_PATH/tmp/package-upload` while its md5, sha1,
 * sha256 and sha512 are computed and the size limits are checked (it stops reading at a limit); then the blob's
 * object is stored under its sha256 (unless a blob row has those bytes already), then the rows are written in one
 * transaction. A deletion removes the rows, then, after commit, the objects no file points at any longer.
 */
export class PackagesService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): PackagesStore {
    return this.ctx.store(PackagesStore);
  }

  private get blobs(): BlobStorage {
    return this.ctx.service(BlobsService).storage('packages');
  }

  /** `[packages] ENABLED`: when off, the registry and the package API answer 404. */
  get enabled(): boolean {
    return this.ctx.settings.packages.ENABLED;
  }

  assertEnabled(): void {
    if (!this.enabled) throw new NotFoundError();
  }

  /** The quota's view of packages, and what goes with an account or a repository; once per host. */
  subscribe(): void {
    this.ctx.service(QuotaService).provide('packages', {
      addUsage: async (ownerId, usage) => {
        usage.size.assets.packages.all += await this.store.totalSize(ownerId);
      },
      list: async (ownerId, page) => {
        const owner = await this.ctx.port(UsersPort).byId(ownerId);
        const { items, total } = await this.store.versionSizes(ownerId, page);
        return {
          items: items.map((v) => ({
            html_url: webUrl(this.ctx.settings, `${owner?.name ?? ''}/-/packages/${v.type}/${encodeURIComponent(v.name)}/${encodeURIComponent(v.version)}`),
            name: v.name,
            size: v.size,
            type: v.type,
            version: v.version,
          })),
          total,
        };
      },
    });
    const removed = new Map<number, number[]>();
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => {
      const store = tx.store(PackagesStore);
      const blobIds = await store.blobIdsOfOwner(payload.user.id);
      await store.deleteOwner(payload.user.id);
      removed.set(payload.user.id, blobIds);
    });
    this.ctx.events.on('user.deleted', async ({ payload }) => {
      const blobIds = removed.get(payload.user.id) ?? [];
      removed.delete(payload.user.id);
      await this.removeBlobs(blobIds);
    });
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => tx.store(PackagesStore).unlinkRepository(payload.repo.id));
  }

  // ---- who may do what ----

  /**
   * Forgejo's `determineAccessMode`: for an organization, its members' best team mode, raised by the teams'
   * packages unit, and read for anyone who may see it; for a user, owner for themselves and read for who may see
   * them; site administrators everything. Inactive or prohibited accounts nothing.
   */
  async accessMode(actor: Actor, owner: User): Promise<AccessModeValue> {
    const doer = actorUser(actor);
    if (this.ctx.settings.service.REQUIRE_SIGNIN_VIEW && !doer) return AccessMode.None;
    if (doer && (doer.is_active !== 1 || doer.prohibit_login === 1)) return AccessMode.None;
    if (isSiteAdmin(actor)) return AccessMode.Owner;
    let mode: AccessModeValue = AccessMode.None;
    if (isOrganization(owner)) {
      if (doer) {
        const teams = await this.store.teamsOfMember(owner.id, doer.id);
        for (const team of teams) {
          if (team.authorize > mode) mode = team.authorize as AccessModeValue;
        }
        if (teams.length > 0 && mode < AccessMode.Write) {
          for (const team of teams) {
            const units = teamUnits(team);
            const unit = team.authorize >= AccessMode.Admin || units.size === 0 ? team.authorize : (units.get('repo.packages') ?? AccessMode.None);
            if (unit > mode) mode = unit as AccessModeValue;
          }
          if (mode < AccessMode.Read) mode = AccessMode.Read;
        }
      }
      if (mode === AccessMode.None && canSeeAccount(actor, owner)) mode = AccessMode.Read;
      return mode;
    }
    if (doer && doer.id === owner.id) return AccessMode.Owner;
    if (canSeeAccount(actor, owner)) return AccessMode.Read;
    return AccessMode.None;
  }

  /** `reqPackageAccess(mode)`: the caller's mode, or `PackageAccessError`. */
  async assertAccess(actor: Actor, owner: User, mode: AccessModeValue): Promise<void> {
    if ((await this.accessMode(actor, owner)) < mode) throw new PackageAccessError();
  }

  // ---- uploads ----

  /**
   * Forgejo's generic `UploadPackage`: the file `filename` of version `version` of package `name`, created as
   * needed; 400 for a bad name, version or file name, 409 when the version has that file, 403 past a limit.
   */
  async uploadGeneric(actor: Actor, owner: User, name: string, version: string, filename: string, source: BlobSource): Promise<PackageFile> {
    this.assertEnabled();
    await this.assertAccess(actor, owner, AccessMode.Write);
    assertGenericUpload(name, version, filename);
    return this.addFile(actor, owner, { type: 'generic', name, version }, filename, source, this.ctx.settings.packages.LIMIT_SIZE_GENERIC);
  }

  /**
   * Forgejo's `CreatePackageAndAddFile` / `AddFileToExistingPackage`: stores the bytes, then in one transaction the
   * package, the version (with `options.metadataJson` when it is created; with `options.newVersion`, an existing
   * version is a 409), the blob and the file, and whatever `options.afterInsert` adds (a format's properties).
   */
  async addFile(actor: Actor, owner: User, coords: PackageCoordinates, filename: string, source: BlobSource, typeLimit: number, options: AddFileOptions = {}): Promise<PackageFile> {
    const doer = actorUser(actor);
    if (!doer) throw new PackageAccessError();
    const exempt = isSiteAdmin(actor);
    const limits = this.ctx.settings.packages;
    // What can be refused before a byte is read is refused then: the file exists, the version count is reached.
    const existing = await this.store.versionByName(owner.id, coords.type, coords.name, coords.version);
    if (existing && options.newVersion) throw new ConflictError(DUPLICATE_PACKAGE_VERSION);
    const compositeKey = options.compositeKey ?? '';
    if (existing && !options.replace && (await this.store.fileByName(existing.id, filename, compositeKey))) throw new ConflictError(DUPLICATE_PACKAGE_FILE);
    if (!existing && !exempt && limits.LIMIT_TOTAL_OWNER_COUNT > -1 && (await this.store.countVersions(owner.id)) >= limits.LIMIT_TOTAL_OWNER_COUNT) {
      throw new PackageQuotaError(QUOTA_TOTAL_COUNT);
    }
    const used = !exempt && limits.LIMIT_TOTAL_OWNER_SIZE > -1 ? await this.store.totalSize(owner.id) : 0;
    const spooled = await this.spool(source, exempt ? -1 : typeLimit, exempt || limits.LIMIT_TOTAL_OWNER_SIZE < 0 ? -1 : limits.LIMIT_TOTAL_OWNER_SIZE - used);
    let stored = false;
    try {
      const key = packageBlobKey(spooled.sha256);
      // The object first: a row never names bytes that are not stored.
      if (!(await this.store.blobBySha256(spooled.sha256)) || !(await this.blobs.exists(key))) {
        await this.blobs.put(key, createReadStream(spooled.file));
        stored = true;
      }
      const now = nowUnix();
      let replacedBlobId: number | undefined;
      const added = await this.ctx.transaction(async (tx) => {
        const store = tx.store(PackagesStore);
        const pkg = await store.ensurePackage(owner.id, coords.type, coords.name, options.semverCompatible ?? coords.type === 'generic');
        const { version, created } = await store.ensureVersion(pkg.id, doer.id, coords.version, now);
        if (!created && options.newVersion) throw new ConflictError(DUPLICATE_PACKAGE_VERSION);
        if (created && options.metadataJson !== undefined) await store.setVersionMetadata(version.id, options.metadataJson);
        if (created && !exempt && limits.LIMIT_TOTAL_OWNER_COUNT > -1 && (await store.countVersions(owner.id)) > limits.LIMIT_TOTAL_OWNER_COUNT) {
          throw new PackageQuotaError(QUOTA_TOTAL_COUNT);
        }
        const blob = await store.ensureBlob({
          size: spooled.size,
          hash_md5: spooled.md5,
          hash_sha1: spooled.sha1,
          hash_sha256: spooled.sha256,
          hash_sha512: spooled.sha512,
          created_unix: now,
        });
        // The old file goes in the same transaction as the new one comes: a failure leaves the version as it was.
        const replaced = options.replace && !created ? await store.fileByName(version.id, filename, compositeKey) : undefined;
        if (replaced) {
          await store.deleteFiles([replaced.id]);
          replacedBlobId = replaced.blob_id;
        }
        const file = await store.insertFileIfAbsent({ version_id: version.id, blob_id: blob.id, name: filename, composite_key: compositeKey, is_lead: 1, created_unix: now });
        if (!file) throw new ConflictError(DUPLICATE_PACKAGE_FILE);
        const withPackage = { ...version, pkg };
        if (options.afterInsert) await options.afterInsert(store, withPackage, file);
        // Forgejo notifies when an upload creates the version (its webhook `package` event).
        if (created) tx.emit('package.created', { actor, owner, version: withPackage });
        return file;
      });
      if (replacedBlobId !== undefined) await this.removeBlobs([replacedBlobId]);
      return added;
    } catch (error) {
      // Bytes this upload stored that no row came to name go again.
      if (stored && !(await this.store.blobBySha256(spooled.sha256))) await this.blobs.delete(packageBlobKey(spooled.sha256)).catch(() => {});
      throw error;
    } finally {
      await unlink(spooled.file).catch(() => {});
    }
  }

  /**
   * Writes the bytes to a temporary file, hashing them as they pass; stops reading as soon as a limit is passed
   * (`typeLimit`: `LIMIT_SIZE_<TYPE>`; `roomLeft`: what `LIMIT_TOTAL_OWNER_SIZE` leaves; -1: none). A failure
   * (the source errs, a limit) removes the file.
   */
  private async spool(source: BlobSource, typeLimit: number, roomLeft: number): Promise<Spooled> {
    const hashes: Record<'md5' | 'sha1' | 'sha256' | 'sha512', Hash> = {
      md5: createHash('md5'),
      sha1: createHash('sha1'),
      sha256: createHash('sha256'),
      sha512: createHash('sha512'),
    };
    let size = 0;
    const file = await spoolPackageUpload(this.ctx.settings, source, typeLimit, 'blob', (chunk, received) => {
      if (roomLeft > -1 && received > roomLeft) throw new PackageQuotaError(QUOTA_TOTAL_SIZE);
      for (const hash of Object.values(hashes)) hash.update(chunk);
      size = received;
    });
    return {
      file,
      size,
      md5: hashes.md5.digest('hex'),
      sha1: hashes.sha1.digest('hex'),
      sha256: hashes.sha256.digest('hex'),
      sha512: hashes.sha512.digest('hex'),
    };
  }

  // ---- downloads ----

  /** Forgejo's `GetFileStreamByPackageNameAndVersion`: the file and its bytes; 404 for what does not exist. */
  async download(actor: Actor, owner: User, coords: PackageCoordinates, filename: string, rangeHeader?: string | null): Promise<PackageDownload> {
    this.assertEnabled();
    await this.assertAccess(actor, owner, AccessMode.Read);
    const version = await this.store.versionByName(owner.id, coords.type, coords.name, coords.version);
    if (!version) throw new NotFoundError(PACKAGE_NOT_EXIST);
    const file = await this.store.fileByName(version.id, filename);
    if (!file) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
    // Forgejo's `ShouldServeDirect`: the storage serves the bytes, the download counts all the same.
    const direct = await this.blobs.directUrl?.(packageBlobKey(file.blob.hash_sha256), file.name);
    if (direct) {
      if (file.is_lead === 1) await this.store.countDownload(version.id);
      return { file, body: undefined, range: undefined, redirect: direct };
    }
    const range = parseByteRange(rangeHeader, file.blob.size);
    if (range === 'unsatisfiable') return { file, body: undefined, range };
    const stored = await this.blobs.get(packageBlobKey(file.blob.hash_sha256), range);
    if (!stored) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
    if (file.is_lead === 1) await this.store.countDownload(version.id);
    return { file, body: stored.stream, range };
  }

  // ---- deletions ----

  /** Forgejo's `RemovePackageVersionByNameAndVersion`: the version, its files, and the blobs left without one. */
  async deleteVersion(actor: Actor, owner: User, coords: PackageCoordinates): Promise<void> {
    this.assertEnabled();
    await this.assertAccess(actor, owner, AccessMode.Write);
    const version = await this.publicVersion(owner, coords);
    await this.removeVersion(version, { actor, owner });
  }

  /** Forgejo's `DeletePackageFile` route: the file, or the whole version when it is its last. */
  async deleteFile(actor: Actor, owner: User, coords: PackageCoordinates, filename: string): Promise<void> {
    this.assertEnabled();
    await this.assertAccess(actor, owner, AccessMode.Write);
    const version = await this.store.versionByName(owner.id, coords.type, coords.name, coords.version);
    if (!version) throw new NotFoundError(PACKAGE_NOT_EXIST);
    const file = await this.store.fileByName(version.id, filename);
    if (!file) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
    const files = await this.store.filesOfVersion(version.id);
    if (files.length === 1) {
      await this.removeVersion(version, { actor, owner });
      return;
    }
    const orphans = await this.ctx.transaction(async (tx) => {
      const store = tx.store(PackagesStore);
      await store.deleteFiles([file.id]);
      return store.deleteUnreferencedBlobs([file.blob_id]);
    });
    await this.deleteObjects(orphans);
  }

  /**
   * Removes a loaded version: its rows in one transaction, then the objects no file points at. A deletion someone
   * asked for (`deletedBy`) is announced (`package.deleted`: Forgejo's PackageDelete), with the version as it was.
   */
  async removeVersion(version: Pick<VersionWithPackage, 'id' | 'package_id'>, deletedBy?: { actor: Actor; owner: User }): Promise<void> {
    const orphans = await this.ctx.transaction(async (tx) => {
      const store = tx.store(PackagesStore);
      const blobIds = (await store.filesOfVersion(version.id)).map((f) => f.blob_id);
      const before = deletedBy ? await store.versionById(version.id) : undefined;
      await store.deleteVersion(version);
      if (deletedBy && before) tx.emit('package.deleted', { ...deletedBy, version: before });
      return store.deleteUnreferencedBlobs(blobIds);
    });
    await this.deleteObjects(orphans);
  }

  private async removeBlobs(blobIds: readonly number[]): Promise<void> {
    const orphans = await this.ctx.transaction(async (tx) => tx.store(PackagesStore).deleteUnreferencedBlobs(blobIds));
    await this.deleteObjects(orphans);
  }

  /** Deletes the stored bytes of blobs whose rows went (`deleteUnreferencedBlobs` names them). */
  async deleteObjects(sha256s: readonly string[]): Promise<void> {
    for (const sha256 of sha256s) await this.blobs.delete(packageBlobKey(sha256));
  }

  // ---- the API's operations ----

  /** Forgejo's `ListPackages`: the owner's versions, newest first, by type and name part. */
  async list(actor: Actor, owner: User, query: ListPackagesQuery, page: PageRequest): Promise<Page<VersionWithPackage>> {
    await this.assertAccess(actor, owner, AccessMode.Read);
    return this.store.searchVersions({ ownerId: owner.id, type: query.type, query: query.q?.trim() }, page);
  }

  async get(actor: Actor, owner: User, coords: PackageCoordinates): Promise<VersionWithPackage> {
    await this.assertAccess(actor, owner, AccessMode.Read);
    return this.publicVersion(owner, coords);
  }

  /**
   * A version the API may name: the versions a format keeps for itself (Debian's index and signing key, a container
   * image's blob uploads) are not there for it, as in Forgejo's lookups by name, which skip internal versions.
   */
  private async publicVersion(owner: User, coords: PackageCoordinates): Promise<VersionWithPackage> {
    const version = await this.store.versionByName(owner.id, coords.type, coords.name, coords.version);
    if (!version || version.is_internal !== 0 || version.pkg.is_internal !== 0) throw new NotFoundError(PACKAGE_NOT_EXIST);
    return version;
  }

  async files(actor: Actor, owner: User, coords: PackageCoordinates): Promise<FileWithBlob[]> {
    const version = await this.get(actor, owner, coords);
    return this.store.filesOfVersion(version.id);
  }

  /** Forgejo's `LinkToRepository`: 404 for no such package or repository, 400 when linked already, 403 without write on its packages. */
  async link(actor: Actor, owner: User, type: string, name: string, repoName: string): Promise<void> {
    await this.assertAccess(actor, owner, AccessMode.Write);
    const pkg = await this.store.findPackage(owner.id, type, name);
    if (!pkg || pkg.is_internal !== 0) throw new NotFoundError(PACKAGE_NOT_EXIST);
    const access = await this.ctx.service(ReposService).resolve(actor, owner.name, repoName);
    if (access.repo.owner_id !== pkg.owner_id) throw new ForbiddenError('permission denied');
    if (pkg.repo_id > 0) throw new BadRequestError('invalid argument');
    if (unitMode(access, 'repo.packages') < AccessMode.Write) throw new ForbiddenError('permission denied');
    await this.store.setRepository(pkg.id, access.repo.id);
  }

  /** Forgejo's `UnlinkFromRepository`: 400 when not linked, 403 without write on the repository's packages. */
  async unlink(actor: Actor, owner: User, type: string, name: string): Promise<void> {
    await this.assertAccess(actor, owner, AccessMode.Write);
    const pkg = await this.store.findPackage(owner.id, type, name);
    if (!pkg) throw new NotFoundError(PACKAGE_NOT_EXIST);
    if (pkg.repo_id === 0) throw new BadRequestError('invalid argument');
    const access = await this.ctx.service(ReposService).resolveById(actor, pkg.repo_id).catch(() => undefined);
    if (access && unitMode(access, 'repo.packages') < AccessMode.Write) throw new ForbiddenError('permission denied');
    await this.store.setRepository(pkg.id, 0);
  }

  /** The wire form of versions: their owner, creators, and linked repositories the viewer may see. */
  async present(view: ApiView, owner: User, versions: readonly VersionWithPackage[]): Promise<ApiPackage[]> {
    const creators = await this.ctx.port(UsersPort).byIds([...new Set(versions.map((v) => v.creator_id))]);
    const repos = new Map<number, ReturnType<typeof toApiRepository> | null>();
    for (const version of versions) {
      const repoId = version.pkg.repo_id;
      if (repoId === 0 || repos.has(repoId)) continue;
      const access = await this.ctx.service(ReposService).resolveById(view.viewer, repoId).catch(() => undefined);
      repos.set(repoId, access ? toApiRepository(access, view) : null);
    }
    return versions.map((v) => toApiPackage(v, owner, creators.get(v.creator_id), repos.get(v.pkg.repo_id) ?? null, view));
  }
}
