/**
 * The Helm format of the package registry (Forgejo's `modules/packages/helm`, `routers/api/packages/helm`): a chart
 * archive (`.tgz`) uploaded whole, its `Chart.yaml` read from the archive for the name, the version and the
 * metadata (kept as the version's `metadata_json` with Forgejo's JSON names), the chart repository's `index.yaml`
 * generated from those, and downloads by file name. An upload of a version that exists replaces its file, as
 * Forgejo's `OverwriteExisting` does (the version, its metadata and its download count stay).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { isMap, isScalar, isSeq, parseAllDocuments, type Node as YamlNode, type YAMLMap } from 'yaml';
import type { CoreContext } from '../context.js';
import { AccessMode } from '../access/index.js';
import { isSiteAdmin, type Actor, type User } from '../users/index.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { trimEnd } from '../text.js';
import { isHttpUrl, pathEscape, webUrl } from '../urls.js';
import { parseSemver } from './npm.js';
import { PackagesService, type PackageDownload } from './service.js';
import { PackagesStore, type VersionWithPackage } from './store.js';
import { spoolPackageUpload } from './spool.js';
import { compact, helmFilename, isOmitted, type HelmDependency, type HelmIndexVersion, type HelmMaintainer, type HelmMetadata } from './helm-index.js';
import { PackageWorkers } from './workers.js';

export { helmFilename, type HelmDependency, type HelmMaintainer, type HelmMetadata } from './helm-index.js';

export const HELM_TYPE = 'helm';

/** Forgejo's `helm_module` errors (`util.ErrInvalidArgument`: 400). */
export const HELM_MISSING_CHART_FILE = 'Chart.yaml file is missing';
export const HELM_INVALID_NAME = 'package name is invalid';
export const HELM_INVALID_VERSION = 'package version is invalid';
export const HELM_INVALID_CHART = 'chart is invalid';
/** What Go's `gzip.NewReader` says of bytes that are not gzip. */
export const HELM_NOT_GZIP = 'gzip: invalid header';
/** Go's `io.ErrUnexpectedEOF`: the archive ends inside a header or an entry. */
export const HELM_UNEXPECTED_EOF = 'unexpected EOF';
/** Go's `tar.ErrHeader`. */
export const HELM_INVALID_TAR_HEADER = 'archive/tar: invalid tar header';
/** The bounds below, refused with 400 (Forgejo's limited decompressor refuses past its scan size too). */
export const HELM_CHART_FILE_TOO_LARGE = 'Chart.yaml file is too large';
export const HELM_TOO_MANY_ENTRIES = 'chart archive has too many entries';
export const HELM_SCAN_TOO_LARGE = 'chart archive is too large to be scanned';

/** A Chart.yaml is a few KiB; Helm's own loader refuses chart files past 5 MiB. */
export const HELM_MAX_CHART_FILE_SIZE = 1024 * 1024;
/** Headers read (PAX and GNU extension headers count) before Chart.yaml must have been found. */
export const HELM_MAX_ENTRIES = 10_000;
/** Decompressed bytes read while looking for Chart.yaml: a gzip bomb stops here. */
export const HELM_MAX_SCAN_BYTES = 128 * 1024 * 1024;
/** PAX and GNU long-name headers are names, not content. */
const MAX_EXTENSION_HEADER_SIZE = 64 * 1024;

// ---- Chart.yaml ----

/** yaml.v3 decoding into a struct: a mapping where a scalar is wanted is an unmarshal error. */
function unmarshalError(field: string, want: string): BadRequestError {
  return new BadRequestError(`yaml: unmarshal errors: cannot unmarshal into ${want} (field ${field})`);
}

/**
 * A scalar as yaml.v3 decodes it into a Go string: null is empty, any other scalar is its text as written (so
 * `version: 1.10` stays `1.10`, where a float would read `1.1`).
 */
function scalarText(node: unknown, field: string): string {
  if (node === undefined || node === null) return '';
  if (!isScalar(node)) throw unmarshalError(field, 'string');
  if (node.value === null) return '';
  if (typeof node.value === 'string') return node.value;
  return typeof node.source === 'string' ? node.source : String(node.value);
}

