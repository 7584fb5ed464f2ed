import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { ReposTables } from './tables.js';

/** `num_releases` of a repository, which the releases domain counts (published releases) and sets here. */
export class RepoReleaseCountStore extends Store<ReposTables> {
  /**
   * Takes the repository row's write lock for the rest of the transaction (a no-op update), so that transactions
   * changing one repository's releases run one after the other and each counts what the previous committed.
   */
  async lock(repoId: number): Promise<void> {
    await this.db.updateTable('repository').set({ num_releases: sql`num_releases` }).where('id', '=', repoId).execute();
  }

  async set(repoId: number, count: number): Promise<void> {
    await this.db.updateTable('repository').set({ num_releases: count }).where('id', '=', repoId).execute();
  }
}
