/**
 * The Maven format of the package registry (Forgejo's `modules/packages/maven` and `routers/api/packages/maven`):
 * files PUT at their Maven paths (`group/path/artifactId/version/file`) under the package `groupId:artifactId`,
 * checksum uploads compared with the stored file instead of stored, the POM's metadata kept as the version's
 * `metadata_json` in Forgejo's shape, a SNAPSHOT version's `maven-metadata.xml` stored (and replaced), and the
 * package's `maven-metadata.xml` built from its versions. The server parses HTTP and calls these.
 */
import { createHash } from 'node:crypto';
import { TextDecoder } from 'node:util';
import type { CoreContext } from '../context.js';
import { isHttpUrl } from '../urls.js';
import { AccessMode } from '../access/index.js';
import type { Actor, User } from '../users/index.js';
import type { BlobSource } from '../blobs/index.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { DatabaseLocks, Store } from '../storage/index.js';
import { PackagesService, PACKAGE_FILE_NOT_EXIST, PACKAGE_NOT_EXIST, type PackageDownload } from './service.js';
import { PackagesStore, type FileWithBlob, type VersionWithPackage } from './store.js';
import type { PackagesTables } from './tables.js';

/** Forgejo's `errInvalidParameters` (400). */
export const MAVEN_INVALID_PARAMETERS = 'request parameters are invalid';
/** A checksum upload that does not match the stored file (400). */
export const MAVEN_HASH_MISMATCH = 'hash mismatch';

const METADATA_FILE = 'maven-metadata.xml';
const CHECKSUM_EXTENSIONS = ['.md5', '.sha1', '.sha256', '.sha512'] as const;
type ChecksumExtension = (typeof CHECKSUM_EXTENSIONS)[number];
const HASH_OF: Record<ChecksumExtension, 'md5' | 'sha1' | 'sha256' | 'sha512'> = { '.md5': 'md5', '.sha1': 'sha1', '.sha256': 'sha256', '.sha512': 'sha512' };
/** Go's `xml.Header`. */
const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** The longest checksum (sha512, hex) is 128 characters: more than this cannot match and is not read. */
const CHECKSUM_BODY_LIMIT = 1024;

/** The metadata of a Maven version as Forgejo stores it (`maven.Metadata`; empty fields left out). */
export interface MavenMetadata {
  group_id?: string;
  artifact_id?: string;
  name?: string;
  description?: string;
  project_url?: string;
  licenses?: string[];
  dependencies?: { group_id?: string; artifact_id?: string; version?: string }[];
}

/** What a path under `/maven/` names (Forgejo's `parameters`). */
export interface MavenPath {
  groupId: string;
  artifactId: string;
  /** Empty for the package's own `maven-metadata.xml` (and its checksums). */
  version: string;
  filename: string;
  /** The file is `maven-metadata.xml` or one of its checksums. */
  isMeta: boolean;
}

/** Forgejo's `illegalCharacters`: `\ / : " < > | ? *`. */
function hasIllegalCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c || c === 0x2f || c === 0x3a || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x7c || c === 0x3f || c === 0x2a) return true;
  }
  return false;
}

/** Go's `filepath.Ext`: from the last dot of the name, or nothing. */
function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot >= 0 ? filename.slice(dot) : '';
}

function checksumExtension(ext: string): ChecksumExtension | undefined {
  return (CHECKSUM_EXTENSIONS as readonly string[]).includes(ext) ? (ext as ChecksumExtension) : undefined;
}

/**
 * Forgejo's `extractPathParameters` over the decoded segments after `/maven/`: the last is the file, the one before
 * it the version (unless the file is the package's `maven-metadata.xml`, which a version not ending in `-SNAPSHOT`
 * does not precede), the one before that the artifact, the rest the group joined with dots. Empty, `.` and `..`
 * segments are refused too (nothing is a file path here, but such names would only confuse).
 */