/** Go's decoder leaves a field that is missing or YAML's null at its zero value. */
function isAbsent(node: unknown): boolean {
  return node === undefined || node === null || (isScalar(node) && node.value === null);
}

function textList(node: unknown, field: string): string[] | undefined {
  if (isAbsent(node)) return undefined;
  if (!isSeq(node)) throw unmarshalError(field, '[]string');
  return node.items.map((item) => scalarText(item, field));
}

function boolean(node: unknown, field: string): boolean {
  if (isAbsent(node)) return false;
  if (isScalar(node) && typeof node.value === 'boolean') return node.value;
  throw unmarshalError(field, 'bool');
}

function mapping(node: unknown, field: string): YAMLMap | undefined {
  if (isAbsent(node)) return undefined;
  if (!isMap(node)) throw unmarshalError(field, 'struct');
  return node;
}

/**
 * A list of structs (`goType` names it in the error): its items that are mappings, one at a time (null items are
 * skipped), so an item is refused only after the ones before it were read, as Go's decoder goes.
 */
function* mappings(node: unknown, field: string, goType: string): Generator<YAMLMap> {
  if (isAbsent(node)) return;
  if (!isSeq(node)) throw unmarshalError(field, goType);
  for (const item of node.items) {
    const m = mapping(item, field);
    if (m) yield m;
  }
}

function field(map: YAMLMap, key: string): unknown {
  return map.get(key, true);
}

/**
 * Forgejo's `ParseChartFile`: the first YAML document of Chart.yaml decoded as `helm_module.Metadata`, then
 * checked: an `apiVersion` is required, `type` is empty, `application` or `library`, the name is not empty (and,
 * beyond Forgejo, holds no path separator or control character: it names the chart's file and URL), the version is
 * semver as go-version reads it; a `home` that is not an http(s) URL is dropped.
 */
export function parseChartYaml(text: string): HelmMetadata {
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: false });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (!doc) throw new BadRequestError(HELM_INVALID_CHART);
  if (doc.errors.length > 0) throw new BadRequestError(`yaml: ${doc.errors[0]!.message.split('\n')[0]}`);
  const root = mapping(doc.contents, 'Chart.yaml');
  if (!root) throw new BadRequestError(HELM_INVALID_CHART);
  const maintainers: HelmMaintainer[] = Array.from(mappings(field(root, 'maintainers'), 'maintainers', '[]*Maintainer'), (m) =>
    compact({ name: scalarText(field(m, 'name'), 'name'), email: scalarText(field(m, 'email'), 'email'), url: scalarText(field(m, 'url'), 'url') }),
  );
  const dependencies: HelmDependency[] = Array.from(mappings(field(root, 'dependencies'), 'dependencies', '[]*Dependency'), (d) => {
    const importValues = field(d, 'import-values') as YamlNode | undefined;
    const imported = !isAbsent(importValues) ? importValues!.toJSON() : undefined;
    if (imported !== undefined && !Array.isArray(imported)) throw unmarshalError('import-values', '[]interface {}');
    const dep: HelmDependency = {
      name: scalarText(field(d, 'name'), 'name'),
      version: scalarText(field(d, 'version'), 'version'),
      repository: scalarText(field(d, 'repository'), 'repository'),
      condition: scalarText(field(d, 'condition'), 'condition'),
      tags: textList(field(d, 'tags'), 'tags'),
      enabled: boolean(field(d, 'enabled'), 'enabled'),
      import_values: imported as unknown[] | undefined,
      alias: scalarText(field(d, 'alias'), 'alias'),
    };
    // `name` and `repository` have no omitempty: they stay, even empty; the rest in Forgejo's field order.
    const { name, version, repository, ...rest } = dep;
    return { name, ...(version ? { version } : {}), repository, ...compact(rest) };
  });
  const annotationsNode = mapping(field(root, 'annotations'), 'annotations');
  let annotations: Record<string, string> | undefined;
  if (annotationsNode) {
    annotations = {};
    for (const pair of annotationsNode.items) annotations[scalarText(pair.key, 'annotations')] = scalarText(pair.value, 'annotations');
  }
  const metadata: HelmMetadata = {
    api_version: scalarText(field(root, 'apiVersion'), 'apiVersion'),
    type: scalarText(field(root, 'type'), 'type'),
    name: scalarText(field(root, 'name'), 'name'),
    version: scalarText(field(root, 'version'), 'version'),
    app_version: scalarText(field(root, 'appVersion'), 'appVersion'),
    home: scalarText(field(root, 'home'), 'home'),
    sources: textList(field(root, 'sources'), 'sources'),
    description: scalarText(field(root, 'description'), 'description'),
    keywords: textList(field(root, 'keywords'), 'keywords'),
    maintainers,
    icon: scalarText(field(root, 'icon'), 'icon'),
    condition: scalarText(field(root, 'condition'), 'condition'),
    tags: scalarText(field(root, 'tags'), 'tags'),
    deprecated: boolean(field(root, 'deprecated'), 'deprecated'),
    annotations,
    kube_version: scalarText(field(root, 'kubeVersion'), 'kubeVersion'),
    dependencies,
  };
  if (metadata.api_version === '') throw new BadRequestError(HELM_INVALID_CHART);
  if (metadata.type !== '' && metadata.type !== 'application' && metadata.type !== 'library') throw new BadRequestError(HELM_INVALID_CHART);
  if (!isValidHelmName(metadata.name)) throw new BadRequestError(HELM_INVALID_NAME);
  if (!parseSemver(metadata.version)) throw new BadRequestError(HELM_INVALID_VERSION);
  if (!isHttpUrl(metadata.home ?? '')) metadata.home = '';
  // `name`, `version` and `api_version` have no omitempty.
  const { api_version, name, version, ...rest } = metadata;
  const kept = compact(rest);
  return { api_version, ...(kept.type !== undefined ? { type: kept.type } : {}), name, version, ...withoutType(kept) };
}

