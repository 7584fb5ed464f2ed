/**
 * The PyPI format of the package registry (Forgejo's `modules/packages/pypi` and `routers/api/packages/pypi`):
 * twine's upload form checked (the file against its `sha256_digest`, the name and the PEP 440 version as Forgejo's
 * patterns read them), several files per version (an sdist and wheels), the version's metadata kept as
 * `metadata_json` in Forgejo's shape, and the PEP 503 simple index pip installs from. The server parses HTTP and
 * calls these.
 */
import { createHash } from 'node:crypto';
import type { CoreContext } from '../context.js';
import { AccessMode } from '../access/index.js';
import type { Actor, User } from '../users/index.js';
import { BadRequestError } from '../errors.js';
import { compileLinearRegex, type LinearRegex } from '../linear-regex.js';
import { isHttpUrl, webUrl } from '../urls.js';
import { PackagesService, type PackageDownload } from './service.js';
import { PackagesStore } from './store.js';
import type { PackageFile } from './tables.js';

/** Forgejo's answers to a bad upload (400). */
export const PYPI_HASH_MISMATCH = 'hash mismatch';
export const PYPI_INVALID_NAME_OR_VERSION = 'invalid name or version';

/**
 * Forgejo's `versionMatcher` (PEP 440's appendix B as Forgejo writes it), run on RE2 as Go runs it: the version is
 * request data, and the pattern's optional separators would let a backtracking engine try many splits.
 */
const VERSION_PATTERN =
  '\\Av?' +
  '(?:[0-9]+!)?' +
  '[0-9]+(?:\\.[0-9]+)*' +
  '(?:[-_\\.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_\\.]?[0-9]*)?' +
  '(?:-[0-9]+|[-_\\.]?(?:post|rev|r)[-_\\.]?[0-9]*)?' +
  '(?:[-_\\.]?dev[-_\\.]?[0-9]*)?' +
  '(?:\\+[a-z0-9]+(?:[-_\\.][a-z0-9]+)*)?' +
  '\\z';
let versionMatcher: Promise<LinearRegex> | undefined;

/** The metadata of a PyPI version as Forgejo stores it (`pypi_module.Metadata`, empty fields left out). */
export interface PypiMetadata {
  author?: string;
  description?: string;
  long_description?: string;
  summary?: string;
  project_url?: string;
  license?: string;
  requires_python?: string;
}

/** An upload as the server reads twine's form. */
export interface PypiUploadForm {
  /**
   * The form's text fields (`name`, `version`, `sha256_digest`, the metadata). Those the form has after the file
   * must be there once `content` has been read to its end; `name` and `version` are read before.
   */
  fields: Readonly<Record<string, string | undefined>>;
  /** The file's base name, as the client gave it. */
  filename: string;
  content: AsyncIterable<Uint8Array>;
}

/** Forgejo's `normalizer`: `.` and `_` read as `-` (the lookups ignore case). */
export function normalizePypiName(name: string): string {
  return name.replaceAll('.', '-').replaceAll('_', '-');
}

const isAsciiAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** Forgejo's `nameMatcher` (PEP 426): ASCII letters and digits, with `.-_` inside. */
export function isValidPypiName(name: string): boolean {
  if (name.length === 0 || !isAsciiAlnum(name.charCodeAt(0)) || !isAsciiAlnum(name.charCodeAt(name.length - 1))) return false;
  for (let i = 1; i < name.length - 1; i++) {
    const c = name.charCodeAt(i);
    if (!isAsciiAlnum(c) && c !== 0x2e && c !== 0x2d && c !== 0x5f) return false;
  }
  return true;
}

export async function isValidPypiVersion(version: string): Promise<boolean> {
  return (await (versionMatcher ??= compileLinearRegex(VERSION_PATTERN))).test(version);
}

/** The Project-URL label normalization: ASCII punctuation and white space dropped, lower case. */
function normalizeLabel(label: string): string {
  let out = '';
  for (const ch of label) if (!/^[\p{P}\s]$/u.test(ch)) out += ch.toLowerCase();
  return out;
}

/** The metadata Forgejo keeps from the form: the home page from `project_urls` (label `Homepage`) or `home_page`. */
export function pypiMetadataOf(fields: Readonly<Record<string, string | undefined>>): PypiMetadata {
  let homepage = '';
  const urls = fields.project_urls;
  if (urls !== undefined) {
    const comma = urls.indexOf(',');
    if (comma >= 0 && normalizeLabel(urls.slice(0, comma)) === 'homepage') homepage = urls.slice(comma + 1).trim();
  }
  if (homepage === '') homepage = fields.home_page ?? '';
  const metadata: PypiMetadata = {
    author: fields.author,
    description: fields.description,
    long_description: fields.long_description,
    summary: fields.summary,
    project_url: isHttpUrl(homepage) ? homepage : undefined,
    license: fields.license,
    requires_python: fields.requires_python,
  };
  for (const key of Object.keys(metadata) as (keyof PypiMetadata)[]) if (!metadata[key]) delete metadata[key];
  return metadata;
}

