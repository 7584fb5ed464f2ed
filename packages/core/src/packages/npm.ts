/**
 * The npm format of the package registry (Forgejo's `modules/packages/npm` and `routers/api/packages/npm`): the
 * publish document parsed and checked (name, semver version, the base64 tarball against its `dist.integrity`), the
 * version's metadata kept as `metadata_json` in Forgejo's shape, dist-tags as `npm.tag` properties of versions, and
 * the documents npm reads (the package document, dist-tags, search). The server parses HTTP and calls these.
 */
import { createHash } from 'node:crypto';
import type { CoreContext } from '../context.js';
import { AccessMode } from '../access/index.js';
import type { Actor, User } from '../users/index.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { isoTime } from '../wire.js';
import { isHttpUrl, webUrl } from '../urls.js';
import { PackagesService, PACKAGE_NOT_EXIST, type PackageDownload } from './service.js';
import { PackagesStore, type VersionWithPackage } from './store.js';
import { PackagePropertyType, type PackageVersion } from './tables.js';

/** Forgejo's `npm_module.TagProperty`. */
export const NPM_TAG_PROPERTY = 'npm.tag';

/** Forgejo's answers to a bad publish (`ErrInvalid…`, 400) and tag (`errInvalidTagName`, 400). */
export const NPM_INVALID_PACKAGE = 'package is invalid';
export const NPM_INVALID_NAME = 'package name is invalid';
export const NPM_INVALID_VERSION = 'package version is invalid';
export const NPM_INVALID_ATTACHMENT = 'package attachment is invalid';
export const NPM_INVALID_INTEGRITY = 'failed to validate integrity';
export const NPM_INVALID_TAG = 'The tag name is invalid';

/** Forgejo's `nameMatch`: an optional `@scope/`, then the name, lower case letters, digits and `-._`. */
const NPM_NAME = /^(?:@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/;
const DIGITS = /^\d+$/;
const IDENTIFIER = /^[0-9A-Za-z-]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type Json = Record<string, unknown>;
type People = { name: string; username?: string; email?: string; url?: string };

/** The metadata of an npm version as Forgejo stores it (`npm_module.Metadata`), plus what npm's clients read. */
export interface NpmMetadata {
  scope?: string;
  name?: string;
  description?: string;
  author?: string;
  license?: string;
  project_url?: string;
  keywords?: string[];
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
  development_dependencies?: Record<string, string>;
  peer_dependencies?: Record<string, string>;
  peer_dependencies_meta?: Record<string, unknown>;
  optional_dependencies?: Record<string, string>;
  bin?: Record<string, string> | string;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  directories?: Record<string, string>;
  readme?: string;
  repository?: { type: string; url: string };
  deprecated?: string;
}

/** A parsed publish document (Forgejo's `npm_module.Package`). */
export interface NpmUpload {
  name: string;
  version: string;
  distTags: string[];
  metadata: NpmMetadata;
  filename: string;
  data: Buffer;
}

/** A semver version as go-version reads it: `v` optional, 1 to 3 numbers, a pre-release, build metadata. */
export interface Semver {
  numbers: number[];
  pre: string;
  build: string;
}

export function parseSemver(text: string): Semver | undefined {
  let rest = text.startsWith('v') ? text.slice(1) : text;
  let build = '';
  const plus = rest.indexOf('+');
  if (plus >= 0) {
    build = rest.slice(plus + 1);
    rest = rest.slice(0, plus);
    if (!build.split('.').every((part) => IDENTIFIER.test(part))) return undefined;
  }
  let pre = '';
  const dash = rest.indexOf('-');
  if (dash >= 0) {
    pre = rest.slice(dash + 1);
    rest = rest.slice(0, dash);
    if (!pre.split('.').every((part) => IDENTIFIER.test(part))) return undefined;
  }
  const parts = rest.split('.');
  if (parts.length > 3 || !parts.every((part) => DIGITS.test(part) && part.length <= 15)) return undefined;
  const numbers = parts.map(Number);
  while (numbers.length < 3) numbers.push(0);
  return { numbers, pre, build };
}

/** go-version's `String()`: the normalized version npm's documents use. */
export function semverString(v: Semver): string {
  return `${v.numbers.join('.')}${v.pre ? `-${v.pre}` : ''}${v.build ? `+${v.build}` : ''}`;
}

/** Semver precedence (build metadata ignored). */
export function compareSemver(a: Semver, b: Semver): number {
  for (let i = 0; i < 3; i++) if (a.numbers[i] !== b.numbers[i]) return a.numbers[i]! - b.numbers[i]!;
  if (a.pre === b.pre) return 0;
  if (!a.pre) return 1;
  if (!b.pre) return -1;
  const x = a.pre.split('.');
  const y = b.pre.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    if (x[i] === y[i]) continue;
    const xn = DIGITS.test(x[i]!);
    const yn = DIGITS.test(y[i]!);
    if (xn && yn) return Number(x[i]) - Number(y[i]);
    if (xn) return -1;
    if (yn) return 1;
    return x[i]! < y[i]! ? -1 : 1;
  }
  return 0;
}