export function parseMavenPath(segments: readonly string[]): MavenPath {
  const invalid = () => new BadRequestError(MAVEN_INVALID_PARAMETERS);
  for (const segment of segments) if (segment === '' || segment === '.' || segment === '..') throw invalid();
  const filename = segments[segments.length - 1] ?? '';
  const isMeta = filename === METADATA_FILE || CHECKSUM_EXTENSIONS.some((ext) => filename === METADATA_FILE + ext);
  let parts = segments.slice(0, -1);
  if (parts.length === 0) throw invalid();
  let version = parts[parts.length - 1]!;
  if (isMeta && !version.endsWith('-SNAPSHOT')) version = '';
  else parts = parts.slice(0, -1);
  if (hasIllegalCharacter(version) || parts.length < 2) throw invalid();
  const artifactId = parts[parts.length - 1]!;
  const groupId = parts.slice(0, -1).join('.');
  if (hasIllegalCharacter(groupId) || hasIllegalCharacter(artifactId)) throw invalid();
  return { groupId, artifactId, version, filename, isMeta };
}

/** Forgejo's `buildPackageID`. */
export function mavenPackageName(groupId: string, artifactId: string): string {
  return `${groupId}:${artifactId}`;
}

/** What a GET or HEAD of a Maven path answers. */
export type MavenAnswer =
  /** The package's generated `maven-metadata.xml`, with the time of its newest version. */
  | { kind: 'metadata'; xml: Buffer; lastModified: number }
  /** A checksum, as plain text. */
  | { kind: 'checksum'; text: string; lastModified?: number }
  /** A stored file (`download.body` is undefined for HEAD). */
  | { kind: 'file'; download: PackageDownload; contentType: string };

/** What an upload did. */
export type MavenUploadOutcome = 'ignored' | 'verified' | 'created';

/** The one query the Maven registry needs besides `PackagesStore`'s. */
class MavenStore extends Store<PackagesTables> {
  /** Renames a file (the replacement of a SNAPSHOT's `maven-metadata.xml` takes the replaced one's name). */
  async renameFile(id: number, name: string): Promise<void> {
    await this.db.updateTable('package_file').set({ name, lower_name: name.toLowerCase() }).where('id', '=', id).execute();
  }

  /** Forgejo leads a Maven version with its POM only: the other files do not count downloads. */
  async setLead(id: number, lead: boolean): Promise<void> {
    await this.db.updateTable('package_file').set({ is_lead: lead ? 1 : 0 }).where('id', '=', id).execute();
  }
}

/**
 * The Maven registry of an owner over `PackagesService` (access, limits, blobs) and its store. Uploads of one
 * package run one at a time across every process on the database (Forgejo's `mavenUploadLock`, here a lock row), so
 * a SNAPSHOT's metadata replacement and the POM's metadata update do not interleave.
 */
export class MavenPackagesService {
  constructor(private readonly ctx: CoreContext) {}

  private get packages(): PackagesService {
    return this.ctx.service(PackagesService);
  }

  private get store(): PackagesStore {
    return this.ctx.store(PackagesStore);
  }

  /** `LIMIT_SIZE_MAVEN`: bytes one file may take at most; -1: no limit. */
  private get sizeLimit(): number {
    return this.ctx.settings.packages.LIMIT_SIZE_MAVEN;
  }

