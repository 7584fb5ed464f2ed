import type { Insertable } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { AccessToken, AccessTokenTable, TokensTables } from './tables.js';

/** The `access_token` table. */
export class TokensStore extends Store<TokensTables> {
  /** Compiled once: every token-authenticated request looks its token up by the last eight characters. */
  private readonly byLastEightQuery = this.precompiled<AccessToken, 'lastEight'>('byLastEight', (db, param) =>
    db.selectFrom('access_token').selectAll().where('token_last_eight', '=', param('lastEight')),
  );

  byLastEight(lastEight: string): Promise<AccessToken[]> {
    return this.byLastEightQuery({ lastEight });
  }

  private readonly repoIdsQuery = this.precompiled<{ repo_id: number }, 'tokenId'>('repoIdsOfToken', (db, param) =>
    db.selectFrom('access_token_resource_repo').select('repo_id').where('token_id', '=', param('tokenId')),
  );

  /** The repositories a repository-limited token is for (read when such a token authenticates). */
  async repoIdsOf(tokenId: number): Promise<number[]> {
    return (await this.repoIdsQuery({ tokenId })).map((r) => Number(r.repo_id));
  }

  /** The repositories of each of these tokens, by token id. */
  async repoIdsOfTokens(tokenIds: readonly number[]): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>();
    if (tokenIds.length === 0) return result;
    const rows = await this.db.selectFrom('access_token_resource_repo').select(['token_id', 'repo_id']).where('token_id', 'in', [...tokenIds]).orderBy('id').execute();
    for (const row of rows) result.set(Number(row.token_id), [...(result.get(Number(row.token_id)) ?? []), Number(row.repo_id)]);
    return result;
  }

  async insertRepos(tokenId: number, repoIds: readonly number[], now: number): Promise<void> {
    if (repoIds.length === 0) return;
    await this.db.insertInto('access_token_resource_repo').values(repoIds.map((repo_id) => ({ token_id: tokenId, repo_id, created_unix: now }))).execute();
  }

  insert(row: Insertable<AccessTokenTable>): Promise<AccessToken> {
    return this.db.insertInto('access_token').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** A user's tokens, newest first. */
  listOf(uid: number, page: PageRequest): Promise<Page<AccessToken>> {
    const base = this.db.selectFrom('access_token').where('uid', '=', uid);
    return Store.page(
      base.selectAll().orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Deletes one of a user's tokens by id or by name; true when it existed. */
  async deleteOne(uid: number, key: { id: number } | { name: string }): Promise<boolean> {
    const query = this.db.deleteFrom('access_token').where('uid', '=', uid);
    const result = await ('id' in key ? query.where('id', '=', key.id) : query.where('name', '=', key.name)).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAllOf(uid: number): Promise<void> {
    await this.db.deleteFrom('access_token').where('uid', '=', uid).execute();
  }
}
