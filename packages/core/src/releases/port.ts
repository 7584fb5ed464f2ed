import type { StoreScope } from '../storage/index.js';
import { ReleasesStore } from './store.js';
import type { NewRelease, Release } from './tables.js';

/** What other domains (a migration) may read and write of releases. The releases stores stay private to this folder. */
export class ReleasesPort {
  constructor(private readonly scope: StoreScope) {}

  private get releases(): ReleasesStore {
    return this.scope.store(ReleasesStore);
  }

  /** The release on this tag (any case), if any: a migration skips a tag already released. */
  byTag(repoId: number, tagName: string): Promise<Release | undefined> {
    return this.releases.byTag(repoId, tagName);
  }

  /** Adds a release row (a migrated one); the caller keeps the repository's release count in the same transaction. */
  insert(row: NewRelease): Promise<Release> {
    return this.releases.insert(row);
  }

  /** Releases that are neither drafts nor tag-only rows: what the repository's `num_releases` is set to. */
  countPublished(repoId: number): Promise<number> {
    return this.releases.countPublished(repoId);
  }
}
