import type { CoreContext } from '../context.js';
import { DatabaseLocks, type HeldLock } from '../storage/index.js';
import { BadRequestError, ConflictError, ForbiddenError, LockedError, NotFoundError, UnauthorizedError } from '../errors.js';
import { AccessMode } from '../access/index.js';
import { BranchMovedError, isObjectFormat, type FileChange, type GitCommit, type RepoKey } from '../git/index.js';
import { actorUser, noReplyAddress, type Actor, type User } from '../users/index.js';
import { RepoWikiStorage, wikiBranchOf, type RepoAccess } from '../repos/index.js';
import { QuotaService } from '../quota/index.js';
import { acceptInput } from '../validation/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { parseCommitObject } from '../gitdata/index.js';
import { toApiWikiCommit, toApiWikiPageMetaData } from './convert.js';
import {
  assertValidWebPath,
  decodeBase64Strictly,
  gitPathToWebPath,
  queryUnescape,
  titleToWebPath,
  webPathFromRequest,
  webPathToGitPath,
  type WebPath,
} from './names.js';
import { CreateWikiPageOptionsSchema, type ApiWikiCommitList, type ApiWikiPage, type ApiWikiPageMetaData, type CreateWikiPageOptions } from './schemas.js';
import type { WikiAction } from './events.js';
import './events.js';

/** Forgejo's `[git] COMMITS_RANGE_SIZE` default: the length of a page of a page's revisions. */
const REVISIONS_PER_PAGE = 50;
const NOT_WRITER = 'user should have a permission to write to a repo';

/** The wiki's newest commit, where its pages are read. */
interface WikiHead {
  key: RepoKey;
  commit: string;
}

/**
 * A repository's wiki through the API, as Forgejo's routers/api/v1/repo/wiki.go and services/wiki: pages are
 * `.md` files of the wiki's branch in `<name>.wiki.git` (see `names.ts` for how a page's name becomes a file),
 * each write one commit by the caller; the first write makes the wiki (`RepoWikiStorage.init`). Reading needs the
 * wiki unit readable (404 otherwise, as Forgejo's mustEnableWiki), writing it writable (or globally editable).
 * Content is returned raw (base64), as Forgejo's API does; rendering it is the markdown API's, with `Wiki: true`.
 */
export class WikiService {
  constructor(private readonly ctx: CoreContext) {}

  private get storage(): RepoWikiStorage {
    return this.ctx.service(RepoWikiStorage);
  }

  /**
   * `GET /wiki/pages`: a page of the files at the top of the wiki's tree; those that are no page are skipped, not
   * counted out. Each page's last commit comes from one `git log` over the tree (kept per commit) and the commits'
   * objects from the long-lived reader: no git process per page.
   */
  async list(actor: Actor, access: RepoAccess, page: PageRequest): Promise<Page<ApiWikiPageMetaData>> {
    this.assertReader(actor, access);
    const head = await this.head(access);
    const root = await this.ctx.git.readContents(head.key, { commit: head.commit, path: '', maxBlobSize: 0 });
    if (!root) throw new NotFoundError();
    const children = root.children ?? [];
    const offset = offsetOf(page);
    const listed = children.slice(offset, offset + page.limit).flatMap((entry) => {
      if (entry.type !== 'blob' || entry.mode === '120000' || !entry.lastCommit) return [];
      const name = gitPathToWebPath(entry.path);
      return name === undefined ? [] : [{ name, last: entry.lastCommit }];
    });
    const ids = [...new Set(listed.map((item) => item.last.id))];
    const objects = await this.ctx.git.readObjects(head.key, ids);
    const commits = new Map<string, GitCommit>();
    ids.forEach((id, i) => {
      const object = objects[i];
      const parsed = object && object.type === 'commit' ? parseCommitObject(id, object.content) : undefined;
      const when = listed.find((item) => item.last.id === id)!.last.when;
      if (parsed) commits.set(id, { ...parsed, tree: '', committerTime: when });
    });
    const items = listed.flatMap(({ name, last }) => {
      const commit = commits.get(last.id);
      return commit ? [toApiWikiPageMetaData(name, commit, access, this.ctx.settings)] : [];
    });
    return { items, total: children.length };
  }

