import type { Migration } from './kit.js';

/**
 * Comments of one type on given issues (a page of pull requests counts its submitted reviews so). SQLite, which
 * keeps no statistics here, answered `issue_id in (…) and type = ?` from `comment_type_updated`, that is by reading
 * every comment of the type in the installation, once per page.
 */
export const m0058_timeline_comment_issue_type: Migration = {
  name: '0058_timeline_comment_issue_type',
  async up(db) {
    await db.schema.createIndex('comment_issue_type').on('comment').columns(['issue_id', 'type']).execute();
  },
};
