import type { Generated, Selectable } from 'kysely';

/** A package (Forgejo's `package`): an owner's (user or organization) package of one type, by name. */
export interface PackageTable {
  id: Generated<number>;
  owner_id: number;
  /** The repository it is linked to; 0: none. */
  repo_id: Generated<number>;
  /** `generic`, `npm`, … (Forgejo's `packages.Type`). */
  type: string;
  name: string;
  lower_name: string;
  semver_compatible: Generated<number>;
  is_internal: Generated<number>;
}

/** A version of a package (Forgejo's `package_version`). */
export interface PackageVersionTable {
  id: Generated<number>;
  package_id: number;
  creator_id: number;
  version: string;
  lower_version: string;
  created_unix: number;
  is_internal: Generated<number>;
  metadata_json: Generated<string>;
  download_count: Generated<number>;
}

/** A file of a version (Forgejo's `package_file`): a name pointing at a blob. */
export interface PackageFileTable {
  id: Generated<number>;
  version_id: number;
  blob_id: number;
  name: string;
  lower_name: string;
  composite_key: Generated<string>;
  is_lead: Generated<number>;
  created_unix: number;
}

/**
 * Stored bytes (Forgejo's `package_blob`), content-addressed: one row per distinct sha256, its object in the
 * `packages` blob space under `packageBlobKey(hash_sha256)`; removed with its object when no file points at it.
 */
export interface PackageBlobTable {
  id: Generated<number>;
  size: number;
  hash_md5: string;
  hash_sha1: string;
  hash_sha256: string;
  hash_sha512: string;
  created_unix: number;
}

/** A named value of a version, a file or a package (Forgejo's `package_property`), such as npm's dist-tags. */
export interface PackagePropertyTable {
  id: Generated<number>;
  /** What `ref_id` names (`PackagePropertyType`). */
  ref_type: number;
  ref_id: number;
  name: string;
  value: Generated<string>;
}

/** Forgejo's `PropertyType`: what a property belongs to. */
export const PackagePropertyType = { Version: 0, File: 1, Package: 2 } as const;

/** The tables the packages domain owns. */
export interface PackagesTables {
  package: PackageTable;
  package_version: PackageVersionTable;
  package_file: PackageFileTable;
  package_blob: PackageBlobTable;
  package_property: PackagePropertyTable;
}

export type Package = Selectable<PackageTable>;
export type PackageVersion = Selectable<PackageVersionTable>;
export type PackageFile = Selectable<PackageFileTable>;
export type PackageBlob = Selectable<PackageBlobTable>;
export type PackageProperty = Selectable<PackagePropertyTable>;

/** Forgejo's content store layout: `ab/cd/abcd…` (`KeyToRelativePath`). */
export function packageBlobKey(sha256: string): string {
  return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}

declare module '../storage/schema.js' {
  interface Schema extends PackagesTables {}
}
