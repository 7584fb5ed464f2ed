/**
 * Reads a repository's content from a Gitea, Forgejo or RepoHost instance by its API v1 (Forgejo's
 * GiteaDownloader): labels, milestones, issues, pull requests, their comments, releases and their assets. What
 * the remote answers is read defensively into the neutral structures below; a shape that does not fit fails the
 * migration with a clear message instead of writing half-understood data.
 */
import { GiteaApiClient, MigrationError } from './client.js';

/** Someone on the remote instance. */
export interface RemoteUser {
  id: number;
  login: string;
}

export interface RemoteLabel {
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
}

export interface RemoteMilestone {
  title: string;
  description: string;
  closed: boolean;
  /** Unix seconds; 0 when the remote does not say. */
  created: number;
  updated: number;
  closedAt: number;
  deadline: number;
}

export interface RemoteIssue {
  number: number;
  title: string;
  body: string;
  closed: boolean;
  poster: RemoteUser;
  labels: string[];
  milestone: string | undefined;
  assignees: string[];
  created: number;
  updated: number;
  closedAt: number;
  deadline: number;
  locked: boolean;
  ref: string;
}

export interface RemotePull extends RemoteIssue {
  draft: boolean;
  merged: boolean;
  mergedAt: number;
  mergeCommit: string;
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  /** The head lives in another repository (a fork); its owner's name, '' when the fork is gone. */
  fork: { owner: string } | undefined;
}

export interface RemoteComment {
  id: number;
  poster: RemoteUser;
  body: string;
  created: number;
  updated: number;
  /** Filled in by the import when it reads reactions. */
  reactions: RemoteReaction[];
}

export interface RemoteReaction {
  user: RemoteUser;
  /** `+1`, `heart`, … */
  content: string;
  created: number;
}

/** A submitted review of a pull request (or a request for one), with its code comments. */
export interface RemoteReview {
  id: number;
  reviewer: RemoteUser;
  /** `APPROVED`, `REQUEST_CHANGES`, `COMMENT`, `REQUEST_REVIEW`, `PENDING`. */
  state: string;
  body: string;
  official: boolean;
  stale: boolean;
  dismissed: boolean;
  commitId: string;
  created: number;
  updated: number;
  commentCount: number | undefined;
  comments: RemoteReviewComment[];
}

export interface RemoteReviewComment {
  poster: RemoteUser;
  body: string;
  path: string;
  diffHunk: string;
  /** The line in the new file, or minus the line in the old one (Forgejo's convention); 0 when unknown. */
  line: number;
  commitId: string;
  created: number;
  updated: number;
}

export interface RemoteAsset {
  name: string;
  size: number;
  downloadCount: number;
  created: number;
  url: string;
  /** A link to a file elsewhere (`type: external`), not a file the remote holds. */
  external: boolean;
}

export interface RemoteRelease {
  tag: string;
  target: string;
  name: string;
  body: string;
  draft: boolean;
  prerelease: boolean;
  publisher: RemoteUser;
  created: number;
  assets: RemoteAsset[];
}

/** One page of items and the list's total when the remote says it. */
export interface RemotePage<T> {
  items: T[];
  total?: number;
  /** No page follows. */
  last: boolean;
}

/** Forgejo's downloader guesses this many items per page when the remote does not say its maximum. */
const FALLBACK_PAGE_SIZE = 10;
/** More per page than this is not asked for, whatever the remote allows. */
const MAX_PAGE_SIZE = 50;
/** A list that never ends (a remote answering full pages forever) is cut here. */
const MAX_PAGES = 100_000;

export class GiteaDownloader {
  private pageSize = FALLBACK_PAGE_SIZE;
  private readonly repoPath: string;

