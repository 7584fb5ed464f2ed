import type { Insertable, Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { OAuth2Application, OAuth2ApplicationTable, OAuth2Tables } from './tables.js';

/** The `oauth2_application` table. */
export class OAuth2Store extends Store<OAuth2Tables> {
  /** Compiled once: the provider looks a client up on every authorization and token request. */
  private readonly byClientIdQuery = this.precompiled<OAuth2Application, 'clientId'>('byClientId', (db, param) =>
    db.selectFrom('oauth2_application').selectAll().where('client_id', '=', param('clientId')),
  );

  async byClientId(clientId: string): Promise<OAuth2Application | undefined> {
    return (await this.byClientIdQuery({ clientId }))[0];
  }

  byId(id: number): Promise<OAuth2Application | undefined> {
    return this.db.selectFrom('oauth2_application').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insert(row: Insertable<OAuth2ApplicationTable>): Promise<OAuth2Application> {
    return this.db.insertInto('oauth2_application').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Updates one of a user's applications; undefined when it is not theirs or does not exist. */
  updateOne(uid: number, id: number, changes: Updateable<OAuth2ApplicationTable>): Promise<OAuth2Application | undefined> {
    return this.db
      .updateTable('oauth2_application')
      .set(changes)
      .where('id', '=', id)
      .where('uid', '=', uid)
      .returningAll()
      .executeTakeFirst();
  }

  /** A user's applications, newest first (as Forgejo lists them). */
  listOf(uid: number, page: PageRequest): Promise<Page<OAuth2Application>> {
    const base = this.db.selectFrom('oauth2_application').where('uid', '=', uid);
    return Store.page(
      base.selectAll().orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Deletes one of a user's applications; true when it existed. */
  async deleteOne(uid: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('oauth2_application').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAllOf(uid: number): Promise<void> {
    await this.db.deleteFrom('oauth2_application').where('uid', '=', uid).execute();
  }
}
