import type { RefCommitInfo, RefDetail } from '../git/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoWebPath } from '../repos/index.js';
import { apiUrl, webUrl } from '../urls.js';
import type { ApiView } from '../wire.js';
import { showsSignature, type ApiPayloadCommitVerification } from '../commits/index.js';
import type { ApiBranch, ApiPayloadCommit, ApiTag } from './schemas.js';
import { keptInJson } from '../shared-json.js';

/** Lower-cased commit emails → the name of the account they belong to. */
export type UsernamesByEmail = ReadonlyMap<string, string>;

/** What Forgejo says of a commit without a signature. */
export const NOT_SIGNED: ApiPayloadCommitVerification = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };

/** Go prints a zero offset as `Z`; git's strict ISO 8601 prints `+00:00`. */
export function goTime(iso: string): string {
  if (!iso) return '0001-01-01T00:00:00Z';
  return iso.endsWith('+00:00') || iso.endsWith('-00:00') ? `${iso.slice(0, -6)}Z` : iso;
}

/** Each path segment escaped, slashes kept (Go's `util.PathEscapeSegments`). */
function escapeSegments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export function toApiPayloadCommit(
  commit: RefCommitInfo,
  access: RepoAccess,
  view: ApiView,
  usernames: UsernamesByEmail,
  verification: ApiPayloadCommitVerification = NOT_SIGNED,
  commitUrlBase = commitUrlBaseOf(access, view),
): ApiPayloadCommit {
  return {
    id: commit.id,
    message: commit.message,
    url: `${commitUrlBase}${commit.id}`,
    author: { name: commit.authorName, email: commit.authorEmail, username: usernames.get(commit.authorEmail.toLowerCase()) ?? '' },
    committer: { name: commit.committerName, email: commit.committerEmail, username: usernames.get(commit.committerEmail.toLowerCase()) ?? '' },
    verification,
    timestamp: goTime(commit.authorTime),
    added: null,
    removed: null,
    modified: null,
  };
}

/** The URL of the repository's commits, to which a commit's id is appended (once for a page of them). */
export function commitUrlBaseOf(access: RepoAccess, view: ApiView): string {
  return webUrl(view.settings, `${repoWebPath(access.owner, access.repo)}/commit/`);
}

/** What the branch rule that applies to a branch says of it, for the viewer (see `toApiBranch`). */
export interface BranchProtectionView {
  ruleName: string;
  requiredApprovals: number;
  enableStatusCheck: boolean;
  statusCheckContexts: string[];
  userCanPush: boolean;
  userCanMerge: boolean;
}

/**
 * A branch as Forgejo shows it. Unprotected: pushable and mergeable by code writers. Protected: the rule's
 * approvals and checks, what the viewer may do under it, and the rule's name for repository administrators.
 */
export function toApiBranch(
  name: string,
  commit: RefCommitInfo,
  access: RepoAccess,
  view: ApiView,
  usernames: UsernamesByEmail,
  verification: ApiPayloadCommitVerification = NOT_SIGNED,
  protection?: BranchProtectionView,
  commitUrlBase = commitUrlBaseOf(access, view),
): ApiBranch {
  const canWrite = view.viewer.kind === 'user' && unitMode(access, 'repo.code') >= AccessMode.Write;
  const userCanPush = protection ? protection.userCanPush : canWrite;
  const userCanMerge = protection ? protection.userCanMerge : canWrite;
  const protectionName = protection && access.mode >= AccessMode.Admin ? protection.ruleName : '';
  const build = (): ApiBranch => ({
    name,
    commit: toApiPayloadCommit(commit, access, view, usernames, verification, commitUrlBase),
    protected: protection !== undefined,
    required_approvals: protection?.requiredApprovals ?? 0,
    enable_status_check: protection?.enableStatusCheck ?? false,
    // A copy: the kept branch is frozen, the rule's list is not its own.
    status_check_contexts: protection ? [...protection.statusCheckContexts] : [],
    user_can_push: userCanPush,
    user_can_merge: userCanMerge,
    effective_branch_protection_name: protectionName,
  });
  // Kept while these inputs hold: the commit's own fields are fixed by its id, and an unsigned commit's verification
  // by its reason. A signed one's (signature, signer, payload) is made each time.
  if (showsSignature(verification)) return build();
  return keptInJson(commit.id, [
    name,
    commitUrlBase,
    usernames.get(commit.authorEmail.toLowerCase()) ?? '',
    usernames.get(commit.committerEmail.toLowerCase()) ?? '',
    verification.verified,
    verification.reason,
    userCanPush,
    userCanMerge,
    protectionName,
    protection === undefined ? null : protectionKey(protection),
  ], build);
}

/** What a branch's JSON takes from its rule besides the viewer's rights, as one text; once per rule view. */
const protectionKeys = new WeakMap<BranchProtectionView, string>();
function protectionKey(protection: BranchProtectionView): string {
  let key = protectionKeys.get(protection);
  if (key === undefined) {
    key = JSON.stringify([protection.requiredApprovals, protection.enableStatusCheck, protection.statusCheckContexts]);
    protectionKeys.set(protection, key);
  }
  return key;
}

/**
 * A tag as Forgejo shows it: an annotated tag's own id, message and tagger time; a lightweight tag's commit's.
 * The commit URL names the tag's id, as Forgejo's does.
 */
export function toApiTag(name: string, detail: RefDetail, access: RepoAccess, view: ApiView): ApiTag {
  const { settings } = view;
  const path = repoWebPath(access.owner, access.repo);
  const message = detail.tag ? detail.tag.message : (detail.commit?.message ?? '');
  const created = detail.tag ? detail.tag.taggerTime : (detail.commit?.committerTime ?? '');
  const archive = webUrl(settings, `${path}/archive/${escapeSegments(name)}`);
  return {
    name,
    message: message.trim(),
    id: detail.id,
    commit: { sha: detail.commit?.id ?? detail.id, url: apiUrl(settings, `/repos/${path}/git/commits/${detail.id}`), created: goTime(created) },
    zipball_url: `${archive}.zip`,
    tarball_url: `${archive}.tar.gz`,
    archive_download_count: { zip: 0, tar_gz: 0 },
  };
}
