/**
 * The Composer format of the package registry (Forgejo's `modules/packages/composer` and
 * `routers/api/packages/composer`): a package zip uploaded whole, its `composer.json` (in the zip's root or one
 * folder down) giving the name (`vendor/project`), the version (else the upload's `?version=`), the type (kept as
 * the version's `composer.type` property) and the metadata Forgejo keeps (the version's metadata JSON); the zip as
 * the version's one file `{vendor}-{project}.{version}.zip`. And what Composer reads: the service index, search,
 * the package list, a package's versions (`p2/{vendor}/{project}.json`) and the downloads. The server parses HTTP
 * and calls these.
 */
import { open, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { CoreContext } from '../context.js';
import { AccessMode } from '../access/index.js';
import { isSiteAdmin, type Actor, type User } from '../users/index.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { ReposService } from '../repos/index.js';
import { Store } from '../storage/index.js';
import { isHttpUrl, webUrl } from '../urls.js';
import { PACKAGE_NOT_EXIST, PackagesService, type PackageDownload } from './service.js';
import { spoolPackageUpload } from './spool.js';
import { PackagesStore, type VersionWithPackage } from './store.js';
import { PackagePropertyType, type PackageFile, type PackagesTables } from './tables.js';
import { readZipEntry, withZip, zipEntries, zipEntryDir, type OpenZip } from './zip.js';

/** Forgejo's `composer_module.TypeProperty`: the version's package type. */
export const COMPOSER_TYPE_PROPERTY = 'composer.type';
/** Forgejo's answers to a bad upload (400). */
export const COMPOSER_MISSING_FILE = 'composer.json file is missing';
export const COMPOSER_INVALID_NAME = 'package name is invalid';
export const COMPOSER_INVALID_VERSION = 'package version is invalid';

/** What of composer.json is read at most (Forgejo's newer limit; a longer one cannot be parsed and is a 400). */
const MAX_COMPOSER_JSON_SIZE = 10 * 1024 * 1024;
/** Forgejo keeps at most this much of the readme. */
const MAX_README_SIZE = 10 * 1024;

/** An author in composer.json (Forgejo's `Author`, empty fields left out). */
export interface ComposerAuthor {
  name?: string;
  email?: string;
  homepage?: string;
}

/**
 * Forgejo's `composer_module.Metadata`, in its field order (its JSON is the version's metadata and the start of each
 * version in `p2/…json`); empty fields are left out as Go's `omitempty` does. `readme` holds the readme's text.
 */
export interface ComposerMetadata {
  description?: string;
  readme?: string;
  keywords?: string[];
  _comment?: string[];
  homepage?: string;
  license?: string[];
  authors?: ComposerAuthor[];
  bin?: string[];
  autoload?: Record<string, unknown>;
  'autoload-dev'?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  require?: Record<string, string>;
  'require-dev'?: Record<string, string>;
  suggest?: Record<string, string>;
  provide?: Record<string, string>;
}

/** A package read from its zip (Forgejo's `composer_module.Package`); `version` is '' when composer.json has none. */
export interface ComposerPackage {
  name: string;
  version: string;
  type: string;
  metadata: ComposerMetadata;
}

/** `packages.json`: where Composer finds search, a package's versions, and the package list. */
export interface ComposerServiceIndex {
  search: string;
  'metadata-url': string;
  list: string;
}

export interface ComposerSearchResult {
  total: number;
  results: { name: string; description: string; downloads: number }[];
  next?: string;
}

/** One version in `p2/{vendor}/{project}.json` (Forgejo's `PackageVersionMetadata`). */
export type ComposerVersionMetadata = ComposerMetadata & {
  name: string;
  version: string;
  type: string;
  time: string;
  dist: { type: string; url: string; shasum: string };
  source: { url: string; type: string; reference: string };
};

export interface ComposerPackageMetadata {
  minified: string;
  packages: Record<string, ComposerVersionMetadata[]>;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLowerAlnum = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x7a);
/** `[0-9A-Za-z\-~]`: what hashicorp/go-version allows in prerelease and build identifiers. */
const isIdentChar = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x7e;

/**
 * One half of a name: runs of `[a-z0-9]` joined by single separators (`separator` says which text between two runs
 * is allowed). A single pass: the name is request data.
 */
function isNamePart(part: string, separator: (between: string) => boolean): boolean {
  if (part.length === 0 || !isLowerAlnum(part.charCodeAt(0)) || !isLowerAlnum(part.charCodeAt(part.length - 1))) return false;
  let i = 0;
  while (i < part.length) {
    const start = i;
    while (i < part.length && !isLowerAlnum(part.charCodeAt(i))) i++;
    if (i > start && !separator(part.slice(start, i))) return false;
    while (i < part.length && isLowerAlnum(part.charCodeAt(i))) i++;
  }
  return true;
}

/**
 * Forgejo's name rule (`\A[a-z0-9]([_\.-]?[a-z0-9]+)*\/[a-z0-9](([_\.]?|-{0,2})[a-z0-9]+)*\z`): a lower-case
 * vendor, its words joined by one of `_.-`, a slash, and a project whose words are joined by one `_` or `.`, or
 * one or two `-`. This also keeps names out of traversal: no `..`, one slash.
 */
export function isValidComposerName(name: string): boolean {
  const slash = name.indexOf('/');
  if (slash < 0 || name.indexOf('/', slash + 1) >= 0) return false;
  const vendor = name.slice(0, slash);
  const project = name.slice(slash + 1);
  return isNamePart(vendor, (s) => s === '_' || s === '.' || s === '-') && isNamePart(project, (s) => s === '_' || s === '.' || s === '-' || s === '--');
}

/** hashicorp/go-version's numbers `[0-9]+(\.[0-9]+)*`, each fitting an int64; the index after them and their values. */
function versionNumbers(v: string, i: number): { end: number; numbers: bigint[] } | undefined {
  const numbers: bigint[] = [];
  for (;;) {
    const start = i;
    while (i < v.length && isDigit(v.charCodeAt(i))) i++;
    if (i === start) return undefined;
    const value = BigInt(v.slice(start, i));
    // Go's `strconv.ParseInt(…, 10, 64)` refuses what does not fit.
    if (value > 0x7fffffffffffffffn) return undefined;
    numbers.push(value);
    if (v[i] !== '.' || !isDigit(v.charCodeAt(i + 1))) return { end: i, numbers };
    i++;
  }
}

/** `[0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*`: dot-separated identifiers, none empty. */
function isIdentifiers(text: string): boolean {
  if (text.length === 0) return false;
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) {
      if (length === 0) return false;
      length = 0;
    } else if (isIdentChar(c)) length++;
    else return false;
  }
  return length > 0;
}

