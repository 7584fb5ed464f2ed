import type { Generated, Selectable } from 'kysely';
import { Store } from '../storage/index.js';

/** Bytes of one language on a repository's default branch, measured at `commit_id` (Forgejo's `language_stat`). */
export interface LanguageStatTable {
  id: Generated<number>;
  repo_id: number;
  commit_id: string;
  /** 1 for the language with the most bytes: the repository's `language`. */
  is_primary: Generated<number>;
  language: string;
  size: Generated<number>;
  created_unix: number;
}

export interface LanguageStatsTables {
  language_stat: LanguageStatTable;
}

export type LanguageStat = Selectable<LanguageStatTable>;

/** The `language_stat` table: the last measurement of each repository's default branch. */
export class LanguageStatsStore extends Store<LanguageStatsTables> {
  /** The stored measurement, largest first (empty when none was made). */
  statsOf(repoId: number): Promise<LanguageStat[]> {
    return this.db.selectFrom('language_stat').selectAll().where('repo_id', '=', repoId).orderBy('size', 'desc').orderBy('language').execute();
  }

  /** Replaces the repository's measurement with `sizes` taken at `commitId`. Run inside a transaction. */
  async replace(repoId: number, commitId: string, sizes: ReadonlyMap<string, number>, primary: string, now: number): Promise<void> {
    await this.db.deleteFrom('language_stat').where('repo_id', '=', repoId).execute();
    // An empty measurement is still one: a row without a language records the commit it was taken at.
    const rows = sizes.size === 0 ? [['', 0] as const] : [...sizes];
    await this.db
      .insertInto('language_stat')
      .values(
        rows.map(([language, size]) => ({
          repo_id: repoId,
          commit_id: commitId,
          language,
          size,
          is_primary: language === primary && language !== '' ? 1 : 0,
          created_unix: now,
        })),
      )
      .execute();
  }
}