/** Forgejo's `validateName`: not padded, 1 to 214 characters, `nameMatch`. */
export function isValidNpmName(name: string): boolean {
  return name.trim() === name && name.length > 0 && name.length <= 214 && NPM_NAME.test(name);
}

/** Forgejo's `setPackageTag` check: a tag is not empty and not something that reads as a version. */
export function isValidNpmTag(tag: string): boolean {
  return tag !== '' && !parseSemver(tag);
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);
function stringMap(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}
/** npm's people fields are `"Name <mail> (url)"` or `{ name, email, url }`; Forgejo keeps the name. */
function personName(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isObject(value)) return str(value.name);
  return '';
}
function repositoryOf(value: unknown): { type: string; url: string } | undefined {
  if (typeof value === 'string') return { type: '', url: value };
  if (isObject(value)) return { type: str(value.type), url: str(value.url) };
  return undefined;
}
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined || value[key] === '') delete value[key];
  return value;
}

/**
 * Forgejo's `ParsePackage`: the first version of the document, its name and version checked, the first attachment
 * decoded and checked against `dist.integrity` (sha512 or sha1). Each refusal is a 400 with Forgejo's message.
 */
export function parseNpmUpload(document: unknown): NpmUpload {
  if (!isObject(document) || !isObject(document.versions)) throw new BadRequestError(NPM_INVALID_PACKAGE);
  const meta = Object.values(document.versions)[0];
  if (!isObject(meta)) throw new BadRequestError(NPM_INVALID_PACKAGE);
  const name = str(meta.name);
  if (!isValidNpmName(name)) throw new BadRequestError(NPM_INVALID_NAME);
  const semver = parseSemver(str(meta.version));
  if (!semver) throw new BadRequestError(NPM_INVALID_VERSION);
  const version = semverString(semver);
  const slash = name.indexOf('/');
  const scope = slash >= 0 ? name.slice(0, slash) : '';
  const bare = slash >= 0 ? name.slice(slash + 1) : name;
  const homepage = str(meta.homepage);
  const attachments = isObject(document._attachments) ? Object.values(document._attachments) : [];
  const attachment = attachments[0];
  const encoded = isObject(attachment) ? str(attachment.data) : '';
  if (encoded === '' || encoded.length % 4 !== 0 || !BASE64.test(encoded)) throw new BadRequestError(NPM_INVALID_ATTACHMENT);
  const data = Buffer.from(encoded, 'base64');
  const dist = isObject(meta.dist) ? meta.dist : {};
  const integrity = str(dist.integrity);
  const dash = integrity.indexOf('-');
  if (dash < 0) throw new BadRequestError(NPM_INVALID_INTEGRITY);
  const algorithm = integrity.slice(0, dash);
  const expected = integrity.slice(dash + 1);
  if (!BASE64.test(expected) || (algorithm !== 'sha512' && algorithm !== 'sha1')) throw new BadRequestError(NPM_INVALID_INTEGRITY);
  if (!createHash(algorithm).update(data).digest().equals(Buffer.from(expected, 'base64'))) throw new BadRequestError(NPM_INVALID_INTEGRITY);
  const metadata: NpmMetadata = compact({
    scope,
    name: bare,
    description: str(meta.description),
    author: personName(meta.author),
    license: str(meta.license),
    project_url: isHttpUrl(homepage) ? homepage : '',
    keywords: strings(meta.keywords),
    dependencies: stringMap(meta.dependencies),
    bundleDependencies: strings(meta.bundleDependencies),
    development_dependencies: stringMap(meta.devDependencies),
    peer_dependencies: stringMap(meta.peerDependencies),
    peer_dependencies_meta: isObject(meta.peerDependenciesMeta) ? meta.peerDependenciesMeta : undefined,
    optional_dependencies: stringMap(meta.optionalDependencies),
    bin: typeof meta.bin === 'string' ? meta.bin : stringMap(meta.bin),
    engines: stringMap(meta.engines),
    os: strings(meta.os),
    cpu: strings(meta.cpu),
    directories: stringMap(meta.directories),
    readme: str(meta.readme),
    repository: repositoryOf(meta.repository),
    deprecated: str(meta.deprecated),
  });
  return {
    name,
    version,
    distTags: isObject(document['dist-tags']) ? Object.keys(document['dist-tags']) : [],
    metadata,
    filename: `${bare}-${version}.tgz`.toLowerCase(),
    data,
  };
}

