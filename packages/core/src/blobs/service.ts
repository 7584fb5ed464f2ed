import type { CoreContext } from '../context.js';
import { ConfigError } from '../config/index.js';
import { resolveBlobStorages, type StorageConfig, type StorageKind } from './config.js';
import { LocalBlobStorage } from './local.js';
import { ObjectBlobStorage } from './object.js';
import type { BlobStorage } from './storage.js';

/**
 * The blob spaces the host keeps, each a folder or a prefix in a bucket, as Forgejo has them: attachments (and
 * release assets), package files, user avatars, repository avatars, Actions artifacts and Git LFS objects.
 */
export type BlobSpace = 'attachments' | 'packages' | 'avatars' | 'repo-avatars' | 'actions_artifacts' | 'lfs';

/** Every blob space (for checks that visit them all). */
export const BLOB_SPACES: readonly BlobSpace[] = ['attachments', 'packages', 'avatars', 'repo-avatars', 'actions_artifacts', 'lfs'];

/**
 * The host's blob storages, one per space, built on first use from the storage settings (`[storage]` and each
 * kind's section, resolved by `resolveBlobStorages`): a folder (`LocalBlobStorage`), or objects in an S3-compatible
 * bucket (`ObjectBlobStorage`, whose client loads on first use). An embedder may put another implementation in place
 * with `use` before the space is first used.
 */
export class BlobsService {
  private readonly spaces = new Map<BlobSpace, BlobStorage>();
  private resolved: Record<StorageKind, StorageConfig> | undefined;

  constructor(private readonly ctx: CoreContext) {}

  /** Where each kind of file lives, as the settings say; resolved once (a ConfigError for settings that make no sense). */
  get configuration(): Readonly<Record<StorageKind, StorageConfig>> {
    this.resolved ??= resolveBlobStorages(this.ctx.settings);
    return this.resolved;
  }

  storage(space: BlobSpace): BlobStorage {
    let storage = this.spaces.get(space);
    if (!storage) {
      const config = this.configuration[space];
      storage = config.type === 'local' ? new LocalBlobStorage(config.path) : new ObjectBlobStorage(config, space);
      this.spaces.set(space, storage);
    }
    return storage;
  }

  /** Serves a space from `storage` from now on. */
  use(space: BlobSpace, storage: BlobStorage): void {
    this.spaces.set(space, storage);
  }

  /**
   * At start: the settings resolve, and every bucket a space uses exists and answers, made when missing (Forgejo's
   * `MakeBucket`). Fails with a ConfigError of one line naming the space, the bucket and what is wrong: a server
   * that cannot store uploads does not start.
   */
  async prepare(): Promise<void> {
    const configuration = this.configuration;
    const checked = new Set<string>();
    for (const space of BLOB_SPACES) {
      const storage = this.storage(space);
      if (!(storage instanceof ObjectBlobStorage)) continue;
      const config = configuration[space];
      if (config.type !== 'minio') continue;
      const bucket = `${config.useSSL ? 'https' : 'http'}://${config.endpoint}/${config.bucket} ${config.accessKeyId}`;
      if (checked.has(bucket)) continue;
      checked.add(bucket);
      try {
        await storage.ensureBucket();
      } catch (error) {
        await this.close();
        throw new ConfigError(`[${config.section}] object storage of ${space}: bucket "${config.bucket}" at ${config.endpoint}: ${(error as Error).message}`);
      }
    }
  }

  /** Closes the connections object storages keep. */
  async close(): Promise<void> {
    for (const storage of this.spaces.values()) {
      if (storage instanceof ObjectBlobStorage) await storage.close();
    }
  }
}
