/**
 * Reading a Debian binary package (`deb(5)`): an `ar` archive whose `control.tar[.gz]` member holds the `control`
 * file, as Forgejo's `debian_module.ParsePackage` reads it, and the control file's fields (`ParseControlFile`).
 * The archive is read from a file at offsets, the control tarball streamed through gunzip and a tar reader that
 * skips other members without keeping them: memory stays bounded whatever the package's size. Supported member
 * compressions: none and gzip (what `dpkg-deb -Zgzip` writes); xz and zstd are refused as unsupported.
 */
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { BadRequestError } from '../errors.js';
import { isHttpUrl } from '../urls.js';

/** Forgejo's `debian_module` errors (all `ErrInvalidArgument`: 400), in its words. */
export const DEBIAN_MISSING_CONTROL = 'control file is missing';
export const DEBIAN_UNSUPPORTED_COMPRESSION = 'unsupported compression algorithmn';
export const DEBIAN_INVALID_NAME = 'package name is invalid';
export const DEBIAN_INVALID_VERSION = 'package version is invalid';
export const DEBIAN_INVALID_ARCHITECTURE = 'package architecture is invalid';
/** Ours: what Go's readers would answer for bytes that are no `ar` archive or no gzip stream. */
export const DEBIAN_NOT_AN_ARCHIVE = 'invalid debian archive';
export const DEBIAN_CONTROL_TOO_LARGE = 'control file is too large';

/** A control file is a few KiB; Go's line scanner stops at 64 KiB lines. */
const MAX_CONTROL_SIZE = 1024 * 1024;
/** The decompressed control tarball read at most while looking for `control` (bounds a gzip bomb's cost). */
const MAX_CONTROL_TAR_SIZE = 64 * 1024 * 1024;

/** Forgejo's `debian_module.Metadata` (the version's `metadata_json`), fields in its order, empty ones left out. */
export interface DebianMetadata {
  maintainer?: string;
  project_url?: string;
  description?: string;
  dependencies?: string[];
}

export interface DebianPackage {
  name: string;
  version: string;
  architecture: string;
  /** The control file as it came (the `debian.control` property, from which the Packages index is written). */
  control: string;
  metadata: DebianMetadata;
}

function isLowerOrDigit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

function isAlnum(c: number): boolean {
  return isLowerOrDigit(c) || (c >= 0x41 && c <= 0x5a);
}

/** Forgejo's name pattern `\A[a-z0-9][a-z0-9+-.]+\z` (Go reads `+-.` as the range `+` to `.`, which takes `,` too). */
export function isValidDebianName(name: string): boolean {
  if (name.length < 2 || !isLowerOrDigit(name.charCodeAt(0))) return false;
  for (let i = 1; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!isLowerOrDigit(c) && !(c >= 0x2b && c <= 0x2e)) return false;
  }
  return true;
}

/**
 * Forgejo's version pattern `\A(?:[0-9]:)?[a-zA-Z0-9.+~]+(?:-[a-zA-Z0-9.+-~]+)?\z`: an optional one-digit epoch, the
 * upstream version up to the first hyphen, then a revision (Go reads `+-~` as the range `+` to `~`).
 */
export function isValidDebianVersion(version: string): boolean {
  let at = 0;
  if (version.length >= 2 && version.charCodeAt(1) === 0x3a && version.charCodeAt(0) >= 0x30 && version.charCodeAt(0) <= 0x39) at = 2;
  const hyphen = version.indexOf('-', at);
  const upstreamEnd = hyphen < 0 ? version.length : hyphen;
  if (upstreamEnd === at) return false;
  for (let i = at; i < upstreamEnd; i++) {
    const c = version.charCodeAt(i);
    if (!isAlnum(c) && c !== 0x2e && c !== 0x2b && c !== 0x7e) return false;
  }
  if (hyphen < 0) return true;
  if (hyphen === version.length - 1) return false;
  for (let i = hyphen + 1; i < version.length; i++) {
    const c = version.charCodeAt(i);
    if (c < 0x2b || c > 0x7e) return false;
  }
  return true;
}

/**
 * An architecture as the index paths use it (`binary-{arch}`, the file name, the composite key): `[a-z0-9-]+`, the
 * pattern of Forgejo's first Debian router. Forgejo now takes any non-empty value, which could break out of those.
 */
export function isValidDebianArchitecture(arch: string): boolean {
  if (arch === '') return false;
  for (let i = 0; i < arch.length; i++) {
    const c = arch.charCodeAt(i);
    if (!isLowerOrDigit(c) && c !== 0x2d) return false;
  }
  return true;
}

/** Go's `mail.ParseAddress(value).Name` where there is one (`Name <address>`), else the value. */
function maintainerName(value: string): string {
  const lt = value.lastIndexOf('<');
  if (lt <= 0 || !value.endsWith('>') || !value.slice(lt + 1, -1).includes('@')) return value;
  let name = value.slice(0, lt).trim();
  if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) name = name.slice(1, -1);
  return name === '' ? value : name;
}

