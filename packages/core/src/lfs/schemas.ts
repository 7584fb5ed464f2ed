/**
 * The wire types of the Git LFS API (Forgejo's `modules/lfs/shared.go` and `modules/structs/repo_lfs…`): the batch
 * API's request and response, the lock API's bodies. They are not part of the API v1 document.
 */
import type { LfsPointer } from './pointer.js';

export const LFS_MEDIA_TYPE = 'application/vnd.git-lfs+json';

export type LfsOperation = 'upload' | 'download';

/** Where a client sends or fetches an object. */
export interface LfsLink {
  href: string;
  header?: Record<string, string>;
  expires_at?: string;
}

export interface LfsObjectError {
  code: number;
  message: string;
}

export interface LfsObjectResponse {
  oid: string;
  size: number;
  actions?: Partial<Record<'download' | 'upload' | 'verify', LfsLink>>;
  error?: LfsObjectError;
}

export interface LfsBatchResponse {
  objects: LfsObjectResponse[];
}

export interface LfsBatchRequest {
  operation: LfsOperation;
  objects: LfsPointer[];
}

export interface ApiLfsLock {
  id: string;
  path: string;
  locked_at: string;
  owner: { name: string };
}

export interface ApiLfsLockList {
  locks: ApiLfsLock[];
  next_cursor?: string;
}

export interface ApiLfsLockListVerify {
  ours: ApiLfsLock[];
  theirs: ApiLfsLock[];
  next_cursor?: string;
}

/** What `git-lfs-authenticate` prints: where the LFS API is and the header that authenticates there. */
export interface LfsTokenResponse {
  header: Record<string, string>;
  href: string;
  expires_at: string;
}

/** Which page of locks: `cursor` as the previous page's `next_cursor` said, `limit` capped by LFS_LOCKS_PAGING_NUM. */
export interface LfsLockPaging {
  cursor?: string | number | null;
  limit?: string | number | null;
}
