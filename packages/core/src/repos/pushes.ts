import { Store } from '../storage/index.js';
import type { RefUpdate } from '../git/index.js';
import type { RepoPush, ReposTables } from './tables.js';

/** The `repo_push` table: the refs each push moved, written in the transaction that records the push. */
export class PushesStore extends Store<ReposTables> {
  async record(repoId: number, pusherId: number, updates: readonly RefUpdate[], now: number): Promise<void> {
    if (updates.length === 0) return;
    await this.db
      .insertInto('repo_push')
      .values(updates.map((u) => ({ repo_id: repoId, pusher_id: pusherId, ref_name: u.ref, old_commit_id: u.oldId, new_commit_id: u.newId, created_unix: now })))
      .execute();
  }

  /** A repository's most recent ref changes, newest first. */
  latestOf(repoId: number, limit: number): Promise<RepoPush[]> {
    return this.db.selectFrom('repo_push').selectAll().where('repo_id', '=', repoId).orderBy('id', 'desc').limit(limit).execute();
  }
}
