import type { Settings } from '../config/index.js';
import type { GitCommit } from '../git/index.js';
import { repoWebPath, type RepoAccess } from '../repos/index.js';
import { webUrl } from '../urls.js';
import { webPathToTitle, type WebPath } from './names.js';
import type { ApiWikiCommit, ApiWikiPageMetaData } from './schemas.js';

/** Go's RFC 3339 in UTC, as Forgejo's ToWikiCommit writes a signature's time. */
function utcSeconds(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : `${time.toISOString().slice(0, 19)}Z`;
}

export function toApiWikiCommit(commit: GitCommit): ApiWikiCommit {
  return {
    sha: commit.id,
    author: { name: commit.authorName, email: commit.authorEmail, date: utcSeconds(commit.authorTime) },
    commiter: { name: commit.committerName, email: commit.committerEmail, date: utcSeconds(commit.committerTime) },
    message: commit.message,
  };
}

/** A page's title, links and last revision (Forgejo's ToWikiPageMetaData). */
export function toApiWikiPageMetaData(page: WebPath, lastCommit: GitCommit, access: Pick<RepoAccess, 'owner' | 'repo'>, settings: Settings): ApiWikiPageMetaData {
  return {
    title: webPathToTitle(page),
    html_url: webUrl(settings, `${repoWebPath(access.owner, access.repo)}/wiki/${page}`),
    sub_url: page,
    last_commit: toApiWikiCommit(lastCommit),
  };
}