/** Forgejo's `ParseControlFile`: the fields it reads, checked; the whole text kept. */
export function parseDebianControl(control: string): DebianPackage {
  const metadata: DebianMetadata = {};
  let name = '';
  let version = '';
  let architecture = '';
  let depends = '';
  let description: string | undefined;
  let key = '';
  for (const raw of control.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (line[0] === ' ' || line[0] === '\t') {
      // Continuation lines: the description keeps them as they are, the dependencies trimmed.
      if (key === 'Description') description = (description ?? '') + line;
      else if (key === 'Depends') depends += trimmed;
      continue;
    }
    const colon = trimmed.indexOf(':');
    if (colon < 0) continue;
    key = trimmed.slice(0, colon);
    const value = trimmed.slice(colon + 1).trim();
    switch (key) {
      case 'Package':
        if (!isValidDebianName(value)) throw new BadRequestError(DEBIAN_INVALID_NAME);
        name = value;
        break;
      case 'Version':
        if (!isValidDebianVersion(value)) throw new BadRequestError(DEBIAN_INVALID_VERSION);
        version = value;
        break;
      case 'Architecture':
        if (!isValidDebianArchitecture(value)) throw new BadRequestError(DEBIAN_INVALID_ARCHITECTURE);
        architecture = value;
        break;
      case 'Maintainer':
        metadata.maintainer = maintainerName(value);
        break;
      case 'Description':
        description = value;
        break;
      case 'Depends':
        depends += value;
        break;
      case 'Homepage':
        if (isHttpUrl(value)) metadata.project_url = value;
        break;
    }
  }
  // A control file without these fields names nothing the registry could store.
  if (name === '') throw new BadRequestError(DEBIAN_INVALID_NAME);
  if (version === '') throw new BadRequestError(DEBIAN_INVALID_VERSION);
  if (architecture === '') throw new BadRequestError(DEBIAN_INVALID_ARCHITECTURE);
  if (description) metadata.description = description;
  // Forgejo splits even an empty Depends: `[""]`, which is what it stores.
  metadata.dependencies = depends.split(',').map((d) => d.trim());
  const ordered: DebianMetadata = {};
  if (metadata.maintainer) ordered.maintainer = metadata.maintainer;
  if (metadata.project_url) ordered.project_url = metadata.project_url;
  if (metadata.description) ordered.description = metadata.description;
  ordered.dependencies = metadata.dependencies;
  return { name, version, architecture, control, metadata: ordered };
}

/** A tar header's NUL-terminated text field. */
function field(header: Buffer, start: number, length: number): string {
  const slice = header.subarray(start, start + length);
  const nul = slice.indexOf(0);
  return (nul < 0 ? slice : slice.subarray(0, nul)).toString('utf8');
}

function octal(header: Buffer, start: number, length: number): number {
  // Base-256 sizes (the high bit set) are for members past 8 GiB: never a control file.
  if (header[start]! & 0x80) return Number.MAX_SAFE_INTEGER;
  const text = field(header, start, length).trim();
  if (text === '') return 0;
  let value = 0;
  for (const ch of text) {
    if (ch < '0' || ch > '7') throw new BadRequestError(DEBIAN_NOT_AN_ARCHIVE);
    value = value * 8 + (ch.charCodeAt(0) - 48);
  }
  return value;
}

/** A pax header's `path` record, if any (`"%d path=%s\n"` records). */
function paxPath(records: Buffer): string | undefined {
  let found: string | undefined;
  let at = 0;
  while (at < records.length) {
    const space = records.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number(records.subarray(at, space).toString('ascii'));
    if (!Number.isInteger(length) || length <= 0 || at + length > records.length) break;
    const record = records.subarray(space + 1, at + length - 1).toString('utf8');
    if (record.startsWith('path=')) found = record.slice(5);
    at += length;
  }
  return found;
}

/**
 * Go's `tar.Reader` over a stream, until a regular member whose base name is `control`: its bytes (at most
 * `MAX_CONTROL_SIZE`); undefined at the archive's end. Other members are skipped as they pass.
 */