/**
 * hashicorp/go-version's `NewSemver`, which Forgejo applies to a version composer.json gives: `v`, one to three
 * numbers, then `-prerelease` and `+build`.
 */
export function isComposerSemver(v: string): boolean {
  let i = v.charCodeAt(0) === 0x76 ? 1 : 0;
  const numbers = versionNumbers(v, i);
  if (!numbers || numbers.numbers.length > 3) return false;
  i = numbers.end;
  const plus = v.indexOf('+', i);
  const end = plus < 0 ? v.length : plus;
  if (i < end && (v[i] !== '-' || !isIdentifiers(v.slice(i + 1, end)))) return false;
  return plus < 0 || isIdentifiers(v.slice(plus + 1));
}

/**
 * hashicorp/go-version's `NewVersion(v).String()`, which Forgejo applies to the upload's `?version=`: numbers
 * (padded to three: `1.2` is `1.2.0`, leading zeros dropped), a prerelease after `-` (or right after the numbers
 * when it starts with a letter, `-` or `~`), a build after `+`; undefined when `v` is no such version.
 */
export function normalizeComposerVersion(v: string): string | undefined {
  let i = v.charCodeAt(0) === 0x76 ? 1 : 0;
  const numbers = versionNumbers(v, i);
  if (!numbers) return undefined;
  i = numbers.end;
  const plus = v.indexOf('+', i);
  const end = plus < 0 ? v.length : plus;
  let pre = '';
  if (i < end) {
    // The regexp's preference: a dash then identifiers; else identifiers starting with `[A-Za-z\-~]` right after
    // the numbers (a dash can be that start: `1.0-` has the prerelease `-`).
    const rest = v.slice(i, end);
    if (rest[0] === '-' && isIdentifiers(rest.slice(1))) pre = rest.slice(1);
    else if (!isDigit(rest.charCodeAt(0)) && isIdentChar(rest.charCodeAt(0)) && isIdentifiers(rest)) pre = rest;
    else return undefined;
  }
  if (plus >= 0 && !isIdentifiers(v.slice(plus + 1))) return undefined;
  const segments = numbers.numbers.map(String);
  while (segments.length < 3) segments.push('0');
  return `${segments.join('.')}${pre ? `-${pre}` : ''}${plus >= 0 ? `+${v.slice(plus + 1)}` : ''}`;
}