function metadataOf(version: Pick<PackageVersion, 'metadata_json'>): NpmMetadata {
  try {
    const value = JSON.parse(version.metadata_json || '{}') as unknown;
    return isObject(value) ? (value as NpmMetadata) : {};
  } catch {
    return {};
  }
}

/** What `npm search` reads (`/-/v1/search`). */
export interface NpmSearchResult {
  objects: { package: Json }[];
  total: number;
}

/**
 * The npm registry of an owner: publish, the package document, tarballs, dist-tags, deprecation, unpublish and
 * search, over `PackagesService` (access, limits, blobs) and its store.
 */
export class NpmPackagesService {
  constructor(private readonly ctx: CoreContext) {}

  private get packages(): PackagesService {
    return this.ctx.service(PackagesService);
  }

  private get store(): PackagesStore {
    return this.ctx.store(PackagesStore);
  }

  /** `[server] ROOT_URL` + `api/packages/{owner}/npm`: where npm finds the owner's registry. */
  registryUrl(owner: User): string {
    return webUrl(this.ctx.settings, `api/packages/${owner.name}/npm`);
  }

  private async versionsOf(owner: User, name: string): Promise<{ versions: VersionWithPackage[] } | undefined> {
    const pkg = await this.store.findPackage(owner.id, 'npm', name);
    if (!pkg) return undefined;
    const versions = (await this.store.versionsOfPackage(pkg.id)).filter((v) => v.is_internal === 0).map((v) => ({ ...v, pkg }));
    return versions.length > 0 ? { versions } : undefined;
  }

