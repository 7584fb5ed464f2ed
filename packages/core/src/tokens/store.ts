import type { Insertable } from 'kysely';
import { Store } from '../storage/store.js';
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
