/**
 * The Go format of the package registry (Forgejo's `modules/packages/goproxy` and `routers/api/packages/goproxy`):
 * a module zip as `go mod download` lays it out (`{module}@{version}/…`) uploaded whole, its module path and version
 * read from the zip's entries, its `go.mod` kept as the version's `go.mod` property, the zip as the version's one
 * file `{version}.zip`; and what the GOPROXY protocol reads (`@v/list`, `.info`, `.mod`, `.zip`, `@latest`). The
 * server parses HTTP and calls these.
 */
import { open, unlink } from 'node:fs/promises';
import type { CoreContext } from '../context.js';
import { AccessMode } from '../access/index.js';
import { isSiteAdmin, type Actor, type User } from '../users/index.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { PACKAGE_NOT_EXIST, PackagesService, type PackageDownload } from './service.js';
import { PackagesStore } from './store.js';
import { spoolPackageUpload } from './spool.js';
import { PackagePropertyType, type PackageFile, type PackageVersion } from './tables.js';
import { ZIP_ALGORITHM, ZIP_NOT_VALID, readZipEntry, withZip, zipEntries, zipEntryBase, zipEntryDir } from './zip.js';

/** Forgejo's `goproxy_module.PropertyGoMod`: the version's go.mod text. */
export const GO_MOD_PROPERTY = 'go.mod';
/** Forgejo's answers to a bad upload (400). */
export const GO_INVALID_STRUCTURE = 'package has invalid structure';
export const GO_INVALID_VERSION = 'package version is invalid';
export const GO_MOD_TOO_LARGE = 'go.mod file is too large';
/** RepoHost's own: Forgejo stores any module path; one that no `go` command could ask for is refused instead. */
export const GO_INVALID_NAME = 'package name is invalid';
/** Go's `zip.ErrFormat` and `zip.ErrAlgorithm` (Forgejo answers them 500; a client's bad zip is a 400 here). */
export const GO_NOT_A_ZIP = ZIP_NOT_VALID;
export const GO_ZIP_ALGORITHM = ZIP_ALGORITHM;

/** https://go.dev/ref/mod#zip-path-size-constraints: the go.mod a zip may hold. */
const MAX_GO_MOD_SIZE = 16 * 1024 * 1024;

/** A module read from its zip (Forgejo's `goproxy_module.Package`). */
export interface GoModule {
  name: string;
  version: string;
  goMod: string;
}

/** The `.info` document (`{"Version":…,"Time":…}`). */
export interface GoVersionInfo {
  Version: string;
  Time: string;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isIdentChar = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d;

/** golang.org/x/mod/semver's number: digits, no leading zero; the index after it, or -1. */
function semverNumber(v: string, i: number): number {
  const start = i;
  while (i < v.length && isDigit(v.charCodeAt(i))) i++;
  if (i === start || (v.charCodeAt(start) === 0x30 && i - start > 1)) return -1;
  return i;
}

/** Dot-separated identifiers of `[0-9A-Za-z-]`; in a prerelease (`numeric`), number identifiers without a leading zero. */
function semverIdentifiers(text: string, numericRule: boolean): boolean {
  for (const part of text.split('.')) {
    if (part.length === 0) return false;
    let allDigits = true;
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      if (!isIdentChar(c)) return false;
      if (!isDigit(c)) allDigits = false;
    }
    if (numericRule && allDigits && part.length > 1 && part.charCodeAt(0) === 0x30) return false;
  }
  return true;
}

/**
 * golang.org/x/mod/semver's `IsValid`, which Forgejo applies to the version a zip names: `v` and a major number,
 * optionally `.minor` and `.patch` (the short forms `v1`, `v1.2` take nothing after them), then `-prerelease` and
 * `+build` on full versions. A single pass: the version is request data.
 */
export function isValidGoVersion(v: string): boolean {
  if (v.charCodeAt(0) !== 0x76) return false;
  let i = semverNumber(v, 1);
  if (i < 0) return false;
  if (i === v.length) return true;
  if (v[i] !== '.') return false;
  i = semverNumber(v, i + 1);
  if (i < 0) return false;
  if (i === v.length) return true;
  if (v[i] !== '.') return false;
  i = semverNumber(v, i + 1);
  if (i < 0) return false;
  const plus = v.indexOf('+', i);
  const end = plus < 0 ? v.length : plus;
  if (i < end) {
    if (v[i] !== '-' || !semverIdentifiers(v.slice(i + 1, end), true)) return false;
  }
  return plus < 0 || semverIdentifiers(v.slice(plus + 1), false);
}

