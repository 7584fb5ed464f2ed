import type { StoreScope } from '../storage/index.js';
import { PullsStore } from './store.js';
import { PullImportStore } from './import-store.js';
import type { NewPullRequest, PullRequest } from './tables.js';

/** What other domains may read and write of pull requests' rows. The pulls stores stay private to this folder. */
export class PullsPort {
  constructor(private readonly scope: StoreScope) {}

  /** The pull request of an issue, if the issue is one (compiled once: asked per issue view and event). */
  byIssueId(issueId: number): Promise<PullRequest | undefined> {
    return this.scope.store(PullsStore).byIssueId(issueId);
  }

  /** Writes a migration's page of pull requests, a batch of rows per statement; the rows as written. */
  importMany(rows: readonly NewPullRequest[]): Promise<PullRequest[]> {
    return this.scope.store(PullImportStore).insertMany(rows);
  }
}