async function controlFromTar(source: AsyncIterable<Buffer>): Promise<Buffer | undefined> {
  let pending: Buffer = Buffer.alloc(0);
  let total = 0;
  /** What the current member still has: bytes to skip or to keep, then its padding. */
  let skip = 0;
  let keep: { into: Buffer[]; left: number; kind: 'control' | 'longname' | 'pax' } | undefined;
  let padding = 0;
  let nextName: string | undefined;
  let longName: string | undefined;
  for await (const chunk of source) {
    total += chunk.length;
    if (total > MAX_CONTROL_TAR_SIZE) throw new BadRequestError(DEBIAN_CONTROL_TOO_LARGE);
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      if (skip > 0) {
        const n = Math.min(skip, pending.length);
        skip -= n;
        pending = pending.subarray(n);
        if (skip > 0) break;
        continue;
      }
      if (keep) {
        const n = Math.min(keep.left, pending.length);
        keep.into.push(pending.subarray(0, n));
        keep.left -= n;
        pending = pending.subarray(n);
        if (keep.left > 0) break;
        const bytes = Buffer.concat(keep.into);
        const kind = keep.kind;
        keep = undefined;
        if (kind === 'control') return bytes;
        if (kind === 'longname') longName = field(bytes, 0, bytes.length);
        else nextName = paxPath(bytes) ?? nextName;
        skip = padding;
        continue;
      }
      if (pending.length < 512) break;
      const header = pending.subarray(0, 512);
      pending = pending.subarray(512);
      if (header.every((b) => b === 0)) return undefined;
      const size = octal(header, 124, 12);
      const type = String.fromCharCode(header[156]!);
      padding = (512 - (size % 512)) % 512;
      let name = longName ?? nextName;
      longName = undefined;
      if (name === undefined) {
        name = field(header, 0, 100);
        const prefix = field(header, 345, 155);
        if (field(header, 257, 5) === 'ustar' && prefix !== '') name = `${prefix}/${name}`;
      }
      if (type === 'L' || type === 'x') {
        if (size > MAX_CONTROL_SIZE) throw new BadRequestError(DEBIAN_CONTROL_TOO_LARGE);
        keep = { into: [], left: size, kind: type === 'L' ? 'longname' : 'pax' };
        continue;
      }
      nextName = undefined;
      let end = name.length;
      while (end > 0 && name[end - 1] === '/') end--;
      const base = name.slice(name.lastIndexOf('/', end - 1) + 1, end);
      if ((type === '0' || type === '\0') && base === 'control') {
        if (size > MAX_CONTROL_SIZE) throw new BadRequestError(DEBIAN_CONTROL_TOO_LARGE);
        if (size === 0) return Buffer.alloc(0);
        keep = { into: [], left: size, kind: 'control' };
        continue;
      }
      skip = size + padding;
    }
  }
  if (keep || skip > 0 || pending.length > 0) throw new BadRequestError(DEBIAN_NOT_AN_ARCHIVE);
  return undefined;
}

interface ArMember {
  name: string;
  start: number;
  size: number;
}

/** The members of an `ar` archive, one header read at a time. */
async function* arMembers(handle: FileHandle, fileSize: number): AsyncIterable<ArMember> {
  const magic = Buffer.alloc(8);
  const { bytesRead } = await handle.read(magic, 0, 8, 0);
  // An empty body has no member: the control file is missing, as Forgejo answers.
  if (bytesRead === 0) return;
  if (bytesRead < 8 || magic.toString('latin1') !== '!<arch>\n') throw new BadRequestError(DEBIAN_NOT_AN_ARCHIVE);
  let at = 8;
  const header = Buffer.alloc(60);
  while (at < fileSize) {
    const { bytesRead: n } = await handle.read(header, 0, 60, at);
    if (n < 60 || header[58] !== 0x60 || header[59] !== 0x0a) throw new BadRequestError(DEBIAN_NOT_AN_ARCHIVE);
    const name = header.subarray(0, 16).toString('latin1').trimEnd().replace(/\/$/, '');
    const sizeText = header.subarray(48, 58).toString('latin1').trim();
    if (!/^[0-9]{1,10}$/.test(sizeText)) throw new BadRequestError(DEBIAN_NOT_AN_ARCHIVE);
    const size = Number(sizeText);
    const start = at + 60;
    if (start + size > fileSize) throw new BadRequestError(DEBIAN_NOT_AN_ARCHIVE);
    yield { name, start, size };
    at = start + size + (size % 2);
  }
}

/**
 * Forgejo's `ParsePackage` over a .deb in a file: the first `control.tar[.gz]` member's `control` file, parsed.
 * 400 for bytes that are no archive, a missing control file, an unsupported compression, or bad fields.
 */
export async function parseDebianPackage(file: string): Promise<DebianPackage> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    for await (const member of arMembers(handle, size)) {
      if (!member.name.startsWith('control.tar')) continue;
      const suffix = member.name.slice('control.tar'.length);
      if (suffix !== '' && suffix !== '.gz') throw new BadRequestError(DEBIAN_UNSUPPORTED_COMPRESSION);
      if (member.size === 0) throw new BadRequestError(DEBIAN_NOT_AN_ARCHIVE);
      const raw = createReadStream(file, { start: member.start, end: member.start + member.size - 1 });
      const source = suffix === '.gz' ? raw.pipe(createGunzip()) : raw;
      let control: Buffer | undefined;
      try {
        control = await controlFromTar(source as AsyncIterable<Buffer>);
      } catch (error) {
        if (error instanceof BadRequestError) throw error;
        // zlib's errors: a member that is no gzip stream.
        throw new BadRequestError(DEBIAN_NOT_AN_ARCHIVE);
      } finally {
        raw.destroy();
        source.destroy();
      }
      if (control) return parseDebianControl(control.toString('utf8'));
    }
    throw new BadRequestError(DEBIAN_MISSING_CONTROL);
  } finally {
    await handle.close();
  }
}