/**
 * Whether a module path is one the `go` command could fetch (golang.org/x/mod/module's `CheckPath`, in its simple
 * parts): `/`-separated elements of ASCII letters, digits and `-._~`, none empty, `.` or `..`, none starting or
 * ending with a dot. This also keeps paths out of traversal: no `..`, no leading `/`, no `\`.
 */
export function isValidGoModulePath(name: string): boolean {
  if (name.length === 0 || name.length > 1024) return false;
  for (const element of name.split('/')) {
    if (element.length === 0 || element.startsWith('.') || element.endsWith('.')) return false;
    for (let i = 0; i < element.length; i++) {
      const c = element.charCodeAt(i);
      const ok = isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
      if (!ok) return false;
    }
  }
  return true;
}

/**
 * golang.org/x/mod/module's `UnescapePath`/`UnescapeVersion`: the GOPROXY protocol writes a capital letter as `!`
 * and its lower case; undefined when the text is not such an encoding (a capital, a `!` before anything else).
 */
export function unescapeGoPath(escaped: string): string | undefined {
  let out = '';
  for (let i = 0; i < escaped.length; i++) {
    const c = escaped.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return undefined;
    if (c === 0x21) {
      const next = escaped.charCodeAt(i + 1);
      if (!(next >= 0x61 && next <= 0x7a)) return undefined;
      out += String.fromCharCode(next - 0x20);
      i++;
      continue;
    }
    out += escaped[i];
  }
  return out;
}

/**
 * Forgejo's `ParsePackage` over a zip in a file: the first entry under `{name}@{version}/` names the module (its
 * version must be semver), the `go.mod` directly in such a folder is the module's go.mod (at most 16 MiB); without
 * one, `module {name}`. 400 for a zip with no such entry, a bad version or name, or bytes that are not a zip.
 */
export async function parseGoModuleZip(file: string): Promise<GoModule> {
  return withZip(file, async (zip) => {
    let found: GoModule | undefined;
    for await (const entry of zipEntries(zip.cursor)) {
      const nameAndVersion = zipEntryDir(entry.name);
      const at = nameAndVersion.indexOf('@');
      if (at < 0) continue;
      const rest = nameAndVersion.slice(at + 1);
      const slash = rest.indexOf('/');
      if (!found) {
        found = { name: nameAndVersion.slice(0, at), version: slash < 0 ? rest : rest.slice(0, slash), goMod: '' };
        // The version is written one per line into `@v/list`: it must be a module version and nothing else.
        if (!isValidGoVersion(found.version)) throw new BadRequestError(GO_INVALID_VERSION);
        if (!isValidGoModulePath(found.name)) throw new BadRequestError(GO_INVALID_NAME);
      }
      // Files are expected in the module's root folder.
      if (slash >= 0) continue;
      if (zipEntryBase(entry.name) === 'go.mod') {
        if (entry.uncompressedSize > MAX_GO_MOD_SIZE) throw new BadRequestError(GO_MOD_TOO_LARGE);
        found.goMod = (await readZipEntry(zip, entry, MAX_GO_MOD_SIZE)).toString('utf8');
        return found;
      }
    }
    if (!found) throw new BadRequestError(GO_INVALID_STRUCTURE);
    found.goMod = `module ${found.name}`;
    return found;
  });
}

/**
 * The Go registry of an owner: uploads of module zips, and the GOPROXY protocol's reads, over `PackagesService`
 * (access, limits, blobs) and its store.
 */
export class GoPackagesService {
  constructor(private readonly ctx: CoreContext) {}

  private get packages(): PackagesService {
    return this.ctx.service(PackagesService);
  }

  private get store(): PackagesStore {
    return this.ctx.store(PackagesStore);
  }