  /**
   * Forgejo's `UploadPackage`: the version with its tarball and metadata, and the document's dist-tags pointing at
   * it; 400 for a bad document, 409 when the version exists, 403 past a limit. A document without a tarball that
   * names versions the package has is `npm deprecate`'s: their `deprecated` messages are set (or cleared).
   */
  async publish(actor: Actor, owner: User, document: unknown): Promise<'published' | 'deprecated'> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    if (isObject(document) && isObject(document.versions) && !hasAttachment(document)) {
      const name = str(document.name) || str(document._id);
      const current = isValidNpmName(name) ? await this.versionsOf(owner, name) : undefined;
      if (current) {
        await this.deprecate(current.versions, document.versions);
        return 'deprecated';
      }
    }
    const upload = parseNpmUpload(document);
    for (const tag of upload.distTags) if (!isValidNpmTag(tag)) throw new BadRequestError(NPM_INVALID_TAG);
    await this.packages.addFile(
      actor,
      owner,
      { type: 'npm', name: upload.name, version: upload.version },
      upload.filename,
      (async function* () {
        yield upload.data;
      })(),
      this.ctx.settings.packages.LIMIT_SIZE_NPM,
      {
        newVersion: true,
        semverCompatible: true,
        metadataJson: JSON.stringify(upload.metadata),
        afterInsert: async (store, version) => {
          for (const tag of upload.distTags) await setTag(store, version.package_id, version.id, tag);
        },
      },
    );
    return 'published';
  }

  private async deprecate(versions: readonly VersionWithPackage[], documented: Json): Promise<void> {
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(PackagesStore);
      for (const version of versions) {
        const entry = documented[version.version];
        if (!isObject(entry)) continue;
        const metadata = metadataOf(version);
        const message = str(entry.deprecated);
        if ((metadata.deprecated ?? '') === message) continue;
        if (message) metadata.deprecated = message;
        else delete metadata.deprecated;
        await store.setVersionMetadata(version.id, JSON.stringify(metadata));
      }
    });
  }

  /** Forgejo's `PackageMetadata`: the package document npm installs from; 404 when the package has no version. */
  async packument(actor: Actor, owner: User, name: string): Promise<Json> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const found = await this.versionsOf(owner, name);
    if (!found) throw new NotFoundError(PACKAGE_NOT_EXIST);
    const registry = this.registryUrl(owner);
    const described = [];
    const files = await this.store.filesOfVersions(found.versions.map((v) => v.id));
    for (const version of found.versions) {
      const file = files.get(version.id)?.[0];
      const semver = parseSemver(version.version);
      if (!file || !semver) continue;
      described.push({ version, file, semver, metadata: metadataOf(version) });
    }
    if (described.length === 0) throw new NotFoundError(PACKAGE_NOT_EXIST);
    described.sort((a, b) => compareSemver(a.semver, b.semver));
    const tags = await this.store.propertiesOf(PackagePropertyType.Version, described.map((d) => d.version.id), NPM_TAG_PROPERTY);
    const distTags: Record<string, string> = {};
    const versions: Record<string, Json> = {};
    const time: Record<string, string> = {};
    let latest: (typeof described)[number] | undefined;
    let first = described[0]!.version.created_unix;
    let last = first;
    for (const d of described) {
      const m = d.metadata;
      const escapedName = encodeURIComponent(d.version.pkg.name);
      versions[d.version.version] = compact({
        _id: `${d.version.pkg.name}@${d.version.version}`,
        name: d.version.pkg.name,
        version: d.version.version,
        description: m.description ?? '',
        author: { name: m.author ?? '' },
        homepage: m.project_url,
        license: m.license,
        repository: m.repository,
        keywords: m.keywords,
        dependencies: m.dependencies,
        bundleDependencies: m.bundleDependencies,
        devDependencies: m.development_dependencies,
        peerDependencies: m.peer_dependencies,
        peerDependenciesMeta: m.peer_dependencies_meta,
        optionalDependencies: m.optional_dependencies,
        bin: m.bin,
        engines: m.engines,
        os: m.os,
        cpu: m.cpu,
        directories: m.directories,
        deprecated: m.deprecated,
        dist: {
          integrity: `sha512-${Buffer.from(d.file.blob.hash_sha512, 'hex').toString('base64')}`,
          shasum: d.file.blob.hash_sha1,
          tarball: `${registry}/${escapedName}/-/${encodeURIComponent(d.version.version)}/${encodeURIComponent(d.file.lower_name)}`,
        },
        maintainers: [{ name: owner.name }],
      });
      time[d.version.version] = isoTime(d.version.created_unix);
      first = Math.min(first, d.version.created_unix);
      last = Math.max(last, d.version.created_unix);
      for (const tag of tags) {
        if (tag.ref_id !== d.version.id) continue;
        distTags[tag.value] = d.version.version;
        if (tag.value === 'latest') latest = d;
      }
    }
    time.created = isoTime(first);
    time.modified = isoTime(last);
    if (!latest) {
      // yarn and pnpm need `latest`: the newest release, or the newest version when all are pre-releases.
      latest = [...described].reverse().find((d) => d.semver.pre === '') ?? described[described.length - 1]!;
      distTags.latest = latest.version.version;
    }
    const m = latest.metadata;
    return compact({
      _id: latest.version.pkg.name,
      name: latest.version.pkg.name,
      description: m.description ?? '',
      'dist-tags': distTags,
      versions,
      readme: m.readme,
      maintainers: [{ name: owner.name }],
      time,
      homepage: m.project_url,
      keywords: m.keywords,
      repository: m.repository,
      author: { name: m.author ?? '' },
      license: m.license,
    });
  }

  /** Forgejo's `DownloadPackageFile`: a tarball by version and file name. */
  download(actor: Actor, owner: User, name: string, version: string, filename: string, range?: string | null): Promise<PackageDownload> {
    return this.packages.download(actor, owner, { type: 'npm', name, version }, filename, range);
  }

  /** Forgejo's `DownloadPackageFileByName`: a tarball by file name alone (`{name}/-/{file}`). */
  async downloadByName(actor: Actor, owner: User, name: string, filename: string, range?: string | null): Promise<PackageDownload> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const found = await this.versionsOf(owner, name);
    for (const version of found?.versions ?? []) {
      if (await this.store.fileByName(version.id, filename)) return this.download(actor, owner, name, version.version, filename, range);
    }
    throw new NotFoundError(PACKAGE_NOT_EXIST);
  }

  /** Forgejo's `DeletePackageVersion` (`npm unpublish name@version`). */
  deleteVersion(actor: Actor, owner: User, name: string, version: string): Promise<void> {
    return this.packages.deleteVersion(actor, owner, { type: 'npm', name, version });
  }

  /** Forgejo's `DeletePackage` (`npm unpublish name --force`): every version; 404 when there is none. */
  async deletePackage(actor: Actor, owner: User, name: string): Promise<void> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const found = await this.versionsOf(owner, name);
    if (!found) throw new NotFoundError(PACKAGE_NOT_EXIST);
    for (const version of found.versions) await this.packages.removeVersion(version, { actor, owner });
  }

  /** Forgejo's `ListPackageTags`: tag → version (an unknown package: none). */
  async distTags(actor: Actor, owner: User, name: string): Promise<Record<string, string>> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const found = await this.versionsOf(owner, name);
    const versions = found?.versions ?? [];
    const byId = new Map(versions.map((v) => [v.id, v.version]));
    const tags: Record<string, string> = {};
    for (const tag of await this.store.propertiesOf(PackagePropertyType.Version, [...byId.keys()], NPM_TAG_PROPERTY)) tags[tag.value] = byId.get(tag.ref_id)!;
    return tags;
  }

  /** Forgejo's `AddPackageTag`: moves `tag` to `version`; 404 for no such version, 400 for a bad tag. */
  async addTag(actor: Actor, owner: User, name: string, tag: string, version: string): Promise<void> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const target = await this.store.versionByName(owner.id, 'npm', name, version);
    if (!target) throw new NotFoundError(PACKAGE_NOT_EXIST);
    if (!isValidNpmTag(tag)) throw new BadRequestError(NPM_INVALID_TAG);
    await this.ctx.transaction((tx) => setTag(tx.store(PackagesStore), target.package_id, target.id, tag));
  }

  /** Forgejo's `DeletePackageTag`: removes `tag` (an unknown package or tag: nothing to do); 400 for a bad tag. */
  async deleteTag(actor: Actor, owner: User, name: string, tag: string): Promise<void> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const pkg = await this.store.findPackage(owner.id, 'npm', name);
    if (!pkg) return;
    if (!isValidNpmTag(tag)) throw new BadRequestError(NPM_INVALID_TAG);
    await this.ctx.transaction((tx) => setTag(tx.store(PackagesStore), pkg.id, undefined, tag));
  }

  /** Forgejo's `PackageSearch`: each matching package's newest version, `from`/`size` as npm sends them. */
  async search(actor: Actor, owner: User, text: string, from: number, size: number): Promise<NpmSearchResult> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const limit = size > 0 ? Math.min(size, 250) : 20;
    const { items, total } = await this.store.searchLatest(owner.id, 'npm', text.trim(), Math.max(0, from), limit);
    const registry = this.registryUrl(owner);
    return {
      objects: items.map((version) => {
        const m = metadataOf(version);
        return {
          package: compact({
            scope: m.scope || 'unscoped',
            name: version.pkg.name,
            version: version.version,
            date: isoTime(version.created_unix),
            description: m.description ?? '',
            author: { name: m.author ?? '' },
            publisher: { name: owner.name },
            maintainers: [] as People[],
            keywords: m.keywords,
            links: compact({ npm: registry, homepage: m.project_url }),
          }),
        };
      }),
      total,
    };
  }
}

function hasAttachment(document: Json): boolean {
  return isObject(document._attachments) && Object.keys(document._attachments).length > 0;
}

/** Forgejo's `setPackageTag`: the tag leaves whichever version of the package had it, then (unless deleting) goes on `versionId`. */
async function setTag(store: PackagesStore, packageId: number, versionId: number | undefined, tag: string): Promise<void> {
  const ids = (await store.versionsOfPackage(packageId)).map((v) => v.id);
  await store.deletePropertyValue(PackagePropertyType.Version, ids, NPM_TAG_PROPERTY, tag);
  if (versionId !== undefined) await store.insertProperty(PackagePropertyType.Version, versionId, NPM_TAG_PROPERTY, tag);
}