function withoutType<T extends { type?: string }>(value: T): Omit<T, 'type'> {
  const { type: _type, ...rest } = value;
  return rest;
}

/** Not empty (Forgejo), and no `/`, `\` or control character: the name becomes a file name and a URL segment. */
export function isValidHelmName(name: string): boolean {
  if (name === '') return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x2f || c === 0x5c) return false;
  }
  return true;
}

// ---- the archive ----

/**
 * Reads exact byte counts from a stream of chunks, keeping only the chunk in hand, and counts what it read against
 * `HELM_MAX_SCAN_BYTES`.
 */
class ChunkReader {
  private readonly chunks: AsyncIterator<Uint8Array>;
  private pending: Buffer = Buffer.alloc(0);
  private consumed = 0;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    while (this.pending.length === 0) {
      const next = await this.chunks.next();
      if (next.done) return false;
      this.pending = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    }
    return true;
  }

  private take(max: number): Buffer {
    const part = this.pending.subarray(0, max);
    this.pending = this.pending.subarray(part.length);
    this.consumed += part.length;
    if (this.consumed > HELM_MAX_SCAN_BYTES) throw new BadRequestError(HELM_SCAN_TOO_LARGE);
    return part;
  }

  /** Exactly `size` bytes; undefined when the stream ends before the first one (`atEnd`), else unexpected EOF. */
  async read(size: number, allowEnd = false): Promise<Buffer | undefined> {
    const parts: Buffer[] = [];
    let got = 0;
    while (got < size) {
      if (!(await this.fill())) {
        if (allowEnd && got === 0) return undefined;
        throw new BadRequestError(HELM_UNEXPECTED_EOF);
      }
      const part = this.take(size - got);
      parts.push(Buffer.from(part));
      got += part.length;
    }
    return Buffer.concat(parts, size);
  }

  async skip(size: number): Promise<void> {
    let left = size;
    while (left > 0) {
      if (!(await this.fill())) throw new BadRequestError(HELM_UNEXPECTED_EOF);
      left -= this.take(left).length;
    }
  }
}

