import type { Migration } from './kit.js';

/**
 * `repository.has_wiki_contents`: 1 once the repository's wiki (`<name>.wiki.git`) has a commit on its branch, kept
 * by whatever writes the wiki (the wiki API, a push, a migration, the repair of an interrupted one), so that a list
 * of repositories shows it without looking at git.
 */
export const m0053_repos_wiki: Migration = {
  name: '0053_repos_wiki',
  async up(db) {
    await db.schema.alterTable('repository').addColumn('has_wiki_contents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};
