/**
 * Git data of a repository as the API shows it: blobs, trees, refs, annotated tags, raw files and the
 * `.editorconfig` that applies to a path. Everything is read through the backend's long-lived object reader; only a
 * large raw file gets a process of its own, to stream it.
 */
import type { Readable } from 'node:stream';
import { firstBytes } from '../streams.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { actorUser, noReplyAddress } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { CommitsService } from '../commits/index.js';
import type { CommitView } from '../commits/index.js';
import type { GitBlobsQuery, NoteOptions, NoteQuery } from './notes.js';
import { BranchMovedError, FULL_HEX_ID, cleanCommitMessage, isObjectFormat, type FileChange, type GitObjectData, type GitObjectInfo, type GitTreeEntry, type RepoKey } from '../git/index.js';
import { repoKey, type RepoAccess } from '../repos/index.js';
import { editorConfigFor, parseEditorConfig } from './editorconfig.js';
import {
  parseTagObject,
  repoApiUrl,
  toApiAnnotatedTag,
  toApiGitEntry,
  toApiReference,
} from './convert.js';
import { CommitVerifier } from '../commits/index.js';
import { toApiVerification } from '../commits/index.js';
import type { ApiAnnotatedTag, ApiGitBlobResponse, ApiGitTreeResponse, ApiReference, GitTreeQuery } from './schemas.js';
import { SNIFF_BYTES, sniffServedType, type ServedType } from './sniff.js';
import { trimEnd } from '../text.js';

/** Bytes of a note's message kept. */
const NOTE_MAX_BYTES = 1024 * 1024;

/** The ref git notes live on (git's default, the one Forgejo reads and writes). */
const NOTES_REF = 'refs/notes/commits';

/** Where a note on `id` may be in the notes tree: at its id, or under a fan-out of two or four hex digits. */
function notePaths(id: string): string[] {
  return [id, `${id.slice(0, 2)}/${id.slice(2)}`, `${id.slice(0, 2)}/${id.slice(2, 4)}/${id.slice(4)}`];
}

/** Raw files up to this size are read through the object reader; larger ones are streamed from their own process. */
const INLINE_RAW_BYTES = 64 * 1024;

/** Forgejo's object kinds of a tree entry (`X-Gitea-Object-Type`). */
export type RawObjectType = 'file' | 'symlink';

export interface RawFile {
  /** Blob id (the ETag). */
  id: string;
  size: number;
  objectType: RawObjectType;
  /** Last path segment, for Content-Disposition. */
  fileName: string;
  /** When the last commit that changed the path was committed (Forgejo's `Last-Modified`). */
  lastModified: Date | undefined;
  served: ServedType;
  /** The bytes: whole when small, else a stream to read to the end or destroy. */
  body: Buffer | Readable;
}

/**
 * A path inside a tree as a client names it: slash-separated segments, none empty, `.`, `..` or `.git`, no NUL or
 * line breaks. Anything else names nothing.
 */
