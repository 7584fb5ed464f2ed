import path from 'node:path';
import type { CoreContext } from '../context.js';
import { LocalBlobStorage } from './local.js';
import type { BlobStorage } from './storage.js';

/** The blob spaces the host keeps, each its own folder (or bucket, for object storage) as Forgejo has them. */
export type BlobSpace = 'attachments' | 'packages';

/**
 * The host's blob storages, one per space, built on first use: a folder under `[server] APP_DATA_PATH` named as
 * Forgejo names it (`attachments`). An embedder may put another implementation (object storage) in place with
 * `use` before the space is first used.
 */
export class BlobsService {
  private readonly spaces = new Map<BlobSpace, BlobStorage>();

  constructor(private readonly ctx: CoreContext) {}

  storage(space: BlobSpace): BlobStorage {
    let storage = this.spaces.get(space);
    if (!storage) {
      storage = new LocalBlobStorage(path.join(this.ctx.settings.server.APP_DATA_PATH, space));
      this.spaces.set(space, storage);
    }
    return storage;
  }

  /** Serves a space from `storage` from now on. */
  use(space: BlobSpace, storage: BlobStorage): void {
    this.spaces.set(space, storage);
  }
}
