import { Store } from '../storage/index.js';
import { nowUnix } from '../storage/index.js';
import type { RepoKey } from '../git/index.js';
import type { RepoGitIntent, ReposTables } from './tables.js';

/**
 * The kinds of change that touch git storage and the database together, as recorded before they start:
 * - `create`: storage is being made for a repository whose row does not exist yet; the transaction inserting the
 *   row deletes the intent. Left over: the row never committed, so the storage goes.
 * - `remove`: written in the transaction that deletes the row(s), deleted once the storage is gone. Left over:
 *   the storage goes (unless a row of that name exists again).
 * - `sync`: a push is running; deleted after its bookkeeping committed. Left over: the bookkeeping (emptiness,
 *   size, default branch) is derived again from the refs.
 * - `rename`: the storage of repository `repo_id` is being moved to the key the intent names (a rename or a
 *   transfer), before the transaction that changes the row deletes the intent. Left over: the row did not change,
 *   so the storage goes back to where the row says it is.
 * - `head`: HEAD is being pointed at a new default branch, before the transaction that records it deletes the
 *   intent. Left over: HEAD goes back to the row's default branch.
 * - `owner-rename`: the folder of account `repo_id` (all its repositories) is being moved to owner `owner_name`
 *   (`repo_name` is empty), before the transaction that renames the account deletes the intent. Left over: the
 *   account kept its name, so the folder goes back to it. Repaired before every other kind, so that those find
 *   storage where the rows say it is.
 * - `fork`: as `create`, for a fork's storage (made from its parent's) whose row does not exist yet. Left over: the
 *   storage goes.
 * - `merge`: a pull request (`repo_id` holds its `pull_request` id) is being merged into the repository the key
 *   names; deleted by the transaction that marks it merged. Left over: `PullMergePush.repairMerge` finishes it
 *   when the base moved (its marker ref says so), as the pulls domain's record (`pulls/domain.ts`) asks.
 * Later kinds add their op here; one of another domain is repaired by the `repairs` of that domain's record.
 */
export type GitIntentOp = 'create' | 'remove' | 'sync' | 'rename' | 'head' | 'owner-rename' | 'fork' | 'merge';

/** The `repo_git_intent` table. */
export class GitIntentStore extends Store<ReposTables> {
  async insert(op: GitIntentOp, key: RepoKey, repoId = 0): Promise<number> {
    const row = await this.db
      .insertInto('repo_git_intent')
      .values({ op, owner_name: key.owner, repo_name: key.name, repo_id: repoId, created_unix: nowUnix() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('repo_git_intent').where('id', '=', id).execute();
  }

  /** Every intent left, oldest first. */
  all(): Promise<RepoGitIntent[]> {
    return this.db.selectFrom('repo_git_intent').selectAll().orderBy('id').execute();
  }
}
