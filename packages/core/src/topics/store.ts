import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import { likeContaining } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { Topic, TopicsTables } from './tables.js';

/** The `topic` and `repo_topic` tables. */
export class TopicsStore extends Store<TopicsTables> {
  /** The topics of these names that exist (names are lower-case). */
  findByNames(names: readonly string[]): Promise<Topic[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('topic').selectAll().where('name', 'in', [...names]).execute();
  }

  /** Creates the named topics that do not exist yet; returns every named topic. Run inside a transaction. */
  async ensure(names: readonly string[], now: number): Promise<Topic[]> {
    if (names.length === 0) return [];
    const existing = await this.findByNames(names);
    const known = new Set(existing.map((t) => t.name));
    const missing = names.filter((n) => !known.has(n));
    if (missing.length > 0) {
      // Another transaction may create the same name meanwhile: the unique index keeps one, and the re-read sees it.
      await this.db
        .insertInto('topic')
        .values(missing.map((name) => ({ name, repo_count: 0, created_unix: now, updated_unix: now })))
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      return this.findByNames(names);
    }
    return existing;
  }

  /** Attaches topics to a repository and counts it for each. */
  async link(repoId: number, topics: readonly Topic[], now: number): Promise<void> {
    if (topics.length === 0) return;
    const ids = topics.map((t) => t.id);
    await this.db.insertInto('repo_topic').values(ids.map((topic_id) => ({ repo_id: repoId, topic_id }))).execute();
    await this.adjustCounts(ids, 1, now);
  }

  /** Detaches topics from a repository and stops counting it for each. */
  async unlink(repoId: number, topics: readonly Topic[], now: number): Promise<void> {
    if (topics.length === 0) return;
    const ids = topics.map((t) => t.id);
    await this.db.deleteFrom('repo_topic').where('repo_id', '=', repoId).where('topic_id', 'in', ids).execute();
    await this.adjustCounts(ids, -1, now);
  }

  /** For a repository about to disappear: its topics stop counting it (the links go with the row). */
  async uncount(names: readonly string[], now: number): Promise<void> {
    const topics = await this.findByNames(names);
    await this.adjustCounts(topics.map((t) => t.id), -1, now);
  }

  private async adjustCounts(ids: readonly number[], delta: number, now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('topic')
      .set({ repo_count: sql`repo_count + ${delta}`, updated_unix: now })
      .where('id', 'in', [...ids])
      .execute();
  }

  /** The topics a repository carries, by name (what its `topics` column mirrors). */
  topicsOf(repoId: number): Promise<Topic[]> {
    return this.db
      .selectFrom('topic')
      .innerJoin('repo_topic', 'repo_topic.topic_id', 'topic.id')
      .selectAll('topic')
      .where('repo_topic.repo_id', '=', repoId)
      .orderBy('topic.name')
      .execute();
  }

  /** Topics whose name contains `keyword` (all when empty), most used first. */
  search(keyword: string, page: PageRequest): Promise<Page<Topic>> {
    let base = this.db.selectFrom('topic');
    if (keyword !== '') base = base.where(sql<boolean>`name LIKE ${likeContaining(keyword)} ESCAPE '\\'`);
    return Store.page(
      base.selectAll().orderBy('repo_count', 'desc').orderBy('id', 'asc').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }
}
