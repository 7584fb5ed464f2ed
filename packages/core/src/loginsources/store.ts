import type { Insertable, Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import type { LoginSourceRow, LoginSourceTable, LoginSourcesTables } from './tables.js';

/** The `login_source` table. */
export class LoginSourcesStore extends Store<LoginSourcesTables> {
  /** Compiled once: every sign-in of a directory account reads its source. */
  private readonly byIdQuery = this.precompiled<LoginSourceRow, 'id'>('byId', (db, param) =>
    db.selectFrom('login_source').selectAll().where('id', '=', param('id')),
  );

  async byId(id: number): Promise<LoginSourceRow | undefined> {
    return (await this.byIdQuery({ id }))[0];
  }

  /** Every source, by id. A site has a handful: no paging. */
  list(options: { activeOnly?: boolean } = {}): Promise<LoginSourceRow[]> {
    let query = this.db.selectFrom('login_source').selectAll();
    if (options.activeOnly) query = query.where('is_active', '=', 1);
    return query.orderBy('id').execute();
  }

  async insert(row: Insertable<LoginSourceTable>): Promise<LoginSourceRow> {
    return this.db.insertInto('login_source').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, changes: Updateable<LoginSourceTable>): Promise<LoginSourceRow | undefined> {
    return this.db.updateTable('login_source').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('login_source').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
