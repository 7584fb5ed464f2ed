import type { StoreScope } from '../storage/index.js';
import type { Page, PageRequest } from '../paging.js';
import { GpgKeysStore } from './store.js';
import type { GpgKeyImport, GpgKeyWithSubkeys } from './tables.js';

/** What other domains may read of GPG keys (commit verification). The gpg store stays private to this folder. */
export class GpgPort {
  constructor(private readonly scope: StoreScope) {}

  private get keys(): GpgKeysStore {
    return this.scope.store(GpgKeysStore);
  }

  /** An owner's primary keys, oldest first, each with its subkeys (two queries for the whole page). */
  keysOf(ownerId: number, page: PageRequest): Promise<Page<GpgKeyWithSubkeys>> {
    return this.keys.listOf(ownerId, page);
  }

  /** The armored key as it was imported, by its primary key id (what a signature is checked against). */
  importOf(primaryKeyId: string): Promise<GpgKeyImport | undefined> {
    return this.keys.importOf(primaryKeyId);
  }
}
