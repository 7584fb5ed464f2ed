/**
 * The container registry (OCI distribution), as Forgejo keeps it (`modules/packages/container`,
 * `routers/api/packages/container`): a package of type `container` per image (its lower-case name), whose internal
 * version `_upload` holds the uploaded blobs as files named by their digest, and one version per tag (or per digest
 * for an untagged manifest, an image index's members) holding `manifest.json` (the lead file, with its digest and
 * media type as file properties) and a file per blob it references. Blobs are the registry's content-addressed blobs.
 *
 * An upload session lives in the `packages` blob space, not in process memory, so a chunked upload may go through
 * any process: `container-upload/<uuid>/session` says whose image it is for, and each chunk is an object
 * `container-upload/<uuid>/c<start>` (start padded to 16 digits, so the keys sort by offset). Finishing streams the
 * chunks in order through the registry's upload (hashed as they pass) and checks the digest before the rows commit.
 */
import { createHash, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { CoreContext } from '../context.js';
import { isHttpUrl } from '../urls.js';
import { AccessMode } from '../access/index.js';
import { BlobsService, type BlobSource, type BlobStorage } from '../blobs/index.js';
import { Store, type StoreScope } from '../storage/index.js';
import { actorUser, isSiteAdmin, UsersPort, type Actor, type User } from '../users/index.js';
import { PackageQuotaError, PackagesService, QUOTA_TYPE_SIZE } from './service.js';
import { PackagesStore, type FileWithBlob } from './store.js';
import { PackagePropertyType, packageBlobKey, type PackageBlob, type PackageVersion, type PackagesTables } from './tables.js';

export const CONTAINER_TYPE = 'container';
/** The internal version whose files are the image's uploaded blobs (Forgejo's `container_model.UploadVersion`). */
export const CONTAINER_UPLOAD_VERSION = '_upload';
/** The lead file of a manifest's version (`container_module.ManifestFilename`). */
export const CONTAINER_MANIFEST_FILE = 'manifest.json';
/** Forgejo's property names (`container_module.Property*`). */
export const CONTAINER_PROPERTY_REPOSITORY = 'container.repository';
export const CONTAINER_PROPERTY_DIGEST = 'container.digest';
export const CONTAINER_PROPERTY_MEDIA_TYPE = 'container.mediatype';
export const CONTAINER_PROPERTY_MANIFEST_TAGGED = 'container.manifest.tagged';
export const CONTAINER_PROPERTY_MANIFEST_REFERENCE = 'container.manifest.reference';

export const MEDIA_TYPE_OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const MEDIA_TYPE_OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const MEDIA_TYPE_DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const MEDIA_TYPE_DOCKER_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';

/** Forgejo's `maxManifestSize`. */
export const CONTAINER_MAX_MANIFEST_SIZE = 10 * 1024 * 1024;
/** A config blob read to fill the version's metadata; larger ones are not parsed. */
const MAX_CONFIG_SIZE = 4 * 1024 * 1024;
/** Forgejo's bearer tokens last a day. */
const TOKEN_SECONDS = 24 * 60 * 60;
const UPLOAD_PREFIX = 'container-upload';

/** An OCI distribution error (`{"errors":[{"code","message"}]}`), with the status Forgejo gives its code. */
export class ContainerError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message = '',
  ) {
    super(message);
    this.name = 'ContainerError';
  }
}

const blobUnknown = () => new ContainerError('BLOB_UNKNOWN', 404);
const uploadUnknown = () => new ContainerError('BLOB_UPLOAD_UNKNOWN', 404);
const digestInvalid = (message = '') => new ContainerError('DIGEST_INVALID', 400, message);
const manifestUnknown = () => new ContainerError('MANIFEST_UNKNOWN', 404);
const manifestInvalid = (message = '') => new ContainerError('MANIFEST_INVALID', 400, message);
const manifestBlobUnknown = () => new ContainerError('MANIFEST_BLOB_UNKNOWN', 404);
const nameUnknown = () => new ContainerError('NAME_UNKNOWN', 404);

function isLowerAlnum(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

/** Forgejo's `imageNamePattern` (`[a-z0-9]+([._-][a-z0-9]+)*` components joined by `/`), checked in one pass. */
export function isValidImageName(name: string): boolean {
  if (name.length === 0 || name.length > 255) return false;
  let runLength = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (isLowerAlnum(c)) {
      runLength++;
      continue;
    }
    // A separator needs an alphanumeric before and after it.
    if (runLength === 0 || i === name.length - 1) return false;
    if (c !== 0x2e && c !== 0x5f && c !== 0x2d && c !== 0x2f) return false;
    runLength = 0;
  }
  return runLength > 0;
}

/** Forgejo's `referencePattern`: `[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}`. */
export function isValidTag(reference: string): boolean {
  if (reference.length === 0 || reference.length > 128) return false;
  for (let i = 0; i < reference.length; i++) {
    const c = reference.charCodeAt(i);
    const word = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
    if (!word && (i === 0 || (c !== 0x2e && c !== 0x2d))) return false;
  }
  return true;
}