  constructor(
    private readonly client: GiteaApiClient,
    owner: string,
    name: string,
  ) {
    this.repoPath = `repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  }

  /** Learns the remote's page size (`/settings/api`) and checks that the repository is there and readable. */
  async open(): Promise<void> {
    const settings = await this.client.getJson('settings/api', {}, { allowNotFound: true }).catch((error: unknown) => {
      // An old or restricted remote without the settings route: keep the guess, the repository read says more.
      if (isRefusal(error)) return undefined;
      throw error;
    });
    const max = settings && isObject(settings.body) ? settings.body.max_response_items : undefined;
    if (typeof max === 'number' && Number.isSafeInteger(max) && max > 0) this.pageSize = Math.min(max, MAX_PAGE_SIZE);
    const repo = await this.client.getJson(this.repoPath, {}, { allowNotFound: true });
    if (!repo) throw new MigrationError('the remote repository does not exist or may not be read');
    if (!isObject(repo.body)) throw new MigrationError('the remote answered an unexpected repository');
  }

  labels(page: number): Promise<RemotePage<RemoteLabel>> {
    return this.page(`${this.repoPath}/labels`, {}, page, 'label', readLabel);
  }

  milestones(page: number): Promise<RemotePage<RemoteMilestone>> {
    return this.page(`${this.repoPath}/milestones`, { state: 'all' }, page, 'milestone', readMilestone);
  }

  /** Issues only (pull requests come from `pulls`), oldest first so numbers arrive in order. */
  async issues(page: number): Promise<RemotePage<RemoteIssue>> {
    return this.page(`${this.repoPath}/issues`, { state: 'all', type: 'issues', sort: 'oldest' }, page, 'issue', (v) => (isPullIssue(v) ? undefined : readIssue(v)));
  }

  pulls(page: number): Promise<RemotePage<RemotePull>> {
    return this.page(`${this.repoPath}/pulls`, { state: 'all', sort: 'oldest' }, page, 'pull request', readPull);
  }

  releases(page: number): Promise<RemotePage<RemoteRelease>> {
    return this.page(`${this.repoPath}/releases`, {}, page, 'release', readRelease);
  }

  /**
   * Every plain comment of an issue or pull request, in the remote's order (oldest first). Forgejo answers all of
   * them whatever the page asked for, Gitea pages them: a page holding nothing new ends the list either way.
   */
  async comments(index: number): Promise<RemoteComment[]> {
    const all: RemoteComment[] = [];
    const seen = new Set<number>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      this.client.checkAborted();
      const answer = await this.page(`${this.repoPath}/issues/${index}/comments`, {}, page, 'comment', readComment);
      const fresh = answer.items.filter((c) => !seen.has(c.id));
      for (const comment of fresh) seen.add(comment.id);
      all.push(...fresh);
      if (answer.last || fresh.length === 0) break;
    }
    return all;
  }

  /**
   * The reviews of a pull request with their code comments. Team review requests are left out (Forgejo's
   * downloader cannot map them either).
   */
  async reviews(index: number): Promise<RemoteReview[]> {
    const all: RemoteReview[] = [];
    const seen = new Set<number>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      this.client.checkAborted();
      let answer: RemotePage<RemoteReview>;
      try {
        answer = await this.page(`${this.repoPath}/pulls/${index}/reviews`, {}, page, 'review', readReview);
      } catch (error) {
        if (isRefusal(error)) return all;
        throw error;
      }
      const fresh = answer.items.filter((r) => !seen.has(r.id));
      for (const review of fresh) seen.add(review.id);
      all.push(...fresh);
      if (answer.last || fresh.length === 0) break;
    }
    const kept = all.filter((r) => r.reviewer.id !== 0 || r.reviewer.login !== '');
    for (const review of kept) {
      if (review.commentCount === 0) continue;
      this.client.checkAborted();
      const answer = await this.client.getJson(`${this.repoPath}/pulls/${index}/reviews/${review.id}/comments`, {}, { allowNotFound: true });
      if (!answer) continue;
      if (!Array.isArray(answer.body)) throw new MigrationError('the remote answered an unexpected review comment list (not a JSON array)');
      review.comments = answer.body.map((value, i) => {
        try {
          return readReviewComment(value);
        } catch (error) {
          if (error instanceof ShapeError) throw new MigrationError(`the remote answered an unexpected review comment (item ${i + 1}): ${error.message}`);
          throw error;
        }
      });
    }
    return kept;
  }

  /** The reactions on an issue or pull request itself. */
  issueReactions(index: number): Promise<RemoteReaction[]> {
    return this.reactions(`${this.repoPath}/issues/${index}/reactions`);
  }

  commentReactions(id: number): Promise<RemoteReaction[]> {
    return this.reactions(`${this.repoPath}/issues/comments/${id}/reactions`);
  }

  /**
   * Every reaction of a list (paged on Forgejo for issues, whole for comments: a page with nothing new ends it). A
   * remote that refuses reactions (an old instance, the unit off) has none, as Forgejo's downloader carries on.
   */
  private async reactions(path: string): Promise<RemoteReaction[]> {
    const all: RemoteReaction[] = [];
    const seen = new Set<string>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      this.client.checkAborted();
      let answer: RemotePage<RemoteReaction>;
      try {
        answer = await this.page(path, {}, page, 'reaction', readReaction);
      } catch (error) {
        if (isRefusal(error)) return all;
        throw error;
      }
      const fresh = answer.items.filter((r) => !seen.has(`${r.user.id}:${r.user.login}:${r.content}`));
      for (const r of fresh) seen.add(`${r.user.id}:${r.user.login}:${r.content}`);
      all.push(...fresh);
      if (answer.last || fresh.length === 0) break;
    }
    return all;
  }

  /** One page of a list; the read function may leave an item out by answering undefined. */
  private async page<T>(
    path: string,
    query: Record<string, string>,
    page: number,
    what: string,
    read: (value: unknown) => T | undefined,
  ): Promise<RemotePage<T>> {
    const params: Record<string, string | number> = { page, limit: this.pageSize };
    Object.assign(params, query);
    // The repository was read in `open`: a list answering 404 is a unit the remote has off (issues, releases).
    const answer = await this.client.getJson(path, params, { allowNotFound: true });
    if (!answer) return { items: [], last: true };
    if (!Array.isArray(answer.body)) throw new MigrationError(`the remote answered an unexpected ${what} list (not a JSON array)`);
    const items: T[] = [];
    answer.body.forEach((value, i) => {
      try {
        const item = read(value);
        if (item !== undefined) items.push(item);
      } catch (error) {
        if (error instanceof ShapeError) throw new MigrationError(`the remote answered an unexpected ${what} (page ${page}, item ${i + 1}): ${error.message}`);
        throw error;
      }
    });
    // An empty page ends every list; a short one too, unless the remote ignored the page size (then the total says).
    const seen = (page - 1) * this.pageSize + answer.body.length;
    const last = answer.body.length === 0 || (answer.body.length < this.pageSize && (answer.total === undefined || seen >= answer.total)) || page >= MAX_PAGES;
    return { items, total: answer.total, last };
  }
}

/** The remote answered 4xx: it has no such thing, or will not show it. */
function isRefusal(error: unknown): boolean {
  return error instanceof MigrationError && error.status !== undefined && error.status >= 400 && error.status < 500;
}

/** A value of the remote's JSON that is not what the API promises. */
class ShapeError extends Error {}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown, field: string): JsonObject {
  if (!isObject(value)) throw new ShapeError(`${field} is not an object`);
  return value;
}

/** A text field; absent or null is ''. NULs are dropped (no database stores them). */
function text(o: JsonObject, field: string): string {
  const value = o[field];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new ShapeError(`${field} is not a string`);
  return value.replace(/\0/g, '');
}

function requiredText(o: JsonObject, field: string): string {
  const value = text(o, field);
  if (value === '') throw new ShapeError(`${field} is missing`);
  return value;
}

function integer(o: JsonObject, field: string, options: { required?: boolean } = {}): number {
  const value = o[field];
  if ((value === undefined || value === null) && !options.required) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new ShapeError(`${field} is not an integer`);
  return value;
}

function flag(o: JsonObject, field: string): boolean {
  const value = o[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new ShapeError(`${field} is not a boolean`);
  return value;
}

/** An RFC 3339 time as unix seconds; 0 when absent. Forgejo's zero time (year 1) counts as absent too. */
function time(o: JsonObject, field: string): number {
  const value = o[field];
  if (value === undefined || value === null || value === '') return 0;
  if (typeof value !== 'string') throw new ShapeError(`${field} is not a time`);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ShapeError(`${field} is not a time`);
  const seconds = Math.floor(ms / 1000);
  return seconds > 0 ? seconds : 0;
}

function user(value: unknown, field: string): RemoteUser {
  if (value === undefined || value === null) return { id: 0, login: '' };
  const o = object(value, field);
  return { id: integer(o, 'id'), login: text(o, 'login') || text(o, 'username') };
}

function list(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ShapeError(`${field} is not a list`);
  return value;
}

function readLabel(value: unknown): RemoteLabel {
  const o = object(value, 'label');
  return { name: requiredText(o, 'name'), color: text(o, 'color'), description: text(o, 'description'), exclusive: flag(o, 'exclusive') };
}

function readMilestone(value: unknown): RemoteMilestone {
  const o = object(value, 'milestone');
  const closedAt = time(o, 'closed_at');
  return {
    title: requiredText(o, 'title'),
    description: text(o, 'description'),
    closed: text(o, 'state') === 'closed',
    // Old instances have no creation time: the closing time stands in, as in Forgejo's downloader.
    created: time(o, 'created_at') || closedAt,
    updated: time(o, 'updated_at') || closedAt,
    closedAt,
    deadline: time(o, 'due_on'),
  };
}

function isPullIssue(value: unknown): boolean {
  return isObject(value) && isObject(value.pull_request);
}

function readIssue(value: unknown): RemoteIssue {
  const o = object(value, 'issue');
  const number = integer(o, 'number', { required: true });
  if (number < 1) throw new ShapeError('number is not positive');
  const milestone = o.milestone === undefined || o.milestone === null ? undefined : requiredText(object(o.milestone, 'milestone'), 'title');
  return {
    number,
    title: text(o, 'title'),
    body: text(o, 'body'),
    closed: text(o, 'state') === 'closed',
    poster: user(o.user, 'user'),
    labels: list(o.labels, 'labels').map((l) => requiredText(object(l, 'label'), 'name')),
    milestone,
    assignees: list(o.assignees, 'assignees').map((a) => user(a, 'assignee').login).filter((login) => login !== ''),
    created: time(o, 'created_at'),
    updated: time(o, 'updated_at'),
    closedAt: time(o, 'closed_at'),
    deadline: time(o, 'due_date'),
    locked: flag(o, 'is_locked'),
    ref: text(o, 'ref'),
  };
}

function readPull(value: unknown): RemotePull {
  const o = object(value, 'pull request');
  const issue = readIssue(o);
  const head = o.head === undefined || o.head === null ? {} : object(o.head, 'head');
  const base = object(o.base, 'base');
  const mergedAt = time(o, 'merged_at');
  return {
    ...issue,
    closedAt: issue.closedAt || mergedAt,
    draft: flag(o, 'draft'),
    merged: flag(o, 'merged'),
    mergedAt,
    mergeCommit: text(o, 'merge_commit_sha'),
    head: { ref: text(head, 'ref'), sha: text(head, 'sha') },
    base: { ref: requiredText(base, 'ref'), sha: text(base, 'sha') },
    fork: forkOf(head, base),
  };
}

/** Whether a pull request's head is in another repository than its base (Forgejo's IsForkPullRequest). */
function forkOf(head: JsonObject, base: JsonObject): RemotePull['fork'] {
  const headRepo = head.repo === undefined || head.repo === null ? undefined : object(head.repo, 'head.repo');
  const baseRepoId = integer(base, 'repo_id');
  const headRepoId = integer(head, 'repo_id');
  if (!headRepo) return headRepoId > 0 && headRepoId === baseRepoId ? undefined : { owner: '' };
  const id = integer(headRepo, 'id') || headRepoId;
  if (id > 0 && id === baseRepoId) return undefined;
  const owner = headRepo.owner === undefined || headRepo.owner === null ? '' : user(headRepo.owner, 'head.repo.owner').login;
  return { owner };
}

function readComment(value: unknown): RemoteComment {
  const o = object(value, 'comment');
  return { id: integer(o, 'id', { required: true }), poster: user(o.user, 'user'), body: text(o, 'body'), created: time(o, 'created_at'), updated: time(o, 'updated_at'), reactions: [] };
}

function readReview(value: unknown): RemoteReview {
  const o = object(value, 'review');
  const count = o.comments_count;
  return {
    id: integer(o, 'id', { required: true }),
    reviewer: user(o.user, 'user'),
    state: text(o, 'state'),
    body: text(o, 'body'),
    official: flag(o, 'official'),
    stale: flag(o, 'stale'),
    dismissed: flag(o, 'dismissed'),
    commitId: text(o, 'commit_id'),
    created: time(o, 'submitted_at'),
    updated: time(o, 'updated_at'),
    commentCount: typeof count === 'number' && Number.isSafeInteger(count) ? count : undefined,
    comments: [],
  };
}

function readReviewComment(value: unknown): RemoteReviewComment {
  const o = object(value, 'review comment');
  const position = integer(o, 'position');
  const original = integer(o, 'original_position');
  return {
    poster: user(o.user, 'user'),
    body: text(o, 'body'),
    path: text(o, 'path'),
    diffHunk: text(o, 'diff_hunk'),
    line: position > 0 ? position : original > 0 ? -original : 0,
    commitId: text(o, 'commit_id'),
    created: time(o, 'created_at'),
    updated: time(o, 'updated_at'),
  };
}

function readReaction(value: unknown): RemoteReaction {
  const o = object(value, 'reaction');
  return { user: user(o.user, 'user'), content: requiredText(o, 'content'), created: time(o, 'created_at') };
}

function readAsset(value: unknown): RemoteAsset {
  const o = object(value, 'asset');
  return {
    name: requiredText(o, 'name'),
    size: integer(o, 'size'),
    downloadCount: integer(o, 'download_count'),
    created: time(o, 'created_at'),
    url: requiredText(o, 'browser_download_url'),
    external: text(o, 'type') === 'external',
  };
}

function readRelease(value: unknown): RemoteRelease {
  const o = object(value, 'release');
  return {
    tag: requiredText(o, 'tag_name'),
    target: text(o, 'target_commitish'),
    name: text(o, 'name'),
    body: text(o, 'body'),
    draft: flag(o, 'draft'),
    prerelease: flag(o, 'prerelease'),
    publisher: user(o.author, 'author'),
    created: time(o, 'created_at') || time(o, 'published_at'),
    assets: list(o.assets, 'assets').map(readAsset),
  };
}
