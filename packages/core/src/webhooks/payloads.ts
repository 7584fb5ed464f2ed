/**
 * Forgejo's webhook payloads (`modules/structs/hook.go`): built when the event happens, inside its transaction,
 * so a delivery (and every retry) sends what was true then.
 */
import type { Settings } from '../config/index.js';
import { ANONYMOUS, SYSTEM, actorUser, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import type { GitCommit, GitHistory, RefUpdate } from '../git/index.js';
import { toApiRepository } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { toApiUser } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { webUrl } from '../urls.js';
import type { HookPayload } from './formats/types.js';

/** Commits a new branch's push lists (Forgejo's `CommitsBeforeLimit(10)`). */
const NEW_BRANCH_COMMITS = 10;

export interface PayloadContext {
  settings: Settings;
  git: GitHistory;
  /** Account names behind commit emails (lower-cased keys). */
  usernames(emails: readonly string[]): Promise<Map<string, string>>;
}

function doerOf(actor: Actor, owner: User): User {
  return actorUser(actor) ?? owner;
}

function apiUser(user: User, settings: Settings) {
  // Forgejo renders the sender and pusher with no access (ToUserWithAccessMode(…, None)).
  return toApiUser(user, { viewer: ANONYMOUS, settings });
}

export function apiRepo(repo: Repository, owner: User, settings: Settings) {
  // Forgejo renders the repository with owner permission (ToRepo(…, AccessModeOwner)).
  return toApiRepository({ repo, owner, mode: AccessMode.Owner }, { viewer: SYSTEM, settings });
}

function repoHtml(settings: Settings, owner: User, repo: Repository): string {
  return webUrl(settings, `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`);
}

/** Go writes a zero UTC offset as `Z`. */
function goTime(iso: string): string {
  return iso.replace(/[+-]00:00$/, 'Z');
}

export function shortRef(ref: string): { name: string; type: 'branch' | 'tag' | 'ref' } {
  if (ref.startsWith('refs/heads/')) return { name: ref.slice('refs/heads/'.length), type: 'branch' };
  if (ref.startsWith('refs/tags/')) return { name: ref.slice('refs/tags/'.length), type: 'tag' };
  return { name: ref, type: 'ref' };
}

function payloadCommit(commit: GitCommit, html: string, usernames: Map<string, string>) {
  const changes = commit.changes ?? [];
  return {
    id: commit.id,
    message: commit.message,
    url: `${html}/commit/${commit.id}`,
    author: { name: commit.authorName, email: commit.authorEmail, username: usernames.get(commit.authorEmail.toLowerCase()) ?? '' },
    committer: { name: commit.committerName, email: commit.committerEmail, username: usernames.get(commit.committerEmail.toLowerCase()) ?? '' },
    verification: null,
    timestamp: goTime(commit.authorTime),
    added: changes.filter((c) => c.status === 'added').map((c) => c.path),
    removed: changes.filter((c) => c.status === 'removed').map((c) => c.path),
    modified: changes.filter((c) => c.status === 'modified').map((c) => c.path),
  };
}

/**
 * `PushPayload` of one ref update that did not delete the ref: its commits (at most `[ui] FEED_MAX_COMMIT_NUM`,
 * newest first, with the files each changed), the head commit, the compare URL, the repository, pusher, sender.
 */
export async function pushPayload(pc: PayloadContext, repo: Repository, owner: User, actor: Actor, update: RefUpdate): Promise<HookPayload> {
  const { settings, git } = pc;
  const key = { owner: owner.lower_name, name: repo.lower_name };
  const zero = '0'.repeat(update.newId.length);
  const created = update.oldId === zero;
  const html = repoHtml(settings, owner, repo);
  const isBranch = update.ref.startsWith('refs/heads/');
  let commits: GitCommit[] = [];
  let total = 0;
  let head: GitCommit | undefined;
  const feedMax = Math.max(0, settings.ui.FEED_MAX_COMMIT_NUM);
  if (isBranch) {
    const exclude = created ? undefined : update.oldId;
    const limit = created ? NEW_BRANCH_COMMITS : Math.max(feedMax, 1);
    const listed = await git.listCommits(key, { head: update.newId, exclude, skip: 0, limit, changes: true });
    total = created ? listed.length : await git.countCommits(key, { head: update.newId, exclude });
    commits = listed.slice(0, feedMax);
    head = listed[0]?.id === update.newId ? listed[0] : undefined;
  }
  head ??= (await git.listCommits(key, { head: update.newId, skip: 0, limit: 1, changes: true }).catch(() => []))[0];
  const emails = [...commits, ...(head ? [head] : [])].flatMap((c) => [c.authorEmail, c.committerEmail]);
  const usernames = await pc.usernames(emails);
  const doer = doerOf(actor, owner);
  return {
    ref: update.ref,
    before: update.oldId,
    after: update.newId,
    compare_url: created ? '' : `${html}/compare/${update.oldId}...${update.newId}`,
    commits: commits.map((c) => payloadCommit(c, html, usernames)),
    total_commits: total,
    head_commit: head ? payloadCommit(head, html, usernames) : null,
    repository: apiRepo(repo, owner, settings),
    pusher: apiUser(doer, settings),
    sender: apiUser(doer, settings),
  };
}

/** `CreatePayload` of a created branch or tag. */
export function createPayload(settings: Settings, repo: Repository, owner: User, actor: Actor, update: RefUpdate): HookPayload {
  const { name, type } = shortRef(update.ref);
  return {
    sha: update.newId,
    ref: name,
    ref_type: type,
    repository: apiRepo(repo, owner, settings),
    sender: apiUser(doerOf(actor, owner), settings),
  };
}

/** `DeletePayload` of a deleted branch or tag. */
export function deletePayload(settings: Settings, repo: Repository, owner: User, actor: Actor, update: RefUpdate): HookPayload {
  const { name, type } = shortRef(update.ref);
  return {
    ref: name,
    ref_type: type,
    pusher_type: 'user',
    repository: apiRepo(repo, owner, settings),
    sender: apiUser(doerOf(actor, owner), settings),
  };
}

/** Forgejo's ForkPayload, sent to the parent's hooks: `forkee` is the parent, `repository` the new fork. */
export function forkPayload(settings: Settings, fork: { repo: Repository; owner: User; parent: Repository; parentOwner: User; actor: Actor }): HookPayload {
  return {
    forkee: apiRepo(fork.parent, fork.parentOwner, settings),
    repository: apiRepo(fork.repo, fork.owner, settings),
    sender: apiUser(doerOf(fork.actor, fork.owner), settings),
  };
}

/** `RepositoryPayload`: a repository created or deleted. */
export function repositoryPayload(settings: Settings, action: 'created' | 'deleted', repo: Repository, owner: User, actor: Actor): HookPayload {
  return {
    action,
    repository: apiRepo(repo, owner, settings),
    organization: isOrganization(owner) ? apiUser(owner, settings) : null,
    sender: apiUser(doerOf(actor, owner), settings),
  };
}
