import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { Schema } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { PackagePropertyType, type Package, type PackageBlob, type PackageFile, type PackageProperty, type PackageVersion, type PackagesTables } from './tables.js';

/** A version with its package, as lists and lookups by name give it. */
export type VersionWithPackage = PackageVersion & { pkg: Package };

/** A file with the blob it points at. */
export type FileWithBlob = PackageFile & { blob: PackageBlob };

/** The columns of a file joined with its blob (`package_blob.*` as `b_*`), as `fileWithBlob` reads them. */
export const FILE_WITH_BLOB_COLUMNS = [
  'package_file.id as id',
  'package_file.version_id as version_id',
  'package_file.blob_id as blob_id',
  'package_file.name as name',
  'package_file.lower_name as lower_name',
  'package_file.composite_key as composite_key',
  'package_file.is_lead as is_lead',
  'package_file.created_unix as created_unix',
  'package_blob.size as b_size',
  'package_blob.hash_md5 as b_md5',
  'package_blob.hash_sha1 as b_sha1',
  'package_blob.hash_sha256 as b_sha256',
  'package_blob.hash_sha512 as b_sha512',
  'package_blob.created_unix as b_created',
] as const;

type FileWithBlobRow = PackageFile & { b_size: number | string; b_md5: string; b_sha1: string; b_sha256: string; b_sha512: string; b_created: number };

export function fileWithBlob({ b_size, b_md5, b_sha1, b_sha256, b_sha512, b_created, ...file }: FileWithBlobRow): FileWithBlob {
  return { ...file, blob: { id: file.blob_id, size: Number(b_size), hash_md5: b_md5, hash_sha1: b_sha1, hash_sha256: b_sha256, hash_sha512: b_sha512, created_unix: b_created } };
}

/** A version and the bytes its files take (the quota's list). */
export interface VersionSize {
  type: string;
  name: string;
  version: string;
  size: number;
}

export interface VersionSearch {
  ownerId: number;
  type?: string;
  /** Part of the name, any case. */
  query?: string;
}

const VERSION_COLUMNS = [
  'package_version.id as id',
  'package_version.package_id as package_id',
  'package_version.creator_id as creator_id',
  'package_version.version as version',
  'package_version.lower_version as lower_version',
  'package_version.created_unix as created_unix',
  'package_version.is_internal as is_internal',
  'package_version.metadata_json as metadata_json',
  'package_version.download_count as download_count',
  'package.owner_id as p_owner_id',
  'package.repo_id as p_repo_id',
  'package.type as p_type',
  'package.name as p_name',
  'package.lower_name as p_lower_name',
  'package.semver_compatible as p_semver_compatible',
  'package.is_internal as p_is_internal',
] as const;

type JoinedRow = PackageVersion & {
  p_owner_id: number;
  p_repo_id: number;
  p_type: string;
  p_name: string;
  p_lower_name: string;
  p_semver_compatible: number;
  p_is_internal: number;
};

function splitRow(row: JoinedRow): VersionWithPackage {
  const { p_owner_id, p_repo_id, p_type, p_name, p_lower_name, p_semver_compatible, p_is_internal, ...version } = row;
  return {
    ...version,
    pkg: {
      id: version.package_id,
      owner_id: p_owner_id,
      repo_id: p_repo_id,
      type: p_type,
      name: p_name,
      lower_name: p_lower_name,
      semver_compatible: p_semver_compatible,
      is_internal: p_is_internal,
    },
  };
}

/** The `package`, `package_version`, `package_file` and `package_blob` tables (and, to read, a member's teams). */
export class PackagesStore extends Store<PackagesTables & Pick<Schema, 'team' | 'team_user'>> {
  // ---- who may do what ----