  /** `GET /wiki/page/{pageName}`: `rawName` as the URL has it (still escaped). */
  async get(actor: Actor, access: RepoAccess, rawName: string): Promise<ApiWikiPage> {
    this.assertReader(actor, access);
    return this.page(access, webPathFromRequest(rawName));
  }

  /** `GET /wiki/revisions/{pageName}`: a page of the page's revisions, newest first, and how many there are. */
  async revisions(actor: Actor, access: RepoAccess, rawName: string, pageNumber = 1): Promise<ApiWikiCommitList> {
    this.assertReader(actor, access);
    const head = await this.head(access);
    const name = webPathFromRequest(rawName) || 'Home';
    const file = await this.findPage(head, name);
    if (!file) throw new NotFoundError();
    const page = Number.isSafeInteger(pageNumber) && pageNumber > 1 ? pageNumber : 1;
    const skip = (page - 1) * REVISIONS_PER_PAGE;
    const [count, commits] = await Promise.all([
      this.ctx.git.countCommits(head.key, { head: head.commit, path: file.path }),
      skip < Number.MAX_SAFE_INTEGER / 2 ? this.ctx.git.listCommits(head.key, { head: head.commit, path: file.path, skip, limit: REVISIONS_PER_PAGE, changes: false }) : [],
    ]);
    return { commits: commits.map(toApiWikiCommit), count };
  }

  /** `POST /wiki/new`: a new page titled `title`; a 400 when its file exists, as Forgejo answers. */
  async create(actor: Actor, access: RepoAccess, input: CreateWikiPageOptions): Promise<ApiWikiPage> {
    const options = acceptInput(CreateWikiPageOptionsSchema, input);
    const doer = await this.writer(actor, access);
    const title = options.title ?? '';
    // Forgejo answers an empty title with `ctx.Error(400, "emptyTitle", nil)`, whose message is Go's rendering of nil.
    if (title.trim() === '') throw new BadRequestError('%!s(<nil>)');
    const name = titleToWebPath(title);
    const content = decodeBase64Strictly(options.content_base64 ?? '');
    const message = options.message || `Add ${goQuote(title)}`;
    await this.write(actor, doer, access, { from: undefined, to: name, content, message, action: 'created' });
    return this.page(access, name);
  }

  /**
   * `PATCH /wiki/page/{pageName}`: the page's new content, under a new title when one is given (the old file goes).
   * As in Forgejo, a page that does not exist is written as a new one.
   */
  async edit(actor: Actor, access: RepoAccess, rawName: string, input: CreateWikiPageOptions): Promise<ApiWikiPage> {
    const options = acceptInput(CreateWikiPageOptionsSchema, input);
    const doer = await this.writer(actor, access);
    const from = webPathFromRequest(rawName);
    const to = options.title ? titleToWebPath(options.title) : from;
    const content = decodeBase64Strictly(options.content_base64 ?? '');
    const message = options.message || `Update ${goQuote(to)}`;
    await this.write(actor, doer, access, { from, to, content, message, action: 'edited' });
    return this.page(access, to);
  }

  /** `DELETE /wiki/page/{pageName}`: a commit removing the page's file; 404 when there is none. */
  async delete(actor: Actor, access: RepoAccess, rawName: string): Promise<void> {
    const doer = await this.writer(actor, access);
    const name = webPathFromRequest(rawName);
    await this.write(actor, doer, access, { from: name, to: undefined, content: undefined, message: `Delete page ${goQuote(name)}`, action: 'deleted' });
  }

  // ---- reading ----

  private assertReader(actor: Actor, access: RepoAccess): void {
    if (this.storage.mode(actor, access) < AccessMode.Read) throw new NotFoundError();
  }

  /** The checks of Forgejo's wiki writes, in its order: the wiki readable (404), not archived (423), signed in (401), a writer (403). */
  private async writer(actor: Actor, access: RepoAccess): Promise<User> {
    this.assertReader(actor, access);
    if (access.repo.is_archived === 1) throw new LockedError();
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError();
    if (this.storage.mode(actor, access) < AccessMode.Write) throw new ForbiddenError(NOT_WRITER);
    await this.ctx.service(QuotaService).assertCanWrite(access.owner, 'size:git:all');
    return user;
  }