/** A `sha256:<64 lower hex>` digest (the only algorithm Forgejo's registry stores). */
export function isValidDigest(digest: string): boolean {
  if (digest.length !== 71 || !digest.startsWith('sha256:')) return false;
  for (let i = 7; i < 71; i++) {
    const c = digest.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/** A blob of an image: its digest, size and the stored bytes' row. */
export interface ContainerBlob {
  digest: string;
  size: number;
  blob: PackageBlob;
  mediaType: string;
}

/** A manifest: its digest, media type and stored bytes. */
export interface ContainerManifest {
  digest: string;
  mediaType: string;
  size: number;
  blob: PackageBlob;
}

/** An upload session's state. */
export interface ContainerUploadState {
  uuid: string;
  size: number;
}

/** Forgejo's `container_module.Metadata`, as stored in the version's `metadata_json` (its JSON names). */
interface ContainerMetadata {
  type: 'oci';
  is_tagged: boolean;
  platform?: string;
  description?: string;
  authors?: string[];
  license?: string;
  project_url?: string;
  repository_url?: string;
  documentation_url?: string;
  labels?: Record<string, string>;
  layer_creation?: string[];
  manifests?: { platform: string; digest: string; size: number }[];
}

/** Forgejo's `container_module.DefaultPlatform`. */
const DEFAULT_PLATFORM = 'linux/amd64';

/** Forgejo's `isValidMediaType`: a Docker or OCI type. */
function isRegistryMediaType(type: string): boolean {
  return type.startsWith('application/vnd.docker.') || type.startsWith('application/vnd.oci.');
}

function isImageManifestType(type: string): boolean {
  const lower = type.toLowerCase();
  return lower === MEDIA_TYPE_OCI_MANIFEST || lower === MEDIA_TYPE_DOCKER_MANIFEST;
}

function isImageIndexType(type: string): boolean {
  const lower = type.toLowerCase();
  return lower === MEDIA_TYPE_OCI_INDEX || lower === MEDIA_TYPE_DOCKER_LIST;
}

function isDescriptor(value: unknown): value is Descriptor {
  const d = value as Descriptor | null;
  return typeof d === 'object' && d !== null && typeof d.digest === 'string' && typeof d.size === 'number';
}

/** An index entry's platform as Forgejo writes it: `os/arch[/variant]`, else linux/amd64. */
function platformOf(platform: Descriptor['platform']): string {
  if (!platform || typeof platform !== 'object') return DEFAULT_PLATFORM;
  let text = `${platform.os ?? ''}/${platform.architecture ?? ''}`;
  if (typeof platform.variant === 'string' && platform.variant !== '') text += `/${platform.variant}`;
  return text;
}

/** Forgejo's `validation.IsValidURL`: an absolute http or https URL. */
function isHttpUrlField(value: string | undefined): value is string {
  return value !== undefined && value !== '' && isHttpUrl(value);
}

interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
}

/** The rows the registry reads beyond the packages store's: files by digest within an image, internal versions. */
class ContainerStore extends Store<PackagesTables> {
  /** A file named `digest` in any version of the image (`GetContainerBlob`), with its blob. */
  async fileByDigest(ownerId: number, image: string, digest: string, manifestOnly: boolean): Promise<(FileWithBlob & { mediaType: string; versionId: number }) | undefined> {
    let query = this.db
      .selectFrom('package_file')
      .innerJoin('package_version', 'package_version.id', 'package_file.version_id')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .innerJoin('package_blob', 'package_blob.id', 'package_file.blob_id')
      .innerJoin('package_property as digest_prop', (join) =>
        join.onRef('digest_prop.ref_id', '=', 'package_file.id').on('digest_prop.ref_type', '=', PackagePropertyType.File).on('digest_prop.name', '=', CONTAINER_PROPERTY_DIGEST),
      )
      .leftJoin('package_property as type_prop', (join) =>
        join.onRef('type_prop.ref_id', '=', 'package_file.id').on('type_prop.ref_type', '=', PackagePropertyType.File).on('type_prop.name', '=', CONTAINER_PROPERTY_MEDIA_TYPE),
      )
      .selectAll('package_file')
      .select(['package_blob.size as b_size', 'package_blob.hash_md5 as b_md5', 'package_blob.hash_sha1 as b_sha1', 'package_blob.hash_sha256 as b_sha256', 'package_blob.hash_sha512 as b_sha512', 'package_blob.created_unix as b_created', 'type_prop.value as media_type'])
      .where('package.owner_id', '=', ownerId)
      .where('package.type', '=', CONTAINER_TYPE)
      .where('package.lower_name', '=', image)
      .where('digest_prop.value', '=', digest);
    if (manifestOnly) query = query.where('package_file.lower_name', '=', CONTAINER_MANIFEST_FILE);
    const row = await query.orderBy('package_file.id').limit(1).executeTakeFirst();
    if (!row) return undefined;
    const { b_size, b_md5, b_sha1, b_sha256, b_sha512, b_created, media_type, ...file } = row;
    return {
      ...file,
      versionId: file.version_id,
      mediaType: media_type ?? '',
      blob: { id: file.blob_id, size: Number(b_size), hash_md5: b_md5, hash_sha1: b_sha1, hash_sha256: b_sha256, hash_sha512: b_sha512, created_unix: b_created },
    };
  }

  /** Any of the owner's images holding a blob of that digest (a cross-repository mount's source). */
  async anyBlobOfOwner(ownerId: number, digest: string): Promise<PackageBlob | undefined> {
    if (!isValidDigest(digest)) return undefined;
    return this.db
      .selectFrom('package_blob')
      .selectAll('package_blob')
      .where('package_blob.hash_sha256', '=', digest.slice(7))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('package_file')
            .innerJoin('package_version', 'package_version.id', 'package_file.version_id')
            .innerJoin('package', 'package.id', 'package_version.package_id')
            .select('package_file.id')
            .whereRef('package_file.blob_id', '=', 'package_blob.id')
            .where('package.owner_id', '=', ownerId)
            .where('package.type', '=', CONTAINER_TYPE),
        ),
      )
      .executeTakeFirst();
  }

  /** The image's blob files (not manifests) with that digest, and their versions' names. */
  blobFilesByDigest(ownerId: number, image: string, digest: string): Promise<{ id: number; name: string; version: string }[]> {
    return this.db
      .selectFrom('package_file')
      .innerJoin('package_version', 'package_version.id', 'package_file.version_id')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .innerJoin('package_property', (join) =>
        join.onRef('package_property.ref_id', '=', 'package_file.id').on('package_property.ref_type', '=', PackagePropertyType.File).on('package_property.name', '=', CONTAINER_PROPERTY_DIGEST),
      )
      .select(['package_file.id as id', 'package_file.name as name', 'package_version.version as version'])
      .where('package.owner_id', '=', ownerId)
      .where('package.type', '=', CONTAINER_TYPE)
      .where('package.lower_name', '=', image)
      .where('package_property.value', '=', digest)
      .where('package_file.lower_name', '<>', CONTAINER_MANIFEST_FILE)
      .orderBy('package_file.id')
      .execute();
  }

  /** The file of the image's `_upload` version pointing at a blob, if any. */
  async uploadFileOfBlob(packageId: number, blobId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('package_file')
      .innerJoin('package_version', 'package_version.id', 'package_file.version_id')
      .select('package_file.id as id')
      .where('package_version.package_id', '=', packageId)
      .where('package_version.lower_version', '=', CONTAINER_UPLOAD_VERSION)
      .where('package_file.blob_id', '=', blobId)
      .executeTakeFirst();
    return row?.id;
  }

  async deleteFile(fileId: number): Promise<void> {
    await this.deleteFileProperties(fileId);
    await this.db.deleteFrom('package_file').where('id', '=', fileId).execute();
  }

  /** The bytes of a version's files (Forgejo's `CalculateFileSize` of one version). */
  async versionSize(versionId: number): Promise<number> {
    const row = await this.db
      .selectFrom('package_file')
      .innerJoin('package_blob', 'package_blob.id', 'package_file.blob_id')
      .select((eb) => eb.fn.sum<number>('package_blob.size').as('n'))
      .where('package_file.version_id', '=', versionId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** A file's properties (its digest, media type), which go with it. */
  async deleteFileProperties(fileId: number): Promise<void> {
    await this.db.deleteFrom('package_property').where('ref_type', '=', PackagePropertyType.File).where('ref_id', '=', fileId).execute();
  }

  async markInternal(versionId: number): Promise<void> {
    await this.db.updateTable('package_version').set({ is_internal: 1 }).where('id', '=', versionId).execute();
  }

  /** The tagged versions of an image, by name, after `last`, at most `limit` (`GetImageTags`). */
  async tags(packageId: number, last: string, limit: number): Promise<string[]> {
    let query = this.db
      .selectFrom('package_version')
      .select('package_version.lower_version as v')
      .where('package_version.package_id', '=', packageId)
      .where('package_version.is_internal', '=', 0)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('package_property')
            .select('package_property.id')
            .whereRef('package_property.ref_id', '=', 'package_version.id')
            .where('package_property.ref_type', '=', PackagePropertyType.Version)
            .where('package_property.name', '=', CONTAINER_PROPERTY_MANIFEST_TAGGED),
        ),
      );
    if (last) query = query.where('package_version.lower_version', '>', last);
    query = query.orderBy('package_version.lower_version');
    if (limit > 0) query = query.limit(limit);
    return (await query.execute()).map((r) => r.v);
  }

  /** Every container image with a version a user sees: owner id and repository name (`owner/image`), sorted. */
  async repositories(): Promise<{ ownerId: number; repository: string }[]> {
    const rows = await this.db
      .selectFrom('package_property')
      .innerJoin('package', 'package.id', 'package_property.ref_id')
      .select(['package.owner_id as ownerId', 'package_property.value as repository'])
      .where('package_property.ref_type', '=', PackagePropertyType.Package)
      .where('package_property.name', '=', CONTAINER_PROPERTY_REPOSITORY)
      .where('package.type', '=', CONTAINER_TYPE)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('package_version').select('package_version.id').whereRef('package_version.package_id', '=', 'package.id').where('package_version.is_internal', '=', 0)),
      )
      .orderBy('package_property.value')
      .execute();
    return rows;
  }

  /** The versions of an image whose manifest has that digest. */
  async versionsWithManifest(packageId: number, digest: string): Promise<{ id: number; package_id: number }[]> {
    return this.db
      .selectFrom('package_version')
      .innerJoin('package_file', 'package_file.version_id', 'package_version.id')
      .innerJoin('package_property', (join) =>
        join.onRef('package_property.ref_id', '=', 'package_file.id').on('package_property.ref_type', '=', PackagePropertyType.File).on('package_property.name', '=', CONTAINER_PROPERTY_DIGEST),
      )
      .select(['package_version.id as id', 'package_version.package_id as package_id'])
      .where('package_version.package_id', '=', packageId)
      .where('package_file.lower_name', '=', CONTAINER_MANIFEST_FILE)
      .where('package_property.value', '=', digest)
      .execute();
  }
}