/** Go's `tar` `parseNumeric`: octal (spaces and NULs around it), or base-256 when the high bit of the first byte is set. */
function tarNumber(field: Buffer): number {
  if (field.length > 0 && (field[0]! & 0x80) !== 0) {
    // Base-256: a sign bit and big-endian bytes; a chart entry never needs the negative or huge forms.
    if ((field[0]! & 0x40) !== 0) throw new BadRequestError(HELM_INVALID_TAR_HEADER);
    let value = field[0]! & 0x3f;
    for (let i = 1; i < field.length; i++) {
      value = value * 256 + field[i]!;
      if (value > Number.MAX_SAFE_INTEGER) throw new BadRequestError(HELM_INVALID_TAR_HEADER);
    }
    return value;
  }
  let start = 0;
  let end = field.length;
  while (start < end && (field[start] === 0x20 || field[start] === 0)) start++;
  while (end > start && (field[end - 1] === 0x20 || field[end - 1] === 0)) end--;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = field[i]! - 0x30;
    if (digit < 0 || digit > 7) throw new BadRequestError(HELM_INVALID_TAR_HEADER);
    value = value * 8 + digit;
  }
  if (value > Number.MAX_SAFE_INTEGER) throw new BadRequestError(HELM_INVALID_TAR_HEADER);
  return value;
}

/** A NUL-terminated header string. */
function tarString(field: Buffer): string {
  const nul = field.indexOf(0);
  return field.subarray(0, nul < 0 ? field.length : nul).toString('utf8');
}

