import { Store } from '../storage/index.js';
import { isStorableText } from '../storage/index.js';
import type { RedirectsTables } from './tables.js';

/**
 * The `repo_redirect` and `user_redirect` tables. Names are stored and looked up lower-cased. Rows pointing at a
 * deleted repository or account go with it (foreign keys), so this store never cleans up after deletions.
 */
export class RedirectsStore extends Store<RedirectsTables> {
  /** The repository that `lowerName` under owner `ownerId` was renamed or transferred to. */
  async repoTarget(ownerId: number, lowerName: string): Promise<number | undefined> {
    if (!isStorableText(lowerName)) return undefined;
    const row = await this.db
      .selectFrom('repo_redirect')
      .select('redirect_repo_id')
      .where('owner_id', '=', ownerId)
      .where('lower_name', '=', lowerName)
      .executeTakeFirst();
    return row?.redirect_repo_id;
  }

  /** The account once called `lowerName`. */
  async userTarget(lowerName: string): Promise<number | undefined> {
    if (!isStorableText(lowerName)) return undefined;
    const row = await this.db.selectFrom('user_redirect').select('redirect_user_id').where('lower_name', '=', lowerName).executeTakeFirst();
    return row?.redirect_user_id;
  }

  /** Points `lowerName` under `ownerId` at `repoId`, replacing whatever it pointed at. Run inside a transaction. */
  async pointRepoName(ownerId: number, lowerName: string, repoId: number): Promise<void> {
    await this.forgetRepoName(ownerId, lowerName);
    await this.db.insertInto('repo_redirect').values({ owner_id: ownerId, lower_name: lowerName, redirect_repo_id: repoId }).execute();
  }

  /** The name is a repository's again (or never was a redirect): it stops redirecting. */
  async forgetRepoName(ownerId: number, lowerName: string): Promise<void> {
    await this.db.deleteFrom('repo_redirect').where('owner_id', '=', ownerId).where('lower_name', '=', lowerName).execute();
  }

  /** Points account name `lowerName` at `userId`, replacing whatever it pointed at. Run inside a transaction. */
  async pointUserName(lowerName: string, userId: number, now: number): Promise<void> {
    await this.forgetUserName(lowerName);
    await this.db.insertInto('user_redirect').values({ lower_name: lowerName, redirect_user_id: userId, created_unix: now }).execute();
  }

  /** The name is an account's again: it stops redirecting. */
  async forgetUserName(lowerName: string): Promise<void> {
    await this.db.deleteFrom('user_redirect').where('lower_name', '=', lowerName).execute();
  }
}
