import { sql, type Updateable } from 'kysely';
import { nowUnix } from '../storage/index.js';
import { Store } from '../storage/index.js';
import type { ApiLabelTemplate } from '../templates/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { LabelSort } from './schemas.js';
import type { Label, LabelTable, LabelsTables, NewLabel } from './tables.js';

const LABEL_ORDERINGS: Record<LabelSort, readonly (readonly ['name' | 'num_issues' | 'id', 'asc' | 'desc'])[]> = {
  alphabetically: [['name', 'asc'], ['id', 'asc']],
  reversealphabetically: [['name', 'desc'], ['id', 'desc']],
  leastissues: [['num_issues', 'asc'], ['id', 'asc']],
  mostissues: [['num_issues', 'desc'], ['id', 'asc']],
};

/** Past this many values a lookup stops binding one parameter each (SQLite allows 32766 per statement). */
const MAX_BOUND_VALUES = 500;

/** The `label` table. */
export class LabelsStore extends Store<LabelsTables> {
  /** Creates a repository's labels from templates (a label set), in one statement. */
  async insertMany(repoId: number, templates: readonly ApiLabelTemplate[]): Promise<void> {
    if (templates.length === 0) return;
    const now = nowUnix();
    await this.db
      .insertInto('label')
      .values(
        templates.map((t) => ({
          repo_id: repoId,
          org_id: 0,
          name: t.name,
          exclusive: t.exclusive ? 1 : 0,
          description: t.description,
          // Stored as Forgejo stores it; templates carry the API form without `#`.
          color: t.color.startsWith('#') ? t.color : `#${t.color}`,
          num_issues: 0,
          num_closed_issues: 0,
          created_unix: now,
          updated_unix: now,
          archived_unix: 0,
        })),
      )
      .execute();
  }

  /** A repository's labels, by name (Forgejo's default order). */
  listOfRepo(repoId: number): Promise<Label[]> {
    return this.db.selectFrom('label').selectAll().where('repo_id', '=', repoId).orderBy('name').orderBy('id').execute();
  }