  /** The wiki's storage and newest commit; 404 when the wiki has no storage or no commit yet. */
  private async head(access: RepoAccess): Promise<WikiHead> {
    const key = this.storage.key(access);
    const ref = `refs/heads/${wikiBranchOf(access.repo)}`;
    // Through the long-lived object reader: no git process per request.
    const commit = (await this.ctx.git.exists(key)) ? await this.ctx.git.resolveCommit(key, ref) : undefined;
    if (!commit) throw new NotFoundError();
    return { key, commit };
  }

  /** The file of page `name` (Forgejo's findEntryForFile: its git path, else that path unescaped once more). */
  private async findPage(head: WikiHead, name: WebPath): Promise<{ path: string; id: string; size: number } | undefined> {
    const path = webPathToGitPath(name);
    if (!isStorablePath(path)) return undefined;
    const unescaped = queryUnescape(path);
    const paths = unescaped !== undefined && unescaped !== path && isStorablePath(unescaped) ? [path, unescaped] : [path];
    const found = await this.ctx.git.statPaths(head.key, head.commit, paths);
    for (const candidate of paths) {
      const entry = found.get(candidate);
      if (entry && entry.type === 'blob') return { path: candidate, id: entry.id, size: entry.size };
    }
    return undefined;
  }

  /** Forgejo's getWikiPage: the page with its content, its wiki's sidebar and footer, and its revisions' count. */
  private async page(access: RepoAccess, name: WebPath): Promise<ApiWikiPage> {
    const head = await this.head(access);
    const file = await this.findPage(head, name);
    if (!file) throw new NotFoundError();
    const [content, sidebar, footer, count, last] = await Promise.all([
      this.contentOf(head, file),
      this.findPage(head, '_Sidebar').then((f) => (f ? this.contentOf(head, f) : '')),
      this.findPage(head, '_Footer').then((f) => (f ? this.contentOf(head, f) : '')),
      this.ctx.git.countCommits(head.key, { head: head.commit, path: file.path }),
      this.lastCommit(head, file.path),
    ]);
    if (!last) throw new NotFoundError();
    const meta = toApiWikiPageMetaData(name, last, access, this.ctx.settings);
    return {
      title: meta.title,
      html_url: meta.html_url,
      sub_url: meta.sub_url,
      last_commit: meta.last_commit,
      content_base64: content,
      commit_count: count,
      sidebar,
      footer,
    };
  }

  /** A page's content in base64; '' over `[api] DEFAULT_MAX_BLOB_SIZE`, as Forgejo leaves it. */
  private async contentOf(head: WikiHead, file: { id: string; size: number }): Promise<string> {
    const max = this.ctx.settings.api.DEFAULT_MAX_BLOB_SIZE;
    if (file.size > max) return '';
    const blob = await this.ctx.git.readObject(head.key, file.id, { maxBytes: max, reachable: true });
    return blob && !blob.truncated ? blob.content.toString('base64') : '';
  }

  private async lastCommit(head: WikiHead, path: string): Promise<GitCommit | undefined> {
    const [commit] = await this.ctx.git.listCommits(head.key, { head: head.commit, path, skip: 0, limit: 1, changes: false });
    return commit;
  }

  // ---- writing ----

  /**
   * One commit on the wiki's branch: the file of `from` removed (when it exists), the file of `to` written with
   * `content` (a 400 when `from` is absent and it exists: a new page that exists already). Recorded under a `wiki`
   * intent; the row's `has_wiki_contents` and the event are written in the transaction that ends it.
   */
  private async write(
    actor: Actor,
    doer: User,
    access: RepoAccess,
    change: { from: WebPath | undefined; to: WebPath | undefined; content: Buffer | undefined; message: string; action: WikiAction },
  ): Promise<void> {
    if (change.to !== undefined) assertValidWebPath(change.to);
    // One write of a wiki at a time, whichever process makes it (Forgejo's wikiWorkingPool): a second one waits and
    // then sees the first's commit (a new page that now exists is its 400, not a 409).
    await this.ctx.service(DatabaseLocks).withLock(
      `wiki:${access.repo.id}`,
      (lock) => this.writeLocked(actor, doer, access, change, lock),
      { busyMessage: 'another change of this wiki is in progress; try again later' },
    );
  }