/** Go's `json.Unmarshal` refusing a value of the wrong type, with Go's wording. */
function typeError(value: unknown, field: string, goType: string): BadRequestError {
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'object' ? 'object' : typeof value;
  return new BadRequestError(`json: cannot unmarshal ${kind} into Go struct field .${field} of type ${goType}`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string field ('' when absent or null). */
function stringField(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw typeError(value, field, 'string');
  return value;
}

/** A `[]string` field (null elements are Go's ''). */
function stringsField(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw typeError(value, field, '[]string');
  return value.map((item) => stringField(item, field));
}

/** Forgejo's `Licenses`/`Comments`: a string or an array of them; anything else is ignored, as its `UnmarshalJSON` does. */
function stringOrStrings(value: unknown, field: string): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? stringsField(value, field) : [];
}

/** A `map[string]string` field. */
function stringMapField(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw typeError(value, field, 'map[string]string');
  const out: Record<string, string> = {};
  for (const key of Object.keys(value).sort()) out[key] = stringField(value[key], field);
  return out;
}

/** A `map[string]any` field; Go writes a map's keys sorted, at every depth. */
function anyMapField(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw typeError(value, field, 'map[string]interface {}');
  return sortedKeys(value) as Record<string, unknown>;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys(value[key]);
  return out;
}

/** Sets `key` unless the value is what Go's `omitempty` leaves out ('', an empty list or map). */
function put<K extends keyof ComposerMetadata>(metadata: ComposerMetadata, key: K, value: ComposerMetadata[K]): void {
  if (value === undefined || value === '') return;
  if (Array.isArray(value) ? value.length === 0 : typeof value === 'object' && Object.keys(value).length === 0) return;
  metadata[key] = value;
}

/** Forgejo's `Metadata` read from composer.json's document, with the readme's text read from the zip. */
function metadataOf(cj: Record<string, unknown>, readme: string): ComposerMetadata {
  const metadata: ComposerMetadata = {};
  put(metadata, 'description', stringField(cj.description, 'description'));
  put(metadata, 'readme', readme);
  put(metadata, 'keywords', stringsField(cj.keywords, 'keywords'));
  put(metadata, '_comment', stringOrStrings(cj._comment, '_comment'));
  // Forgejo's `validation.IsValidURL`: a homepage that is no http(s) URL is dropped.
  const homepage = stringField(cj.homepage, 'homepage');
  put(metadata, 'homepage', isHttpUrl(homepage) ? homepage : '');
  put(metadata, 'license', stringOrStrings(cj.license, 'license'));
  if (cj.authors !== undefined && cj.authors !== null) {
    if (!Array.isArray(cj.authors)) throw typeError(cj.authors, 'authors', '[]composer.Author');
    put(
      metadata,
      'authors',
      cj.authors.map((author: unknown) => {
        if (author === null) return {};
        if (!isObject(author)) throw typeError(author, 'authors', 'composer.Author');
        const out: ComposerAuthor = {};
        for (const key of ['name', 'email', 'homepage'] as const) {
          const text = stringField(author[key], `authors.${key}`);
          if (text) out[key] = text;
        }
        return out;
      }),
    );
  }
  put(metadata, 'bin', stringsField(cj.bin, 'bin'));
  put(metadata, 'autoload', anyMapField(cj.autoload, 'autoload'));
  put(metadata, 'autoload-dev', anyMapField(cj['autoload-dev'], 'autoload-dev'));
  put(metadata, 'extra', anyMapField(cj.extra, 'extra'));
  put(metadata, 'require', stringMapField(cj.require, 'require'));
  put(metadata, 'require-dev', stringMapField(cj['require-dev'], 'require-dev'));
  put(metadata, 'suggest', stringMapField(cj.suggest, 'suggest'));
  put(metadata, 'provide', stringMapField(cj.provide, 'provide'));
  return metadata;
}

/** Go's `path.Clean` of a zip entry's name as `archive/zip`'s `fs.FS` names it (no leading `/`). */
function cleanEntryName(name: string): string {
  const cleaned = path.posix.normalize(name.replaceAll('\\', '/')).replace(/^\/+/, '');
  return cleaned.endsWith('/') ? cleaned.slice(0, -1) : cleaned;
}

/** The readme named by composer.json, up to 10 KiB of it; '' when the zip has no such file. */
async function readmeOf(zip: OpenZip, folder: string, readme: string): Promise<string> {
  const wanted = path.posix.join(folder, readme);
  // `fs.FS` refuses a path out of the archive (`..`) or absolute: no readme then.
  if (wanted === '..' || wanted.startsWith('../') || wanted.startsWith('/')) return '';
  for await (const entry of zipEntries(zip.cursor)) {
    if (entry.name.endsWith('/') || cleanEntryName(entry.name) !== wanted) continue;
    return (await readZipEntry(zip, entry, MAX_README_SIZE)).toString('utf8');
  }
  return '';
}

/**
 * Forgejo's `ParsePackage` over a zip in a file: the first entry at most one folder down whose name ends in
 * `composer.json` (any case) is read; its name must follow Forgejo's rule and its version, when it has one, be
 * semver; the type is `library` unless it says; the readme (`README.md` unless it names another, next to
 * composer.json) is kept as text. 400 for a zip without one, a bad name, version or document, or bytes that are
 * not a zip.
 */
export async function parseComposerZip(file: string): Promise<ComposerPackage> {
  return withZip(file, async (zip) => {
    for await (const entry of zipEntries(zip.cursor)) {
      if (entry.name.split('/').length > 2) continue;
      if (!entry.name.toLowerCase().endsWith('composer.json')) continue;
      const text = (await readZipEntry(zip, entry, MAX_COMPOSER_JSON_SIZE + 1)).toString('utf8');
      if (text.length > MAX_COMPOSER_JSON_SIZE) throw new BadRequestError('composer.json file is too large');
      let cj: unknown;
      try {
        cj = JSON.parse(text);
      } catch (error) {
        throw new BadRequestError(`composer.json is not valid JSON: ${(error as Error).message}`);
      }
      if (!isObject(cj)) throw new BadRequestError('json: cannot unmarshal into Go value of type composer.Package');
      const name = stringField(cj.name, 'name');
      if (!isValidComposerName(name)) throw new BadRequestError(COMPOSER_INVALID_NAME);
      const version = stringField(cj.version, 'version');
      if (version !== '' && !isComposerSemver(version)) throw new BadRequestError(COMPOSER_INVALID_VERSION);
      const type = stringField(cj.type, 'type') || 'library';
      const readme = await readmeOf(zip, zipEntryDir(entry.name), stringField(cj.readme, 'readme') || 'README.md');
      return { name, version, type, metadata: metadataOf(cj, readme) };
    }
    throw new BadRequestError(COMPOSER_MISSING_FILE);
  });
}

/** The reads only Composer needs: packages by name, latest versions filtered by the type property. */
class ComposerStore extends Store<PackagesTables> {
  /** Forgejo's `GetPackagesByType`: the owner's Composer package names. */
  async packageNames(ownerId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('package').select('name').where('owner_id', '=', ownerId).where('type', '=', 'composer').where('is_internal', '=', 0).orderBy('id').execute();
    return rows.map((r) => r.name);
  }

  /**
   * Forgejo's `SearchLatestVersions`: per package whose name contains `query` (and, with `type`, among versions of
   * that `composer.type`), its newest matching version, newest first; `total` counts those packages.
   */
  async searchLatest(ownerId: number, query: string, type: string, offset: number, limit: number): Promise<{ items: { name: string; metadata_json: string; download_count: number }[]; total: number }> {
    let matching = this.db
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .where('package.owner_id', '=', ownerId)
      .where('package.type', '=', 'composer')
      .where('package_version.is_internal', '=', 0);
    // As Forgejo's builder.Like: the text as it is between the wildcards.
    if (query) matching = matching.where('package.lower_name', 'like', `%${query.toLowerCase()}%`);
    if (type) {
      matching = matching.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('package_property')
            .select('package_property.id')
            .where('package_property.ref_type', '=', PackagePropertyType.Version)
            .whereRef('package_property.ref_id', '=', 'package_version.id')
            .where('package_property.name', '=', COMPOSER_TYPE_PROPERTY)
            .where('package_property.value', '=', type),
        ),
      );
    }
    const newest = matching.select((eb) => eb.fn.max('package_version.id').as('id')).groupBy('package_version.package_id');
    const latest = this.db.selectFrom('package_version').innerJoin('package', 'package.id', 'package_version.package_id').where('package_version.id', 'in', newest);
    const [items, count] = await Promise.all([
      latest
        .select(['package.name as name', 'package_version.metadata_json as metadata_json', 'package_version.download_count as download_count'])
        .orderBy('package_version.created_unix', 'desc')
        .orderBy('package_version.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      latest.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { items, total: Store.count(count) };
  }
}

/**
 * The Composer registry of an owner: uploads of package zips, and what Composer reads, over `PackagesService`
 * (access, limits, blobs) and its store.
 */
export class ComposerPackagesService {
  constructor(private readonly ctx: CoreContext) {}

  private get packages(): PackagesService {
    return this.ctx.service(PackagesService);
  }

  private get store(): PackagesStore {
    return this.ctx.store(PackagesStore);
  }

  /** `[server] ROOT_URL` + `api/packages/{owner}/composer`: the repository URL users give Composer. */
  registryUrl(owner: User): string {
    return webUrl(this.ctx.settings, `api/packages/${owner.name}/composer`);
  }

  private async assertRead(actor: Actor, owner: User): Promise<void> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
  }

  /**
   * Forgejo's `UploadPackage`: the body (a package zip) is spooled to a temporary file, stopping at
   * `LIMIT_SIZE_COMPOSER` (403), read for its composer.json, then stored as the new version's
   * `{vendor}-{project}.{version}.zip` (lower case) with its metadata and `composer.type`; the version is
   * composer.json's, else `queryVersion` normalized as Forgejo does (400 when there is none or it is bad); 409 when
   * the version exists.
   */
  async upload(actor: Actor, owner: User, body: AsyncIterable<Uint8Array>, queryVersion: string): Promise<PackageFile> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const limit = this.ctx.settings.packages.LIMIT_SIZE_COMPOSER;
    // The zip's directory is at its end: the whole body is needed before composer.json can be read.
    const file = await spoolPackageUpload(this.ctx.settings, body, isSiteAdmin(actor) ? -1 : limit, 'composer');
    try {
      const parsed = await parseComposerZip(file);
      let version = parsed.version;
      if (version === '') {
        version = normalizeComposerVersion(queryVersion.trim()) ?? '';
        if (version === '') throw new BadRequestError(COMPOSER_INVALID_VERSION);
      }
      const filename = `${parsed.name.replace('/', '-')}.${version}.zip`.toLowerCase();
      // Opened now: a stream that opened its file lazily could do so after a refusal had removed it.
      const content = (await open(file, 'r')).createReadStream();
      try {
        return await this.packages.addFile(actor, owner, { type: 'composer', name: parsed.name, version }, filename, content, limit, {
          newVersion: true,
          semverCompatible: true,
          metadataJson: JSON.stringify(parsed.metadata),
          afterInsert: (store, created) => store.insertProperty(PackagePropertyType.Version, created.id, COMPOSER_TYPE_PROPERTY, parsed.type),
        });
      } finally {
        // A refusal before the bytes are read (a version that exists) leaves the stream and its handle open.
        content.destroy();
      }
    } finally {
      await unlink(file).catch(() => {});
    }
  }

  /** Forgejo's `ServiceIndex` (`packages.json`). */
  async serviceIndex(actor: Actor, owner: User): Promise<ComposerServiceIndex> {
    await this.assertRead(actor, owner);
    const url = this.registryUrl(owner);
    return { search: `${url}/search.json?q=%query%&type=%type%`, 'metadata-url': `${url}/p2/%package%.json`, list: `${url}/list.json` };
  }

  /**
   * Forgejo's `SearchPackages`: per package whose name contains `query` (of `type`, when given), its newest version,
   * newest first; `page` from 1, `perPage` as the API's page sizes go (0: the default, past the maximum: the
   * maximum); `next` links the following page when this one is full.
   */
  async search(actor: Actor, owner: User, query: string, type: string, page: number, perPage: number): Promise<ComposerSearchResult> {
    await this.assertRead(actor, owner);
    const api = this.ctx.settings.api;
    const current = Math.max(page, 1);
    const size = perPage <= 0 ? api.DEFAULT_PAGING_NUM : Math.min(perPage, api.MAX_RESPONSE_ITEMS);
    const { items, total } = await this.ctx.store(ComposerStore).searchLatest(owner.id, query, type, (current - 1) * size, size);
    const results = items.map((v) => ({ name: v.name, description: parseMetadata(v.metadata_json).description ?? '', downloads: Number(v.download_count) }));
    const answer: ComposerSearchResult = { total, results };
    if (items.length === size) {
      const next = new URL(`${this.registryUrl(owner)}/search.json`);
      // Go's `url.Values.Encode`: keys sorted.
      next.searchParams.set('page', String(current + 1));
      if (perPage !== 0) next.searchParams.set('per_page', String(perPage));
      next.searchParams.set('q', query);
      next.searchParams.set('type', type);
      answer.next = next.href;
    }
    return answer;
  }

  /** Forgejo's `EnumeratePackages` (`list.json`). */
  async list(actor: Actor, owner: User): Promise<{ packageNames: string[] }> {
    await this.assertRead(actor, owner);
    return { packageNames: await this.ctx.store(ComposerStore).packageNames(owner.id) };
  }

  /**
   * Forgejo's `PackageMetadata` (`p2/{vendor}/{project}.json`): every version with its metadata, type, time, the
   * zip's URL and sha1, and the linked repository as its source; 404 `package does not exist` when there is none.
   */
  async packageMetadata(actor: Actor, owner: User, name: string): Promise<ComposerPackageMetadata> {
    await this.assertRead(actor, owner);
    const pkg = await this.store.findPackage(owner.id, 'composer', name);
    const versions = pkg ? (await this.store.versionsOfPackage(pkg.id)).filter((v) => v.is_internal === 0) : [];
    if (!pkg || versions.length === 0) throw new NotFoundError(PACKAGE_NOT_EXIST);
    const types = new Map((await this.store.propertiesOf(PackagePropertyType.Version, versions.map((v) => v.id), COMPOSER_TYPE_PROPERTY)).map((p) => [p.ref_id, p.value]));
    // Forgejo reads the linked repository whoever asks; one this reader may not see gives no source here.
    const repo = pkg.repo_id > 0 ? await this.ctx.service(ReposService).resolveById(actor, pkg.repo_id).catch(() => undefined) : undefined;
    const registry = this.registryUrl(owner);
    const out: ComposerVersionMetadata[] = [];
    const filesByVersion = await this.store.filesOfVersions(versions.map((v) => v.id));
    for (const version of versions) {
      const files = filesByVersion.get(version.id) ?? [];
      const lead = files[0];
      if (!lead) continue;
      out.push({
        ...parseMetadata(version.metadata_json),
        name: pkg.name,
        version: version.version,
        type: types.get(version.id) ?? '',
        time: new Date(version.created_unix * 1000).toISOString().replace('.000Z', 'Z'),
        dist: {
          type: 'zip',
          url: `${registry}/files/${goPathEscape(pkg.lower_name)}/${goPathEscape(version.lower_version)}/${goPathEscape(lead.lower_name)}`,
          shasum: lead.blob.hash_sha1,
        },
        source: repo
          ? { url: webUrl(this.ctx.settings, `${repo.owner.name}/${repo.repo.name}`), type: 'git', reference: version.version }
          : { url: '', type: '', reference: '' },
      });
    }
    return { minified: 'composer/2.0', packages: { [pkg.name]: out } };
  }

  /** Forgejo's `DownloadPackageFile` (`files/{package}/{version}/{filename}`). */
  async download(actor: Actor, owner: User, name: string, version: string, filename: string, range?: string | null): Promise<PackageDownload> {
    return this.packages.download(actor, owner, { type: 'composer', name, version }, filename, range);
  }
}

/** A version's stored metadata (Forgejo's JSON of `Metadata`). */
function parseMetadata(json: string): ComposerMetadata {
  try {
    const value = JSON.parse(json) as unknown;
    return isObject(value) ? (value as ComposerMetadata) : {};
  } catch {
    return {};
  }
}

/** Go's `url.PathEscape`: everything but unreserved characters and `$&+,:;=@` escaped (a slash too). */
function goPathEscape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%(24|26|2B|2C|3A|3B|3D|40)/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