/** Go's check: the stored sum equals the header's bytes summed (unsigned or signed) with the sum field as spaces. */
function validChecksum(header: Buffer): boolean {
  const stored = tarNumber(header.subarray(148, 156));
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < 512; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : header[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

/** A PAX extended header's `path` record (`"%d %s=%s\n"` records), if any. */
function paxPath(records: Buffer): string | undefined {
  let at = 0;
  let found: string | undefined;
  while (at < records.length) {
    const space = records.indexOf(0x20, at);
    if (space < 0) throw new BadRequestError(HELM_INVALID_TAR_HEADER);
    const length = Number.parseInt(records.subarray(at, space).toString('latin1'), 10);
    if (!Number.isSafeInteger(length) || length <= space - at + 1 || at + length > records.length) throw new BadRequestError(HELM_INVALID_TAR_HEADER);
    const record = records.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0 && record.slice(0, eq) === 'path') found = record.slice(eq + 1);
    at += length;
  }
  return found;
}

const padded = (size: number) => Math.ceil(size / 512) * 512;

/**
 * Forgejo's `ParseChartArchive` over a stream of the archive's bytes: gunzipped and read as tar entry by entry
 * (skipping what is not wanted, never holding more than a chunk and Chart.yaml), up to the first regular file named
 * `Chart.yaml` one folder deep (`{chart}/Chart.yaml`), whose metadata it returns; reading stops there.
 * Bounded: Chart.yaml's size, the number of headers and the decompressed bytes read (a 400 past each).
 */
export async function parseChartArchive(source: AsyncIterable<Uint8Array>): Promise<HelmMetadata> {
  const gunzip = createGunzip();
  let gzipFailure: Error | undefined;
  // The source is fed by hand, so a refusal can stop reading it (and stop the gunzip) at once.
  const feed = (async () => {
    let first = true;
    for await (const chunk of source) {
      if (first && chunk.byteLength > 0) {
        first = false;
        if (chunk[0] !== 0x1f || (chunk.byteLength > 1 && chunk[1] !== 0x8b)) throw new BadRequestError(HELM_NOT_GZIP);
      }
      if (gunzip.destroyed) return;
      if (!gunzip.write(chunk)) await new Promise<void>((resolve) => gunzip.once('drain', resolve).once('close', resolve));
    }
    if (first) throw new BadRequestError(HELM_NOT_GZIP);
    gunzip.end();
  })().catch((error: Error) => {
    gzipFailure = error;
    gunzip.destroy(error);
  });
  try {
    return await readTar(new ChunkReader(gunzip));
  } catch (error) {
    if (gzipFailure instanceof BadRequestError) throw gzipFailure;
    if (gzipFailure) throw gzipFailure;
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) {
      throw new BadRequestError((error as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' ? HELM_UNEXPECTED_EOF : `gzip: ${(error as Error).message}`);
    }
    throw error;
  } finally {
    gunzip.destroy();
    await feed;
  }
}

async function readTar(reader: ChunkReader): Promise<HelmMetadata> {
  let longName: string | undefined;
  for (let entries = 0; ; entries++) {
    if (entries >= HELM_MAX_ENTRIES) throw new BadRequestError(HELM_TOO_MANY_ENTRIES);
    const header = await reader.read(512, true);
    // The end of the archive: its stream, or a zero block.
    if (!header || header.every((byte) => byte === 0)) break;
    if (!validChecksum(header)) throw new BadRequestError(HELM_INVALID_TAR_HEADER);
    const size = tarNumber(header.subarray(124, 136));
    const typeflag = String.fromCharCode(header[156]!);
    if (typeflag === 'x' || typeflag === 'L') {
      if (size > MAX_EXTENSION_HEADER_SIZE) throw new BadRequestError(HELM_INVALID_TAR_HEADER);
      const data = (await reader.read(padded(size)))!.subarray(0, size);
      // The name for the next entry: a PAX `path`, or a GNU long name.
      longName = typeflag === 'x' ? (paxPath(data) ?? longName) : tarString(data);
      continue;
    }
    let name = tarString(header.subarray(0, 100));
    const magic = header.subarray(257, 263).toString('latin1');
    const version = header.subarray(263, 265).toString('latin1');
    // USTAR (and PAX) keep a prefix for long paths; GNU's `ustar  ` header uses those bytes for other things.
    if (magic === 'ustar\0' && version === '00') {
      const prefix = tarString(header.subarray(345, 500));
      if (prefix !== '') name = `${prefix}/${name}`;
    }
    if (longName !== undefined) name = longName;
    longName = undefined;
    // Go's reader: `\0` (old regular files) reads as a regular file unless the name ends in `/`.
    const regular = typeflag === '0' || (typeflag === '\0' && !name.endsWith('/'));
    if (regular && baseName(name) === 'Chart.yaml' && slashes(name) === 1) {
      if (size > HELM_MAX_CHART_FILE_SIZE) throw new BadRequestError(HELM_CHART_FILE_TOO_LARGE);
      const data = (await reader.read(padded(size)))!.subarray(0, size);
      return parseChartYaml(data.toString('utf8'));
    }
    // Entries without content (links, folders…) have size 0 in practice; a size is skipped whatever the type.
    await reader.skip(padded(size));
  }
  throw new BadRequestError(HELM_MISSING_CHART_FILE);
}

/** Go's `path.Base`: the last element, trailing slashes ignored. */
function baseName(name: string): string {
  let end = name.length;
  while (end > 1 && name[end - 1] === '/') end--;
  const trimmed = name.slice(0, end);
  const slash = trimmed.lastIndexOf('/');
  return slash < 0 ? trimmed : trimmed.slice(slash + 1);
}

function slashes(name: string): number {
  let count = 0;
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) === 0x2f) count++;
  return count;
}

// ---- the index ----

/** Forgejo's `ChartVersion` (the metadata inline, then `urls`, `created`) in its YAML names and order. */
/**
 * The Helm chart repository of an owner: upload, `index.yaml`, downloads, over `PackagesService` (access, limits,
 * blobs) and its store.
 */
export class HelmPackagesService {
  constructor(private readonly ctx: CoreContext) {}

  private get packages(): PackagesService {
    return this.ctx.service(PackagesService);
  }

  private get store(): PackagesStore {
    return this.ctx.store(PackagesStore);
  }

  /** `[server] ROOT_URL` + `api/packages/{owner}/helm`: what `helm repo add` is given. */
  repositoryUrl(owner: User): string {
    return webUrl(this.ctx.settings, `api/packages/${pathEscape(owner.name)}/helm`);
  }