  private async writeLocked(
    actor: Actor,
    doer: User,
    access: RepoAccess,
    change: { from: WebPath | undefined; to: WebPath | undefined; content: Buffer | undefined; message: string; action: WikiAction },
    lock: HeldLock,
  ): Promise<void> {
    const { repo, owner } = access;
    const intent = await this.storage.begin(access);
    let done = false;
    try {
      await this.storage.init(access);
      const key = this.storage.key(access);
      const branch = wikiBranchOf(repo);
      const ref = `refs/heads/${branch}`;
      const parent = (await this.ctx.git.readRefs(key, [ref])).get(ref);
      const changes: FileChange[] = [];
      let target: { path: string; exists: boolean } | undefined;
      if (change.to !== undefined) {
        target = await this.prepareGitPath(key, parent, change.to);
        if (change.from === undefined && target.exists) throw new BadRequestError(`wiki page already exists [title: ${target.path}]`);
      }
      if (change.from !== undefined) {
        const old = change.from === change.to && target ? target : await this.prepareGitPath(key, parent, change.from);
        if (old.exists) changes.push({ path: old.path });
        // Forgejo's DeleteWikiPage: "file does not exist", answered 404.
        else if (change.to === undefined) throw new NotFoundError();
      }
      if (target !== undefined) changes.push({ path: target.path, content: change.content!, mode: '100644' });
      const signature = { name: doer.full_name.trim() || doer.name, email: doer.keep_email_private ? noReplyAddress(doer, this.ctx.settings) : doer.email, when: new Date() };
      try {
        await this.ctx.git.changeFiles(key, {
          branch,
          objectFormat: isObjectFormat(repo.object_format_name) ? repo.object_format_name : 'sha1',
          parent,
          expectedOldId: parent,
          changes,
          message: change.message.endsWith('\n') ? change.message : `${change.message}\n`,
          author: signature,
          committer: signature,
        });
      } catch (error) {
        if (error instanceof BranchMovedError) throw new ConflictError('the wiki was changed by someone else meanwhile; try again');
        throw error;
      }
      done = true;
      const page = change.to ?? change.from!;
      await this.storage.complete(access, intent, async (tx, written) => {
        await lock.confirm(tx);
        tx.emit('wiki.changed', { actor, repo: written, owner, action: change.action, page, comment: change.action === 'deleted' ? '' : change.message });
      });
    } finally {
      // A write that failed still ends its intent, with the flag as git has it now.
      if (!done) await this.storage.complete(access, intent).catch(() => undefined);
    }
  }

  /**
   * The file a page is written to (Forgejo's prepareGitPath): the web path itself plus `.md` when such a file
   * exists, else its git path; and whether that file exists.
   */
  private async prepareGitPath(key: RepoKey, parent: string | undefined, name: WebPath): Promise<{ path: string; exists: boolean }> {
    const unescaped = `${name}.md`;
    const path = webPathToGitPath(name);
    // A name whose file git could not hold (a `.md` path that does not unescape, a `.git` folder).
    if (!isStorablePath(path)) throw new BadRequestError(`invalid wiki page name: ${name}`);
    if (!parent) return { path, exists: false };
    const found = await this.ctx.git.statPaths(key, parent, unescaped === path ? [path] : [unescaped, path]);
    if (found.get(unescaped)?.type === 'blob') return { path: unescaped, exists: true };
    return { path, exists: found.get(path)?.type === 'blob' };
  }
}

/**
 * Whether git could hold a file at `path`: not empty, no empty or `.git` folder, no control characters (a `.md`
 * name from the URL is unescaped, so `%00` would reach git otherwise).
 */
function isStorablePath(path: string): boolean {
  if (path === '') return false;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) < 0x20 || path.charCodeAt(i) === 0x7f) return false;
  return !path.split('/').some((part) => part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git');
}

/** Go's `%q` of a text, near enough for a commit message: JSON's quoting of it. */
function goQuote(text: string): string {
  return JSON.stringify(text);
}