  /**
   * Forgejo's `UploadPackageFile`: the package's `maven-metadata.xml` is ignored (Forgejo builds its own; 'ignored',
   * the body unread); a checksum is compared with the stored file's (404 for no such version or file, 400 on a
   * mismatch; 'verified'); any other file is stored ('created'; 409 when the version has it, except a SNAPSHOT's
   * `maven-metadata.xml`, which replaces the one before), a POM's metadata set on the version (400 when it does not
   * parse).
   */
  async upload(actor: Actor, owner: User, path: MavenPath, source: BlobSource): Promise<MavenUploadOutcome> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Write);
    if (path.isMeta && path.version === '') return 'ignored';
    const name = mavenPackageName(path.groupId, path.artifactId);
    return this.exclusive(`${owner.id}:${name.toLowerCase()}`, async () => {
      const ext = extensionOf(path.filename);
      const checksum = checksumExtension(ext);
      if (checksum) {
        await this.verifyChecksum(owner, name, path, checksum, source);
        return 'verified';
      }
      if (path.isMeta) await this.replaceFile(actor, owner, name, path, source);
      else await this.addFile(actor, owner, name, path.version, path.filename, source, ext === '.pom');
      return 'created';
    });
  }

  /** Runs `task` holding the package's upload lock; the name is hashed, so the lock's name has a fixed length. */
  private exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    const name = `maven-upload:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
    return this.ctx.service(DatabaseLocks).withLock(name, () => task(), {
      busyMessage: 'another upload to this Maven package is in progress; try again later',
    });
  }

  private async verifyChecksum(owner: User, name: string, path: MavenPath, ext: ChecksumExtension, source: BlobSource): Promise<void> {
    const version = await this.store.versionByName(owner.id, 'maven', name, path.version);
    if (!version) throw new NotFoundError(PACKAGE_NOT_EXIST);
    const file = await this.fileMatchingCase(version.id, path.filename.slice(0, -ext.length));
    if (!file) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
    const sent = await readUpTo(source, CHECKSUM_BODY_LIMIT);
    const stored = { md5: file.blob.hash_md5, sha1: file.blob.hash_sha1, sha256: file.blob.hash_sha256, sha512: file.blob.hash_sha512 }[HASH_OF[ext]];
    // Compared as sent, as Forgejo does (Maven sends the bare hex digest).
    if (sent === undefined || sent !== stored) throw new BadRequestError(MAVEN_HASH_MISMATCH);
  }

  /** Forgejo's `GetFileForVersionByNameMatchCase`: the file whose name is exactly `name`. */
  private async fileMatchingCase(versionId: number, name: string): Promise<FileWithBlob | undefined> {
    const file = await this.store.fileByName(versionId, name);
    return file && file.name === name ? file : undefined;
  }

  /**
   * Stores a file of the version (created as needed, not semver). A POM is parsed as it streams by, and its
   * metadata written in the upload's transaction; it is the version's lead file (the one whose downloads count).
   */
  private async addFile(actor: Actor, owner: User, name: string, version: string, filename: string, source: BlobSource, isPom: boolean) {
    const parser = isPom ? new PomParser() : undefined;
    let metadata: MavenMetadata | undefined;
    const file = await this.packages.addFile(
      actor,
      owner,
      { type: 'maven', name, version },
      filename,
      parser ? parsing(source, parser, (parsed) => (metadata = parsed)) : source,
      this.sizeLimit,
      {
        semverCompatible: false,
        afterInsert: async (store, created) => {
          if (metadata) await store.setVersionMetadata(created.id, JSON.stringify(metadata));
        },
      },
    );
    if (!isPom) await this.ctx.store(MavenStore).setLead(file.id, false);
    return file;
  }

  /**
   * Forgejo's `OverwriteExisting` for a SNAPSHOT's `maven-metadata.xml`: the new bytes are stored under a temporary
   * name, then one transaction removes the old file and gives the new one its name, so a reader sees one or the
   * other; the bytes only the old one had go after commit.
   */
  private async replaceFile(actor: Actor, owner: User, name: string, path: MavenPath, source: BlobSource): Promise<void> {
    const version = await this.store.versionByName(owner.id, 'maven', name, path.version);
    const existing = version ? await this.fileMatchingCase(version.id, path.filename) : undefined;
    if (!existing) {
      await this.addFile(actor, owner, name, path.version, path.filename, source, false);
      return;
    }
    const temporary = `${path.filename}.${Date.now()}-${Math.random().toString(36).slice(2)}.upload`;
    const added = await this.addFile(actor, owner, name, path.version, temporary, source, false);
    let orphans: string[];
    try {
      orphans = await this.ctx.transaction(async (tx) => {
        const store = tx.store(PackagesStore);
        const old = await store.fileByName(added.version_id, path.filename);
        if (old) await store.deleteFiles([old.id]);
        await tx.store(MavenStore).renameFile(added.id, path.filename);
        return old ? store.deleteUnreferencedBlobs([old.blob_id]) : [];
      });
    } catch (error) {
      await this.packages.deleteFile(actor, owner, { type: 'maven', name, version: path.version }, temporary).catch(() => {});
      throw error;
    }
    await this.packages.deleteObjects(orphans);
  }

  /**
   * Forgejo's `DownloadPackageFile` and `ProvidePackageFileHeader` (`withBody` false: no bytes opened, no download
   * counted): the package's `maven-metadata.xml` (404 when it has no version) or its checksums, a stored file (404
   * for no such version or file, the name matching case) or its checksums.
   */
  async get(actor: Actor, owner: User, path: MavenPath, withBody: boolean, range?: string | null): Promise<MavenAnswer> {
    this.packages.assertEnabled();
    await this.packages.assertAccess(actor, owner, AccessMode.Read);
    const name = mavenPackageName(path.groupId, path.artifactId);
    const ext = extensionOf(path.filename).toLowerCase();
    const checksum = checksumExtension(ext);
    if (path.isMeta && path.version === '') {
      const { xml, lastModified } = await this.packageMetadata(owner, name);
      if (checksum) return { kind: 'checksum', text: createHash(HASH_OF[checksum]).update(xml).digest('hex'), lastModified };
      return { kind: 'metadata', xml, lastModified };
    }
    const version = await this.store.versionByName(owner.id, 'maven', name, path.version);
    if (!version) throw new NotFoundError(PACKAGE_NOT_EXIST);
    const filename = checksum ? path.filename.slice(0, -ext.length) : path.filename;
    const file = await this.fileMatchingCase(version.id, filename);
    if (!file) throw new NotFoundError(PACKAGE_FILE_NOT_EXIST);
    if (checksum) {
      const hashes = { md5: file.blob.hash_md5, sha1: file.blob.hash_sha1, sha256: file.blob.hash_sha256, sha512: file.blob.hash_sha512 };
      return { kind: 'checksum', text: hashes[HASH_OF[checksum]] };
    }
    const contentType = ext === '.jar' ? 'application/java-archive' : ext === '.pom' ? 'text/xml' : 'application/octet-stream';
    if (!withBody) return { kind: 'file', download: { file, body: undefined, range: undefined }, contentType };
    const download = await this.packages.download(actor, owner, { type: 'maven', name, version: version.version }, file.name, range);
    return { kind: 'file', download, contentType };
  }

  /** Forgejo's `serveMavenMetadata`: the versions by creation time, the newest `latest`, the newest non-SNAPSHOT `release`. */
  private async packageMetadata(owner: User, name: string): Promise<{ xml: Buffer; lastModified: number }> {
    const pkg = await this.store.findPackage(owner.id, 'maven', name);
    const versions = pkg ? (await this.store.versionsOfPackage(pkg.id)).filter((v) => v.is_internal === 0) : [];
    if (!pkg || versions.length === 0) throw new NotFoundError(PACKAGE_NOT_EXIST);
    // Maven and Gradle order versions by when they were published, not by their strings.
    versions.sort((a, b) => a.created_unix - b.created_unix || a.id - b.id);
    const latest = versions[versions.length - 1]!;
    const release = [...versions].reverse().find((v) => !v.version.endsWith('-SNAPSHOT'));
    const meta = metadataOf(latest);
    // A version without a POM has no metadata: the coordinates come from the package's name then.
    const colon = pkg.name.indexOf(':');
    const groupId = meta.group_id ?? pkg.name.slice(0, colon);
    const artifactId = meta.artifact_id ?? pkg.name.slice(colon + 1);
    const xml =
      `${XML_HEADER}<metadata><groupId>${escapeXml(groupId)}</groupId><artifactId>${escapeXml(artifactId)}</artifactId><versioning>` +
      (release ? `<release>${escapeXml(release.version)}</release>` : '') +
      `<latest>${escapeXml(latest.version)}</latest><versions>${versions.map((v) => `<version>${escapeXml(v.version)}</version>`).join('')}</versions>` +
      `</versioning></metadata>`;
    return { xml: Buffer.from(xml, 'utf8'), lastModified: latest.created_unix };
  }
}

function metadataOf(version: Pick<VersionWithPackage, 'metadata_json'>): MavenMetadata {
  try {
    const value = JSON.parse(version.metadata_json || '{}') as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as MavenMetadata) : {};
  } catch {
    return {};
  }
}

/** Go's `xml.EscapeText`, as `xml.Marshal` writes character data. */
export function escapeXml(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '&#34;';
    else if (ch === "'") out += '&#39;';
    else if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '\t') out += '&#x9;';
    else if (ch === '\n') out += '&#xA;';
    else if (ch === '\r') out += '&#xD;';
    else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) out += '\uFFFD';
    else out += ch;
  }
  return out;
}

/** The source's bytes as text when they are at most `limit`; undefined when there are more (the rest unread). */
async function readUpTo(source: BlobSource, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Passes the bytes on while the parser reads them; at the end, a POM that does not parse fails the upload (400). */
async function* parsing(source: BlobSource, parser: PomParser, done: (metadata: MavenMetadata) => void): AsyncIterable<Uint8Array> {
  for await (const chunk of source) {
    parser.push(chunk);
    yield chunk;
  }
  done(parser.end());
}

// ---- the POM, read as it streams by ----

/** Characters of metadata a POM may carry at most (the fields Forgejo keeps); more is refused. */
const METADATA_TEXT_LIMIT = 1024 * 1024;
/** Element nesting and name lengths past which a POM is refused: no real POM comes near. */
const MAX_DEPTH = 256;
const MAX_NAME = 1024;
/** Bytes of the start kept to read the XML declaration's encoding. */
const PROLOG_BYTES = 512;

type Field = 'groupId' | 'artifactId' | 'name' | 'description' | 'url' | 'parentGroupId' | 'licenseName' | 'depGroupId' | 'depArtifactId' | 'depVersion';

const enum State {
  Text,
  TagOpen,
  StartName,
  Attributes,
  AttributeValue,
  SelfClose,
  EndName,
  EndTail,
  Bang,
  Comment,
  CData,
  Declaration,
  Instruction,
  Entity,
  Done,
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * A streaming reader of the POM fields Forgejo keeps (Go's `xml.Decoder` into `pomStruct`): one pass over the
 * characters, constant state besides the open elements and the kept text. As Go does, the root must be
 * `<project>` (names compared without namespace prefix), end tags must match, entities must be known, and a field's
 * value is the text directly inside its element (a later element of the same name replaces it); what follows the
 * root is not read.
 */
export class PomParser {
  private decoder: TextDecoder | undefined;
  private prolog: Uint8Array[] = [];
  private prologSize = 0;
  private state = State.Text;
  private stack: string[] = [];
  private seenRoot = false;
  private name = '';
  private quote = '';
  private entity = '';
  private bang = '';
  private marker = 0;
  private nesting = 0;
  private error: string | undefined;
  private kept = 0;
  private line = 1;
  private field: Field | undefined;
  /** How many elements are open while the field's own element is the innermost. */
  private fieldDepth = 0;
  private text = '';
  private readonly fields = new Map<Field, string>();
  private readonly licenses: string[] = [];
  private readonly dependencies: { groupId: string; artifactId: string; version: string }[] = [];

  push(chunk: Uint8Array): void {
    if (this.error !== undefined || this.state === State.Done) return;
    if (!this.decoder) {
      this.prolog.push(chunk);
      this.prologSize += chunk.byteLength;
      if (this.prologSize < PROLOG_BYTES && !Buffer.concat(this.prolog).includes('?>')) return;
      this.startDecoding();
      return;
    }
    this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  /** The metadata, or a `BadRequestError` with the reason the POM does not parse. */
  end(): MavenMetadata {
    if (!this.decoder && this.error === undefined) this.startDecoding();
    if (this.error === undefined && this.decoder && this.state !== State.Done) this.feed(this.decoder.decode());
    if (this.error === undefined && this.state !== State.Done) this.error = this.seenRoot ? `XML syntax error on line ${this.line}: unexpected EOF` : 'EOF';
    if (this.error !== undefined) throw new BadRequestError(this.error);
    const get = (field: Field) => this.fields.get(field) ?? '';
    const url = get('url');
    const metadata: MavenMetadata = {
      // A module inherits its parent's group (https://maven.apache.org/pom.html#Inheritance).
      group_id: get('groupId') || get('parentGroupId'),
      artifact_id: get('artifactId'),
      name: get('name'),
      description: get('description'),
      project_url: isHttpUrl(url) ? url : '',
      licenses: this.licenses.filter((l) => l !== ''),
      dependencies: this.dependencies.map((d) => compact({ group_id: d.groupId, artifact_id: d.artifactId, version: d.version })),
    };
    return compact(metadata);
  }

  /** Chooses the decoder from the XML declaration's `encoding` (UTF-8 without one), then reads what came so far. */
  private startDecoding(): void {
    const head = Buffer.concat(this.prolog);
    this.prolog = [];
    const label = declaredEncoding(head.toString('latin1', 0, Math.min(head.length, PROLOG_BYTES)));
    try {
      this.decoder = new TextDecoder(label ?? 'utf-8');
    } catch {
      this.error = `xml: encoding "${label}" declared but Decoder.CharsetReader is nil`;
      return;
    }
    this.feed(this.decoder.decode(head, { stream: true }));
  }

  private fail(message: string): void {
    this.error = `XML syntax error on line ${this.line}: ${message}`;
  }

  private feed(text: string): void {
    for (let i = 0; i < text.length && this.error === undefined && this.state !== State.Done; i++) {
      const ch = text[i]!;
      if (ch === '\n') this.line++;
      this.step(ch);
    }
  }

  private step(ch: string): void {
    switch (this.state) {
      case State.Text:
        if (ch === '<') this.state = State.TagOpen;
        else if (ch === '&') {
          this.entity = '';
          this.state = State.Entity;
        } else this.keep(ch);
        return;
      case State.Entity:
        if (ch === ';') {
          const decoded = decodeEntity(this.entity);
          if (decoded === undefined) this.fail(`invalid character entity &${this.entity};`);
          else this.keep(decoded);
          this.state = State.Text;
        } else if (this.entity.length >= 16) this.fail('invalid character entity');
        else this.entity += ch;
        return;
      case State.TagOpen:
        if (ch === '/') {
          this.name = '';
          this.state = State.EndName;
        } else if (ch === '!') {
          this.bang = '';
          this.state = State.Bang;
        } else if (ch === '?') {
          this.marker = 0;
          this.state = State.Instruction;
        } else if (isSpace(ch) || ch === '>') this.fail('expected element name after <');
        else {
          this.name = ch;
          this.state = State.StartName;
        }
        return;
      case State.StartName:
        if (isSpace(ch)) this.state = State.Attributes;
        else if (ch === '>') this.open(false);
        else if (ch === '/') this.state = State.SelfClose;
        else this.growName(ch);
        return;
      case State.Attributes:
        if (ch === '"' || ch === "'") {
          this.quote = ch;
          this.state = State.AttributeValue;
        } else if (ch === '>') this.open(false);
        else if (ch === '/') this.state = State.SelfClose;
        else if (ch === '<') this.fail('unexpected < in element');
        return;
      case State.AttributeValue:
        if (ch === this.quote) this.state = State.Attributes;
        else if (ch === '<') this.fail('unescaped < inside quoted string');
        return;
      case State.SelfClose:
        if (ch === '>') this.open(true);
        else this.fail('expected /> in element');
        return;
      case State.EndName:
        if (ch === '>') this.close();
        else if (isSpace(ch)) this.state = State.EndTail;
        else this.growName(ch);
        return;
      case State.EndTail:
        if (ch === '>') this.close();
        else if (!isSpace(ch)) this.fail(`invalid characters between </${this.name} and >`);
        return;
      case State.Bang:
        this.bang += ch;
        if (this.bang === '--') {
          this.marker = 0;
          this.state = State.Comment;
        } else if (this.bang === '[CDATA[') {
          this.marker = 0;
          this.state = State.CData;
        } else if (!'--'.startsWith(this.bang) && !'[CDATA['.startsWith(this.bang)) {
          // `<!DOCTYPE …>` and the like: skipped to its `>`, nested `<…>` of an internal subset included.
          this.nesting = ch === '<' ? 2 : ch === '>' ? 0 : 1;
          this.quote = '';
          this.state = this.nesting === 0 ? State.Text : State.Declaration;
        }
        return;
      case State.Comment:
        if (ch === '-') this.marker = Math.min(this.marker + 1, 2);
        else if (ch === '>' && this.marker === 2) this.state = State.Text;
        else this.marker = 0;
        return;
      case State.CData:
        if (ch === ']') {
          if (this.marker === 2) this.keep(']');
          else this.marker++;
        } else if (ch === '>' && this.marker === 2) this.state = State.Text;
        else {
          this.keep(']'.repeat(this.marker) + ch);
          this.marker = 0;
        }
        return;
      case State.Declaration:
        if (this.quote) {
          if (ch === this.quote) this.quote = '';
        } else if (ch === '"' || ch === "'") this.quote = ch;
        else if (ch === '<') this.nesting++;
        else if (ch === '>' && --this.nesting === 0) this.state = State.Text;
        return;
      case State.Instruction:
        if (ch === '?') this.marker = 1;
        else if (ch === '>' && this.marker === 1) this.state = State.Text;
        else this.marker = 0;
        return;
      case State.Done:
        return;
    }
  }

  private growName(ch: string): void {
    if (this.name.length >= MAX_NAME) this.fail('element name too long');
    else this.name += ch;
  }

  /** Keeps text directly inside the field being read, if any (Go skips a field's child elements, not its text around them). */
  private keep(text: string): void {
    if (this.field === undefined || this.stack.length !== this.fieldDepth || text === '') return;
    this.kept += text.length;
    if (this.kept > METADATA_TEXT_LIMIT) this.error = 'pom metadata too large';
    else this.text += text;
  }

  private open(selfClosing: boolean): void {
    const local = localName(this.name);
    this.state = State.Text;
    if (this.stack.length === 0) {
      if (this.seenRoot) return;
      if (local !== 'project') {
        this.error = `expected element type <project> but have <${local}>`;
        return;
      }
      this.seenRoot = true;
    }
    if (this.stack.length >= MAX_DEPTH) {
      this.fail('elements nested too deeply');
      return;
    }
    this.stack.push(this.name);
    if (this.field === undefined && this.stack.length <= 4) this.beginField(this.stack.map(localName));
    if (selfClosing) this.close(this.name);
  }

  /** Which field the open elements name, if any (paths as `pomStruct`'s tags give them). */
  private beginField(path: readonly string[]): void {
    const d = path.length;
    const p = d <= 4 ? path.join('>') : '';
    if (d === 2 && ['groupId', 'artifactId', 'name', 'description', 'url'].includes(path[1]!)) this.field = path[1] as Field;
    else if (p === 'project>parent>groupId') this.field = 'parentGroupId';
    else if (p === 'project>licenses>license') this.licenses.push('');
    else if (p === 'project>licenses>license>name') this.field = 'licenseName';
    else if (p === 'project>dependencies>dependency') this.dependencies.push({ groupId: '', artifactId: '', version: '' });
    else if (d === 4 && path[1] === 'dependencies' && path[2] === 'dependency') {
      const leaf = path[3];
      if (leaf === 'groupId') this.field = 'depGroupId';
      else if (leaf === 'artifactId') this.field = 'depArtifactId';
      else if (leaf === 'version') this.field = 'depVersion';
    }
    this.fieldDepth = d;
    this.text = '';
  }

  private close(name = this.name): void {
    this.state = State.Text;
    const open = this.stack[this.stack.length - 1];
    if (open === undefined) {
      this.fail(`unexpected end element </${name}>`);
      return;
    }
    if (open !== name) {
      this.fail(`element <${open}> closed by </${name}>`);
      return;
    }
    if (this.field !== undefined && this.stack.length === this.fieldDepth) {
      this.store(this.field, this.text);
      this.field = undefined;
      this.text = '';
    }
    this.stack.pop();
    if (this.stack.length === 0) this.state = State.Done;
  }

  private store(field: Field, value: string): void {
    if (field === 'licenseName') this.licenses[this.licenses.length - 1] = value;
    else if (field === 'depGroupId') this.dependencies[this.dependencies.length - 1]!.groupId = value;
    else if (field === 'depArtifactId') this.dependencies[this.dependencies.length - 1]!.artifactId = value;
    else if (field === 'depVersion') this.dependencies[this.dependencies.length - 1]!.version = value;
    else this.fields.set(field, value);
  }
}

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r';
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

function decodeEntity(entity: string): string | undefined {
  if (entity in ENTITIES) return ENTITIES[entity];
  if (!entity.startsWith('#')) return undefined;
  const hex = entity[1] === 'x';
  const digits = entity.slice(hex ? 2 : 1);
  if (digits === '') return undefined;
  for (const d of digits) if (!(hex ? '0123456789abcdefABCDEF' : '0123456789').includes(d)) return undefined;
  const code = Number.parseInt(digits, hex ? 16 : 10);
  return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : undefined;
}

/** The `encoding` of an `<?xml … ?>` declaration at the start, read with a loop (no pattern over request data). */
function declaredEncoding(head: string): string | undefined {
  const start = head.charCodeAt(0) === 0xef ? head.indexOf('<') : 0;
  if (!head.startsWith('<?xml', start)) return undefined;
  const end = head.indexOf('?>', start);
  const declaration = head.slice(start, end < 0 ? undefined : end);
  const at = declaration.indexOf('encoding');
  if (at < 0) return undefined;
  let i = at + 'encoding'.length;
  while (isSpace(declaration[i] ?? '')) i++;
  if (declaration[i] !== '=') return undefined;
  i++;
  while (isSpace(declaration[i] ?? '')) i++;
  const quote = declaration[i];
  if (quote !== '"' && quote !== "'") return undefined;
  const close = declaration.indexOf(quote, i + 1);
  return close < 0 ? undefined : declaration.slice(i + 1, close);
}

/** Go's `omitempty`: empty strings and lists left out. */
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    const v = value[key];
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) delete value[key];
  }
  return value;
}
