/**
 * The Debian registry of an owner (Forgejo's `routers/api/packages/debian` and `services/packages/debian`): .deb
 * files uploaded into a distribution and component, and the apt repository over them. Each .deb is a file of its
 * version named `{name}_{version}_{arch}.deb` with the composite key `{distribution}|{component}` and the file
 * properties `debian.distribution`, `debian.component`, `debian.architecture` and `debian.control`. The index
 * files live in the owner's internal package `_debian`, version `_repository`: `Packages` and `Packages.gz` per
 * distribution, component and architecture (key `{distribution}|{component}|{arch}`) and `Release`, `Release.gpg`
 * and `InRelease` per distribution (key `{distribution}`), rebuilt when a .deb is added or removed (Forgejo's
 * `BuildSpecificRepositoryFiles`), never per request. They are signed with the owner's OpenPGP key, made on first
 * use and kept, armored, as properties of the `_debian` package (`debian.key.private`, `debian.key.public`; Forgejo
 * keeps them as user settings, which this server has no table for). `Packages.xz` is not written (no xz encoder).
 */
import { open, unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { CoreContext } from '../context.js';
import { AccessMode } from '../access/index.js';
import { BlobsService, parseByteRange, type BlobStorage } from '../blobs/index.js';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.js';
import { DatabaseLocks, nowUnix, Store } from '../storage/index.js';
import { isSiteAdmin, type Actor, type User } from '../users/index.js';
import { parseDebianPackage, type DebianPackage } from './debian-archive.js';
import { DUPLICATE_PACKAGE_FILE, PACKAGE_FILE_NOT_EXIST, PACKAGE_NOT_EXIST, PackagesService, type PackageDownload } from './service.js';
import { spoolPackageUpload } from './spool.js';
import { PackageWorkers } from './workers.js';
import { FILE_WITH_BLOB_COLUMNS, PackagesStore, fileWithBlob, type FileWithBlob } from './store.js';
import { PackagePropertyType, packageBlobKey, type PackageFile, type PackagesTables } from './tables.js';

export const DEBIAN_TYPE = 'debian';
/** Forgejo's `debian_module` property and setting names. */
export const DEBIAN_PROPERTY_DISTRIBUTION = 'debian.distribution';
export const DEBIAN_PROPERTY_COMPONENT = 'debian.component';
export const DEBIAN_PROPERTY_ARCHITECTURE = 'debian.architecture';
export const DEBIAN_PROPERTY_CONTROL = 'debian.control';
export const DEBIAN_PROPERTY_IN_RELEASE = 'debian.repository.include_in_release';
export const DEBIAN_KEY_PRIVATE = 'debian.key.private';
export const DEBIAN_KEY_PUBLIC = 'debian.key.public';
export const DEBIAN_REPOSITORY_PACKAGE = '_debian';
export const DEBIAN_REPOSITORY_VERSION = '_repository';
/** Forgejo's refusal of an upload path with a blank distribution or component. */
export const DEBIAN_INVALID_DISTRIBUTION = 'invalid distribution or component';

/** Forgejo's `user_model.NewGhostUser()` id: the index files' creator. */
const GHOST_USER_ID = -1;

/**
 * A distribution or component as it goes into paths, composite keys and index lines: Forgejo trims it and refuses
 * it blank; here also anything that would break those (separators, whitespace, control characters).
 */
export function isValidDebianSegment(text: string): boolean {
  if (text === '' || text === '.' || text === '..') return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f || c === 0x2f || c === 0x7c || c === 0x5c) return false;
  }
  return true;
}

/** The .deb's file name, as Forgejo writes it. */
export function debianFileName(name: string, version: string, architecture: string): string {
  return `${name}_${version}_${architecture}.deb`;
}

/** A .deb of the index: its file, blob and control text. */
interface IndexEntry {
  file: FileWithBlob;
  control: string;
}