export function treePath(path: string): string | undefined {
  const trimmed = trimEnd(path, '/');
  if (trimmed === '' || trimmed.startsWith('/')) return undefined;
  const parts = trimmed.split('/');
  // eslint-disable-next-line no-control-regex
  if (parts.some((part) => part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git' || /[\x00-\x1f]/.test(part))) return undefined;
  return trimmed;
}

/** A revision a client gave (`{sha}`, `?ref=`) that may reach git: no option, control character or search. */
function clientRevision(revision: string): boolean {
  // eslint-disable-next-line no-control-regex
  return revision !== '' && !revision.startsWith('-') && !revision.startsWith(':') && !revision.includes('..') && !/[\x00-\x20\x7f~^:?*[\\]/.test(revision) && !revision.includes('@{');
}

/** Forgejo's message for an object id that names nothing (of the kind asked for). */
function objectDoesNotExist(id: string): string {
  return `object does not exist [id: ${id}, rel_path: ]`;
}

/** A full object id (40 or 64 hex digits, either case) as git names it; anything else is Forgejo's 400. */
function fullObjectId(sha: string): string {
  const id = sha.toLowerCase();
  if (!FULL_HEX_ID.test(id)) {
    throw new BadRequestError(/^[0-9a-f]*$/.test(id) ? `length ${sha.length} has no matched object format: ${sha}` : `invalid object id: ${sha}`);
  }
  return id;
}

export class GitDataService {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * `GET /git/blobs/{sha}`: content in base64, withheld (empty) over `[api] DEFAULT_MAX_BLOB_SIZE`. The sha is a
   * full object id; anything else, and an id that names no blob, is a 400 as Forgejo answers it.
   */
  async blob(actor: Actor, access: RepoAccess, sha: string): Promise<ApiGitBlobResponse> {
    return (await this.blobs(actor, access, { shas: sha }))[0]!;
  }

  /**
   * `GET /git/blobs?shas=a,b,…`: each blob as `/git/blobs/{sha}` answers it, in the order asked, the first
   * `[api] MAX_RESPONSE_ITEMS` only. All are read in one batch over the repository's long-lived object reader; the
   * first id that is malformed or names no blob is the answer (Forgejo's 400), as Forgejo stops at it.
   */
  async blobs(_actor: Actor, access: RepoAccess, query: GitBlobsQuery): Promise<ApiGitBlobResponse[]> {
    if (query.shas === undefined || query.shas === '') throw new BadRequestError('shas not provided');
    const asked = query.shas.split(',').slice(0, this.ctx.settings.api.MAX_RESPONSE_ITEMS);
    const ids = asked.map((sha): string | BadRequestError => {
      try {
        return fullObjectId(sha);
      } catch (error) {
        if (error instanceof BadRequestError) return error;
        throw error;
      }
    });
    const key = repoKey(access.owner, access.repo);
    const limit = this.ctx.settings.api.DEFAULT_MAX_BLOB_SIZE;
    const wanted = ids.filter((id): id is string => typeof id === 'string');
    const read = new Map<string, GitObjectData | undefined>();
    const objects = wanted.length > 0 ? await this.ctx.git.readObjects(key, wanted, { maxBytes: limit }) : [];
    wanted.forEach((id, i) => read.set(id, objects[i]));
    const base = repoApiUrl(this.ctx.settings, access);
    return ids.map((id) => {
      if (typeof id !== 'string') throw id;
      const object = read.get(id);
      if (!object || object.type !== 'blob' || object.id !== id) throw new BadRequestError(objectDoesNotExist(id));
      // Over the limit the content is withheld (empty), as Forgejo does.
      const content = object.size <= limit ? object.content.toString('base64') : '';
      return { sha: object.id, url: `${base}/git/blobs/${object.id}`, size: object.size, encoding: 'base64', content };
    });
  }

  /** `GET /git/trees/{sha}`: a tree, or a commit's, by id or ref; paged by `page` and `per_page`. */
  async tree(_actor: Actor, access: RepoAccess, sha: string, query: GitTreeQuery): Promise<ApiGitTreeResponse> {
    // Forgejo answers every sha it cannot read a tree from (malformed, unknown, not a tree-ish) with a 400.
    if (!clientRevision(sha)) throw new BadRequestError(`sha not found [${sha}]`);
    const maxPerPage = this.ctx.settings.api.DEFAULT_GIT_TREES_PER_PAGE;
    const perPage = query.per_page === undefined || query.per_page <= 0 || query.per_page > maxPerPage ? maxPerPage : query.per_page;
    const page = query.page === undefined || query.page <= 0 ? 1 : query.page;
    const key = repoKey(access.owner, access.repo);
    const offset = perPage * (page - 1);
    const listed = Number.isSafeInteger(offset)
      ? await this.ctx.git.readTree(key, sha, { recursive: query.recursive ?? false, offset, limit: perPage })
      : await this.ctx.git.readTree(key, sha, { recursive: query.recursive ?? false, offset: Number.MAX_SAFE_INTEGER, limit: 0 });
    if (!listed) throw new BadRequestError(`sha not found [${sha}]`);
    const base = repoApiUrl(this.ctx.settings, access);
    return {
      sha: listed.id,
      url: `${base}/git/trees/${listed.id}`,
      tree: listed.entries.map((entry) => toApiGitEntry(entry, base)),
      truncated: offset + listed.entries.length < listed.total,
      page,
      total_count: listed.total,
    };
  }

  /**
   * `GET /git/refs[/{filter}]`: refs whose name starts with `refs/<filter>`, as a plain string prefix. None is a
   * 404. `exact` is the one ref whose name is the whole filter, when it is the only one (Forgejo answers it alone).
   */
  async refs(_actor: Actor, access: RepoAccess, filter = ''): Promise<{ refs: ApiReference[]; exact: ApiReference | undefined }> {
    const prefix = filter === '' ? '' : `refs/${filter}`;
    // RepoHost's own bookkeeping refs (merge markers) are not the repository's.
    const found = (await this.ctx.git.listRefs(repoKey(access.owner, access.repo), prefix)).filter((entry) => !entry.ref.startsWith('refs/repohost/'));
    if (found.length === 0) throw new NotFoundError('ref not found');
    const base = repoApiUrl(this.ctx.settings, access);
    const refs = found.map((ref) => toApiReference(ref, base));
    return { refs, exact: refs.length === 1 && refs[0]!.ref === prefix ? refs[0] : undefined };
  }

  /**
   * `GET /git/tags/{sha}`: an annotated tag object that a tag ref names (a lightweight tag has none). As in Forgejo,
   * a sha that is not a full id, names no object, names another kind of object or a tag no ref names is a 400.
   */
  async annotatedTag(_actor: Actor, access: RepoAccess, sha: string): Promise<ApiAnnotatedTag> {
    const id = fullObjectId(sha);
    const key = repoKey(access.owner, access.repo);
    const [object, tagRefs] = await Promise.all([this.ctx.git.readObject(key, id, { maxBytes: 1024 * 1024 }), this.ctx.git.listRefs(key, 'refs/tags/')]);
    if (!object || object.type !== 'tag' || object.id !== id) throw new BadRequestError(objectDoesNotExist(id));
    const ref = tagRefs.find((r) => r.id === object.id);
    if (!ref) throw new BadRequestError(`tag with ID ${id} does not exist`);
    const parsed = parseTagObject(object.content);
    // The verification shown is the tagged commit's, as Forgejo shows it; a tag of anything but a commit has none.
    const commit = await this.ctx.git.readObject(key, `${object.id}^{commit}`, { maxBytes: 1024 * 1024 });
    if (commit?.type !== 'commit') throw new BadRequestError(`tag does not name a commit: ${id}`);
    const verification = toApiVerification(await new CommitVerifier(this.ctx).verify(commit.content));
    return toApiAnnotatedTag(object.id, ref.ref.slice('refs/tags/'.length), parsed, repoApiUrl(this.ctx.settings, access), verification);
  }

  /**
   * The commit and path a `/raw`, `/media` or `/editorconfig` request names: `?ref=` (branch, tag or commit) and
   * the path as given; without it, Forgejo's legacy form `{branch|tag|commit}/{path}`, else the default branch.
   */
  private async locate(access: RepoAccess, filepath: string, ref: string | undefined): Promise<{ key: RepoKey; commit: string; path: string }> {
    const key = repoKey(access.owner, access.repo);
    if (ref !== undefined && ref !== '') {
      const commit = clientRevision(ref) ? await this.ctx.git.resolveRevision(key, `${ref}^{commit}`) : undefined;
      if (!commit) throw new NotFoundError(`ref does not exist: ${ref}`);
      return { key, commit: commit.id, path: filepath };
    }
    const parts = filepath.split('/');
    // Every leading run of segments that may be a branch or a tag, asked together on the one reader.
    const candidates: string[] = [];
    for (let i = 1; i < parts.length; i++) {
      const name = parts.slice(0, i).join('/');
      if (clientRevision(name)) candidates.push(`refs/heads/${name}`, `refs/tags/${name}`);
    }
    const found = await Promise.all(candidates.map((name) => this.ctx.git.resolveRevision(key, `${name}^{commit}`)));
    for (const kind of ['refs/heads/', 'refs/tags/']) {
      for (let i = 0; i < candidates.length; i++) {
        const hit = found[i];
        if (hit && candidates[i]!.startsWith(kind)) {
          const name = candidates[i]!.slice(kind.length);
          return { key, commit: hit.id, path: filepath.slice(name.length + 1) };
        }
      }
    }
    const first = parts[0]!;
    if (parts.length > 1 && FULL_HEX_ID.test(first)) {
      const commit = await this.ctx.git.resolveRevision(key, `${first}^{commit}`);
      if (commit) return { key, commit: commit.id, path: parts.slice(1).join('/') };
    }
    const head = await this.ctx.git.resolveRevision(key, `refs/heads/${access.repo.default_branch}^{commit}`);
    if (!head) throw new NotFoundError(`not exist: '${filepath}'`);
    return { key, commit: head.id, path: filepath };
  }

  /** The entry at `path` of a commit's tree, with its mode (one read of the parent folder). */
  private async entry(key: RepoKey, commit: string, path: string): Promise<GitTreeEntry | undefined> {
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? commit : `${commit}:${path.slice(0, slash)}`;
    const name = path.slice(slash + 1);
    const listed = await this.ctx.git.readTree(key, folder, { sizes: false });
    return listed?.entries.find((entry) => entry.path === name);
  }

  /** `GET /raw/{filepath}` and `/media/{filepath}`: a file's bytes, with the type Forgejo serves it as. */
  /** A missing file answers Forgejo's bare `not found`, which clients (the Go SDK) compare against. */
  async raw(_actor: Actor, access: RepoAccess, filepath: string, ref?: string): Promise<RawFile> {
    const where = await this.locate(access, filepath, ref);
    const path = treePath(where.path);
    if (!path) throw new NotFoundError('not found');
    const entry = await this.entry(where.key, where.commit, path);
    if (!entry || entry.type !== 'blob') throw new NotFoundError('not found');
    const objectType: RawObjectType = entry.mode === '120000' ? 'symlink' : 'file';
    const fileName = path.slice(path.lastIndexOf('/') + 1);
    const [info, lastModified] = await Promise.all([this.ctx.git.resolveRevision(where.key, entry.id), this.lastChanged(where.key, where.commit, path)]);
    if (!info) throw new NotFoundError('not found');
    if (info.size <= INLINE_RAW_BYTES) {
      const blob = await this.ctx.git.readObject(where.key, entry.id, { maxBytes: INLINE_RAW_BYTES });
      if (!blob) throw new NotFoundError('not found');
      return { id: blob.id, size: blob.size, objectType, fileName, lastModified, served: sniffServedType(blob.content), body: blob.content };
    }
    const stream = this.ctx.git.openBlob(where.key, entry.id);
    const head = await firstBytes(stream, Math.min(SNIFF_BYTES, info.size));
    return { id: info.id, size: info.size, objectType, fileName, lastModified, served: sniffServedType(head), body: stream };
  }

  /** The committer time of the newest commit from `commit` back that changed `path` (remembered by the backend). */
  private async lastChanged(key: RepoKey, commit: string, path: string): Promise<Date | undefined> {
    const last = await this.ctx.git.lastCommitOf(key, commit, path);
    const time = last ? Date.parse(last.when) : NaN;
    return Number.isNaN(time) ? undefined : new Date(time);
  }

  /**
   * `GET /git/notes/{sha}`: the note `refs/notes/commits` holds for the object a ref or id names, with the notes
   * commit that last wrote it (as Forgejo shows it). Notes are found at the id's path or a fan-out of it.
   */
  async note(actor: Actor, access: RepoAccess, sha: string, query: NoteQuery): Promise<{ message: string; commit: CommitView }> {
    if (!clientRevision(sha)) throw new ValidationError('', `no valid ref or sha: ${sha}`);
    const key = repoKey(access.owner, access.repo);
    const target = await this.ctx.git.resolveRevision(key, sha);
    if (!target) throw new NotFoundError(`object does not exist [id: ${sha}, rel_path: ]`);
    const id = target.id;
    const paths = notePaths(id);
    const found = await this.ctx.git.readObjects(key, paths.map((p) => `${NOTES_REF}:${p}`), { maxBytes: NOTE_MAX_BYTES });
    const at = found.findIndex((object) => object?.type === 'blob');
    if (at < 0) throw new NotFoundError(`note does not exist: ${sha}`);
    const listed = await this.ctx.service(CommitsService).list(
      actor,
      access,
      { sha: NOTES_REF, path: paths[at], stat: true, files: query.files ?? true, verification: query.verification ?? true },
      { page: 1, limit: 1 },
    );
    const commit = listed.items[0];
    if (!commit) throw new NotFoundError(`note does not exist: ${sha}`);
    return { message: found[at]!.content.toString('utf8'), commit };
  }

  /**
   * `POST /git/notes/{sha}`: sets the note on the commit a ref or id names, as `git notes add -f -m` does: the text
   * cleaned up as git cleans a message (an empty one removes the note), written by the doer as a new commit of
   * `refs/notes/commits`. Answers the note as `GET` reads it. Writers on code only (Forgejo's reqRepoWriter).
   */
  async setNote(actor: Actor, access: RepoAccess, sha: string, options: NoteOptions): Promise<{ message: string; commit: CommitView }> {
    const { key, target } = await this.noteTarget(actor, access, sha, true);
    const text = cleanCommitMessage(options.message ?? '');
    await this.writeNote(actor, access, key, target, text === '' ? undefined : text, text === '' ? "Notes removed by 'git notes add'\n" : "Notes added by 'git notes add'\n");
    return this.note(actor, access, sha, {});
  }

  /** `DELETE /git/notes/{sha}`: removes the note on the object a ref or id names (404 when it has none). */
  async removeNote(actor: Actor, access: RepoAccess, sha: string): Promise<void> {
    const { key, target } = await this.noteTarget(actor, access, sha, false);
    if (!(await this.writeNote(actor, access, key, target, undefined, "Notes removed by 'git notes remove'\n"))) {
      throw new NotFoundError(`note does not exist: ${sha}`);
    }
  }

  /** The checks a note write makes, in Forgejo's order, and the object it is on (a commit, for `add`). */
  private async noteTarget(actor: Actor, access: RepoAccess, sha: string, commit: boolean): Promise<{ key: RepoKey; target: string }> {
    if (!actorUser(actor)) throw new UnauthorizedError('token is required');
    if (unitMode(access, 'repo.code') < AccessMode.Write) throw new ForbiddenError('user should have a permission to write to a repository');
    if (!clientRevision(sha)) throw new ValidationError('', `no valid ref or sha: ${sha}`);
    const key = repoKey(access.owner, access.repo);
    const target = await this.ctx.git.resolveRevision(key, commit ? `${sha}^{commit}` : sha);
    if (!target) throw new NotFoundError(objectDoesNotExist(sha));
    return { key, target: target.id };
  }

  /**
   * Writes (`text`) or removes (undefined) the note on `target` as one commit of the notes ref, made by the doer,
   * from where the ref was read (a note written meanwhile is a 409). False when there was nothing to remove.
   */
  private async writeNote(actor: Actor, access: RepoAccess, key: RepoKey, target: string, text: string | undefined, message: string): Promise<boolean> {
    const doer = actorUser(actor)!;
    const head = (await this.ctx.git.readRefs(key, [NOTES_REF])).get(NOTES_REF);
    const paths = notePaths(target);
    const existing = head ? await this.ctx.git.readObjects(key, paths.map((p) => `${head}:${p}`), { maxBytes: 1 }) : [];
    const present = paths.filter((_, i) => existing[i] !== undefined);
    if (text === undefined && present.length === 0) return false;
    // A note replaced stays where it was in the fan-out; a new one goes at the top, as git writes a small notes tree.
    const changes: FileChange[] = present.map((path) => ({ path }));
    if (text !== undefined) changes.push({ path: present[0] ?? target, content: Buffer.from(text, 'utf8') });
    const signature = { name: doer.name, email: doer.keep_email_private ? noReplyAddress(doer, this.ctx.settings) : doer.email, when: new Date() };
    try {
      await this.ctx.git.changeFiles(key, {
        branch: NOTES_REF,
        ref: NOTES_REF,
        objectFormat: isObjectFormat(access.repo.object_format_name) ? access.repo.object_format_name : 'sha1',
        parent: head,
        expectedOldId: head,
        changes,
        message,
        author: signature,
        committer: signature,
      });
    } catch (error) {
      if (error instanceof BranchMovedError) throw new ConflictError('the notes were changed by someone else meanwhile; retry');
      throw error;
    }
    return true;
  }

  /** `GET /editorconfig/{filepath}`: what the repository's root `.editorconfig` says of the path. */
  async editorConfig(_actor: Actor, access: RepoAccess, filepath: string, ref?: string): Promise<Record<string, string>> {
    const key = repoKey(access.owner, access.repo);
    let commit: GitObjectInfo | undefined;
    if (ref !== undefined && ref !== '') commit = clientRevision(ref) ? await this.ctx.git.resolveRevision(key, `${ref}^{commit}`) : undefined;
    else commit = await this.ctx.git.resolveRevision(key, `refs/heads/${access.repo.default_branch}^{commit}`);
    if (!commit) throw new NotFoundError(`ref does not exist: ${ref ?? access.repo.default_branch}`);
    const file = await this.ctx.git.readObject(key, `${commit.id}:.editorconfig`, { maxBytes: 1024 * 1024 });
    if (!file || file.type !== 'blob') throw new NotFoundError('.editorconfig does not exist');
    const path = filepath.replace(/^\/+/, '');
    return editorConfigFor(await parseEditorConfig(file.content.toString('utf8')), path);
  }
}

