import { Store } from '../storage/index.js';
import type { MilestonesTables } from './tables.js';

/** Milestone lookups by name, for issue list filters (`milestones=v1,v2`). */
export class MilestoneNamesStore extends Store<MilestonesTables> {
  /** Ids of a repository's milestones with one of these names; a name that is a number also matches that id. */
  async idsNamedOrNumbered(repoId: number, names: readonly string[]): Promise<number[]> {
    if (names.length === 0) return [];
    const numbers = names.filter((n) => /^\d{1,15}$/.test(n)).map(Number);
    const rows = await this.db
      .selectFrom('milestone')
      .select('id')
      .where('repo_id', '=', repoId)
      .where((eb) => eb.or([eb('name', 'in', [...names]), ...(numbers.length > 0 ? [eb('id', 'in', numbers)] : [])]))
      .execute();
    return rows.map((r) => r.id);
  }

  /** Ids of every milestone with one of these names (a search narrows the repositories itself). */
  async idsNamedAnywhere(names: readonly string[]): Promise<number[]> {
    if (names.length === 0) return [];
    const rows = await this.db.selectFrom('milestone').select('id').where('name', 'in', [...names]).execute();
    return rows.map((r) => r.id);
  }
}
