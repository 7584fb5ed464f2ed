import type { StoreScope } from '../storage/index.js';
import { MilestoneImportStore } from './import-store.js';
import { MilestoneNamesStore } from './names-store.js';
import { MilestonesStore } from './store.js';
import type { Milestone, NewMilestone } from './tables.js';

/**
 * What other domains read and write of milestones: the rows an issue or a timeline names, the ids a list filter
 * names, the issue counters the issues domain counts, and a migration's rows. The milestones stores stay private.
 */
export class MilestonesPort {
  constructor(private readonly scope: StoreScope) {}

  private get milestones(): MilestonesStore {
    return this.scope.store(MilestonesStore);
  }

  // ---- reads ----

  /** One of a repository's milestones (an issue being given it). */
  byId(repoId: number, id: number): Promise<Milestone | null> {
    return this.milestones.byId(repoId, id);
  }

  /** Milestones by id in one query (those a page of issues or a timeline shows): keeps its query count fixed. */
  byIds(ids: readonly number[]): Promise<Milestone[]> {
    return this.milestones.byIds(ids);
  }

  /** Ids of a repository's milestones with one of these names (or, for a number, that id): `milestones=` filters. */
  idsNamedOrNumbered(repoId: number, names: readonly string[]): Promise<number[]> {
    return this.scope.store(MilestoneNamesStore).idsNamedOrNumbered(repoId, names);
  }

  /** Ids of every milestone with one of these names (an issue search narrows the repositories itself). */
  idsNamedAnywhere(names: readonly string[]): Promise<number[]> {
    return this.scope.store(MilestoneNamesStore).idsNamedAnywhere(names);
  }

  // ---- writes ----

  /** Stores the issue counts the issues domain counted for a milestone (`IssuesPort.recountAfterStateChange`). */
  setIssueCounts(id: number, counts: { total: number; closed: number }): Promise<void> {
    return this.milestones.setCounts(id, counts);
  }

  // ---- migrations ----

  /** Every milestone of the repository, id and name (a re-run maps what an earlier attempt wrote). */
  namesOfRepo(repoId: number): Promise<{ id: number; name: string }[]> {
    return this.scope.store(MilestoneImportStore).namesOfRepo(repoId);
  }

  /** Writes a migration's milestones, many per statement. */
  insertImported(rows: readonly NewMilestone[]): Promise<Milestone[]> {
    return this.scope.store(MilestoneImportStore).insertMany(rows);
  }
}
