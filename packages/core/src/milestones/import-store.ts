import { Store } from '../storage/index.js';
import type { Milestone, MilestonesTables, NewMilestone } from './tables.js';

/** Rows per statement: well under SQLite's limit of bound parameters. */
const CHUNK = 200;

/** Milestones written by a migration: many rows at once. */
export class MilestoneImportStore extends Store<MilestonesTables> {
  async insertMany(rows: readonly NewMilestone[]): Promise<Milestone[]> {
    const out: Milestone[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      out.push(...(await this.db.insertInto('milestone').values(rows.slice(i, i + CHUNK)).returningAll().execute()));
    }
    return out;
  }

  /** Every milestone of the repository, id and name (a re-run maps what an earlier attempt wrote). */
  namesOfRepo(repoId: number): Promise<{ id: number; name: string }[]> {
    return this.db.selectFrom('milestone').select(['id', 'name']).where('repo_id', '=', repoId).orderBy('id').execute();
  }
}
