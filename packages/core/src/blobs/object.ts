import type { ObjectStorageConfig } from './config.js';
import type { S3BlobStorage } from './s3.js';
import type { BlobSource, BlobStorage, ByteRange, ListedBlob, PutBlobOptions, PutBlobResult, StoredBlob } from './storage.js';

/**
 * A blob space on object storage, as the host holds it: the S3 client (`s3.ts`, and the AWS SDK with it) is loaded
 * on first use, so an installation on local storage never loads it, and one on object storage not before it must.
 */
export class ObjectBlobStorage implements BlobStorage {
  private loaded: Promise<S3BlobStorage> | undefined;

  constructor(
    readonly config: ObjectStorageConfig,
    /** The blob space, named in errors. */
    readonly space: string,
  ) {}

  private storage(): Promise<S3BlobStorage> {
    this.loaded ??= import('./s3.js').then(({ S3BlobStorage }) => new S3BlobStorage(this.config, this.space));
    return this.loaded;
  }

  async put(key: string, source: BlobSource, options?: PutBlobOptions): Promise<PutBlobResult> {
    return (await this.storage()).put(key, source, options);
  }

  async get(key: string, range?: ByteRange): Promise<StoredBlob | undefined> {
    return (await this.storage()).get(key, range);
  }

  async delete(key: string): Promise<void> {
    return (await this.storage()).delete(key);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.storage()).exists(key);
  }

  async *list(prefix?: string): AsyncIterable<ListedBlob> {
    yield* (await this.storage()).list(prefix);
  }

  async cleanup(options?: { olderThanMs?: number }): Promise<number> {
    return (await this.storage()).cleanup(options);
  }

  async directUrl(key: string, filename: string): Promise<string | undefined> {
    if (!this.config.serveDirect) return undefined;
    return (await this.storage()).directUrl(key, filename);
  }

  /** See `S3BlobStorage.ensureBucket`. */
  async ensureBucket(): Promise<void> {
    return (await this.storage()).ensureBucket();
  }

  /** Closes the client's connections, if it was ever loaded. */
  async close(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    if (loaded) (await loaded.catch(() => undefined))?.close();
  }
}