/** The rows the registry reads beyond the packages store's: files by composite key, properties by value. */
class DebianStore extends Store<PackagesTables> {
  /** A version's file by name and composite key (Forgejo's `GetFileForVersionByName`), with its blob. */
  async fileByKey(versionId: number, name: string, key: string): Promise<FileWithBlob | undefined> {
    return (await this.files((q) => q.where('package_file.version_id', '=', versionId).where('package_file.lower_name', '=', name.toLowerCase()).where('package_file.composite_key', '=', key)))[0];
  }

  /** A file of the repository version by a hash of its bytes (Forgejo's `SearchFiles` with `Hash`). */
  async repositoryFilesByHash(versionId: number, column: 'hash_md5' | 'hash_sha1' | 'hash_sha256' | 'hash_sha512', hash: string): Promise<FileWithBlob[]> {
    return this.files((q) => q.where('package_file.version_id', '=', versionId).where(`package_blob.${column}`, '=', hash));
  }

  /** The owner's .deb files in a distribution and component of one architecture, by package name and version. */
  async indexFiles(ownerId: number, distribution: string, component: string, architecture: string): Promise<FileWithBlob[]> {
    return this.files((q) =>
      q
        .innerJoin('package_version', 'package_version.id', 'package_file.version_id')
        .innerJoin('package', 'package.id', 'package_version.package_id')
        .where('package.owner_id', '=', ownerId)
        .where('package.type', '=', DEBIAN_TYPE)
        .where('package.is_internal', '=', 0)
        .where('package_file.composite_key', '=', `${distribution}|${component}`)
        .where(fileHasProperty(DEBIAN_PROPERTY_ARCHITECTURE, architecture)),
    );
  }

  /** The `{distribution}|{component}|{architecture}` keys the repository version has a Packages index for. */
  async indexKeys(versionId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('package_file')
      .select('composite_key')
      .distinct()
      .where('version_id', '=', versionId)
      .where('lower_name', '=', 'packages')
      .execute();
    return rows.map((r) => r.composite_key).sort();
  }

  /** The values of a file property over the owner's .deb files in a distribution (its components, architectures). */
  async distributionValues(ownerId: number, distribution: string, name: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('package_property as p')
      .innerJoin('package_file', 'package_file.id', 'p.ref_id')
      .innerJoin('package_version', 'package_version.id', 'package_file.version_id')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .innerJoin('package_property as d', (join) =>
        join.onRef('d.ref_id', '=', 'package_file.id').on('d.ref_type', '=', PackagePropertyType.File).on('d.name', '=', DEBIAN_PROPERTY_DISTRIBUTION),
      )
      .select('p.value as value')
      .distinct()
      .where('p.ref_type', '=', PackagePropertyType.File)
      .where('p.name', '=', name)
      .where('d.value', '=', distribution)
      .where('package.owner_id', '=', ownerId)
      .where('package.type', '=', DEBIAN_TYPE)
      .where('package.is_internal', '=', 0)
      .execute();
    return rows.map((r) => r.value).sort();
  }

  /** The repository version's files listed in a distribution's Release, by name. */
  async releaseFiles(versionId: number, distribution: string): Promise<(FileWithBlob & { component: string; architecture: string })[]> {
    const files = await this.files((q) =>
      q
        .where('package_file.version_id', '=', versionId)
        .where(fileHasProperty(DEBIAN_PROPERTY_IN_RELEASE)),
    );
    const out: (FileWithBlob & { component: string; architecture: string })[] = [];
    for (const file of files) {
      // The key is `{distribution}|{component}|{architecture}` (an owner has few: they are read and picked here).
      const parts = file.composite_key.split('|');
      if (parts.length !== 3 || parts[0] !== distribution) continue;
      out.push({ ...file, component: parts[1]!, architecture: parts[2]! });
    }
    return out;
  }

