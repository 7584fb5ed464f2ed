/**
 * The Cargo format of the package registry (Forgejo's `modules/packages/cargo`, `services/packages/cargo` and
 * `routers/api/packages/cargo`): the publish body Cargo sends (a little-endian u32 length, the metadata JSON, a u32
 * length, the `.crate` bytes) read as a stream, the version's metadata kept as `metadata_json` in Forgejo's shape,
 * yanking as the `cargo.yanked` version property, and what Cargo reads: the sparse index (`config.json` and one
 * file per crate, a JSON line per version), search, owners and downloads. Forgejo also writes the index into a git
 * repository `_cargo-index` for Cargo's git protocol; this registry serves the sparse protocol only.
 */
import type { CoreContext } from '../context.js';
import { AccessMode } from '../access/index.js';
import { isSiteAdmin, type Actor, type User } from '../users/index.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { isHttpUrl, webUrl } from '../urls.js';
import { parseSemver } from './npm.js';
import { PackagesService, PackageQuotaError, PACKAGE_NOT_EXIST, QUOTA_TYPE_SIZE, type PackageDownload } from './service.js';
import { PackagesStore } from './store.js';
import { PackagePropertyType, type PackageVersion } from './tables.js';

/** Forgejo's `cargo_module.PropertyYanked`: `"true"` or `"false"` on each version. */
export const CARGO_YANKED_PROPERTY = 'cargo.yanked';

/** Forgejo's answers to a bad publish (400). */
export const CARGO_INVALID_NAME = 'package name is invalid';
export const CARGO_INVALID_VERSION = 'package version is invalid';
export const CARGO_INVALID_CONTENT_SIZE = 'invalid content size';
/** What Go's `binary.Read` says of a body that ends inside a length. */
export const CARGO_UNEXPECTED_EOF = 'unexpected EOF';
export const CARGO_INVALID_METADATA = 'invalid metadata';
export const CARGO_METADATA_TOO_LARGE = 'metadata is too large';

/**
 * Room for the metadata JSON (the readme travels in it). Forgejo reads it unbounded; here it is held in memory
 * while parsed, so it is bounded like any JSON body the server reads.
 */
export const CARGO_METADATA_LIMIT = 10 * 1024 * 1024;

/** Forgejo's `nameMatch`: a letter, then up to 63 letters, digits, `-` and `_` (no nesting: linear time). */
const CARGO_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

export function isValidCargoName(name: string): boolean {
  return CARGO_NAME.test(name);
}

