import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { UserSchema } from '../users/index.js';
import { RepositorySchema } from '../repos/index.js';

/** The package types Forgejo knows (`packages.Type`), as the list's `type` filter takes them. */
export const PACKAGE_TYPES = [
  'alpine', 'cargo', 'chef', 'composer', 'conan', 'conda', 'container', 'cran', 'debian', 'generic', 'go', 'helm',
  'maven', 'npm', 'nuget', 'pub', 'pypi', 'rpm', 'rubygems', 'swift', 'vagrant',
] as const;

/** Forgejo's `Package`: one version of a package. */
export const PackageSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    owner: UserSchema,
    repository: Type.Union([RepositorySchema, Type.Null()]),
    creator: UserSchema,
    type: Type.String(),
    name: Type.String(),
    version: Type.String(),
    html_url: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Package', description: 'Package represents a package' },
);
export type ApiPackage = Static<typeof PackageSchema>;

/** Forgejo's `PackageFile` (its size is `Size`, as Go names the field without a tag). */
export const PackageFileSchema = Type.Object(
  {
    Size: Type.Integer({ format: 'int64' }),
    id: Type.Integer({ format: 'int64' }),
    name: Type.String(),
    md5: Type.String(),
    sha1: Type.String(),
    sha256: Type.String(),
    sha512: Type.String(),
  },
  { $id: 'PackageFile', description: 'PackageFile represents a package file' },
);
export type ApiPackageFile = Static<typeof PackageFileSchema>;

/** The list's query: `type` and `q` filters. */
export const ListPackagesQuerySchema = Type.Object({
  type: Type.Optional(StringEnum([...PACKAGE_TYPES], { description: 'package type filter' })),
  q: Type.Optional(Type.String({ description: 'name filter' })),
});
export type ListPackagesQuery = Static<typeof ListPackagesQuerySchema>;