  async fileProperties(fileIds: readonly number[], name: string): Promise<Map<number, string>> {
    if (fileIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('package_property')
      .select(['ref_id', 'value'])
      .where('ref_type', '=', PackagePropertyType.File)
      .where('ref_id', 'in', [...fileIds])
      .where('name', '=', name)
      .execute();
    return new Map(rows.map((r) => [r.ref_id, r.value]));
  }

  async packageProperty(packageId: number, name: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('package_property')
      .select('value')
      .where('ref_type', '=', PackagePropertyType.Package)
      .where('ref_id', '=', packageId)
      .where('name', '=', name)
      .orderBy('id')
      .executeTakeFirst();
    return row?.value;
  }

  async markInternal(packageId: number, versionId: number): Promise<void> {
    await this.db.updateTable('package').set({ is_internal: 1 }).where('id', '=', packageId).execute();
    await this.db.updateTable('package_version').set({ is_internal: 1 }).where('id', '=', versionId).execute();
  }

  async insertFile(file: Omit<PackageFile, 'id' | 'lower_name'>): Promise<PackageFile> {
    return this.db
      .insertInto('package_file')
      .values({ ...file, lower_name: file.name.toLowerCase() })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Removes a file and its properties. */
  async deleteFile(fileId: number): Promise<void> {
    await this.db.deleteFrom('package_property').where('ref_type', '=', PackagePropertyType.File).where('ref_id', '=', fileId).execute();
    await this.db.deleteFrom('package_file').where('id', '=', fileId).execute();
  }

  async countFiles(versionId: number): Promise<number> {
    const row = await this.db.selectFrom('package_file').select((eb) => eb.fn.countAll<number>().as('n')).where('version_id', '=', versionId).executeTakeFirst();
    return Store.count(row);
  }

  private async files(where: (query: any) => any): Promise<FileWithBlob[]> {
    const base = this.db.selectFrom('package_file').innerJoin('package_blob', 'package_blob.id', 'package_file.blob_id');
    const rows: Parameters<typeof fileWithBlob>[0][] = await where(base).select(FILE_WITH_BLOB_COLUMNS).orderBy('package_file.id').execute();
    return rows.map(fileWithBlob);
  }
}

const gzipAsync = promisify(gzip);


/** Go's `time.RFC1123` of a UTC time: `Mon, 02 Jan 2006 15:04:05 UTC`. */
function rfc1123(date: Date): string {
  return date.toUTCString().replace(/GMT$/, 'UTC');
}

async function* bufferSource(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** What a by-hash path's algorithm names (Forgejo lower-cases it and reads `md5sum` as md5). */
const HASH_COLUMNS: Record<string, 'hash_md5' | 'hash_sha1' | 'hash_sha256' | 'hash_sha512'> = {
  md5: 'hash_md5',
  md5sum: 'hash_md5',
  sha1: 'hash_sha1',
  sha256: 'hash_sha256',
  sha512: 'hash_sha512',
};

/** A condition on `package_file`: the file has the property `name` (with `value`, when one is given). */
function fileHasProperty(name: string, value?: string) {
  return ({ exists, selectFrom }: any) => {
    let has = selectFrom('package_property')
      .select('package_property.id')
      .whereRef('package_property.ref_id', '=', 'package_file.id')
      .where('package_property.ref_type', '=', PackagePropertyType.File)
      .where('package_property.name', '=', name);
    if (value !== undefined) has = has.where('package_property.value', '=', value);
    return exists(has);
  };
}

/** The Debian registry over `PackagesService` (access, limits, blobs) and its store. */
export class DebianPackagesService {
  constructor(private readonly ctx: CoreContext) {}

  private get packages(): PackagesService {
    return this.ctx.service(PackagesService);
  }

  private get store(): DebianStore {
    return this.ctx.store(DebianStore);
  }

  /** `APP_NAME` (the Release's origin and label, the key's user id), read as two-factor authentication reads it. */
  private get appName(): string {
    return (this.ctx.settings as unknown as Record<string, { APP_NAME?: string } | undefined>)['']?.APP_NAME || 'RepoHost';
  }

  private get blobs(): BlobStorage {
    return this.ctx.service(BlobsService).storage('packages');
  }

  /**
   * Runs `work` holding the owner's Debian lock (a lock row, so across every process on the database): its key pair
   * is made once, and index files are rebuilt one at a time, each from what the last one left.
   */
  private serially<T>(ownerId: number, work: () => Promise<T>): Promise<T> {
    return this.ctx.service(DatabaseLocks).withLock(`debian-repository:${ownerId}`, () => work(), {
      busyMessage: 'the Debian repository of this owner is being rebuilt; try again later',
    });
  }

  /**
   * Forgejo's `UploadPackageFile`: the body (a .deb) is spooled to a temporary file, stopping at
   * `LIMIT_SIZE_DEBIAN` (403), read for its control file, then stored as `{name}_{version}_{arch}.deb` of its
   * version in `{distribution}|{component}`; then that distribution's index files are rebuilt. 400 for a blank
   * distribution or component or a bad archive, 409 when that file exists there.
   */
  async upload(actor: Actor, owner: User, distribution: string, component: string, body: AsyncIterable<Uint8Array>): Promise<DebianPackage> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    distribution = distribution.trim();
    component = component.trim();
    if (!isValidDebianSegment(distribution) || !isValidDebianSegment(component)) throw new BadRequestError(DEBIAN_INVALID_DISTRIBUTION);
    const limit = this.ctx.settings.packages.LIMIT_SIZE_DEBIAN;
    // The control file may come after the data in a hand-made archive; and the bytes are stored after the check.
    const file = await spoolPackageUpload(this.ctx.settings, body, isSiteAdmin(actor) ? -1 : limit, 'debian');
    try {
      const pkg = await parseDebianPackage(file);
      const filename = debianFileName(pkg.name, pkg.version, pkg.architecture);
      const key = `${distribution}|${component}`;
      const existing = await this.ctx.store(PackagesStore).versionByName(owner.id, DEBIAN_TYPE, pkg.name, pkg.version);
      if (existing && (await this.store.fileByKey(existing.id, filename, key))) throw new ConflictError(DUPLICATE_PACKAGE_FILE);
      // Opened now: a stream that opened its file lazily could do so after a refusal had removed it.
      const content = (await open(file, 'r')).createReadStream();
      try {
        await this.packages.addFile(actor, owner, { type: DEBIAN_TYPE, name: pkg.name, version: pkg.version }, filename, content, limit, {
          semverCompatible: false,
          metadataJson: JSON.stringify(pkg.metadata),
          compositeKey: key,
          afterInsert: async (packagesStore, _version, inserted) => {
            const fileId = inserted.id;
            for (const [name, value] of [
              [DEBIAN_PROPERTY_DISTRIBUTION, distribution],
              [DEBIAN_PROPERTY_COMPONENT, component],
              [DEBIAN_PROPERTY_ARCHITECTURE, pkg.architecture],
              [DEBIAN_PROPERTY_CONTROL, pkg.control],
            ] as const) {
              await packagesStore.insertProperty(PackagePropertyType.File, fileId, name, value);
            }
          },
        });
      } finally {
        content.destroy();
      }
      await this.buildRepositoryFiles(owner, distribution, component, pkg.architecture);
      return pkg;
    } finally {
      await unlink(file).catch(() => {});
    }
  }

  /** Forgejo's `DownloadPackageFile`: `pool/{distribution}/{component}/{name}_{version}_{arch}.deb`. */
  async download(actor: Actor, owner: User, distribution: string, component: string, name: string, version: string, architecture: string, range?: string | null): Promise<PackageDownload> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const found = await this.ctx.store(PackagesStore).versionByName(owner.id, DEBIAN_TYPE, name, version);
    if (!found) throw new NotFoundError(PACKAGE_NOT_EXIST);
    const file = await this.store.fileByKey(found.id, debianFileName(name, version, architecture), `${distribution}|${component}`);
    if (!file) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
    return this.serve(file, range);
  }

  /** Forgejo's `DeletePackageFile`: the file, its version when it was the last, then the index files again. */
  async delete(actor: Actor, owner: User, distribution: string, component: string, name: string, version: string, architecture: string): Promise<void> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const orphans = await this.ctx.transaction(async (tx) => {
      const packagesStore = tx.store(PackagesStore);
      const store = tx.store(DebianStore);
      const found = await packagesStore.versionByName(owner.id, DEBIAN_TYPE, name, version);
      if (!found || found.pkg.is_internal !== 0) throw new NotFoundError(PACKAGE_NOT_EXIST);
      const file = await store.fileByKey(found.id, debianFileName(name, version, architecture), `${distribution}|${component}`);
      if (!file) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
      await store.deleteFile(file.id);
      if ((await store.countFiles(found.id)) === 0) {
        await packagesStore.deleteVersion(found);
        // Forgejo's RemovePackageFileAndVersionIfUnreferenced announces the version's deletion; the index is rebuilt below.
        tx.emit('package.deleted', { actor, owner, version: found, viaRegistry: true });
      }
      return packagesStore.deleteUnreferencedBlobs([file.blob_id]);
    });
    await this.packages.deleteObjects(orphans);
    await this.buildRepositoryFiles(owner, distribution, component, architecture);
  }