  /**
   * Forgejo's `UploadPackage`: the body (a module zip) is spooled to a temporary file, stopping at
   * `LIMIT_SIZE_GO` (403), read for its module path, version and go.mod, then stored as the new version's
   * `{version}.zip` with the `go.mod` property; 400 for a bad zip, 409 when the version exists.
   */
  async upload(actor: Actor, owner: User, body: AsyncIterable<Uint8Array>): Promise<PackageFile> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const limit = this.ctx.settings.packages.LIMIT_SIZE_GO;
    // The zip's directory is at its end: the whole body is needed before the name is known.
    const file = await spoolPackageUpload(this.ctx.settings, body, isSiteAdmin(actor) ? -1 : limit, 'go');
    try {
      const module = await parseGoModuleZip(file);
      // Opened now: a stream that opened its file lazily could do so after a refusal had removed it.
      const content = (await open(file, 'r')).createReadStream();
      try {
        return await this.packages.addFile(actor, owner, { type: 'go', name: module.name, version: module.version }, `${module.version}.zip`, content, limit, {
          newVersion: true,
          semverCompatible: false,
          // Forgejo marshals the version's nil metadata.
          metadataJson: 'null',
          afterInsert: (store, created) => store.insertProperty(PackagePropertyType.Version, created.id, GO_MOD_PROPERTY, module.goMod),
        });
      } finally {
        // A refusal before the bytes are read (a version that exists) leaves the stream and its handle open.
        content.destroy();
      }
    } finally {
      await unlink(file).catch(() => {});
    }
  }

  /** The module's visible versions, oldest first (Forgejo sorts by creation time). */
  private async versionsOf(owner: User, name: string): Promise<PackageVersion[]> {
    const pkg = await this.store.findPackage(owner.id, 'go', name);
    if (!pkg) return [];
    const versions = (await this.store.versionsOfPackage(pkg.id)).filter((v) => v.is_internal === 0);
    return versions.sort((a, b) => a.created_unix - b.created_unix || a.id - b.id);
  }

  /** Forgejo's `EnumeratePackageVersions`: the versions, one per line, oldest first; undefined when none (404). */
  async versionList(actor: Actor, owner: User, name: string): Promise<string | undefined> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const versions = await this.versionsOf(owner, name);
    if (versions.length === 0) return undefined;
    return versions.map((v) => `${v.version}\n`).join('');
  }

  /** Forgejo's `resolvePackage`: the version, or the newest one for `latest`; 404 `package does not exist`. */
  private async resolve(actor: Actor, owner: User, name: string, version: string): Promise<PackageVersion> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    if (version === 'latest') {
      const newest = (await this.versionsOf(owner, name)).at(-1);
      if (!newest) throw new NotFoundError(PACKAGE_NOT_EXIST);
      return newest;
    }
    const found = await this.store.versionByName(owner.id, 'go', name, version);
    if (!found || found.is_internal !== 0) throw new NotFoundError(PACKAGE_NOT_EXIST);
    return found;
  }

  /** Forgejo's `PackageVersionMetadata` (`.info`, `@latest`): the version and when it was uploaded. */
  async info(actor: Actor, owner: User, name: string, version: string): Promise<GoVersionInfo> {
    const found = await this.resolve(actor, owner, name, version);
    return { Version: found.version, Time: new Date(found.created_unix * 1000).toISOString().replace('.000Z', 'Z') };
  }

  /** Forgejo's `PackageVersionGoModContent` (`.mod`): the go.mod kept at upload. */
  async goMod(actor: Actor, owner: User, name: string, version: string): Promise<string> {
    const found = await this.resolve(actor, owner, name, version);
    const properties = await this.store.propertiesOf(PackagePropertyType.Version, [found.id], GO_MOD_PROPERTY);
    if (properties.length !== 1) throw new Error(`go version ${found.id} has ${properties.length} go.mod properties`);
    return properties[0]!.value;
  }

  /** Forgejo's `DownloadPackageFile` (`.zip`): the version's one file. */
  async download(actor: Actor, owner: User, name: string, version: string, range?: string | null): Promise<PackageDownload> {
    const found = await this.resolve(actor, owner, name, version);
    const files = await this.store.filesOfVersion(found.id);
    if (files.length !== 1) throw new Error(`go version ${found.id} has ${files.length} files`);
    const pkg = await this.store.findPackage(owner.id, 'go', name);
    return this.packages.download(actor, owner, { type: 'go', name: pkg?.name ?? name, version: found.version }, files[0]!.name, range);
  }
}
