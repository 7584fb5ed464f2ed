import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { BadRequestError, ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { CommitListOptions, CommitRangeOptions, GitCommit, RepoKey } from '../git/index.js';
import { clampPage, type Paging, type PageRequest } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import type { CommitView } from './convert.js';
import type { CommitViewOptions } from './schemas.js';
import { CommitVerifier, extractSignature, notSigned, type CommitVerification } from './verification.js';
import { BoundedMap } from '../bounded-map.js';

export interface CommitListQuery extends CommitViewOptions {
  /** Branch, tag or commit to list from; absent: the default branch. */
  sha?: string;
  /** Only commits touching this file or folder. */
  path?: string;
  /** RFC 3339 times: commits committed at or after / before. */
  since?: string;
  until?: string;
  /** Commits reachable from this ref are left out. */
  not?: string;
}

export interface CommitListPage {
  items: CommitView[];
  total: number;
  page: PageRequest;
}

/** Commits compared between two revisions at most; Forgejo lists them all, a bound keeps one request bounded. */
const COMPARE_MAX_COMMITS = 1000;
/** Range sizes kept. */
const COUNT_CACHE_SIZE = 1024;
/** Bytes (estimated) of commit pages kept, and of one page at most: a page larger than that is not kept. */
const PAGE_CACHE_BYTES = 32 * 1024 * 1024;
const PAGE_MAX_BYTES = 4 * 1024 * 1024;
/** Commit ids known to carry no signature (about 100 bytes each). */
const UNSIGNED_KEPT = 32_768;

/** About what a listed commit holds in memory: its strings (UTF-16) and the objects around them. */
function commitBytes(commit: GitCommit): number {
  let bytes = 400 + 2 * (commit.message.length + commit.authorName.length + commit.authorEmail.length + commit.committerName.length + commit.committerEmail.length);
  for (const change of commit.changes ?? []) bytes += 100 + 2 * change.path.length;
  return bytes;
}

/** Pages of history by key, least recently used dropped first once their estimated size passes the budget. */
class PageCache {
  private readonly pages = new Map<string, { commits: GitCommit[]; bytes: number }>();
  private bytes = 0;

  get(key: string): GitCommit[] | undefined {
    const found = this.pages.get(key);
    if (!found) return undefined;
    this.pages.delete(key);
    this.pages.set(key, found);
    return found.commits;
  }

  set(key: string, commits: GitCommit[]): void {
    const bytes = commits.reduce((sum, commit) => sum + commitBytes(commit), 0);
    if (bytes > PAGE_MAX_BYTES) return;
    const old = this.pages.get(key);
    if (old) {
      this.pages.delete(key);
      this.bytes -= old.bytes;
    }
    this.pages.set(key, { commits, bytes });
    this.bytes += bytes;
    for (const [oldest, page] of this.pages) {
      if (this.bytes <= PAGE_CACHE_BYTES) break;
      this.pages.delete(oldest);
      this.bytes -= page.bytes;
    }
  }
}

/**
 * Reading a repository's history: commit listings, single commits, diffs and comparisons. Each page is one
 * `git log` (and one `rev-list --count`), the raw commits for verification one read over the object reader,
 * and the accounts behind the addresses one query.
 */
export class CommitsService {
  /**
   * Range sizes by repository and range: history below a commit id never changes, so a count (the costliest part
   * of a page on a long history, a walk of all of it) is made once per range. Bounded; the oldest goes first.
   */
  private readonly counts = new BoundedMap<string, number>(COUNT_CACHE_SIZE);

  /**
   * Pages of history by repository, range, page and whether changes were listed: like a count, what `git log`
   * answers below a commit id never changes, so the commit page of a branch tip is read from git once, and again
   * only when the branch moves (its tip, part of the key, is then another commit). Bounded by size.
   */
  private readonly pages = new PageCache();
  /** Reads under way, shared by the requests that ask for the same one at once. */
  private readonly reading = new Map<string, Promise<unknown>>();
  /**
   * Commits whose object has no signature, by id: an object never changes under its id, so an unsigned commit is
   * read from git once to learn it, not at every listing (its verdict, `not signed`, depends on nothing else). A
   * signed commit is read and checked each time: its verdict depends on accounts and keys, which change.
   */
  private readonly unsigned = new BoundedMap<string, true>(UNSIGNED_KEPT);

  constructor(private readonly ctx: CoreContext) {}

  private rangeKey(repoId: number, range: CommitRangeOptions): string {
    return [repoId, range.head, range.exclude ?? '', range.path ?? '', range.since?.getTime() ?? '', range.until?.getTime() ?? ''].join('\0');
  }

  /** Runs `read` once for concurrent callers of one key. */
  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let running = this.reading.get(key) as Promise<T> | undefined;
    if (!running) {
      running = read();
      this.reading.set(key, running);
      const done = () => this.reading.delete(key);
      running.then(done, done);
    }
    return running;
  }

  private async count(key: RepoKey, repoId: number, range: CommitRangeOptions): Promise<number> {
    const cacheKey = this.rangeKey(repoId, range);
    const cached = this.counts.get(cacheKey);
    if (cached !== undefined) return cached;
    return this.once(`count\0${cacheKey}`, async () => {
      const total = await this.ctx.git.countCommits(key, range);
      this.counts.set(cacheKey, total);
      return total;
    });
  }

  /** A page of `git log` over a range of full commit ids, from the page cache when it was read before. */
  private async commitPage(key: RepoKey, repoId: number, options: CommitListOptions): Promise<GitCommit[]> {
    const cacheKey = [this.rangeKey(repoId, options), options.skip, options.limit, options.changes ? 1 : 0].join('\0');
    const cached = this.pages.get(cacheKey);
    if (cached) return cached;
    return this.once(`page\0${cacheKey}`, async () => {
      const commits = await this.ctx.git.listCommits(key, options);
      this.pages.set(cacheKey, commits);
      return commits;
    });
  }

  /** A full commit id for a revision the caller named; NotFound when it names none. */
  private async resolve(key: RepoKey, revision: string, what = revision): Promise<string> {
    const id = isSafeRevision(revision) ? await this.ctx.git.resolveCommit(key, revision) : undefined;
    if (!id) throw new NotFoundError(`object does not exist [id: ${what}, rel_path: ]`);
    return id;
  }

  /** A page of commits, newest first (the route group already checked the actor may read the repository). */
  async list(_actor: Actor, access: RepoAccess, query: CommitListQuery, paging: Paging = {}): Promise<CommitListPage> {
    if (access.repo.is_empty === 1) throw new ConflictError('Git Repository is empty.');
    const key = repoKey(access.owner, access.repo);
    const page = clampPage(this.ctx.settings, paging);
    const since = parseTime('since', query.since);
    const until = parseTime('until', query.until);
    const path = query.path ? normalizePath(query.path) : undefined;
    let head: string;
    if (query.sha) head = await this.resolve(key, query.sha);
    else {
      const id = await this.ctx.git.resolveCommit(key, `refs/heads/${access.repo.default_branch}`);
      if (!id) throw new ConflictError('Git Repository is empty.');
      head = id;
    }
    const exclude = query.not ? await this.resolve(key, query.not) : undefined;
    const stat = query.stat ?? true;
    const range = { head, exclude, path, since, until };
    const [total, commits] = await Promise.all([
      this.count(key, access.repo.id, range),
      this.commitPage(key, access.repo.id, { ...range, skip: (page.page - 1) * page.limit, limit: page.limit, changes: stat }),
    ]);
    // Forgejo: a path no commit touched is not found.
    if (path !== undefined && total === 0) throw new NotFoundError('FileCommitsCount');
    return { items: await this.views(key, commits, query), total, page };
  }

  /** One commit by any revision naming it. */
  async get(_actor: Actor, access: RepoAccess, revision: string, options: CommitViewOptions = {}): Promise<CommitView> {
    if (!isSafeRevision(revision)) throw new ValidationError('sha', 'no valid ref or sha');
    const key = repoKey(access.owner, access.repo);
    const id = await this.resolve(key, revision);
    const [commit] = await this.commitPage(key, access.repo.id, { head: id, skip: 0, limit: 1, changes: options.stat ?? true });
    if (!commit) throw new NotFoundError(`object does not exist [id: ${revision}, rel_path: ]`);
    return (await this.views(key, [commit], options))[0]!;
  }

  /** A commit's diff (against its first parent) or its patch, as git writes them. */
  async diff(_actor: Actor, access: RepoAccess, revision: string, format: 'diff' | 'patch'): Promise<Buffer> {
    const key = repoKey(access.owner, access.repo);
    return this.ctx.git.commitDiff(key, await this.resolve(key, revision), format);
  }

  /** The commits on `head` that `base` lacks (`base...head` or `base..head`), newest first. */
  async compare(_actor: Actor, access: RepoAccess, basehead: string, options: Omit<CommitViewOptions, 'stat'> = {}): Promise<{ total: number; items: CommitView[] }> {
    const parts = basehead.includes('...') ? basehead.split('...') : basehead.split('..');
    if (parts.length !== 2 || !parts[0] || !parts[1]) throw new NotFoundError(`compare: ${basehead}`);
    const key = repoKey(access.owner, access.repo);
    const [base, head] = await Promise.all([this.resolve(key, parts[0]), this.resolve(key, parts[1])]);
    const range = { head, exclude: base };
    const [total, commits] = await Promise.all([
      this.count(key, access.repo.id, range),
      this.commitPage(key, access.repo.id, { ...range, skip: 0, limit: COMPARE_MAX_COMMITS, changes: true }),
    ]);
    return { total, items: await this.views(key, commits, { ...options, stat: true }) };
  }

  /** A page of the commits `range.head` has and `range.exclude` lacks, newest first (a pull request's commits). */
  async between(_actor: Actor, access: RepoAccess, range: { head: string; exclude?: string }, options: Omit<CommitViewOptions, 'stat'>, paging: Paging = {}): Promise<CommitListPage> {
    const key = repoKey(access.owner, access.repo);
    const page = clampPage(this.ctx.settings, paging);
    const [total, commits] = await Promise.all([
      this.count(key, access.repo.id, range),
      this.commitPage(key, access.repo.id, { ...range, skip: (page.page - 1) * page.limit, limit: page.limit, changes: true }),
    ]);
    return { items: await this.views(key, commits, { ...options, stat: true }), total, page };
  }

  /**
   * The verification of each commit (full ids this repository's git named): one object read for the commits not
   * known to be unsigned, none when all are (what a page of a repository without signed commits costs once read).
   */
  async verifications(key: RepoKey, ids: readonly string[]): Promise<CommitVerification[]> {
    const toRead = [...new Set(ids.filter((id) => !this.unsigned.has(id)))];
    const raws = toRead.length > 0 ? await this.ctx.git.readObjects(key, toRead, { reachable: true }) : [];
    const rawOf = new Map<string, Buffer>();
    toRead.forEach((id, i) => {
      const raw = raws[i];
      // An object that could not be read is not kept: it is read again next time.
      if (raw?.type !== 'commit') return;
      if (extractSignature(raw.content)) rawOf.set(id, raw.content);
      else this.unsigned.set(id, true);
    });
    // Most commits are unsigned: those cost no verifier call (a page of 50 branches: 50 promises fewer).
    if (rawOf.size === 0) return ids.map(() => notSigned());
    const verifier = new CommitVerifier(this.ctx);
    return Promise.all(
      ids.map((id) => {
        const raw = rawOf.get(id);
        return raw ? verifier.verify(raw) : notSigned();
      }),
    );
  }

  /** Accounts (one query) and verifications (at most one object read) for a page of commits. */
  private async views(key: RepoKey, commits: GitCommit[], options: CommitViewOptions): Promise<CommitView[]> {
    const stat = options.stat ?? true;
    const files = options.files ?? true;
    const verify = options.verification ?? true;
    const emails = commits.flatMap((c) => [c.authorEmail, c.committerEmail]);
    const [users, verifications] = await Promise.all([
      this.ctx.port(UsersPort).byEmails(emails),
      verify ? this.verifications(key, commits.map((c) => c.id)) : Promise.resolve([]),
    ]);
    return commits.map((commit, i) => ({
      commit,
      author: users.get(commit.authorEmail.toLowerCase()),
      committer: users.get(commit.committerEmail.toLowerCase()),
      verification: verifications[i],
      stat,
      files,
    }));
  }
}

/** A name git could read as an option or a range is no revision here. */
function isSafeRevision(revision: string): boolean {
  return revision !== '' && !revision.startsWith('-') && !revision.includes('\0') && !revision.includes('..') && revision.length <= 1024;
}

function parseTime(field: string, text: string | undefined): Date | undefined {
  if (!text) return undefined;
  // RFC 3339, as Go's time.Parse reads it.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) throw new BadRequestError(`invalid ${field}: ${text}`);
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new BadRequestError(`invalid ${field}: ${text}`);
  return date;
}

/** A path filter relative to the repository root: no leading slash, no `.`/`..` components. */
function normalizePath(path: string): string | undefined {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..') || path.includes('\0')) throw new ValidationError('path', 'invalid path');
  return parts.length ? parts.join('/') : undefined;
}