  /**
   * Forgejo's `Index`: every chart version of the owner, newest first under its chart's name, with its download
   * URL and creation time; `generated` now, `serverInfo.contextPath` the repository's path under the site.
   */
  async index(actor: Actor, owner: User, now = Date.now()): Promise<string> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const versions: HelmIndexVersion[] = [];
    const pageSize = 500;
    for (let page = 1; ; page++) {
      const { items } = await this.store.searchVersions({ ownerId: owner.id, type: HELM_TYPE }, { page, limit: pageSize });
      for (const version of items) versions.push({ metadata_json: version.metadata_json, created_unix: version.created_unix });
      if (items.length < pageSize) break;
    }
    const subPath = trimEnd(new URL(this.ctx.settings.server.ROOT_URL).pathname, '/');
    // Thousands of versions take a second of YAML writing: a worker thread's, not the event loop's.
    return this.ctx.service(PackageWorkers).helmIndex({
      versions,
      base: this.repositoryUrl(owner),
      contextPath: `${subPath}/api/packages/${pathEscape(owner.name)}/helm`,
      now,
    });
  }

  /**
   * Forgejo's `UploadPackage`: the chart archive spooled (up to `LIMIT_SIZE_HELM`: 403 past it), its Chart.yaml
   * read (400 for a bad archive or chart), then stored as `{name}-{version}.tgz`. A version that exists has its
   * file replaced (the same bytes: nothing to do).
   */
  async upload(actor: Actor, owner: User, body: AsyncIterable<Uint8Array>): Promise<HelmMetadata> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const limit = this.ctx.settings.packages.LIMIT_SIZE_HELM;
    const spooled = await spoolPackageUpload(this.ctx.settings, body, isSiteAdmin(actor) ? -1 : limit, 'helm');
    try {
      const metadata = await parseChartArchive(createReadStream(spooled));
      const coords = { type: HELM_TYPE, name: metadata.name, version: metadata.version };
      const filename = helmFilename(metadata.name, metadata.version);
      const existing = await this.store.versionByName(owner.id, HELM_TYPE, metadata.name, metadata.version);
      const old = existing ? await this.store.fileByName(existing.id, filename) : undefined;
      const options = { semverCompatible: true, metadataJson: JSON.stringify(metadata), replace: true };
      // The same bytes again: nothing to do.
      if (old && (await sha256Of(spooled)) === old.blob.hash_sha256) return metadata;
      // Forgejo's `OverwriteExisting`: the old file (if any) is replaced in the upload's transaction.
      await this.packages.addFile(actor, owner, coords, filename, createReadStream(spooled), limit, options);
      return metadata;
    } finally {
      await unlink(spooled).catch(() => {});
    }
  }

  /**
   * Forgejo's `DownloadPackageFile`: the owner's one chart version with a file of that name (404 when none or
   * more than one). The file name is `{name}-{version}.tgz` in lower case: each `-` before a version that reads as
   * semver is a candidate split, looked up by name and version.
   */
  async download(actor: Actor, owner: User, filename: string, range?: string | null): Promise<PackageDownload> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const lower = filename.toLowerCase();
    if (!lower.endsWith('.tgz')) throw new NotFoundError('');
    const stem = lower.slice(0, -'.tgz'.length);
    const found: VersionWithPackage[] = [];
    let candidates = 0;
    for (let dash = stem.indexOf('-'); dash > 0; dash = stem.indexOf('-', dash + 1)) {
      const version = stem.slice(dash + 1);
      if (!parseSemver(version)) continue;
      // A name has few dashes before a version; past this many the file name is not one this registry wrote.
      if (++candidates > 32) break;
      const match = await this.store.versionByName(owner.id, HELM_TYPE, stem.slice(0, dash), version);
      if (match && match.is_internal === 0 && (await this.store.fileByName(match.id, lower))) found.push(match);
    }
    if (found.length !== 1) throw new NotFoundError('');
    const version = found[0]!;
    return this.packages.download(actor, owner, { type: HELM_TYPE, name: version.pkg.name, version: version.version }, lower, range);
  }
}

/** The sha256 of a spooled file, read as a stream. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