  /** The teams of `orgId` the account is in: their mode and per-unit modes. */
  teamsOfMember(orgId: number, userId: number): Promise<{ authorize: number; units: string }[]> {
    return this.db
      .selectFrom('team')
      .innerJoin('team_user', 'team_user.team_id', 'team.id')
      .select(['team.authorize as authorize', 'team.units as units'])
      .where('team.org_id', '=', orgId)
      .where('team_user.uid', '=', userId)
      .execute();
  }

  // ---- packages and versions ----

  findPackage(ownerId: number, type: string, name: string): Promise<Package | undefined> {
    return this.db
      .selectFrom('package')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('type', '=', type)
      .where('lower_name', '=', name.toLowerCase())
      .executeTakeFirst();
  }

  /** The package, created when the owner has none of that type and name (of two at once, both get the one row). */
  async ensurePackage(ownerId: number, type: string, name: string, semverCompatible: boolean): Promise<Package> {
    await this.db
      .insertInto('package')
      .values({ owner_id: ownerId, type, name, lower_name: name.toLowerCase(), semver_compatible: semverCompatible ? 1 : 0 })
      .onConflict((oc) => oc.columns(['owner_id', 'type', 'lower_name']).doNothing())
      .execute();
    return (await this.findPackage(ownerId, type, name))!;
  }

  findVersion(packageId: number, version: string): Promise<PackageVersion | undefined> {
    return this.db
      .selectFrom('package_version')
      .selectAll()
      .where('package_id', '=', packageId)
      .where('lower_version', '=', version.toLowerCase())
      .executeTakeFirst();
  }

