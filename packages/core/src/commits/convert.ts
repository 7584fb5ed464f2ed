import type { GitCommit } from '../git/index.js';
import { apiUrl, webUrl } from '../urls.js';
import { isoTime, type ApiView } from '../wire.js';
import { keptInJson } from '../shared-json.js';
import { ApiUserViews, toApiUser } from '../users/index.js';
import type { User } from '../users/index.js';
import type { ApiCommit, ApiCommitAffectedFiles, ApiCommitStatus, ApiPayloadCommitVerification, CommitStatusState } from './schemas.js';
import type { CommitStatus } from './tables.js';
import type { CommitVerification } from './verification.js';

/** A commit with what a listing found for it: the accounts of its addresses, its verification. */
export interface CommitView {
  commit: GitCommit;
  author?: User;
  committer?: User;
  /** Absent when verification was not asked for. */
  verification?: CommitVerification;
  /** Statistics (and files) were asked for. */
  stat: boolean;
  files: boolean;
}

/** Go's zero time: what Forgejo writes for a time it does not know (a parent's `created`). */
const ZERO_TIME = '0001-01-01T00:00:00Z';
const FILE_STATUS_ORDER = ['added', 'removed', 'modified'] as const;

/** Git's strict ISO 8601 as Go's RFC 3339 writes it: UTC is `Z`. */
export function rfc3339(gitTime: string): string {
  return gitTime.endsWith('+00:00') ? `${gitTime.slice(0, -6)}Z` : gitTime;
}

export function toApiVerification(verification: CommitVerification): ApiPayloadCommitVerification {
  return {
    verified: verification.verified,
    reason: verification.reason,
    signature: verification.signature,
    signer: verification.signer ? { name: verification.signer.name, email: verification.signerEmail ?? verification.signer.email, username: '' } : null,
    payload: verification.payload,
  };
}

/**
 * Whether a verification shows a signature (its text, signer or signed payload): what a kept commit or branch
 * cannot take from its inputs, so its JSON is written out each time.
 */
export function showsSignature(verification: ApiPayloadCommitVerification): boolean {
  return verification.signature !== '' || verification.signer !== null || verification.payload !== '';
}

/**
 * The API view of a commit of the repository at `repoPath` (`owner/repo`, URL-escaped). A page passes one `users`
 * to all its commits: each account is then converted once for the page, not twice per commit.
 */
export function toApiCommit(view: CommitView, repoPath: string, apiView: ApiView, users = new ApiUserViews(apiView)): ApiCommit {
  const { commit } = view;
  const { settings } = apiView;
  const url = apiUrl(settings, `/repos/${repoPath}/git/commits/${commit.id}`);
  const htmlUrl = webUrl(settings, `${repoPath}/commit/${commit.id}`);
  const withFiles = Boolean(view.stat && view.files && commit.changes);
  const withStats = Boolean(view.stat && commit.changes);
  const verification = view.verification ? toApiVerification(view.verification) : null;
  const build = (): ApiCommit => {
    let files: ApiCommitAffectedFiles[] | null = null;
    if (withFiles) {
      files = [];
      // Forgejo lists the added files, then the removed, then the modified.
      for (const status of FILE_STATUS_ORDER) for (const change of commit.changes!) if (change.status === status) files.push({ filename: change.path, status });
    }
    let stats: ApiCommit['stats'] = null;
    if (withStats) {
      let additions = 0;
      let deletions = 0;
      for (const change of commit.changes!) {
        additions += change.additions;
        deletions += change.deletions;
      }
      stats = { total: additions + deletions, additions, deletions };
    }
    const committed = rfc3339(commit.committerTime);
    return {
      url,
      sha: commit.id,
      created: committed,
      html_url: htmlUrl,
      commit: {
        url,
        author: { name: commit.authorName, email: commit.authorEmail, date: rfc3339(commit.authorTime) },
        committer: { name: commit.committerName, email: commit.committerEmail, date: committed },
        message: commit.message,
        // Forgejo names the commit here, not its tree; the trees endpoint takes either.
        tree: { url: apiUrl(settings, `/repos/${repoPath}/git/trees/${commit.id}`), sha: commit.id, created: committed },
        verification,
      },
      author: view.author ? users.of(view.author) : null,
      committer: view.committer ? users.of(view.committer) : null,
      parents: commit.parents.map((sha) => ({ url: apiUrl(settings, `/repos/${repoPath}/git/commits/${sha}`), sha, created: ZERO_TIME })),
      files,
      stats,
    };
  };
  // Kept while these inputs hold: the commit's own fields, files and statistics are fixed by its id; its URLs by the
  // two given (server root and repository path); the accounts by their JSON as this viewer sees them. A signed
  // commit's verification (signature, signer, payload) is made each time.
  if (verification && showsSignature(verification)) return build();
  return keptInJson(`commit ${commit.id}`, [
    url,
    htmlUrl,
    view.author ? users.jsonOf(view.author) : null,
    view.committer ? users.jsonOf(view.committer) : null,
    verification ? verification.verified : null,
    verification ? verification.reason : null,
    withFiles,
    withStats,
  ], build);
}

/** The API view of a commit status; `creator` is its reporter's account, if it still exists. */
export function toApiCommitStatus(status: CommitStatus, repoPath: string, creator: User | undefined, apiView: ApiView): ApiCommitStatus {
  return {
    id: status.id,
    status: status.state as CommitStatusState,
    target_url: status.target_url,
    description: status.description,
    url: apiUrl(apiView.settings, `/repos/${repoPath}/statuses/${status.sha}`),
    context: status.context,
    creator: creator ? toApiUser(creator, apiView) : null,
    created_at: isoTime(status.created_unix),
    updated_at: isoTime(status.updated_unix),
  };
}
