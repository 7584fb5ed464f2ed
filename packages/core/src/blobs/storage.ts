import type { Readable } from 'node:stream';
import { PayloadTooLargeError, UnavailableError } from '../errors.js';

/**
 * Where uploaded files live (attachments now; release assets, LFS objects and package blobs later): a flat space
 * of keys, each holding the bytes of one blob. A key is a relative path of plain segments (`a/b/ab12…`); what a
 * key means is the caller's business, so a content-addressed store is a caller that names blobs by their hash.
 *
 * Implementations must make `put` all-or-nothing: a reader never sees half a blob, and a write that fails (the
 * source errs, the limit is passed, the process dies) leaves nothing under the key. What an interrupted write
 * left aside is removed by `cleanup()`.
 */
export interface BlobStorage {
  /**
   * Stores the bytes `source` yields under `key`, replacing what was there. Refuses with `BlobTooLargeError` as
   * soon as more than `maxBytes` arrive (the rest of the source is not read).
   */
  put(key: string, source: BlobSource, options?: PutBlobOptions): Promise<PutBlobResult>;
  /**
   * The blob's size and bytes (only those of `range` when given: `start` to `end` inclusive, clamped to the
   * blob); undefined when there is none under the key.
   */
  get(key: string, range?: ByteRange): Promise<StoredBlob | undefined>;
  /** Removes the blob; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every stored key (under `prefix` when given) with when it was written; for sweeps of orphaned blobs. */
  list(prefix?: string): AsyncIterable<ListedBlob>;
  /**
   * Removes what interrupted writes left aside (temporary files, unfinished multipart uploads) that is older than
   * `olderThanMs` (default: all of it). With several processes on one storage, pass an age no write takes.
   */
  cleanup(options?: { olderThanMs?: number }): Promise<number>;
  /**
   * Where a client may fetch the blob itself for a while (Forgejo's `SERVE_DIRECT`: a presigned URL of the object,
   * which offers it as a download named `filename`); undefined when the storage serves no blob directly.
   */
  directUrl?(key: string, filename: string): Promise<string | undefined>;
}

/** Bytes to store: a Node stream, a web stream, or any async iterable of chunks. */
export type BlobSource = AsyncIterable<Uint8Array>;

export interface PutBlobOptions {
  /** Largest size accepted, in bytes; absent or negative: no limit. */
  maxBytes?: number;
  /** Also compute the SHA-256 of the bytes (content-addressed callers name blobs by it). */
  sha256?: boolean;
}

export interface PutBlobResult {
  size: number;
  /** Lower-case hex, when asked for. */
  sha256?: string;
}

/** Bytes `start` to `end` (inclusive; absent: to the end) of a blob. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface StoredBlob {
  /** The whole blob's size, whatever range was asked for. */
  size: number;
  /** Last written, in milliseconds since the epoch. */
  modifiedMs: number;
  /** The bytes; read it once (or destroy it), or the file stays open. */
  stream: Readable;
}

export interface ListedBlob {
  key: string;
  modifiedMs: number;
}

/** An upload passed its size limit (`limit` bytes). */
export class BlobTooLargeError extends PayloadTooLargeError {
  constructor(readonly limit: number) {
    super(`attachment exceeds limit ${limit}`);
    this.name = 'BlobTooLargeError';
  }
}

/** Seconds a client is told to wait (`Retry-After`) when the object storage cannot be reached. */
export const OBJECT_STORAGE_RETRY_AFTER_SECONDS = 10;

/**
 * The object storage of a blob space could not be reached, or did not answer in time (`[storage]
 * MINIO_CONNECT_TIMEOUT`, `MINIO_REQUEST_TIMEOUT`), or said it is overloaded: a 503 with `Retry-After`. Nothing was
 * stored. `cause` is the client's error, for logs: its text may name the storage's address.
 */
export class ObjectStorageUnavailableError extends UnavailableError {
  override name = 'ObjectStorageUnavailableError';
  constructor(message: string, cause: unknown) {
    super(message, OBJECT_STORAGE_RETRY_AFTER_SECONDS);
    this.cause = cause;
  }
}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** Whether `key` is a relative path of plain segments: no `..`, no hidden or empty segment. */
export function isBlobKey(key: string): boolean {
  return key.length > 0 && key.length <= 1024 && key.split('/').every((segment) => SEGMENT.test(segment));
}

/** Throws unless `key` is a relative path of plain segments: no `..`, no hidden or empty segment. */
export function assertBlobKey(key: string): void {
  if (!isBlobKey(key)) throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
}
