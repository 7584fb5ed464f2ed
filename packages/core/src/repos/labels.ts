/**
 * A repository's own labels, which the labels domain keeps: a new repository's label set, a template repository's
 * labels copied to the one generated from it, and their removal with the repository. Labels sit above repos, so
 * repos declares these calls and the labels domain provides them (`repos.labels`). They run inside the caller's
 * transaction, at the point repos makes them, so the rows exist (or are gone) for the statements after them.
 */
import type { CoreTransaction } from '../context.js';
import type { ApiLabelTemplate } from '../templates/index.js';

export interface RepoLabels {
  /** Creates a repository's labels from templates, in one statement (a new repository's label set). */
  createFromTemplates(tx: CoreTransaction, repoId: number, templates: readonly ApiLabelTemplate[]): Promise<void>;
  /** Gives repository `repoId` a copy of the labels of `sourceRepoId` (generating from a template repository). */
  copyOfRepo(tx: CoreTransaction, sourceRepoId: number, repoId: number): Promise<void>;
  /** Deletes a repository's own labels (when the repository goes). */
  deleteOfRepo(tx: CoreTransaction, repoId: number): Promise<void>;
}

declare module '../context.js' {
  interface CoreProviders {
    'repos.labels': RepoLabels;
  }
}