  /** Inserts the version unless the package has it; `created` says which. */
  async ensureVersion(packageId: number, creatorId: number, version: string, now: number): Promise<{ version: PackageVersion; created: boolean }> {
    const inserted = await this.db
      .insertInto('package_version')
      .values({ package_id: packageId, creator_id: creatorId, version, lower_version: version.toLowerCase(), created_unix: now })
      .onConflict((oc) => oc.columns(['package_id', 'lower_version']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { version: inserted, created: true };
    return { version: (await this.findVersion(packageId, version))!, created: false };
  }

  /** A version with its package, by id. */
  async versionById(id: number): Promise<VersionWithPackage | undefined> {
    const row = await this.db
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select(VERSION_COLUMNS)
      .where('package_version.id', '=', id)
      .executeTakeFirst();
    return row ? splitRow(row as JoinedRow) : undefined;
  }

  /** An owner's version by type, package name and version (any case). */
  async versionByName(ownerId: number, type: string, name: string, version: string): Promise<VersionWithPackage | undefined> {
    const row = await this.db
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select(VERSION_COLUMNS)
      .where('package.owner_id', '=', ownerId)
      .where('package.type', '=', type)
      .where('package.lower_name', '=', name.toLowerCase())
      .where('package_version.lower_version', '=', version.toLowerCase())
      .executeTakeFirst();
    return row ? splitRow(row as JoinedRow) : undefined;
  }

  /** Forgejo's `SearchVersions`: an owner's versions, newest first, optionally of one type and with a name part. */
  async searchVersions(search: VersionSearch, page: PageRequest): Promise<Page<VersionWithPackage>> {
    let query = this.db
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .where('package.owner_id', '=', search.ownerId)
      .where('package_version.is_internal', '=', 0);
    if (search.type) query = query.where('package.type', '=', search.type);
    if (search.query) query = query.where('package.lower_name', 'like', `%${search.query.toLowerCase()}%`);
    const result = await Store.page(
      query.select(VERSION_COLUMNS).orderBy('package_version.created_unix', 'desc').orderBy('package_version.id', 'desc').limit(page.limit).offset(offsetOf(page)).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
    return { items: result.items.map((row) => splitRow(row as JoinedRow)), total: result.total };
  }

  /** How many versions the owner has (Forgejo's `LIMIT_TOTAL_OWNER_COUNT` counts them). */
  async countVersions(ownerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('package.owner_id', '=', ownerId)
      .where('package_version.is_internal', '=', 0)
      .executeTakeFirst();
    return Store.count(row);
  }

  /** The bytes of every file of the owner's packages (Forgejo's `CalculateFileSize`). */
  async totalSize(ownerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('package_file')
      .innerJoin('package_blob', 'package_blob.id', 'package_file.blob_id')
      .innerJoin('package_version', 'package_version.id', 'package_file.version_id')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('package_blob.size'), sql<number>`0`).as('n'))
      .where('package.owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The owner's versions with the bytes their files take, largest first (the quota's list). */
  async versionSizes(ownerId: number, page: PageRequest): Promise<Page<VersionSize>> {
    const base = this.db
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .where('package.owner_id', '=', ownerId);
    const rows = await base
      .leftJoin('package_file', 'package_file.version_id', 'package_version.id')
      .leftJoin('package_blob', 'package_blob.id', 'package_file.blob_id')
      .select((eb) => [
        'package.type as type',
        'package.name as name',
        'package_version.version as version',
        eb.fn.coalesce(eb.fn.sum<number>('package_blob.size'), sql<number>`0`).as('size'),
      ])
      .groupBy(['package_version.id', 'package.type', 'package.name', 'package_version.version'])
      .orderBy('size', 'desc')
      .orderBy('package_version.id')
      .limit(page.limit)
      .offset(offsetOf(page))
      .execute();
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { items: rows.map((r) => ({ ...r, size: Number(r.size) })), total: Store.count(count) };
  }

  async setRepository(packageId: number, repoId: number): Promise<void> {
    await this.db.updateTable('package').set({ repo_id: repoId }).where('id', '=', packageId).execute();
  }

  async countDownload(versionId: number): Promise<void> {
    await this.db
      .updateTable('package_version')
      .set((eb) => ({ download_count: eb('download_count', '+', 1) }))
      .where('id', '=', versionId)
      .execute();
  }

  // ---- files and blobs ----

  filesOfVersion(versionId: number): Promise<FileWithBlob[]> {
    return this.filesWhere('package_file.version_id', versionId);
  }

  /** The files of these versions, by version (one query per 500 versions: a package's document reads them all). */
  async filesOfVersions(versionIds: readonly number[]): Promise<Map<number, FileWithBlob[]>> {
    const byVersion = new Map<number, FileWithBlob[]>();
    for (let start = 0; start < versionIds.length; start += 500) {
      const rows = await this.db
        .selectFrom('package_file')
        .innerJoin('package_blob', 'package_blob.id', 'package_file.blob_id')
        .select(FILE_WITH_BLOB_COLUMNS)
        .where('package_file.version_id', 'in', versionIds.slice(start, start + 500))
        .orderBy('package_file.id')
        .execute();
      for (const row of rows) {
        const file = fileWithBlob(row);
        const list = byVersion.get(file.version_id);
        if (list) list.push(file);
        else byVersion.set(file.version_id, [file]);
      }
    }
    return byVersion;
  }

  /** A version's file by name within `compositeKey` (Debian's `{distribution}|{component}`; '' for the other formats). */
  async fileByName(versionId: number, name: string, compositeKey = ''): Promise<FileWithBlob | undefined> {
    return (await this.filesWhere('package_file.version_id', versionId, { name, compositeKey }))[0];
  }

  private async filesWhere(column: 'package_file.version_id', value: number, named?: { name: string; compositeKey: string }): Promise<FileWithBlob[]> {
    let query = this.db
      .selectFrom('package_file')
      .innerJoin('package_blob', 'package_blob.id', 'package_file.blob_id')
      .select(FILE_WITH_BLOB_COLUMNS)
      .where(column, '=', value);
    if (named) query = query.where('package_file.lower_name', '=', named.name.toLowerCase()).where('package_file.composite_key', '=', named.compositeKey);
    const rows = await query.orderBy('package_file.id').execute();
    return rows.map(fileWithBlob);
  }

  blobBySha256(sha256: string): Promise<PackageBlob | undefined> {
    return this.db.selectFrom('package_blob').selectAll().where('hash_sha256', '=', sha256).executeTakeFirst();
  }

  /** The blob row of these bytes, inserted when there is none. */
  async ensureBlob(blob: Omit<PackageBlob, 'id'>): Promise<PackageBlob> {
    await this.db
      .insertInto('package_blob')
      .values(blob)
      .onConflict((oc) => oc.column('hash_sha256').doNothing())
      .execute();
    return (await this.blobBySha256(blob.hash_sha256))!;
  }

  /** Inserts a file; undefined when the version has one of that name (in that composite key) already. */
  insertFileIfAbsent(file: { version_id: number; blob_id: number; name: string; composite_key?: string; is_lead: number; created_unix: number }): Promise<PackageFile | undefined> {
    return this.db
      .insertInto('package_file')
      .values({ ...file, lower_name: file.name.toLowerCase(), composite_key: file.composite_key ?? '' })
      .onConflict((oc) => oc.columns(['version_id', 'lower_name', 'composite_key']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async deleteFiles(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.db.deleteFrom('package_file').where('id', 'in', ids).execute();
  }

  /** Removes the version, its files and their properties; the package too when it has no version left. */
  async deleteVersion(version: Pick<PackageVersion, 'id' | 'package_id'>): Promise<void> {
    const files = this.db.selectFrom('package_file').select('id').where('version_id', '=', version.id);
    await this.db.deleteFrom('package_property').where('ref_type', '=', PackagePropertyType.File).where('ref_id', 'in', files).execute();
    await this.db.deleteFrom('package_property').where('ref_type', '=', PackagePropertyType.Version).where('ref_id', '=', version.id).execute();
    await this.db.deleteFrom('package_file').where('version_id', '=', version.id).execute();
    await this.db.deleteFrom('package_version').where('id', '=', version.id).execute();
    const left = await this.db.selectFrom('package_version').select('id').where('package_id', '=', version.package_id).limit(1).executeTakeFirst();
    if (!left) {
      await this.db.deleteFrom('package_property').where('ref_type', '=', PackagePropertyType.Package).where('ref_id', '=', version.package_id).execute();
      await this.db.deleteFrom('package').where('id', '=', version.package_id).execute();
    }
  }

  // ---- properties ----

  /** The properties named `name` of these versions (files, packages: `refType`). */
  propertiesOf(refType: number, refIds: readonly number[], name: string): Promise<PackageProperty[]> {
    if (refIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('package_property')
      .selectAll()
      .where('ref_type', '=', refType)
      .where('ref_id', 'in', [...refIds])
      .where('name', '=', name)
      .orderBy('id')
      .execute();
  }

  async insertProperty(refType: number, refId: number, name: string, value: string): Promise<void> {
    await this.db.insertInto('package_property').values({ ref_type: refType, ref_id: refId, name, value }).execute();
  }

  /** Removes the properties `name` = `value` of these refs. */
  async deletePropertyValue(refType: number, refIds: readonly number[], name: string, value: string): Promise<void> {
    if (refIds.length === 0) return;
    await this.db
      .deleteFrom('package_property')
      .where('ref_type', '=', refType)
      .where('ref_id', 'in', [...refIds])
      .where('name', '=', name)
      .where('value', '=', value)
      .execute();
  }

  /** Every version of a package (internal ones too), oldest first. */
  versionsOfPackage(packageId: number): Promise<PackageVersion[]> {
    return this.db.selectFrom('package_version').selectAll().where('package_id', '=', packageId).orderBy('id').execute();
  }

  async setVersionMetadata(versionId: number, metadataJson: string): Promise<void> {
    await this.db.updateTable('package_version').set({ metadata_json: metadataJson }).where('id', '=', versionId).execute();
  }

  /**
   * Forgejo's `SearchLatestVersions` for one owner and type: per package whose name contains `query`, its newest
   * version, by package name; `total` counts those packages.
   */
  async searchLatest(ownerId: number, type: string, query: string, offset: number, limit: number): Promise<Page<VersionWithPackage>> {
    let packages = this.db
      .selectFrom('package')
      .where('package.owner_id', '=', ownerId)
      .where('package.type', '=', type)
      .where('package.is_internal', '=', 0)
      .where(({ exists, selectFrom }) => exists(selectFrom('package_version').select('package_version.id').whereRef('package_version.package_id', '=', 'package.id').where('package_version.is_internal', '=', 0)));
    if (query) packages = packages.where('package.lower_name', 'like', `%${query.toLowerCase()}%`);
    const [rows, count] = await Promise.all([
      packages.select('package.id as id').orderBy('package.lower_name').limit(limit).offset(offset).execute(),
      packages.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    const items: VersionWithPackage[] = [];
    for (const { id } of rows) {
      const row = await this.db
        .selectFrom('package_version')
        .innerJoin('package', 'package.id', 'package_version.package_id')
        .select(VERSION_COLUMNS)
        .where('package_version.package_id', '=', id)
        .where('package_version.is_internal', '=', 0)
        .orderBy('package_version.created_unix', 'desc')
        .orderBy('package_version.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (row) items.push(splitRow(row as JoinedRow));
    }
    return { items, total: Store.count(count) };
  }

  /** The blob ids of every file of the owner's packages. */
  async blobIdsOfOwner(ownerId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('package_file')
      .innerJoin('package_version', 'package_version.id', 'package_file.version_id')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select('package_file.blob_id as blob_id')
      .where('package.owner_id', '=', ownerId)
      .execute();
    return rows.map((r) => r.blob_id);
  }

  /** Removes every package, version and file of the owner. */
  async deleteOwner(ownerId: number): Promise<void> {
    const packages = this.db.selectFrom('package').select('id').where('owner_id', '=', ownerId);
    const versions = this.db.selectFrom('package_version').select('id').where('package_id', 'in', packages);
    const files = this.db.selectFrom('package_file').select('id').where('version_id', 'in', versions);
    await this.db.deleteFrom('package_property').where('ref_type', '=', PackagePropertyType.File).where('ref_id', 'in', files).execute();
    await this.db.deleteFrom('package_property').where('ref_type', '=', PackagePropertyType.Version).where('ref_id', 'in', versions).execute();
    await this.db.deleteFrom('package_property').where('ref_type', '=', PackagePropertyType.Package).where('ref_id', 'in', packages).execute();
    await this.db.deleteFrom('package_file').where('version_id', 'in', versions).execute();
    await this.db.deleteFrom('package_version').where('package_id', 'in', packages).execute();
    await this.db.deleteFrom('package').where('owner_id', '=', ownerId).execute();
  }

  /** Unlinks the packages linked to a repository. */
  async unlinkRepository(repoId: number): Promise<void> {
    await this.db.updateTable('package').set({ repo_id: 0 }).where('repo_id', '=', repoId).execute();
  }

  /** Of these blobs, removes the rows no file points at; their sha256s (whose objects go next). */
  async deleteUnreferencedBlobs(blobIds: readonly number[]): Promise<string[]> {
    if (blobIds.length === 0) return [];
    const orphans = await this.db
      .selectFrom('package_blob')
      .select(['id', 'hash_sha256'])
      .where('id', 'in', [...new Set(blobIds)])
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('package_file').select('package_file.id').whereRef('package_file.blob_id', '=', 'package_blob.id'))))
      .execute();
    if (orphans.length === 0) return [];
    await this.db.deleteFrom('package_blob').where('id', 'in', orphans.map((o) => o.id)).execute();
    return orphans.map((o) => o.hash_sha256);
  }
}
