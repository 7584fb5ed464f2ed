import { Store } from '../storage/index.js';
import type { LabelsTables } from './tables.js';

/** Label lookups by name, for issue list filters (`labels=bug,ui`). */
export class LabelNamesStore extends Store<LabelsTables> {
  /**
   * The labels of a repository or of its owning organization with these names, grouped by the name asked (a name
   * that is a number also matches the label with that id, as Forgejo's list filter does); names that match
   * nothing are left out.
   */
  async idsNamedIn(repoId: number, orgId: number, names: readonly string[]): Promise<number[][]> {
    if (names.length === 0) return [];
    const numbers = names.filter((n) => /^\d{1,15}$/.test(n)).map(Number);
    const rows = await this.db
      .selectFrom('label')
      .select(['id', 'name'])
      .where((eb) => eb.or([eb('repo_id', '=', repoId), eb.and([eb('org_id', '=', orgId), eb('repo_id', '=', 0)])]))
      .where((eb) => eb.or([eb('name', 'in', [...names]), ...(numbers.length > 0 ? [eb('id', 'in', numbers)] : [])]))
      .execute();
    return groupByName(names, rows);
  }

  /** The same for labels anywhere (a search narrows the repositories itself). */
  async idsNamedAnywhere(names: readonly string[]): Promise<number[][]> {
    if (names.length === 0) return [];
    const rows = await this.db.selectFrom('label').select(['id', 'name']).where('name', 'in', [...names]).execute();
    return groupByName(names, rows);
  }
}

/** Label ids per name asked, in the order asked; a name matching nothing is dropped. */
function groupByName(names: readonly string[], rows: readonly { id: number; name: string }[]): number[][] {
  const groups: number[][] = [];
  for (const name of new Set(names)) {
    const ids = rows.filter((r) => r.name === name || String(r.id) === name).map((r) => r.id);
    if (ids.length > 0) groups.push(ids);
  }
  return groups;
}
