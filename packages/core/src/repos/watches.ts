import { Store } from '../storage/store.js';
import { nowUnix } from '../storage/database.js';
import type { ReposTables } from './tables.js';

/** Forgejo's watch modes. */
export const WatchMode = { Normal: 1, Dont: 2, Auto: 3 } as const;

/** The `watch` table: who follows a repository's activity. `repository.num_watches` is kept by the caller. */
export class WatchesStore extends Store<ReposTables> {
  async watch(userId: number, repoId: number, mode: number = WatchMode.Normal): Promise<void> {
    const now = nowUnix();
    await this.db
      .insertInto('watch')
      .values({ user_id: userId, repo_id: repoId, mode, created_unix: now, updated_unix: now })
      .onConflict((oc) => oc.columns(['user_id', 'repo_id']).doUpdateSet({ mode, updated_unix: now }))
      .execute();
  }

  async isWatching(userId: number, repoId: number): Promise<boolean> {
    const row = await this.db.selectFrom('watch').select('mode').where('user_id', '=', userId).where('repo_id', '=', repoId).executeTakeFirst();
    return row !== undefined && row.mode !== WatchMode.Dont;
  }
}