  /** A page of a repository's labels and their count. */
  pageOfRepo(repoId: number, page: PageRequest, sort: LabelSort): Promise<Page<Label>> {
    const base = this.db.selectFrom('label').where('repo_id', '=', repoId);
    let query = base.selectAll();
    for (const [column, direction] of LABEL_ORDERINGS[sort]) query = query.orderBy(column, direction);
    return Store.page(query.limit(page.limit).offset(offsetOf(page)).execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /** Labels by id, in one query. */
  byIds(ids: readonly number[]): Promise<Label[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('label').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  /** A page of an organization's labels and their count. */
  pageOfOrg(orgId: number, page: PageRequest, sort: LabelSort): Promise<Page<Label>> {
    const base = this.db.selectFrom('label').where('org_id', '=', orgId).where('repo_id', '=', 0);
    let query = base.selectAll();
    for (const [column, direction] of LABEL_ORDERINGS[sort]) query = query.orderBy(column, direction);
    return Store.page(query.limit(page.limit).offset(offsetOf(page)).execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /** One label, wherever it lives. */
  byId(id: number): Promise<Label | undefined> {
    return this.db.selectFrom('label').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** One label of a repository. */
  byIdInRepo(repoId: number, id: number): Promise<Label | undefined> {
    return this.db.selectFrom('label').selectAll().where('id', '=', id).where('repo_id', '=', repoId).executeTakeFirst();
  }

  /** One label of an organization. */
  byIdInOrg(orgId: number, id: number): Promise<Label | undefined> {
    return this.db.selectFrom('label').selectAll().where('id', '=', id).where('org_id', '=', orgId).where('repo_id', '=', 0).executeTakeFirst();
  }

  /**
   * The labels an issue of the repository may carry: its own, and those of its owner when the owner is an
   * organization (`ownerId`; a user owns no labels, so the condition never matches for one).
   */
  async usableIn(repoId: number, ownerId: number, ids: readonly number[]): Promise<Label[]> {
    const wanted = new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0));
    if (wanted.size === 0) return [];
    // A long list (a client may send thousands) is matched in memory against the few labels usable here,
    // rather than bound as that many parameters.
    if (wanted.size > MAX_BOUND_VALUES) return (await this.allUsableIn(repoId, ownerId)).filter((l) => wanted.has(l.id));
    return this.db
      .selectFrom('label')
      .selectAll()
      .where('id', 'in', [...wanted])
      .where((eb) => eb.or([eb('repo_id', '=', repoId), eb.and([eb('repo_id', '=', 0), eb('org_id', '=', ownerId)])]))
      .execute();
  }

  /** Labels usable in the repository (see `usableIn`) with one of these exact names, by id. */
  async namedIn(repoId: number, ownerId: number, names: readonly string[]): Promise<Label[]> {
    const wanted = new Set(names);
    if (wanted.size === 0) return [];
    if (wanted.size > MAX_BOUND_VALUES) return (await this.allUsableIn(repoId, ownerId)).filter((l) => wanted.has(l.name));
    return this.db
      .selectFrom('label')
      .selectAll()
      .where('name', 'in', [...wanted])
      .where((eb) => eb.or([eb('repo_id', '=', repoId), eb.and([eb('repo_id', '=', 0), eb('org_id', '=', ownerId)])]))
      .orderBy('id')
      .execute();
  }

  /** Every label usable in the repository, by id. */
  private allUsableIn(repoId: number, ownerId: number): Promise<Label[]> {
    return this.db
      .selectFrom('label')
      .selectAll()
      .where((eb) => eb.or([eb('repo_id', '=', repoId), eb.and([eb('repo_id', '=', 0), eb('org_id', '=', ownerId)])]))
      .orderBy('id')
      .execute();
  }

  /**
   * Ids of the labels some issue carries (counted above zero) among those a repository's issues may carry, or,
   * with `repoId` null, among the organization's own.
   */
  async idsInUse(repoId: number | null, ownerId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('label')
      .select('id')
      .where('num_issues', '>', 0)
      .where((eb) => {
        const ofOrg = eb.and([eb('repo_id', '=', 0), eb('org_id', '=', ownerId)]);
        return repoId === null ? ofOrg : eb.or([eb('repo_id', '=', repoId), ofOrg]);
      })
      .execute();
    return rows.map((r) => Number(r.id));
  }

  insert(row: NewLabel): Promise<Label> {
    return this.db.insertInto('label').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<LabelTable>): Promise<Label> {
    return this.db.updateTable('label').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('label').where('id', '=', id).execute();
  }

  /**
   * Takes these labels' row locks until the transaction ends (PostgreSQL, lowest id first; SQLite runs one writer at a
   * time), before their issues are counted: concurrent recounts of one label then count and write in turn.
   */
  async lockRows(labelIds: readonly number[]): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres' || !this.scope.inTransaction || labelIds.length === 0) return;
    await this.db.selectFrom('label').select('id').where('id', 'in', [...new Set(labelIds)]).orderBy('id').forUpdate().execute();
  }

  /**
   * Stores issue counts for these labels in one statement; a label missing from `counts` is on no issue.
   * The issues domain counts (`IssueLabelsStore.countsOf`), since it owns the rows counted.
   */
  async setCounts(labelIds: readonly number[], counts: ReadonlyMap<number, { total: number; closed: number }>): Promise<void> {
    const ids = [...new Set(labelIds)];
    if (ids.length === 0) return;
    const column = (pick: (c: { total: number; closed: number }) => number) =>
      sql<number>`case ${sql.join(
        ids.map((id) => sql`when id = ${id} then ${pick(counts.get(id) ?? { total: 0, closed: 0 })}`),
        sql` `,
      )} else 0 end`;
    await this.db
      .updateTable('label')
      .set({ num_issues: column((c) => c.total), num_closed_issues: column((c) => c.closed) })
      .where('id', 'in', ids)
      .execute();
  }

  /** Deletes an organization's labels (when the organization goes). */
  async deleteOfOrg(orgId: number): Promise<void> {
    await this.db.deleteFrom('label').where('org_id', '=', orgId).where('repo_id', '=', 0).execute();
  }

  /** Deletes a repository's labels (when the repository goes). */
  async deleteOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('label').where('repo_id', '=', repoId).execute();
  }
}
