/**
 * The `content` of a push's feed entry: Forgejo's `PushCommits` as Go's encoding/json writes it (field names as
 * declared, HTML characters escaped), so clients that parse Forgejo's feeds read ours.
 */
import type { LoggedCommit } from '../git/index.js';

interface PushCommitJson {
  Sha1: string;
  Message: string;
  AuthorEmail: string;
  AuthorName: string;
  CommitterEmail: string;
  CommitterName: string;
  Timestamp: string;
}

export interface PushCommitsJson {
  /** Newest first; null where Forgejo leaves the list unset (tags). */
  Commits: PushCommitJson[] | null;
  HeadCommit: PushCommitJson | null;
  CompareURL: string;
  Len: number;
}

/** A commit as Forgejo's `CommitToPushCommit` keeps it: the author's time is the commit's time. */
export function toPushCommit(commit: LoggedCommit): PushCommitJson {
  return {
    Sha1: commit.id,
    Message: commit.message,
    AuthorEmail: commit.authorEmail,
    AuthorName: commit.authorName,
    CommitterEmail: commit.committerEmail,
    CommitterName: commit.committerName,
    Timestamp: goTime(commit.authorTime),
  };
}

/** Go writes a zero UTC offset as `Z`; git's strict ISO format writes `+00:00`. */
function goTime(iso: string): string {
  return iso.replace(/[+-]00:00$/, 'Z');
}

const GO_ESCAPES: Readonly<Record<string, string>> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** JSON as Go's encoding/json writes it: HTML-significant characters and line separators escaped. */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c] ?? c);
}