function metadataOf(json: string): PypiMetadata {
  try {
    const value = JSON.parse(json || '{}') as unknown;
    return typeof value === 'object' && value !== null ? (value as PypiMetadata) : {};
  } catch {
    return {};
  }
}

/** Go's `html/template` escaping of text and attribute values. */
function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&#34;').replaceAll("'", '&#39;');
}

/** Go's `html/template` URL normalization in an `href`: bytes outside URLs' character set percent-encoded. */
function normalizeUrl(url: string): string {
  let out = '';
  for (const byte of Buffer.from(url, 'utf8')) {
    const keep = isAsciiAlnum(byte) || '!#$&*+,/:;=?@[]-._~%'.includes(String.fromCharCode(byte));
    out += keep ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The PyPI registry of an owner: twine's upload, pip's simple index and downloads, over `PackagesService`
 * (access, limits, blobs) and its store.
 */
export class PypiPackagesService {
  constructor(private readonly ctx: CoreContext) {}

  private get packages(): PackagesService {
    return this.ctx.service(PackagesService);
  }

  private get store(): PackagesStore {
    return this.ctx.store(PackagesStore);
  }

  /** `[server] ROOT_URL` + `api/packages/{owner}/pypi`: the repository twine uploads to. */
  registryUrl(owner: User): string {
    return webUrl(this.ctx.settings, `api/packages/${owner.name}/pypi`);
  }

  /**
   * Forgejo's `UploadPackageFile`: the file added to its version (created, with the form's metadata, by its first
   * file); 400 for a bad name or version or a file that does not match `sha256_digest`, 409 when the version has
   * a file of that name, 403 past a limit. The bytes are hashed as they stream to storage; a mismatch found at
   * their end fails the upload before any row is written.
   */
  async upload(actor: Actor, owner: User, form: PypiUploadForm): Promise<PackageFile> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    const name = normalizePypiName(form.fields.name ?? '');
    const version = form.fields.version ?? '';
    // Forgejo checks the digest first, having read the whole file; this refuses a bad name before reading it.
    if (!isValidPypiName(name) || !(await isValidPypiVersion(version))) throw new BadRequestError(PYPI_INVALID_NAME_OR_VERSION);
    const fields = form.fields;
    const checked = async function* (): AsyncIterable<Uint8Array> {
      const hash = createHash('sha256');
      for await (const chunk of form.content) {
        hash.update(chunk);
        yield chunk;
      }
      // The form has been read to its end: a digest sent after the file is there now.
      if (hash.digest('hex') !== (fields.sha256_digest ?? '').toLowerCase()) throw new BadRequestError(PYPI_HASH_MISMATCH);
    };
    return this.packages.addFile(actor, owner, { type: 'pypi', name, version }, form.filename, checked(), this.ctx.settings.packages.LIMIT_SIZE_PYPI, {
      semverCompatible: false,
      // The version's metadata is its first file's form; it is read once the file (and so the form) is read.
      afterInsert: async (store, created) => {
        if (created.metadata_json === '') await store.setVersionMetadata(created.id, JSON.stringify(pypiMetadataOf(fields)));
      },
    });
  }

  /**
   * Forgejo's `PackageMetadata`: the PEP 503 page of a package (its name normalized as Forgejo does), one link per
   * file with its sha256 and `data-requires-python`, versions in Forgejo's (byte) order; undefined when the package
   * has no version (Forgejo answers 404 with an empty body).
   */
  async simpleIndex(actor: Actor, owner: User, rawName: string): Promise<string | undefined> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const pkg = await this.store.findPackage(owner.id, 'pypi', normalizePypiName(rawName));
    if (!pkg) return undefined;
    const versions = (await this.store.versionsOfPackage(pkg.id)).filter((v) => v.is_internal === 0);
    if (versions.length === 0) return undefined;
    versions.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
    const registry = this.registryUrl(owner);
    const title = escapeHtml(pkg.name);
    const lines = ['<!DOCTYPE html>', '<html>', '\t<head>', `\t\t<title>Links for ${title}</title>`, '\t</head>', '\t<body>', `\t\t<h1>Links for ${title}</h1>`];
    const files = await this.store.filesOfVersions(versions.map((v) => v.id));
    for (const version of versions) {
      const requires = metadataOf(version.metadata_json).requires_python;
      const attribute = requires ? ` data-requires-python="${escapeHtml(requires)}"` : '';
      for (const file of files.get(version.id) ?? []) {
        const href = normalizeUrl(`${registry}/files/${pkg.lower_name}/${version.version}/${file.name}#sha256=${file.blob.hash_sha256}`);
        lines.push(`\t\t<a href="${escapeHtml(href)}"${attribute}>${escapeHtml(file.name)}</a><br>`);
      }
    }
    lines.push('\t</body>', '</html>', '');
    return lines.join('\n');
  }

  /** Forgejo's `DownloadPackageFile`: a file by (normalized) name, version and file name. */
  download(actor: Actor, owner: User, name: string, version: string, filename: string, range?: string | null): Promise<PackageDownload> {
    return this.packages.download(actor, owner, { type: 'pypi', name: normalizePypiName(name), version }, filename, range);
  }
}

