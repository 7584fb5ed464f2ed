import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * The issue tracker's core tables, with Forgejo's columns: issues and pull requests share `issue` and one index
 * sequence per repository (`issue_index`); assignees, labels on issues, dependencies, milestones, and `comment`,
 * which holds comments and every timeline event (its `type` is Forgejo's CommentType number).
 *
 * Rows hang off `issue` with cascading keys, so deleting an issue takes its assignees, labels, dependencies and
 * comments with it; a repository's issues go with the repository (its `repo.deleted` handler).
 */
export const m0022_issues_create: Migration = {
  name: '0022_issues_create',
  async up(db, dialect) {
    await db.schema
      .createTable('issue_index')
      .addColumn('group_id', 'bigint', (c) => c.primaryKey())
      .addColumn('max_index', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();

    await createTableWithId(db, dialect, 'milestone')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('is_closed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('num_issues', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_closed_issues', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      // 0: no due date.
      .addColumn('deadline_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('closed_date_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('milestone_repo_id').on('milestone').columns(['repo_id', 'is_closed']).execute();

    await createTableWithId(db, dialect, 'issue')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('index', 'bigint', (c) => c.notNull())
      .addColumn('poster_id', 'bigint', (c) => c.notNull())
      .addColumn('original_author', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('original_author_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('content_version', 'integer', (c) => c.notNull().defaultTo(0))
      // 0: none.
      .addColumn('milestone_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_closed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_pull', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('num_comments', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('ref', 'text', (c) => c.notNull().defaultTo(''))
      // 0: not pinned; pinned issues are ordered by it from 1.
      .addColumn('pin_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('deadline_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .addColumn('closed_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('is_locked', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('issue_repo_index').on('issue').columns(['repo_id', 'index']).unique().execute();
    await db.schema.createIndex('issue_repo_state').on('issue').columns(['repo_id', 'is_pull', 'is_closed', 'updated_unix']).execute();
    // Lists are newest first by default: a page walks this index instead of sorting the repository's issues.
    await db.schema.createIndex('issue_repo_created').on('issue').columns(['repo_id', 'created_unix']).execute();
    await db.schema.createIndex('issue_poster').on('issue').column('poster_id').execute();
    await db.schema.createIndex('issue_milestone').on('issue').column('milestone_id').execute();
    await db.schema.createIndex('issue_updated').on('issue').column('updated_unix').execute();

    await createTableWithId(db, dialect, 'issue_assignees')
      .addColumn('assignee_id', 'bigint', (c) => c.notNull())
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .execute();
    await db.schema.createIndex('issue_assignees_issue').on('issue_assignees').columns(['issue_id', 'assignee_id']).unique().execute();
    await db.schema.createIndex('issue_assignees_assignee').on('issue_assignees').column('assignee_id').execute();

    await createTableWithId(db, dialect, 'issue_label')
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('label_id', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('issue_label_issue_label').on('issue_label').columns(['issue_id', 'label_id']).unique().execute();
    await db.schema.createIndex('issue_label_label').on('issue_label').column('label_id').execute();

    // `issue_id` depends on `dependency_id`: the dependency blocks the issue until it is closed.
    await createTableWithId(db, dialect, 'issue_dependency')
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('dependency_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('issue_dependency_pair').on('issue_dependency').columns(['issue_id', 'dependency_id']).unique().execute();
    await db.schema.createIndex('issue_dependency_dependency').on('issue_dependency').column('dependency_id').execute();

    await createTableWithId(db, dialect, 'comment')
      .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('poster_id', 'bigint', (c) => c.notNull())
      .addColumn('original_author', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('original_author_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('label_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('old_milestone_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('milestone_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('time_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('assignee_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('removed_assignee', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('assignee_team_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('resolve_doer_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('old_title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('new_title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('old_ref', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('new_ref', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('dependent_issue_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('commit_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('line', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('tree_path', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('content_version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('patch', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .addColumn('commit_sha', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('review_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('invalidated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('ref_repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('ref_issue_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('ref_comment_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('ref_action', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('ref_is_pull', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('comment_issue').on('comment').columns(['issue_id', 'created_unix']).execute();
    await db.schema.createIndex('comment_type_updated').on('comment').columns(['type', 'updated_unix']).execute();
    await db.schema.createIndex('comment_poster').on('comment').column('poster_id').execute();
  },
};
