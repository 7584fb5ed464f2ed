import { nowUnix } from '../storage/database.js';
import { Store } from '../storage/store.js';
import type { ApiLabelTemplate } from '../templates/schemas.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { LabelSort } from './schemas.js';
import type { Label, LabelsTables } from './tables.js';

const LABEL_ORDERINGS: Record<LabelSort, readonly (readonly ['name' | 'num_issues' | 'id', 'asc' | 'desc'])[]> = {
  alphabetically: [['name', 'asc'], ['id', 'asc']],
  reversealphabetically: [['name', 'desc'], ['id', 'desc']],
  leastissues: [['num_issues', 'asc'], ['id', 'asc']],
  mostissues: [['num_issues', 'desc'], ['id', 'asc']],
};

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

  /** Deletes a repository's labels (when the repository goes). */
  async deleteOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('label').where('repo_id', '=', repoId).execute();
  }
}
