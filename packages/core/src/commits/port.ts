import type { StoreScope } from '../storage/index.js';
import type { Page, PageRequest } from '../paging.js';
import { CommitStatusesStore } from './store.js';
import type { CommitStatus } from './tables.js';

/** What other domains may read of commits' data (their statuses). The commits stores stay private to this folder. */
export class CommitsPort {
  constructor(private readonly scope: StoreScope) {}

  /** The newest status of each context of a commit, a page of them (a merge checks the required contexts). */
  latestStatusesOf(repoId: number, sha: string, page: PageRequest): Promise<Page<CommitStatus>> {
    return this.scope.store(CommitStatusesStore).latestOf(repoId, sha, page);
  }
}
