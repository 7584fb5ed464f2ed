import type { StoreScope } from '../storage/index.js';
import { LabelImportStore } from './import-store.js';
import { LabelNamesStore } from './names-store.js';
import { LabelsStore } from './store.js';
import type { Label, NewLabel } from './tables.js';

/** A label to create from a template (a label set, or a template repository's labels); the type of the store's input. */
export type LabelTemplate = Parameters<LabelsStore['insertMany']>[1][number];

/**
 * What other domains read and write of labels: the rows issues and timelines show, the ids a list filter names,
 * a repository's labels as it is created, copied or deleted, the issue counters the issues domain counts, and a
 * migration's rows. The labels stores stay private to this folder.
 */
export class LabelsPort {
  constructor(private readonly scope: StoreScope) {}

  private get labels(): LabelsStore {
    return this.scope.store(LabelsStore);
  }

  // ---- reads ----

  /** Labels by id in one query (those a page of issues or a timeline shows): keeps its query count fixed. */
  byIds(ids: readonly number[]): Promise<Label[]> {
    return this.labels.byIds(ids);
  }

  /** A repository's labels, by name. */
  listOfRepo(repoId: number): Promise<Label[]> {
    return this.labels.listOfRepo(repoId);
  }

  /** One label, wherever it lives. */
  byId(id: number): Promise<Label | undefined> {
    return this.labels.byId(id);
  }

  /**
   * Of these ids, the labels an issue of the repository may carry: its own, and those of its owner when the owner
   * is an organization (`ownerId`).
   */
  usableIn(repoId: number, ownerId: number, ids: readonly number[]): Promise<Label[]> {
    return this.labels.usableIn(repoId, ownerId, ids);
  }

  /** Labels usable in the repository (see `usableIn`) with one of these exact names, by id. */
  namedIn(repoId: number, ownerId: number, names: readonly string[]): Promise<Label[]> {
    return this.labels.namedIn(repoId, ownerId, names);
  }

  /**
   * Ids of the labels some issue carries (counted above zero) among those a repository's issues may carry, or,
   * with `repoId` null, among the organization's own.
   */
  idsInUse(repoId: number | null, ownerId: number): Promise<number[]> {
    return this.labels.idsInUse(repoId, ownerId);
  }

  /**
   * Ids of the labels of a repository or of its owning organization named so (or, for a number, that id),
   * grouped per name asked: `labels=` filters.
   */
  idsNamedIn(repoId: number, orgId: number, names: readonly string[]): Promise<number[][]> {
    return this.scope.store(LabelNamesStore).idsNamedIn(repoId, orgId, names);
  }

  /** The same for labels anywhere (an issue search narrows the repositories itself). */
  idsNamedAnywhere(names: readonly string[]): Promise<number[][]> {
    return this.scope.store(LabelNamesStore).idsNamedAnywhere(names);
  }

  // ---- writes ----

  /** Creates a repository's labels from templates, in one statement (a new repository's label set, a copy). */
  createFromTemplates(repoId: number, templates: readonly LabelTemplate[]): Promise<void> {
    return this.labels.insertMany(repoId, templates);
  }

  /** Deletes a repository's own labels (when the repository goes). */
  deleteOfRepo(repoId: number): Promise<void> {
    return this.labels.deleteOfRepo(repoId);
  }

  /**
   * Locks these labels' counters for the rest of the transaction, before the issues domain counts them
   * (`IssuesPort.labelCounts`): a count taken after the lock sees what every earlier recount committed.
   */
  lockCounts(labelIds: readonly number[]): Promise<void> {
    return this.labels.lockRows(labelIds);
  }

  /** Stores the issue counts the issues domain counted (`IssuesPort.labelCounts`) after `lockCounts`; a label absent from `counts` is on no issue. */
  setIssueCounts(labelIds: readonly number[], counts: ReadonlyMap<number, { total: number; closed: number }>): Promise<void> {
    return this.labels.setCounts(labelIds, counts);
  }

  // ---- migrations ----

  /** Writes a migration's labels, many per statement. */
  insertImported(rows: readonly NewLabel[]): Promise<Label[]> {
    return this.scope.store(LabelImportStore).insertMany(rows);
  }
}