/** Forgejo's `BuildPackagePath`: where the sparse index keeps a crate's file (`1/a`, `2/ab`, `3/a/abc`, `ab/cd/abcd…`). */
export function cargoIndexPath(name: string): string {
  if (name.length === 1) return `1/${name}`;
  if (name.length === 2) return `2/${name}`;
  if (name.length === 3) return `3/${name[0]}/${name}`;
  return `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
}

/** A dependency as the index lists it (Forgejo's `cargo_module.Dependency`). */
export interface CargoDependency {
  name: string;
  req: string;
  features: string[];
  optional: boolean;
  default_features: boolean;
  target: string | null;
  kind: string;
  registry: string | null;
  package: string | null;
}

/** The metadata of a Cargo version as Forgejo stores it (`cargo_module.Metadata`, empty fields left out). */
export interface CargoMetadata {
  dependencies?: CargoDependency[];
  features?: Record<string, string[]>;
  authors?: string[];
  description?: string;
  documentation_url?: string;
  project_url?: string;
  readme?: string;
  keywords?: string[];
  categories?: string[];
  license?: string;
  repository_url?: string;
  links?: string;
}

/** The sparse index's `config.json` (Forgejo's `cargo_service.Config`). */
export interface CargoConfig {
  dl: string;
  api: string;
  'auth-required': boolean;
}

/** What `cargo search` reads. */
export interface CargoSearchResult {
  crates: { name: string; max_version: string; description: string }[];
  meta: { total: number };
}

/** What `cargo owner --list` reads: the package's owner is its only owner. */
export interface CargoOwners {
  users: { id: number; login: string; name: string }[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const strOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);

function featureMap(value: unknown): Record<string, string[]> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [feature, enables] of Object.entries(value)) out[feature] = strings(enables) ?? [];
  return out;
}

/** Forgejo's `validation.IsValidURL`: an http(s) URL, else the field is dropped. */
function validUrl(text: string): string {
  return isHttpUrl(text) ? text : '';
}

function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    const field = value[key];
    if (field === undefined || field === '' || (Array.isArray(field) && field.length === 0)) delete value[key];
  }
  return value;
}

/**
 * Forgejo's `parsePackage`: the name (`nameMatch`) and version (semver) checked, URLs that are not http(s) dropped,
 * the dependencies as the index lists them. A dependency renamed in Cargo.toml (`explicit_name_in_toml`) is listed
 * under its new name, with the crate it really is as `package`, as Cargo's index format has it.
 */
export function parseCargoMetadata(meta: unknown): { name: string; version: string; metadata: CargoMetadata } {
  if (!isObject(meta)) throw new BadRequestError(CARGO_INVALID_METADATA);
  const name = str(meta.name);
  if (!isValidCargoName(name)) throw new BadRequestError(CARGO_INVALID_NAME);
  const version = str(meta.vers);
  if (!parseSemver(version)) throw new BadRequestError(CARGO_INVALID_VERSION);
  const dependencies: CargoDependency[] = [];
  for (const dep of Array.isArray(meta.deps) ? meta.deps : []) {
    if (!isObject(dep)) continue;
    const crate = str(dep.name);
    const renamed = str(dep.explicit_name_in_toml);
    dependencies.push({
      name: renamed || crate,
      req: str(dep.version_req),
      features: strings(dep.features) ?? [],
      optional: dep.optional === true,
      default_features: dep.default_features === true,
      target: strOrNull(dep.target),
      kind: str(dep.kind),
      registry: strOrNull(dep.registry),
      package: renamed ? crate : null,
    });
  }
  const metadata: CargoMetadata = compact({
    dependencies,
    features: featureMap(meta.features),
    authors: strings(meta.authors),
    description: str(meta.description),
    documentation_url: validUrl(str(meta.documentation)),
    project_url: validUrl(str(meta.homepage)),
    readme: str(meta.readme),
    keywords: strings(meta.keywords),
    categories: strings(meta.categories),
    license: str(meta.license),
    repository_url: validUrl(str(meta.repository)),
    links: str(meta.links),
  });
  if (metadata.features && Object.keys(metadata.features).length === 0) delete metadata.features;
  return { name, version, metadata };
}

function metadataOf(version: Pick<PackageVersion, 'metadata_json'>): CargoMetadata {
  try {
    const value = JSON.parse(version.metadata_json || '{}') as unknown;
    return isObject(value) ? (value as CargoMetadata) : {};
  } catch {
    return {};
  }
}

/**
 * Reads exact byte counts from a request body as it arrives, keeping only the chunk in hand: the lengths and the
 * metadata are taken whole, the crate is passed on chunk by chunk.
 */
class FramedReader {
  private readonly chunks: AsyncIterator<Uint8Array>;
  private pending: Buffer = Buffer.alloc(0);

  constructor(source: AsyncIterable<Uint8Array>) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  /** Up to `max` bytes: what is pending first, else the next chunk; undefined at the end of the body. */
  private async next(max: number): Promise<Buffer | undefined> {
    if (this.pending.length === 0) {
      const chunk = await this.chunks.next();
      if (chunk.done) return undefined;
      this.pending = Buffer.from(chunk.value.buffer, chunk.value.byteOffset, chunk.value.byteLength);
    }
    const taken = this.pending.subarray(0, max);
    this.pending = this.pending.subarray(taken.length);
    return taken;
  }

  /** Exactly `size` bytes; `onShort` when the body ends first. */
  async exactly(size: number, onShort: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    let got = 0;
    while (got < size) {
      const part = await this.next(size - got);
      if (!part) throw new BadRequestError(onShort);
      parts.push(part);
      got += part.length;
    }
    return Buffer.concat(parts, size);
  }

  async uint32(): Promise<number> {
    return (await this.exactly(4, CARGO_UNEXPECTED_EOF)).readUInt32LE(0);
  }

  /** The next `size` bytes as they come; a body that ends first is Forgejo's `invalid content size`. */
  async *stream(size: number): AsyncGenerator<Uint8Array> {
    let left = size;
    while (left > 0) {
      const part = await this.next(Math.min(left, 1024 * 1024));
      if (!part) throw new BadRequestError(CARGO_INVALID_CONTENT_SIZE);
      left -= part.length;
      // A copy: the chunk's buffer may be reused by the socket once the next one is asked for.
      yield Buffer.from(part);
    }
  }
}

/**
 * The Cargo registry of an owner: publish, the sparse index, downloads, yank and unyank, search and owners, over
 * `PackagesService` (access, limits, blobs) and its store.
 */
export class CargoPackagesService {
  constructor(private readonly ctx: CoreContext) {}

  private get packages(): PackagesService {
    return this.ctx.service(PackagesService);
  }

  private get store(): PackagesStore {
    return this.ctx.store(PackagesStore);
  }

  /** `[server] ROOT_URL` + `api/packages/{owner}/cargo`: the registry's API root (Cargo adds `/api/v1/…`). */
  apiUrl(owner: User): string {
    return webUrl(this.ctx.settings, `api/packages/${owner.name}/cargo`);
  }

  /**
   * Forgejo's `RepositoryConfig`: where Cargo downloads crates and calls the API, and whether it must send its token
   * for every request (the owner is not public, or the site requires signing in to view).
   */
  async config(actor: Actor, owner: User): Promise<CargoConfig> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const api = this.apiUrl(owner);
    return { dl: `${api}/api/v1/crates`, api, 'auth-required': this.ctx.settings.service.REQUIRE_SIGNIN_VIEW || owner.visibility !== 0 };
  }

  /**
   * Forgejo's `EnumeratePackageVersions` (`BuildPackageIndex`): the crate's index file, one JSON line per version by
   * version text; 404 for a crate the owner does not have or one without versions.
   */
  async indexFile(actor: Actor, owner: User, name: string): Promise<string> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const pkg = await this.store.findPackage(owner.id, 'cargo', name);
    if (!pkg) throw new NotFoundError(PACKAGE_NOT_EXIST);
    const versions = (await this.store.versionsOfPackage(pkg.id)).sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
    if (versions.length === 0) throw new NotFoundError('');
    const yanked = new Map<number, string>();
    for (const p of await this.store.propertiesOf(PackagePropertyType.Version, versions.map((v) => v.id), CARGO_YANKED_PROPERTY)) yanked.set(p.ref_id, p.value);
    let text = '';
    const files = await this.store.filesOfVersions(versions.map((v) => v.id));
    for (const version of versions) {
      const file = files.get(version.id)?.[0];
      if (!file) continue;
      const metadata = metadataOf(version);
      // Forgejo's `IndexVersionEntry`, its fields in its order; `links` only when set.
      const entry: Json = {
        name: pkg.name,
        vers: version.version,
        deps: metadata.dependencies ?? [],
        cksum: file.blob.hash_sha256,
        features: metadata.features ?? {},
        yanked: yanked.get(version.id) === 'true',
      };
      if (metadata.links) entry.links = metadata.links;
      text += `${JSON.stringify(entry)}\n`;
    }
    if (text === '') throw new NotFoundError('');
    return text;
  }

  /**
   * Forgejo's `UploadPackage`: reads Cargo's publish body, checks the metadata, then streams the crate into the
   * package store as `{name}-{version}.crate` (lower case) with `cargo.yanked` = false. 400 for a bad body, name or
   * version or a crate shorter than announced; 409 when the version exists; 403 past a limit (a crate announced
   * past `LIMIT_SIZE_CARGO` is refused before its bytes are read).
   */
  async publish(actor: Actor, owner: User, body: AsyncIterable<Uint8Array>): Promise<void> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const reader = new FramedReader(body);
    const metadataSize = await reader.uint32();
    if (metadataSize > CARGO_METADATA_LIMIT) throw new BadRequestError(CARGO_METADATA_TOO_LARGE);
    let document: unknown;
    try {
      document = JSON.parse((await reader.exactly(metadataSize, CARGO_UNEXPECTED_EOF)).toString('utf8'));
    } catch (error) {
      if (error instanceof BadRequestError) throw error;
      throw new BadRequestError(CARGO_INVALID_METADATA);
    }
    const { name, version, metadata } = parseCargoMetadata(document);
    const crateSize = await reader.uint32();
    const limit = this.ctx.settings.packages.LIMIT_SIZE_CARGO;
    if (limit > -1 && crateSize > limit && !isSiteAdmin(actor)) throw new PackageQuotaError(QUOTA_TYPE_SIZE);
    await this.packages.addFile(actor, owner, { type: 'cargo', name, version }, `${name}-${version}.crate`.toLowerCase(), reader.stream(crateSize), limit, {
      newVersion: true,
      semverCompatible: true,
      metadataJson: JSON.stringify(metadata),
      afterInsert: (store, created) => store.insertProperty(PackagePropertyType.Version, created.id, CARGO_YANKED_PROPERTY, 'false'),
    });
  }

  /** Forgejo's `DownloadPackageFile`: the `.crate` of the version; 404 for what does not exist. */
  download(actor: Actor, owner: User, name: string, version: string, range?: string | null): Promise<PackageDownload> {
    return this.packages.download(actor, owner, { type: 'cargo', name, version }, `${name}-${version}.crate`.toLowerCase(), range);
  }

  /** Forgejo's `YankPackage` / `UnyankPackage`: sets the version's `cargo.yanked`; 404 for no such version. */
  async setYanked(actor: Actor, owner: User, name: string, version: string, yanked: boolean): Promise<void> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const found = await this.store.versionByName(owner.id, 'cargo', name, version);
    if (!found) throw new NotFoundError(PACKAGE_NOT_EXIST);
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(PackagesStore);
      // One property per version: whichever value it had goes, the new one comes.
      for (const value of ['true', 'false']) await store.deletePropertyValue(PackagePropertyType.Version, [found.id], CARGO_YANKED_PROPERTY, value);
      await store.insertProperty(PackagePropertyType.Version, found.id, CARGO_YANKED_PROPERTY, String(yanked));
    });
  }

  /**
   * Forgejo's `SearchPackages`: per crate whose name contains `query`, its newest version; `page` from 1,
   * `perPage` as the API's page sizes go (0: the default, past the maximum: the maximum).
   */
  async search(actor: Actor, owner: User, query: string, page: number, perPage: number): Promise<CargoSearchResult> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const api = this.ctx.settings.api;
    const size = perPage <= 0 ? api.DEFAULT_PAGING_NUM : Math.min(perPage, api.MAX_RESPONSE_ITEMS);
    const { items, total } = await this.store.searchLatest(owner.id, 'cargo', query.trim(), (Math.max(page, 1) - 1) * size, size);
    return {
      crates: items.map((version) => ({ name: version.pkg.name, max_version: version.version, description: metadataOf(version).description ?? '' })),
      meta: { total },
    };
  }

  /** Forgejo's `ListOwners`: the owner, whatever the crate. */
  async owners(actor: Actor, owner: User): Promise<CargoOwners> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    return { users: [{ id: owner.id, login: owner.name, name: owner.full_name.trim() || owner.name }] };
  }
}
