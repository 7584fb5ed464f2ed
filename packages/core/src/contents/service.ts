import type { CoreContext } from '../context.js';
import { BadRequestError, ConflictError, ForbiddenError, LockedError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { actorUser, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { BranchMovedError, isObjectFormat, type ContentsEntry, type DatedSignature, type FileChange, type RepoKey, type Signature } from '../git/index.js';
import { noReplyAddress } from '../users/index.js';
import type { User } from '../users/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey, ReposService } from '../repos/index.js';
import { ProtectionService } from '../protection/index.js';
import { assertValidBranchName } from '../repos/index.js';
import { acceptInput } from '../validation/index.js';
import { moveRefs, zeroId } from '../refs/index.js';
import { trimEnd } from '../text.js';
import { toApiContents, toApiFileCommit, UNSIGNED_VERIFICATION, type RefKind } from './convert.js';
import {
  ChangeFilesOptionsSchema,
  type ApiContentsResponse,
  type ApiFileDeleteResponse,
  type ApiFileResponse,
  type ApiFilesResponse,
  type ChangeFilesOptions,
  type CreateFileOptions,
  type DeleteFileOptions,
  type Identity,
  type UpdateFileOptions,
  UpdateFileOptionsSchema,
} from './schemas.js';

/** A ref name as `?ref=` may give it: no revision syntax (`~`, `^`, `:`, `@{`, `..`), nothing git reads as an option. */
const PLAIN_REF = /^(?!-)(?!.*\.\.)(?!.*@\{)[^\s~^:?*[\\\0]+$/;
/** A UTF-16 surrogate without its pair: the text came from bytes that are not UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** `0001-01-01T00:00:00Z`, Go's zero `time.Time`. */
const GO_ZERO_TIME = new Date('0001-01-01T00:00:00Z').getTime();
/** The first time git's date parser refuses (2100-01-01). */
const GIT_DATE_LIMIT = Date.UTC(2100, 0, 1);
const HEX_PREFIX = /^[0-9a-f]{4,64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A tree path as Forgejo accepts it, or undefined: slash-separated, no empty, `.` or `..` component, no `.git`
 * component (any case), well-formed UTF-8, no NUL or line break.
 */
export function cleanTreePath(raw: string): string | undefined {
  if (raw === '' || LONE_SURROGATE.test(raw) || /[\0\n\r]/.test(raw) || raw.includes('\uFFFD')) return undefined;
  const parts = raw.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git')) return undefined;
  return parts.join('/');
}

interface ResolvedRef {
  commit: string;
  /** The ref as URLs name it: the branch or tag name, or the full commit id. */
  name: string;
  kind: RefKind;
}

type Operation = 'create' | 'update' | 'delete';

interface PlannedChange {
  operation: Operation;
  path: string;
  fromPath: string;
  content?: Buffer;
  sha?: string;
}

/** The contents API: reading entries of a repository's tree and committing file changes. */
export class ContentsService {
  constructor(private readonly ctx: CoreContext) {}

  private keyOf(access: RepoAccess): RepoKey {
    return repoKey(access.owner, access.repo);
  }

  /** Branch, then tag, then (a prefix of) a commit id, as Forgejo resolves `ref`; NotFound otherwise. */
  private async resolveRef(access: RepoAccess, ref: string): Promise<ResolvedRef> {
    const key = this.keyOf(access);
    if (!PLAIN_REF.test(ref)) throw new NotFoundError();
    // Asked of the long-lived object reader: no process per request.
    for (const kind of ['branch', 'tag'] as const) {
      const found = await this.ctx.git.resolveRevision(key, `refs/${kind === 'branch' ? 'heads' : 'tags'}/${ref}^{commit}`);
      if (found?.type === 'commit') return { commit: found.id, name: ref, kind };
    }
    if (HEX_PREFIX.test(ref)) {
      const found = await this.ctx.git.resolveRevision(key, `${ref}^{commit}`);
      if (found?.type === 'commit' && found.id.startsWith(ref)) return { commit: found.id, name: found.id, kind: 'commit' };
    }
    throw new NotFoundError();
  }

  /**
   * `GET /contents[/{filepath}]`: the entry at `treePath` (a file with its base64 content) or a directory's
   * entries; an empty repository has none. `ref` defaults to the default branch.
   */
  async get(actor: Actor, access: RepoAccess, treePath: string, ref?: string): Promise<ApiContentsResponse | ApiContentsResponse[]> {
    if (access.repo.is_empty) return [];
    const trimmed = trimEnd(treePath, '/');
    const clean = trimmed === '' ? '' : cleanTreePath(trimmed);
    if (clean === undefined) throw new NotFoundError();
    const resolved = await this.resolveRef(access, ref?.trim() || access.repo.default_branch);
    const read = await this.ctx.git.readContents(this.keyOf(access), {
      commit: resolved.commit,
      path: clean,
      maxBlobSize: this.ctx.settings.api.DEFAULT_MAX_BLOB_SIZE,
    });
    if (!read) throw new NotFoundError();
    const view = { settings: this.ctx.settings, access, ref: resolved.name, kind: resolved.kind, requestedRef: ref?.trim() || access.repo.default_branch };
    if (!read.children) return toApiContents(read.entry, view, true);
    return read.children.map((child) => toApiContents(child, view, false));
  }

  /** `POST /contents/{filepath}`: creates one file (422 when it exists). */
  async createFile(actor: Actor, access: RepoAccess, treePath: string, options: CreateFileOptions): Promise<ApiFileResponse> {
    const result = await this.change(actor, access, { ...options, files: [{ operation: 'create', path: treePath, content: options.content }] });
    return { content: result.files[0] ?? null, commit: result.commit, verification: result.verification };
  }

  /** `PUT /contents/{filepath}`: updates one file whose current blob is `sha`, moving it from `from_path` if given. */
  async updateFile(actor: Actor, access: RepoAccess, treePath: string, options: UpdateFileOptions): Promise<ApiFileResponse> {
    if (access.repo.is_empty) throw new ValidationError('', 'repo is empty');
    const result = await this.change(actor, access, {
      ...options,
      files: [{ operation: 'update', path: treePath, content: options.content, sha: options.sha, from_path: options.from_path }],
    });
    return { content: result.files[0] ?? null, commit: result.commit, verification: result.verification };
  }

  /** `DELETE /contents/{filepath}`: removes one file whose current blob is `sha`. */
  async deleteFile(actor: Actor, access: RepoAccess, treePath: string, options: DeleteFileOptions): Promise<ApiFileDeleteResponse> {
    const result = await this.change(actor, access, { ...options, files: [{ operation: 'delete', path: treePath, sha: options.sha }] }, 'delete');
    return { content: null, commit: result.commit, verification: result.verification };
  }

  /**
   * `POST /contents`: creates, updates and deletes files in one commit on `branch` (or on `new_branch`, made from
   * it). The branch moves only if it still points where the change was read from: a concurrent change is a
   * conflict, never a lost update.
   */
  async change(actor: Actor, access: RepoAccess, input: ChangeFilesOptions, flavour: 'change' | 'delete' = 'change'): Promise<ApiFilesResponse> {
    const options = acceptInput(ChangeFilesOptionsSchema, input);
    const doer = this.writer(actor, access);
    // A stale `sha` on delete is Forgejo's 400; on create/update its 422.
    const shaMismatch = (message: string) => (flavour === 'delete' ? new BadRequestError(message) : new ValidationError('sha', message));

    const { repo } = access;
    const key = this.keyOf(access);
    const oldBranch = options.branch || repo.default_branch;
    const newBranch = options.new_branch || oldBranch;

    const planned = this.plan(options.files);
    const message = (options.message ?? '').trim() === '' ? defaultMessage(planned) : options.message!.trim();

    const refs = await this.ctx.git.readRefs(key, [`refs/heads/${oldBranch}`, `refs/heads/${newBranch}`]);
    const base = refs.get(`refs/heads/${oldBranch}`);
    if (!base && !repo.is_empty) throw new NotFoundError(`branch does not exist [name: ${oldBranch}]`);
    // A branch this change creates gets a name git and Forgejo accept.
    if (newBranch !== oldBranch || !base) assertValidBranchName(newBranch, newBranch !== oldBranch ? 'new_branch' : 'branch');
    const existingNew = newBranch !== oldBranch ? refs.get(`refs/heads/${newBranch}`) : undefined;
    if (existingNew && !options.force_overwrite_new_branch) throw new ValidationError('new_branch', `branch already exists [name: ${newBranch}]`);
    if (!base && planned.some((p) => p.operation !== 'create')) throw new NotFoundError(`branch does not exist [name: ${oldBranch}]`);

    const modes = base ? await this.check(key, base, planned, shaMismatch) : new Map<string, string>();
    // The branch that moves must let this user change these files (Forgejo's VerifyBranchProtection, 403).
    const touched = planned.flatMap((p) => (p.fromPath !== p.path ? [p.fromPath, p.path] : [p.path]));
    await this.ctx.service(ProtectionService).assertMayCommit(actor, access, newBranch, touched);

    const { author, committer } = this.identities(doer, options.author, options.committer, options.dates);
    const body = options.signoff ? `${message}\n\nSigned-off-by: ${committer.name} <${committer.email}>` : `${message}\n`;
    const changes: FileChange[] = [];
    for (const p of planned) {
      if (p.operation === 'delete') changes.push({ path: p.path });
      else {
        if (p.fromPath !== p.path) changes.push({ path: p.fromPath });
        changes.push({ path: p.path, content: p.content!, mode: modes.get(p.fromPath) === '100755' ? '100755' : '100644' });
      }
    }

    const repos = this.ctx.service(ReposService);
    const intent = await repos.beginPush(access);
    let written: { commit: string; tree: string; blobs: Map<string, string> };
    // The branch moved must still be where it was read: the base itself, or the overwritten new branch.
    const expectedOldId = newBranch === oldBranch ? base : existingNew;
    try {
      written = await this.ctx.git.changeFiles(key, {
        branch: newBranch,
        objectFormat: isObjectFormat(repo.object_format_name) ? repo.object_format_name : 'sha1',
        parent: base,
        expectedOldId,
        changes,
        message: body,
        author,
        committer,
      });
    } catch (error) {
      await repos.recordPush(actor, access, [], intent);
      if (error instanceof BranchMovedError) throw new ConflictError(`branch ${newBranch} was changed by someone else meanwhile; read it again and retry`);
      throw error;
    }
    const zero = '0'.repeat(written.commit.length);
    await repos.recordPush(actor, access, [{ ref: `refs/heads/${newBranch}`, oldId: expectedOldId ?? zero, newId: written.commit }], intent);

    const view = { settings: this.ctx.settings, access, ref: newBranch, kind: 'branch' as const, requestedRef: newBranch };
    const committedWhen = isoSeconds(committer.when!);
    const files = planned.map((p): ApiContentsResponse | null => {
      if (p.operation === 'delete') return null;
      const entry: ContentsEntry = {
        name: p.path.slice(p.path.lastIndexOf('/') + 1),
        path: p.path,
        mode: '100644',
        type: 'blob',
        id: written.blobs.get(p.path)!,
        size: p.content!.length,
        content: p.content!.length <= this.ctx.settings.api.DEFAULT_MAX_BLOB_SIZE ? p.content : undefined,
        lastCommit: { id: written.commit, when: committedWhen, authorWhen: isoSeconds(author.when!) },
      };
      return toApiContents(entry, view, true);
    });
    const commit = toApiFileCommit(this.ctx.settings, access, {
      id: written.commit,
      tree: written.tree,
      parents: base ? [base] : [],
      author,
      committer,
      message: body,
    });
    return { files, commit, verification: { ...UNSIGNED_VERIFICATION } };
  }

  /**
   * `POST /diffpatch`: applies a unified diff (`content`, as text) to `branch` (default: the default branch) as
   * one commit on it, or on `new_branch` made from it, as Forgejo's ApplyDiffPatch does. The `sha` Forgejo's
   * binding requires is not used, as in Forgejo. 409 when the diff does not apply, 422 when it is no diff.
   */
  async applyDiffPatch(actor: Actor, access: RepoAccess, input: UpdateFileOptions): Promise<ApiFileResponse> {
    const options = acceptInput(UpdateFileOptionsSchema, input);
    const doer = this.writer(actor, access);
    const { repo } = access;
    const key = this.keyOf(access);
    const oldBranch = options.branch || repo.default_branch;
    const newBranch = options.new_branch || oldBranch;
    const refs = await this.ctx.git.readRefs(key, [`refs/heads/${oldBranch}`, `refs/heads/${newBranch}`]);
    const base = refs.get(`refs/heads/${oldBranch}`);
    if (!base) throw new NotFoundError(`branch does not exist [name: ${oldBranch}]`);
    if (newBranch !== oldBranch) {
      assertValidBranchName(newBranch, 'new_branch');
      if (refs.has(`refs/heads/${newBranch}`)) throw new ValidationError('new_branch', `branch already exists [name: ${newBranch}]`);
    }

    const applied = await this.ctx.git.applyPatch(key, base, options.content);
    if ('refused' in applied) {
      if (applied.refused === 'invalid') throw new ValidationError('content', applied.message);
      throw new ConflictError(applied.message);
    }
    await this.ctx.service(ProtectionService).assertMayCommit(actor, access, newBranch, applied.paths);

    const message = options.message?.trim() || 'apply-patch';
    const { author, committer } = this.identities(doer, options.author, options.committer, options.dates);
    const body = options.signoff ? `${message}\n\nSigned-off-by: ${committer.name} <${committer.email}>\n` : `${message}\n`;
    const commit = await this.ctx.git.commitTree(key, { tree: applied.tree, parents: [base], message: body, author, committer });
    const ref = `refs/heads/${newBranch}`;
    const oldId = newBranch === oldBranch ? base : zeroId(repo.object_format_name);
    await moveRefs(this.ctx, actor, access, [{ ref, oldId, newId: commit }], `branch ${newBranch} was changed by someone else meanwhile; read it again and retry`);
    return {
      content: null,
      commit: toApiFileCommit(this.ctx.settings, access, { id: commit, tree: applied.tree, parents: [base], author, committer, message: body }),
      verification: { ...UNSIGNED_VERIFICATION },
    };
  }

  /** The doer of a write, when it may write the repository's code at all (a mirror and an archive refuse). */
  private writer(actor: Actor, access: RepoAccess): User {
    const doer = actorUser(actor);
    if (!doer) throw new UnauthorizedError('token is required');
    if (unitMode(access, 'repo.code') < AccessMode.Write) throw new ForbiddenError('user should have a permission to write to this branch');
    // A mirror follows its source: Forgejo lets nobody commit to it.
    if (access.repo.is_mirror) throw new ForbiddenError('user should have a permission to write to this branch');
    if (access.repo.is_archived) throw new LockedError('repo is archived');
    return doer;
  }

  /** Checks each operation's input and decodes its content; nothing here reads git. */
  private plan(files: ChangeFilesOptions['files']): PlannedChange[] {
    if (files.length === 0) throw new ValidationError('files', 'Required');
    // Each file costs a blob, a tree entry and an entry in the answer: one request must not make that unbounded.
    const max = this.ctx.settings.api.MAX_CHANGE_FILES;
    if (max > 0 && files.length > max) throw new ValidationError('files', `a change may name at most ${max} files [given: ${files.length}]`);
    const seen = new Set<string>();
    return files.map((file, i) => {
      const clean = cleanTreePath(file.path);
      if (clean === undefined) throw new ValidationError('path', `path contains a malformed path component [path: ${file.path}]`);
      const fromPath = file.from_path ? cleanTreePath(file.from_path) : clean;
      if (fromPath === undefined) throw new ValidationError('from_path', `path contains a malformed path component [path: ${file.from_path}]`);
      if (seen.has(clean)) throw new ValidationError(`files[${i}].path`, `the path is named twice [path: ${clean}]`);
      seen.add(clean);
      let content: Buffer | undefined;
      if (file.operation !== 'delete') {
        const text = (file.content ?? '').replace(/[\r\n]/g, '');
        if (!BASE64.test(text) || text.length % 4 === 1) throw new ValidationError('content', 'Invalid base64 content');
        content = Buffer.from(text, 'base64');
      }
      if (file.operation !== 'create' && !file.sha) throw new ValidationError('sha', `a SHA or commit ID must be provided when updating a file [path: ${clean}]`);
      return { operation: file.operation, path: clean, fromPath, content, sha: file.sha };
    });
  }

  /**
   * Forgejo's checks against the branch's tree: an updated or deleted file exists with the given blob id; no
   * created path collides with a file, symbolic link or directory; no file is where a directory must go.
   * Returns the mode of each existing source path.
   */
  private async check(key: RepoKey, base: string, planned: PlannedChange[], shaMismatch: (m: string) => Error): Promise<Map<string, string>> {
    const wanted = new Set<string>();
    for (const p of planned) {
      wanted.add(p.fromPath);
      const parts = p.path.split('/');
      for (let i = 1; i <= parts.length; i++) wanted.add(parts.slice(0, i).join('/'));
    }
    const entries = await this.ctx.git.statPaths(key, base, [...wanted]);
    const modes = new Map<string, string>();
    for (const p of planned) {
      if (p.operation !== 'create') {
        const from = entries.get(p.fromPath);
        if (!from || from.type === 'tree') throw new NotFoundError(`repository file does not exist [path: ${p.fromPath}]`);
        if (p.sha !== from.id) throw shaMismatch(`sha does not match [given: ${p.sha}, expected: ${from.id}]`);
        modes.set(p.fromPath, from.mode);
      }
      if (p.operation === 'delete') continue;
      const parts = p.path.split('/');
      for (let i = 1; i <= parts.length; i++) {
        const sub = parts.slice(0, i).join('/');
        const entry = entries.get(sub);
        if (!entry) break;
        if (i < parts.length) {
          if (entry.type !== 'tree') throw new ValidationError('path', `a file exists where you’re trying to create a subdirectory [path: ${sub}]`);
        } else if (entry.mode === '120000') {
          throw new ValidationError('path', `a symbolic link exists where you’re trying to create a subdirectory [path: ${sub}]`);
        } else if (entry.type === 'tree') {
          throw new ValidationError('path', `a directory exists where you’re trying to create a file [path: ${sub}]`);
        } else if (p.fromPath !== p.path || p.operation === 'create') {
          throw new ValidationError('path', `repository file already exists [path: ${p.path}]`);
        }
      }
    }
    return modes;
  }

  /**
   * Author and committer as Forgejo picks them: an identity with an email is used (the doer's own record when the
   * email is theirs), one given stands for both, none means the doer. Dates default to now.
   */
  private identities(doer: User, author: Identity | undefined, committer: Identity | undefined, dates: ChangeFilesOptions['dates']): { author: DatedSignature; committer: DatedSignature } {
    const own = (): Signature => ({ name: doer.full_name.trim() || doer.name, email: doer.keep_email_private ? noReplyAddress(doer, this.ctx.settings) : doer.email });
    const pick = (identity: Identity | undefined, field: string): Signature | undefined => {
      if (!identity?.email) return undefined;
      for (const value of [identity.name ?? '', identity.email]) {
        if (/[<>\n\0]/.test(value)) throw new ValidationError(field, 'a name or email may not contain <, > or line breaks');
      }
      if (identity.email.toLowerCase() === doer.email.toLowerCase()) return { ...own(), ...(identity.name ? { name: identity.name } : {}) };
      return { name: identity.name?.trim() || 'user-0', email: identity.email };
    };
    const committerSig = pick(committer, 'committer');
    const authorSig = pick(author, 'author') ?? committerSig ?? own();
    const now = new Date();
    const date = (value: string | undefined, field: string): { when: Date; offset?: string } => {
      if (!value) return { when: now };
      const parsed = new Date(value);
      if (Number.isNaN(parsed.getTime())) throw new ValidationError(field, 'invalid date');
      // Go's zero time is what clients send for "no date" (Forgejo uses now); git keeps no time before 1970.
      if (parsed.getTime() === GO_ZERO_TIME) return { when: now };
      if (parsed.getTime() < 0 || parsed.getTime() >= GIT_DATE_LIMIT) throw new ValidationError(field, 'a commit date must be between 1970 and 2099');
      // The zone it was given in is what git records, as Forgejo passes the date on.
      const zone = /([+-])(\d\d):?(\d\d)$/.exec(value);
      return { when: parsed, offset: zone ? `${zone[1]}${zone[2]}${zone[3]}` : undefined };
    };
    return {
      author: { ...authorSig, ...date(dates?.author, 'dates.author') },
      committer: { ...(committerSig ?? authorSig), ...date(dates?.committer, 'dates.committer') },
    };
  }
}

/** "Add a, b\nUpdate c\nDelete d", as Forgejo's English locale words it. */
function defaultMessage(planned: PlannedChange[]): string {
  const group = (op: Operation) => planned.filter((p) => p.operation === op).map((p) => p.path);
  const lines: string[] = [];
  for (const [op, verb] of [['create', 'Add'], ['update', 'Update'], ['delete', 'Delete']] as const) {
    const paths = group(op);
    if (paths.length > 0) lines.push(`${verb} ${paths.join(', ')}`);
  }
  return lines.join('\n');
}

function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
