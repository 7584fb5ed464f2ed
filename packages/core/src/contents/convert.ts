import type { Settings } from '../config/index.js';
import type { ContentsEntry, Signature } from '../git/index.js';
import type { RepoAccess } from '../repos/index.js';
import { apiUrl, webUrl } from '../urls.js';
import type { ApiContentsResponse, ApiFileCommitResponse, ApiPayloadCommitVerification } from './schemas.js';

/** What a ref names, as Forgejo's URLs spell it (`/src/branch/…`, `/raw/tag/…`, `/src/commit/…`). */
export type RefKind = 'branch' | 'tag' | 'commit';

export interface ContentsView {
  settings: Settings;
  access: RepoAccess;
  /** The ref as the web URLs name it (a branch or tag name, or a full commit id). */
  ref: string;
  kind: RefKind;
  /** The ref as the caller gave it: the API `url` repeats it. */
  requestedRef: string;
}

/** What a commit made through the API has not got: a signature. */
export const UNSIGNED_VERIFICATION: ApiPayloadCommitVerification = {
  verified: false,
  reason: 'gpg.error.not_signed_commit',
  signature: '',
  signer: null,
  payload: '',
};

const ZERO_TIME = '0001-01-01T00:00:00Z';

/** Each path segment escaped, slashes kept (Go's `util.PathEscapeSegments`). */
function escapeSegments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Go prints a zero offset as `Z`. */
function goTime(iso: string): string {
  return iso.replace(/[+-]00:00$/, 'Z');
}

function repoPath(access: RepoAccess): string {
  return `${access.owner.name}/${access.repo.name}`;
}

/** A tree entry as `ContentsResponse`; `withContent` is a file read alone (a listing carries no content). */
export function toApiContents(entry: ContentsEntry, view: ContentsView, withContent: boolean): ApiContentsResponse {
  const base = repoPath(view.access);
  const self = apiUrl(view.settings, `/repos/${base}/contents/${escapeSegments(entry.path)}?ref=${encodeURIComponent(view.requestedRef)}`);
  const isFile = entry.type === 'blob' && entry.mode !== '120000';
  const isLink = entry.mode === '120000';
  const isSubmodule = entry.type === 'commit';
  const type = isSubmodule ? 'submodule' : entry.type === 'tree' ? 'dir' : isLink ? 'symlink' : 'file';
  const refPath = `${encodeURIComponent(view.kind)}/${escapeSegments(view.ref)}/${escapeSegments(entry.path)}`;
  const htmlUrl = isSubmodule ? null : webUrl(view.settings, `${base}/src/${refPath}`);
  const gitUrl = isSubmodule ? null : apiUrl(view.settings, `/repos/${base}/git/blobs/${entry.id}`);
  return {
    name: entry.name,
    path: entry.path,
    sha: entry.id,
    last_commit_sha: entry.lastCommit?.id ?? '',
    last_commit_when: entry.lastCommit ? goTime(entry.lastCommit.when) : ZERO_TIME,
    last_committer_date: entry.lastCommit ? goTime(entry.lastCommit.when) : null,
    last_author_date: entry.lastCommit ? goTime(entry.lastCommit.authorWhen) : null,
    type,
    size: entry.size,
    encoding: isFile && withContent ? 'base64' : null,
    content: isFile && withContent ? (entry.content?.toString('base64') ?? '') : null,
    target: isLink ? (entry.target ?? '') : null,
    url: self,
    html_url: htmlUrl,
    git_url: gitUrl,
    download_url: isFile || isLink ? webUrl(view.settings, `${base}/raw/${refPath}`) : null,
    submodule_git_url: isSubmodule ? (entry.submoduleUrl ?? null) : null,
    _links: { self, git: gitUrl, html: htmlUrl },
  };
}

export interface CommittedFiles {
  id: string;
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

function commitUser(sig: Signature) {
  return { name: sig.name, email: sig.email, date: `${(sig.when ?? new Date(0)).toISOString().slice(0, 19)}Z` };
}

/** The commit a file change made, as `FileCommitResponse`. */
export function toApiFileCommit(settings: Settings, access: RepoAccess, commit: CommittedFiles): ApiFileCommitResponse {
  const base = `/repos/${repoPath(access)}`;
  return {
    url: apiUrl(settings, `${base}/git/commits/${commit.id}`),
    sha: commit.id,
    created: ZERO_TIME,
    html_url: webUrl(settings, `${repoPath(access)}/commit/${commit.id}`),
    author: commitUser(commit.author),
    committer: commitUser(commit.committer),
    parents: commit.parents.map((id) => ({ url: apiUrl(settings, `${base}/git/commits/${id}`), sha: id, created: ZERO_TIME })),
    message: commit.message,
    tree: { url: apiUrl(settings, `${base}/git/trees/${commit.tree}`), sha: commit.tree, created: ZERO_TIME },
  };
}
