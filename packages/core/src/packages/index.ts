/**
 * The packages folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { packagesDomain } from './domain.js';
export { toApiPackage, toApiPackageFile } from './convert.js';
export type { PackageEventBase } from './events.js';
export { isValidGenericFileName, isValidGenericName } from './names.js';
export {
  ListPackagesQuerySchema,
  PACKAGE_TYPES,
  PackageFileSchema,
  PackageSchema,
  type ApiPackage,
  type ApiPackageFile,
  type ListPackagesQuery,
} from './schemas.js';
export {
  DUPLICATE_PACKAGE_FILE,
  DUPLICATE_PACKAGE_VERSION,
  NO_PACKAGE_ACCESS,
  PACKAGE_FILE_NOT_EXIST,
  PACKAGE_NOT_EXIST,
  PackageAccessError,
  PackageQuotaError,
  PackagesService,
  QUOTA_TOTAL_COUNT,
  QUOTA_TOTAL_SIZE,
  QUOTA_TYPE_SIZE,
  type PackageCoordinates,
  type PackageDownload,
} from './service.js';
export {
  NPM_INVALID_ATTACHMENT,
  NPM_INVALID_INTEGRITY,
  NPM_INVALID_NAME,
  NPM_INVALID_PACKAGE,
  NPM_INVALID_TAG,
  NPM_INVALID_VERSION,
  NpmPackagesService,
  isValidNpmName,
  type NpmSearchResult,
} from './npm.js';
export {
  PYPI_HASH_MISMATCH,
  PYPI_INVALID_NAME_OR_VERSION,
  PypiPackagesService,
  isValidPypiName,
  isValidPypiVersion,
  normalizePypiName,
  type PypiMetadata,
  type PypiUploadForm,
} from './pypi.js';
export {
  CARGO_INVALID_CONTENT_SIZE,
  CARGO_INVALID_NAME,
  CARGO_INVALID_VERSION,
  CARGO_YANKED_PROPERTY,
  CargoPackagesService,
  cargoIndexPath,
  isValidCargoName,
  type CargoConfig,
  type CargoOwners,
  type CargoSearchResult,
} from './cargo.js';
export {
  MAVEN_HASH_MISMATCH,
  MAVEN_INVALID_PARAMETERS,
  MavenPackagesService,
  mavenPackageName,
  parseMavenPath,
  type MavenAnswer,
  type MavenMetadata,
  type MavenPath,
  type MavenUploadOutcome,
} from './maven.js';
export {
  GO_INVALID_NAME,
  GO_INVALID_STRUCTURE,
  GO_INVALID_VERSION,
  GO_MOD_PROPERTY,
  GO_MOD_TOO_LARGE,
  GO_NOT_A_ZIP,
  GoPackagesService,
  isValidGoModulePath,
  isValidGoVersion,
  parseGoModuleZip,
  unescapeGoPath,
  type GoModule,
  type GoVersionInfo,
} from './goproxy.js';
export {
  COMPOSER_INVALID_NAME,
  COMPOSER_INVALID_VERSION,
  COMPOSER_MISSING_FILE,
  COMPOSER_TYPE_PROPERTY,
  ComposerPackagesService,
  isComposerSemver,
  isValidComposerName,
  normalizeComposerVersion,
  parseComposerZip,
  type ComposerMetadata,
  type ComposerPackage,
} from './composer.js';
export { ZIP_NOT_VALID } from './zip.js';
export {
  CONTAINER_MAX_MANIFEST_SIZE,
  CONTAINER_TYPE,
  ContainerError,
  ContainerPackagesService,
  assertImageName,
  isValidDigest,
  isValidImageName,
  isValidTag,
  parseContentRangeStart,
  type ContainerBlob,
  type ContainerManifest,
  type ContainerUploadState,
} from './container.js';
export {
  HELM_INVALID_CHART,
  HELM_INVALID_NAME,
  HELM_INVALID_VERSION,
  HELM_MISSING_CHART_FILE,
  HELM_TYPE,
  HelmPackagesService,
  helmFilename,
  isValidHelmName,
  parseChartArchive,
  parseChartYaml,
  type HelmMetadata,
} from './helm.js';
export { buildHelmIndex, type HelmIndexInput } from './helm-index.js';
export { PackageWorkers } from './workers.js';
export {
  DEBIAN_INVALID_DISTRIBUTION,
  DEBIAN_KEY_PRIVATE,
  DEBIAN_KEY_PUBLIC,
  DEBIAN_PROPERTY_ARCHITECTURE,
  DEBIAN_PROPERTY_COMPONENT,
  DEBIAN_PROPERTY_CONTROL,
  DEBIAN_PROPERTY_DISTRIBUTION,
  DEBIAN_REPOSITORY_PACKAGE,
  DEBIAN_REPOSITORY_VERSION,
  DEBIAN_TYPE,
  DebianPackagesService,
  debianFileName,
  isValidDebianSegment,
} from './debian.js';
export {
  DEBIAN_CONTROL_TOO_LARGE,
  DEBIAN_INVALID_ARCHITECTURE,
  DEBIAN_INVALID_NAME,
  DEBIAN_INVALID_VERSION,
  DEBIAN_MISSING_CONTROL,
  DEBIAN_NOT_AN_ARCHIVE,
  DEBIAN_UNSUPPORTED_COMPRESSION,
  isValidDebianArchitecture,
  isValidDebianName,
  isValidDebianVersion,
  parseDebianControl,
  parseDebianPackage,
  type DebianMetadata,
  type DebianPackage,
} from './debian-archive.js';
export { SPOOL_GRACE_MS, spoolPackageUpload, sweepPackageUploadSpool } from './spool.js';
export { cleanupPackageUploads } from './cleanup.js';
export type { FileWithBlob, VersionWithPackage } from './store.js';
export { packageBlobKey, type Package, type PackageBlob, type PackageFile, type PackageVersion, type PackagesTables } from './tables.js';
