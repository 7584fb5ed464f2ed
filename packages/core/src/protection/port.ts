import type { StoreScope } from '../storage/index.js';
import { ProtectionStore } from './store.js';
import type { BranchRule } from './tables.js';

/** What other domains may read of branch protection. The protection stores stay private to this folder. */
export class ProtectionPort {
  constructor(private readonly scope: StoreScope) {}

  /** The repository's branch rules in the order they apply (compiled once: reviews read the base branch's rule). */
  branchRules(repoId: number): Promise<BranchRule[]> {
    return this.scope.store(ProtectionStore).branchRules(repoId);
  }
}