  /** Forgejo's `GetRepositoryKey`: the owner's public signing key, armored (made on first use). */
  async repositoryKey(actor: Actor, owner: User): Promise<string> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    return (await this.serially(owner.id, () => this.keyPair(owner))).publicKey;
  }

  /**
   * Forgejo's `GetRepositoryFile`: `dists/{distribution}/{filename}` (Release, Release.gpg, InRelease) or, with a
   * component and architecture (`binary-` dropped), `…/{component}/binary-{arch}/{filename}` (Packages, .gz).
   */
  async repositoryFile(actor: Actor, owner: User, distribution: string, filename: string, component?: string, architecture?: string, range?: string | null): Promise<PackageDownload> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const version = await this.repositoryVersion(owner, false);
    if (!version) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
    let key = distribution;
    const arch = architecture?.startsWith('binary-') ? architecture.slice('binary-'.length) : architecture;
    if (component && arch) key += `|${component}|${arch}`;
    const file = await this.store.fileByKey(version.versionId, filename, key);
    if (!file) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
    return this.serve(file, range);
  }

  /** Forgejo's `GetRepositoryFileByHash` (`…/by-hash/{algorithm}/{hash}`): an index file by a hash of its bytes. */
  async repositoryFileByHash(actor: Actor, owner: User, algorithm: string, hash: string, range?: string | null): Promise<PackageDownload> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const column = HASH_COLUMNS[algorithm.toLowerCase()];
    const version = await this.repositoryVersion(owner, false);
    if (!column || !version) throw new NotFoundError('');
    // Several index files with the same bytes (two distributions' equal Packages) are one answer.
    const [file] = await this.store.repositoryFilesByHash(version.versionId, column, hash.toLowerCase());
    if (!file) throw new NotFoundError('');
    return this.serve(file, range);
  }

  /** A stored file's bytes, as `PackagesService.download` gives them (a lead file's download is counted). */
  private async serve(file: FileWithBlob, rangeHeader?: string | null): Promise<PackageDownload> {
    const direct = await this.blobs.directUrl?.(packageBlobKey(file.blob.hash_sha256), file.name);
    if (direct) {
      if (file.is_lead === 1) await this.ctx.store(PackagesStore).countDownload(file.version_id);
      return { file, body: undefined, range: undefined, redirect: direct };
    }
    const range = parseByteRange(rangeHeader, file.blob.size);
    if (range === 'unsatisfiable') return { file, body: undefined, range };
    const stored = await this.blobs.get(packageBlobKey(file.blob.hash_sha256), range);
    if (!stored) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
    if (file.is_lead === 1) await this.ctx.store(PackagesStore).countDownload(file.version_id);
    return { file, body: stored.stream, range };
  }

  // ---- the repository's files ----

  /** Forgejo's `GetOrCreateRepositoryVersion`: the internal `_debian` package's `_repository` version. */
  private async repositoryVersion(owner: User, create: boolean): Promise<{ packageId: number; versionId: number } | undefined> {
    const packagesStore = this.ctx.store(PackagesStore);
    const found = await packagesStore.versionByName(owner.id, DEBIAN_TYPE, DEBIAN_REPOSITORY_PACKAGE, DEBIAN_REPOSITORY_VERSION);
    if (found) return { packageId: found.package_id, versionId: found.id };
    if (!create) return undefined;
    return this.ctx.transaction(async (tx) => {
      const store = tx.store(PackagesStore);
      const pkg = await store.ensurePackage(owner.id, DEBIAN_TYPE, DEBIAN_REPOSITORY_PACKAGE, false);
      const { version } = await store.ensureVersion(pkg.id, GHOST_USER_ID, DEBIAN_REPOSITORY_VERSION, nowUnix());
      await tx.store(DebianStore).markInternal(pkg.id, version.id);
      return { packageId: pkg.id, versionId: version.id };
    });
  }

  /** Forgejo's `GetOrCreateKeyPair`: the owner's signing key pair, armored; made and kept on first use. */
  private async keyPair(owner: User): Promise<{ privateKey: string; publicKey: string }> {
    const repository = (await this.repositoryVersion(owner, true))!;
    const privateKey = await this.store.packageProperty(repository.packageId, DEBIAN_KEY_PRIVATE);
    const publicKey = await this.store.packageProperty(repository.packageId, DEBIAN_KEY_PUBLIC);
    if (privateKey && publicKey) return { privateKey, publicKey };
    const openpgp = await import('openpgp');
    // An Ed25519 key (Forgejo makes RSA-2048): as good for apt's gpgv, and made in milliseconds.
    const made = await openpgp.generateKey({
      type: 'ecc',
      curve: 'ed25519Legacy',
      userIDs: [{ name: this.appName, comment: 'Debian Registry' }],
      format: 'armored',
    });
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(PackagesStore);
      await store.insertProperty(PackagePropertyType.Package, repository.packageId, DEBIAN_KEY_PRIVATE, made.privateKey);
      await store.insertProperty(PackagePropertyType.Package, repository.packageId, DEBIAN_KEY_PUBLIC, made.publicKey);
    });
    // Another process may have kept a key first: the first one kept is the key.
    return {
      privateKey: (await this.store.packageProperty(repository.packageId, DEBIAN_KEY_PRIVATE))!,
      publicKey: (await this.store.packageProperty(repository.packageId, DEBIAN_KEY_PUBLIC))!,
    };
  }

  /** Forgejo's `BuildSpecificRepositoryFiles`: the Packages indices of one component and architecture, then the Release files. */
  buildRepositoryFiles(owner: User, distribution: string, component: string, architecture: string): Promise<void> {
    return this.serially(owner.id, async () => {
      const repository = (await this.repositoryVersion(owner, true))!;
      await this.buildPackagesIndices(owner, repository.versionId, distribution, component, architecture);
      await this.buildReleaseFiles(owner, repository, distribution);
    });
  }

  /**
   * Forgejo's `BuildAllRepositoryFiles` for what the owner's index lists now: after a version left other than by
   * this registry's own delete (the API v1), every index and Release is built again from the files that remain.
   */
  rebuildAll(owner: User): Promise<void> {
    return this.serially(owner.id, async () => {
      const repository = await this.repositoryVersion(owner, false);
      if (!repository) return;
      const distributions = new Set<string>();
      for (const key of await this.store.indexKeys(repository.versionId)) {
        const [distribution, component, architecture] = key.split('|');
        if (distribution === undefined || component === undefined || architecture === undefined) continue;
        distributions.add(distribution);
        await this.buildPackagesIndices(owner, repository.versionId, distribution, component, architecture);
      }
      for (const distribution of distributions) await this.buildReleaseFiles(owner, repository, distribution);
    });
  }

  /** Rebuilds an owner's index when one of its Debian versions was deleted through the API v1. */
  subscribe(): void {
    this.ctx.events.on('package.deleted', async ({ payload }) => {
      if (payload.version.pkg.type !== DEBIAN_TYPE || payload.viaRegistry) return;
      await this.rebuildAll(payload.owner).catch((error: unknown) => console.error(`[repohost] debian index of ${payload.owner.name}: not rebuilt:`, error));
    });
  }

  private async buildPackagesIndices(owner: User, versionId: number, distribution: string, component: string, architecture: string): Promise<void> {
    const key = `${distribution}|${component}|${architecture}`;
    const files = await this.store.indexFiles(owner.id, distribution, component, architecture);
    if (files.length === 0) {
      for (const name of ['Packages', 'Packages.gz', 'Packages.xz']) await this.removeRepositoryFile(versionId, name, key);
      return;
    }
    const controls = await this.store.fileProperties(files.map((f) => f.id), DEBIAN_PROPERTY_CONTROL);
    const entries: IndexEntry[] = files.map((file) => ({ file, control: controls.get(file.id) ?? '' }));
    const stanzas = entries.map(({ file, control }) =>
      [
        control.trim(),
        `Filename: pool/${distribution}/${component}/${file.name}`,
        `Size: ${file.blob.size}`,
        `MD5sum: ${file.blob.hash_md5}`,
        `SHA1: ${file.blob.hash_sha1}`,
        `SHA256: ${file.blob.hash_sha256}`,
        `SHA512: ${file.blob.hash_sha512}`,
      ].join('\n') + '\n',
    );
    const packages = Buffer.from(stanzas.join('\n'), 'utf8');
    const properties = { [DEBIAN_PROPERTY_IN_RELEASE]: '', [DEBIAN_PROPERTY_DISTRIBUTION]: distribution, [DEBIAN_PROPERTY_COMPONENT]: component, [DEBIAN_PROPERTY_ARCHITECTURE]: architecture };
    await this.putRepositoryFile(versionId, 'Packages', key, packages, properties);
    // In libuv's thread pool: an owner's index may be large, and the event loop serves everyone.
    await this.putRepositoryFile(versionId, 'Packages.gz', key, await gzipAsync(packages), properties);
  }

  private async buildReleaseFiles(owner: User, repository: { packageId: number; versionId: number }, distribution: string): Promise<void> {
    const indices = await this.store.releaseFiles(repository.versionId, distribution);
    if (indices.length === 0) {
      for (const name of ['Release', 'Release.gpg', 'InRelease']) await this.removeRepositoryFile(repository.versionId, name, distribution);
      return;
    }
    const components = await this.store.distributionValues(owner.id, distribution, DEBIAN_PROPERTY_COMPONENT);
    const architectures = await this.store.distributionValues(owner.id, distribution, DEBIAN_PROPERTY_ARCHITECTURE);
    const appName = this.appName;
    const lines = [
      `Origin: ${appName}`,
      `Label: ${appName}`,
      `Suite: ${distribution}`,
      `Codename: ${distribution}`,
      `Components: ${components.join(' ')}`,
      `Architectures: ${architectures.join(' ')}`,
      `Date: ${rfc1123(new Date())}`,
      'Acquire-By-Hash: yes',
    ];
    const sums: Record<string, string[]> = { 'MD5Sum:': [], 'SHA1:': [], 'SHA256:': [], 'SHA512:': [] };
    for (const file of indices) {
      const path = `${file.component}/binary-${file.architecture}/${file.name}`;
      sums['MD5Sum:']!.push(` ${file.blob.hash_md5} ${file.blob.size} ${path}`);
      sums['SHA1:']!.push(` ${file.blob.hash_sha1} ${file.blob.size} ${path}`);
      sums['SHA256:']!.push(` ${file.blob.hash_sha256} ${file.blob.size} ${path}`);
      sums['SHA512:']!.push(` ${file.blob.hash_sha512} ${file.blob.size} ${path}`);
    }
    for (const [title, entries] of Object.entries(sums)) lines.push(title, ...entries);
    const release = lines.join('\n') + '\n';

    const openpgp = await import('openpgp');
    const { privateKey } = await this.keyPair(owner);
    const signingKeys = await openpgp.readPrivateKey({ armoredKey: privateKey });
    const inRelease = await openpgp.sign({ message: await openpgp.createCleartextMessage({ text: release }), signingKeys });
    const releaseGpg = await openpgp.sign({ message: await openpgp.createMessage({ binary: Buffer.from(release, 'utf8') }), signingKeys, detached: true });
    const properties = { [DEBIAN_PROPERTY_DISTRIBUTION]: distribution };
    await this.putRepositoryFile(repository.versionId, 'Release', distribution, Buffer.from(release, 'utf8'), properties);
    await this.putRepositoryFile(repository.versionId, 'Release.gpg', distribution, Buffer.from(releaseGpg, 'utf8'), properties);
    await this.putRepositoryFile(repository.versionId, 'InRelease', distribution, Buffer.from(inRelease, 'utf8'), properties);
  }

  /**
   * Forgejo's `AddFileToPackageVersionInternal` with `OverwriteExisting`: the bytes stored (content-addressed),
   * then in one transaction the old file of that name and key replaced, with its properties; the old bytes go
   * when nothing else points at them.
   */
  private async putRepositoryFile(versionId: number, name: string, key: string, bytes: Buffer, properties: Record<string, string>): Promise<void> {
    const sums = await this.ctx.service(PackageWorkers).digests(bytes);
    const blobKey = packageBlobKey(sums.hash_sha256);
    const packagesStore = this.ctx.store(PackagesStore);
    if (!(await packagesStore.blobBySha256(sums.hash_sha256)) || !(await this.blobs.exists(blobKey))) await this.blobs.put(blobKey, bufferSource(bytes));
    const now = nowUnix();
    const orphans = await this.ctx.transaction(async (tx) => {
      const store = tx.store(DebianStore);
      const txPackages = tx.store(PackagesStore);
      const old = await store.fileByKey(versionId, name, key);
      if (old) await store.deleteFile(old.id);
      const blob = await txPackages.ensureBlob({ ...sums, created_unix: now });
      const file = await store.insertFile({ version_id: versionId, blob_id: blob.id, name, composite_key: key, is_lead: 0, created_unix: now });
      for (const [property, value] of Object.entries(properties)) await txPackages.insertProperty(PackagePropertyType.File, file.id, property, value);
      return old ? txPackages.deleteUnreferencedBlobs([old.blob_id]) : [];
    });
    await this.packages.deleteObjects(orphans);
  }

  private async removeRepositoryFile(versionId: number, name: string, key: string): Promise<void> {
    const orphans = await this.ctx.transaction(async (tx) => {
      const store = tx.store(DebianStore);
      const old = await store.fileByKey(versionId, name, key);
      if (!old) return [];
      await store.deleteFile(old.id);
      return tx.store(PackagesStore).deleteUnreferencedBlobs([old.blob_id]);
    });
    await this.packages.deleteObjects(orphans);
  }
}