/** The container store on the same executor (the upload's transaction) as a packages store. */
function containerStoreBeside(store: PackagesStore): ContainerStore {
  return (store as unknown as { scope: StoreScope }).scope.store(ContainerStore);
}

/** Forgejo's name for a blob's file: `sha256_<hex>`. */
export function containerBlobFileName(digest: string): string {
  return `sha256_${digest.slice(7).toLowerCase()}`;
}

/** A source of one buffer. */
async function* bufferSource(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Pads an offset so that chunk keys sort by it. */
function chunkKey(uuid: string, start: number): string {
  return `${UPLOAD_PREFIX}/${uuid}/c${String(start).padStart(16, '0')}`;
}

/**
 * The container registry on top of the package registry: who may read and write is the packages' (`assertAccess`),
 * the bytes and rows go through `PackagesService.addFile`, so limits, quotas and the API v1 lists apply as they do
 * to every format.
 */
export class ContainerPackagesService {
  private tokenKeyBytes: Buffer | undefined;

  constructor(private readonly ctx: CoreContext) {}

  private get packages(): PackagesService {
    return this.ctx.service(PackagesService);
  }

  private get store(): ContainerStore {
    return this.ctx.store(ContainerStore);
  }

  private get blobs(): BlobStorage {
    return this.ctx.service(BlobsService).storage('packages');
  }

  private get limit(): number {
    return this.ctx.settings.packages.LIMIT_SIZE_CONTAINER;
  }

  // ---- bearer tokens (`/v2/token`) ----

  private get tokenKey(): Buffer {
    const secret = this.ctx.settings.security.SECRET_KEY;
    this.tokenKeyBytes ??= secret === '' ? randomBytes(32) : Buffer.from(hkdfSync('sha256', secret, 'repohost', 'container registry token', 32));
    return this.tokenKeyBytes;
  }

  /** Forgejo's `CreateAuthorizationToken`: a signed token naming the account (-1: anonymous), valid for a day. */
  createToken(actor: Actor): string {
    const user = actorUser(actor);
    const payload = Buffer.from(JSON.stringify({ uid: user ? user.id : -1, exp: Math.floor(Date.now() / 1000) + TOKEN_SECONDS })).toString('base64url');
    const signature = createHmac('sha256', this.tokenKey).update(payload).digest('base64url');
    return `${payload}.${signature}`;
  }

  /** The account a token names (-1: anonymous); undefined for a token that is not ours, forged or expired. */
  verifyToken(token: string): number | undefined {
    const dot = token.indexOf('.');
    if (dot <= 0) return undefined;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = createHmac('sha256', this.tokenKey).update(payload).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { uid?: unknown; exp?: unknown };
      if (typeof claims.uid !== 'number' || typeof claims.exp !== 'number' || claims.exp < Date.now() / 1000) return undefined;
      return claims.uid;
    } catch {
      return undefined;
    }
  }

  // ---- blobs ----

  /** `HEAD`/`GET …/blobs/{digest}`: the blob of the image; 404 BLOB_UNKNOWN. */
  async blob(actor: Actor, owner: User, image: string, digest: string): Promise<ContainerBlob> {
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    if (!isValidDigest(digest)) throw blobUnknown();
    const file = await this.store.fileByDigest(owner.id, image, digest, false);
    if (!file) throw blobUnknown();
    return { digest, size: file.blob.size, blob: file.blob, mediaType: file.mediaType };
  }

  /** The bytes of a stored blob (`range` inclusive when given). */
  async open(blob: PackageBlob, range?: { start: number; end?: number }) {
    const stored = await this.blobs.get(packageBlobKey(blob.hash_sha256), range);
    if (!stored) throw blobUnknown();
    return stored;
  }

  /**
   * `DELETE …/blobs/{digest}` (Forgejo's `deleteBlob`): every file of the image with that digest goes (a version
   * left without files goes too), whether or not there was one; an invalid digest is BLOB_UNKNOWN.
   */
  async deleteBlob(actor: Actor, owner: User, image: string, digest: string): Promise<void> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    if (!isValidDigest(digest)) throw blobUnknown();
    const coords = { type: CONTAINER_TYPE, name: image };
    for (const file of await this.store.blobFilesByDigest(owner.id, image, digest)) {
      // Its properties first: the packages store removes a file's row only, and a row id may be used again.
      await this.store.deleteFileProperties(file.id);
      await this.packages.deleteFile(actor, owner, { ...coords, version: file.version }, file.name);
    }
  }

  /**
   * Stores `source` as a blob of the image when its sha256 is `digest` (else DIGEST_INVALID, nothing kept): a file
   * of the image's internal `_upload` version, created as needed. A blob the image has already is not stored again
   * (the source is left unread).
   */
  async storeBlob(actor: Actor, owner: User, image: string, digest: string, source: BlobSource): Promise<void> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    if (!isValidDigest(digest)) throw digestInvalid();
    if (await this.hasUploadedBlob(owner, image, digest)) return;
    await this.addUploadFile(actor, owner, image, digest, source);
  }

  private async hasUploadedBlob(owner: User, image: string, digest: string): Promise<boolean> {
    const upload = await this.ctx.store(PackagesStore).versionByName(owner.id, CONTAINER_TYPE, image, CONTAINER_UPLOAD_VERSION);
    return upload !== undefined && (await this.ctx.store(PackagesStore).fileByName(upload.id, containerBlobFileName(digest))) !== undefined;
  }

  private async addUploadFile(actor: Actor, owner: User, image: string, digest: string, source: BlobSource): Promise<void> {
    const filename = containerBlobFileName(digest);
    await this.packages.addFile(actor, owner, { type: CONTAINER_TYPE, name: image, version: CONTAINER_UPLOAD_VERSION }, filename, source, this.limit, {
      semverCompatible: false,
      // Forgejo's upload version has no metadata: JSON `null`.
      metadataJson: 'null',
      afterInsert: async (store, version) => {
        // The digest is checked once every byte has passed, inside the transaction: a mismatch keeps no row.
        const file = await store.fileByName(version.id, filename);
        if (!file || `sha256:${file.blob.hash_sha256}` !== digest) throw digestInvalid();
        await containerStoreBeside(store).markInternal(version.id);
        await store.insertProperty(PackagePropertyType.File, file.id, CONTAINER_PROPERTY_DIGEST, digest);
        await this.ensureRepositoryProperty(store, version.pkg.id, owner, image);
      },
    });
  }

  private async ensureRepositoryProperty(store: PackagesStore, packageId: number, owner: User, image: string): Promise<void> {
    const existing = await store.propertiesOf(PackagePropertyType.Package, [packageId], CONTAINER_PROPERTY_REPOSITORY);
    if (existing.length === 0) await store.insertProperty(PackagePropertyType.Package, packageId, CONTAINER_PROPERTY_REPOSITORY, `${owner.name}/${image}`.toLowerCase());
  }

  /**
   * `POST …/blobs/uploads/?mount={digest}`: when another image of the owner has the blob, the image gets it too
   * without a byte sent; false when there is none to mount.
   */
  async mount(actor: Actor, owner: User, image: string, digest: string): Promise<boolean> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const blob = await this.store.anyBlobOfOwner(owner.id, digest);
    if (!blob) return false;
    if (await this.hasUploadedBlob(owner, image, digest)) return true;
    const stored = await this.blobs.get(packageBlobKey(blob.hash_sha256));
    if (!stored) return false;
    // The bytes are stored already: addFile finds the blob row and keeps the object as it is.
    await this.addUploadFile(actor, owner, image, digest, stored.stream);
    return true;
  }

  // ---- upload sessions ----

  /** `POST …/blobs/uploads/`: a new session for the image. */
  async startUpload(actor: Actor, owner: User, image: string): Promise<ContainerUploadState> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const uuid = randomUUID();
    await this.blobs.put(`${UPLOAD_PREFIX}/${uuid}/session`, bufferSource(Buffer.from(JSON.stringify({ owner_id: owner.id, image }))));
    return { uuid, size: 0 };
  }

  /** A session's chunks, by offset, and its size; BLOB_UPLOAD_UNKNOWN unless it is this image's. */
  private async session(owner: User, image: string, uuid: string): Promise<{ chunks: { key: string; start: number }[]; size: number }> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid)) throw uploadUnknown();
    const marker = await this.blobs.get(`${UPLOAD_PREFIX}/${uuid}/session`);
    if (!marker) throw uploadUnknown();
    const parts: Buffer[] = [];
    for await (const chunk of marker.stream) parts.push(chunk as Buffer);
    let state: { owner_id?: unknown; image?: unknown };
    try {
      state = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof state;
    } catch {
      throw uploadUnknown();
    }
    if (state.owner_id !== owner.id || state.image !== image) throw uploadUnknown();
    const chunks: { key: string; start: number }[] = [];
    for await (const listed of this.blobs.list(`${UPLOAD_PREFIX}/${uuid}`)) {
      const name = listed.key.slice(listed.key.lastIndexOf('/') + 1);
      if (name.startsWith('c')) chunks.push({ key: listed.key, start: Number(name.slice(1)) });
    }
    chunks.sort((a, b) => a.start - b.start);
    let size = 0;
    const last = chunks[chunks.length - 1];
    if (last) {
      const stored = await this.blobs.get(last.key, { start: 0, end: 0 });
      stored?.stream.destroy();
      size = last.start + (stored?.size ?? 0);
    }
    return { chunks, size };
  }

  /** `GET …/blobs/uploads/{uuid}`: how many bytes the session has. */
  async uploadStatus(actor: Actor, owner: User, image: string, uuid: string): Promise<ContainerUploadState> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    return { uuid, size: (await this.session(owner, image, uuid)).size };
  }

  /**
   * `PATCH …/blobs/uploads/{uuid}`: appends a chunk. A `Content-Range` start other than the session's size is 416;
   * without one, only the first write may stream (Forgejo's BLOB_UPLOAD_INVALID); the session may not outgrow
   * `LIMIT_SIZE_CONTAINER` (403).
   */
  async appendChunk(actor: Actor, owner: User, image: string, uuid: string, source: BlobSource, rangeStart?: number): Promise<ContainerUploadState> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const { size } = await this.session(owner, image, uuid);
    if (rangeStart !== undefined && rangeStart !== size) throw new ContainerError('BLOB_UPLOAD_INVALID', 416);
    if (rangeStart === undefined && size !== 0) throw new ContainerError('BLOB_UPLOAD_INVALID', 400, 'Stream uploads after first write are not allowed');
    return this.append(actor, uuid, size, source);
  }

  /** Stores a chunk at `size`, the session's end. */
  private async append(actor: Actor, uuid: string, size: number, source: BlobSource): Promise<ContainerUploadState> {
    const room = this.limit > -1 && !isSiteAdmin(actor) ? this.limit - size : -1;
    try {
      const { size: added } = await this.blobs.put(chunkKey(uuid, size), source, { maxBytes: room });
      if (added === 0) await this.blobs.delete(chunkKey(uuid, size));
      return { uuid, size: size + added };
    } catch (error) {
      if ((error as Error).name === 'BlobTooLargeError') throw new PackageQuotaError(QUOTA_TYPE_SIZE);
      throw error;
    }
  }

  /** `PUT …/blobs/uploads/{uuid}?digest=`: a last chunk (may be empty), then the session becomes the blob. */
  async finishUpload(actor: Actor, owner: User, image: string, uuid: string, digest: string, last: BlobSource | undefined): Promise<void> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    if (!isValidDigest(digest)) throw digestInvalid();
    if (last) await this.append(actor, uuid, (await this.session(owner, image, uuid)).size, last);
    const { chunks } = await this.session(owner, image, uuid);
    const blobs = this.blobs;
    // The chunks in order, each read as a stream: the blob never sits whole in memory.
    async function* joined(): AsyncGenerator<Uint8Array> {
      for (const chunk of chunks) {
        const stored = await blobs.get(chunk.key);
        if (!stored) throw uploadUnknown();
        for await (const bytes of stored.stream) yield bytes as Uint8Array;
      }
    }
    try {
      if (!(await this.hasUploadedBlob(owner, image, digest))) await this.addUploadFile(actor, owner, image, digest, joined());
    } finally {
      await this.removeSession(uuid);
    }
  }

  /** `DELETE …/blobs/uploads/{uuid}`: the session and its chunks go. */
  async cancelUpload(actor: Actor, owner: User, image: string, uuid: string): Promise<void> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    await this.session(owner, image, uuid);
    await this.removeSession(uuid);
  }

  /**
   * Removes the upload sessions last written more than `olderThanMs` ago (Forgejo's cleanup of expired blob
   * uploads): a client that went away leaves its chunks otherwise. The number of sessions removed.
   */
  async sweepUploads(olderThanMs: number): Promise<number> {
    const newest = new Map<string, number>();
    for await (const listed of this.blobs.list(UPLOAD_PREFIX)) {
      const uuid = listed.key.slice(UPLOAD_PREFIX.length + 1).split('/')[0] ?? '';
      if (uuid !== '') newest.set(uuid, Math.max(newest.get(uuid) ?? 0, listed.modifiedMs));
    }
    const before = Date.now() - olderThanMs;
    let removed = 0;
    for (const [uuid, modified] of newest) {
      if (modified >= before) continue;
      await this.removeSession(uuid);
      removed++;
    }
    return removed;
  }

  private async removeSession(uuid: string): Promise<void> {
    const keys: string[] = [];
    for await (const listed of this.blobs.list(`${UPLOAD_PREFIX}/${uuid}`)) keys.push(listed.key);
    for (const key of keys) await this.blobs.delete(key);
  }

  // ---- manifests ----

  /** `HEAD`/`GET …/manifests/{reference}`: by tag (a version) or by digest (any version's manifest). */
  async manifest(actor: Actor, owner: User, image: string, reference: string): Promise<ContainerManifest> {
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    if (isValidDigest(reference)) {
      const file = await this.store.fileByDigest(owner.id, image, reference, true);
      if (!file) throw manifestUnknown();
      return { digest: reference, mediaType: file.mediaType, size: file.blob.size, blob: file.blob };
    }
    if (!isValidTag(reference)) throw manifestUnknown();
    const pstore = this.ctx.store(PackagesStore);
    const version = await pstore.versionByName(owner.id, CONTAINER_TYPE, image, reference);
    if (!version || version.is_internal === 1) throw manifestUnknown();
    const file = await pstore.fileByName(version.id, CONTAINER_MANIFEST_FILE);
    if (!file) throw manifestUnknown();
    const [digest] = await pstore.propertiesOf(PackagePropertyType.File, [file.id], CONTAINER_PROPERTY_DIGEST);
    const [mediaType] = await pstore.propertiesOf(PackagePropertyType.File, [file.id], CONTAINER_PROPERTY_MEDIA_TYPE);
    return { digest: digest?.value ?? `sha256:${file.blob.hash_sha256}`, mediaType: mediaType?.value ?? '', size: file.blob.size, blob: file.blob };
  }

  /**
   * `PUT …/manifests/{reference}` (Forgejo's `processManifest`): an image manifest, whose config and layers must be
   * blobs of the image (BLOB_UNKNOWN; SIZE_INVALID when a size is not theirs), or an image index, whose manifests
   * must be manifests of the image (MANIFEST_BLOB_UNKNOWN); the version named by the tag (or the digest) is
   * replaced. The referenced blobs become files of the version and leave the `_upload` version. The digest.
   */
  async putManifest(actor: Actor, owner: User, image: string, reference: string, contentType: string, body: Buffer): Promise<string> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const byDigest = isValidDigest(reference);
    if (!byDigest && !isValidTag(reference)) throw manifestInvalid('Tag is invalid');
    const digest = `sha256:${createHash('sha256').update(body).digest('hex')}`;
    if (byDigest && reference !== digest) throw digestInvalid();
    let document: { schemaVersion?: unknown; mediaType?: unknown; config?: Descriptor; layers?: Descriptor[]; manifests?: Descriptor[] };
    try {
      document = JSON.parse(body.toString('utf8')) as typeof document;
    } catch {
      throw manifestInvalid('manifest is not valid JSON');
    }
    if (typeof document !== 'object' || document === null || Array.isArray(document)) throw manifestInvalid();
    if (document.schemaVersion !== 2) throw new ContainerError('UNSUPPORTED', 501, 'Schema version is not supported');
    // The request's Content-Type when it is a registry type, else the document's own.
    let mediaType = contentType;
    if (!isRegistryMediaType(mediaType)) {
      mediaType = typeof document.mediaType === 'string' ? document.mediaType : '';
      if (!isRegistryMediaType(mediaType)) throw manifestInvalid('MediaType not recognized');
    }
    const metadata: ContainerMetadata = { type: 'oci', is_tagged: !byDigest };
    const references: { digest: string; mediaType: string; blob: PackageBlob }[] = [];
    const children: string[] = [];
    if (isImageManifestType(mediaType)) {
      if (!isDescriptor(document.config) || !Array.isArray(document.layers)) throw manifestInvalid();
      for (const descriptor of [document.config, ...document.layers]) {
        if (!isDescriptor(descriptor)) throw manifestInvalid();
        const file = await this.store.fileByDigest(owner.id, image, descriptor.digest, false);
        if (!file) throw blobUnknown();
        if (file.blob.size !== descriptor.size) throw new ContainerError('SIZE_INVALID', 400);
        references.push({ digest: descriptor.digest, mediaType: typeof descriptor.mediaType === 'string' ? descriptor.mediaType : '', blob: file.blob });
      }
      Object.assign(metadata, await this.configMetadata(references[0]!.blob));
    } else if (isImageIndexType(mediaType)) {
      if (!Array.isArray(document.manifests)) throw manifestInvalid();
      metadata.manifests = [];
      for (const descriptor of document.manifests) {
        if (!isDescriptor(descriptor) || typeof descriptor.mediaType !== 'string' || !isImageManifestType(descriptor.mediaType)) throw manifestInvalid();
        const file = await this.store.fileByDigest(owner.id, image, descriptor.digest, true);
        if (!file) throw manifestBlobUnknown();
        metadata.manifests.push({ platform: platformOf(descriptor.platform), digest: descriptor.digest, size: await this.store.versionSize(file.versionId) });
        children.push(descriptor.digest);
      }
    } else {
      throw manifestInvalid();
    }
    // A tag pushed again names the new manifest: the old version goes first (Forgejo keeps only one per name).
    const version = reference.toLowerCase();
    const existing = await this.ctx.store(PackagesStore).versionByName(owner.id, CONTAINER_TYPE, image, version);
    if (existing) await this.dropVersionKeeping(existing, new Set(references.map((r) => r.blob.id)));
    const max = this.limit > -1 ? Math.min(this.limit, CONTAINER_MAX_MANIFEST_SIZE) : CONTAINER_MAX_MANIFEST_SIZE;
    await this.packages.addFile(actor, owner, { type: CONTAINER_TYPE, name: image, version }, CONTAINER_MANIFEST_FILE, bufferSource(body), max, {
      semverCompatible: false,
      metadataJson: JSON.stringify(metadata),
      afterInsert: async (store, created) => {
        const containers = containerStoreBeside(store);
        await this.ensureRepositoryProperty(store, created.pkg.id, owner, image);
        if (!byDigest) await store.insertProperty(PackagePropertyType.Version, created.id, CONTAINER_PROPERTY_MANIFEST_TAGGED, '');
        for (const child of children) await store.insertProperty(PackagePropertyType.Version, created.id, CONTAINER_PROPERTY_MANIFEST_REFERENCE, child);
        // Each blob the manifest uses becomes a file of its version (so the API lists it and the quota counts it once)
        // and leaves the image's `_upload` version.
        for (const ref of references) {
          const inserted = await store.insertFileIfAbsent({ version_id: created.id, blob_id: ref.blob.id, name: containerBlobFileName(ref.digest), is_lead: 0, created_unix: created.created_unix });
          // The same layer twice in one manifest: one file.
          if (!inserted) continue;
          await store.insertProperty(PackagePropertyType.File, inserted.id, CONTAINER_PROPERTY_MEDIA_TYPE, ref.mediaType);
          await store.insertProperty(PackagePropertyType.File, inserted.id, CONTAINER_PROPERTY_DIGEST, ref.digest);
          const uploaded = await containers.uploadFileOfBlob(created.pkg.id, ref.blob.id);
          if (uploaded !== undefined) await containers.deleteFile(uploaded);
        }
        const file = (await store.fileByName(created.id, CONTAINER_MANIFEST_FILE))!;
        await store.insertProperty(PackagePropertyType.File, file.id, CONTAINER_PROPERTY_MEDIA_TYPE, mediaType);
        await store.insertProperty(PackagePropertyType.File, file.id, CONTAINER_PROPERTY_DIGEST, digest);
      },
    });
    return digest;
  }

  /**
   * Removes a version that a manifest replaces, and the blobs no file points at any longer, except those of `keep`
   * (the new manifest's, whose files are written next).
   */
  private async dropVersionKeeping(version: Pick<PackageVersion, 'id' | 'package_id'>, keep: ReadonlySet<number>): Promise<void> {
    const orphans = await this.ctx.transaction(async (tx) => {
      const store = tx.store(PackagesStore);
      const blobIds = (await store.filesOfVersion(version.id)).map((f) => f.blob_id).filter((id) => !keep.has(id));
      await store.deleteVersion(version);
      return store.deleteUnreferencedBlobs(blobIds);
    });
    await this.packages.deleteObjects(orphans);
  }

  /**
   * Forgejo's `parseOCIImageConfig`: the platform (`os/arch[/variant]`, else linux/amd64), the OCI labels'
   * description, authors, license and links (http(s) URLs only), every label, and the layers' history.
   */
  private async configMetadata(blob: PackageBlob): Promise<Partial<ContainerMetadata>> {
    const metadata: Partial<ContainerMetadata> = { platform: DEFAULT_PLATFORM };
    if (blob.size > MAX_CONFIG_SIZE) return metadata;
    const stored = await this.open(blob);
    const parts: Buffer[] = [];
    for await (const chunk of stored.stream) parts.push(chunk as Buffer);
    let config: { os?: unknown; architecture?: unknown; variant?: unknown; config?: { Labels?: unknown }; history?: { created_by?: unknown }[] };
    try {
      config = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof config;
    } catch {
      throw manifestInvalid('image config is not valid JSON');
    }
    if (typeof config !== 'object' || config === null) return metadata;
    if (typeof config.os === 'string' && config.os !== '' && typeof config.architecture === 'string' && config.architecture !== '') {
      metadata.platform = `${config.os}/${config.architecture}`;
      if (typeof config.variant === 'string' && config.variant !== '') metadata.platform += `/${config.variant}`;
    }
    const labels = config.config?.Labels;
    if (labels && typeof labels === 'object') {
      const kept: Record<string, string> = {};
      for (const [key, value] of Object.entries(labels)) if (typeof value === 'string') kept[key] = value;
      if (Object.keys(kept).length > 0) metadata.labels = kept;
      if (kept['org.opencontainers.image.description']) metadata.description = kept['org.opencontainers.image.description'];
      if (kept['org.opencontainers.image.licenses']) metadata.license = kept['org.opencontainers.image.licenses'];
      if (kept['org.opencontainers.image.authors'] !== undefined) metadata.authors = [kept['org.opencontainers.image.authors']];
      if (isHttpUrlField(kept['org.opencontainers.image.url'])) metadata.project_url = kept['org.opencontainers.image.url'];
      if (isHttpUrlField(kept['org.opencontainers.image.source'])) metadata.repository_url = kept['org.opencontainers.image.source'];
      if (isHttpUrlField(kept['org.opencontainers.image.documentation'])) metadata.documentation_url = kept['org.opencontainers.image.documentation'];
    }
    if (Array.isArray(config.history)) {
      const layers: string[] = [];
      for (const entry of config.history) {
        let command = typeof entry?.created_by === 'string' ? entry.created_by : '';
        // Docker's `/bin/sh -c #(nop) CMD …` keeps the instruction only.
        const nop = command.indexOf('#(nop) ');
        if (nop !== -1) command = command.slice(nop + 7).trim();
        if (command !== '') layers.push(command);
      }
      if (layers.length > 0) metadata.layer_creation = layers;
    }
    return metadata;
  }

  /** `DELETE …/manifests/{reference}`: the tag's version, or every version whose manifest has that digest. */
  async deleteManifest(actor: Actor, owner: User, image: string, reference: string): Promise<void> {
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const pstore = this.ctx.store(PackagesStore);
    if (isValidDigest(reference)) {
      const pkg = await pstore.findPackage(owner.id, CONTAINER_TYPE, image);
      const versions = pkg ? await this.store.versionsWithManifest(pkg.id, reference) : [];
      if (versions.length === 0) throw manifestUnknown();
      for (const version of versions) await this.packages.removeVersion(version, { actor, owner });
      return;
    }
    const version = isValidTag(reference) ? await pstore.versionByName(owner.id, CONTAINER_TYPE, image, reference) : undefined;
    if (!version || version.is_internal === 1) throw manifestUnknown();
    await this.packages.removeVersion(version, { actor, owner });
  }

  // ---- lists ----

  /** `GET …/tags/list?n=&last=`: the image's tags, sorted; NAME_UNKNOWN for no such image. `more`: a page follows. */
  async tags(actor: Actor, owner: User, image: string, n: number, last: string): Promise<{ tags: string[]; more: boolean }> {
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const pkg = await this.ctx.store(PackagesStore).findPackage(owner.id, CONTAINER_TYPE, image);
    if (!pkg) throw nameUnknown();
    const tags = await this.store.tags(pkg.id, last, n > 0 ? n + 1 : 0);
    const more = n > 0 && tags.length > n;
    return { tags: more ? tags.slice(0, n) : tags, more };
  }

  /** `GET /v2/_catalog?n=&last=`: the repositories (`owner/image`) the caller may read, sorted. */
  async catalog(actor: Actor, n: number, last: string): Promise<{ repositories: string[]; more: boolean }> {
    const users = this.ctx.service(PackagesService);
    const modes = new Map<number, boolean>();
    const visible: string[] = [];
    for (const row of await this.store.repositories()) {
      if (last && row.repository <= last) continue;
      let readable = modes.get(row.ownerId);
      if (readable === undefined) {
        const owner = await this.ownerById(row.ownerId);
        readable = owner !== undefined && (await users.accessMode(actor, owner)) >= AccessMode.Read;
        modes.set(row.ownerId, readable);
      }
      if (!readable) continue;
      visible.push(row.repository);
      if (n > 0 && visible.length > n) break;
    }
    const more = n > 0 && visible.length > n;
    return { repositories: more ? visible.slice(0, n) : visible, more };
  }

  private async ownerById(id: number): Promise<User | undefined> {
    return this.ctx.port(UsersPort).byId(id);
  }
}

/** Whether a request's image name is Forgejo's (`VerifyImageName`): NAME_INVALID otherwise. */
export function assertImageName(image: string): void {
  if (!isValidImageName(image)) throw new ContainerError('NAME_INVALID', 400, 'Invalid image name');
}

/** A `Content-Range` value `start-end` (Forgejo's `fmt.Sscanf("%d-%d")`); undefined when absent, BLOB_UPLOAD_INVALID when malformed. */
export function parseContentRangeStart(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const dash = value.indexOf('-');
  const start = dash > 0 ? value.slice(0, dash) : '';
  for (let i = 0; i < start.length; i++) {
    const c = start.charCodeAt(i);
    if (c < 0x30 || c > 0x39) throw new ContainerError('BLOB_UPLOAD_INVALID', 400);
  }
  if (start === '' || start.length > 15) throw new ContainerError('BLOB_UPLOAD_INVALID', 400);
  return Number(start);
}

