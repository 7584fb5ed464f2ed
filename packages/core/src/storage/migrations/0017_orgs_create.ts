import { sql } from 'kysely';
import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Organizations (accounts of type 1 in `user`), their members (`org_user`), teams (`team`, `team_user`,
 * `team_repo`) and repository collaborators (`collaboration`), as Forgejo models them.
 *
 * A team's per-unit rights are one JSON column (`units`: unit name → access mode) rather than Forgejo's
 * `team_unit` rows, so the permission question reads a team in one row.
 *
 * Keys to `user` and `repository` are checked at commit (deferred): deleting an account or a repository leaves
 * these rows to that transaction's `user.deleted` / `repo.deleted` handlers, and a deletion that skipped them
 * fails at commit instead of leaving a grant behind. Rows of a deleted team go with it (cascade).
 */
export const m0017_orgs_create: Migration = {
  name: '0017_orgs_create',
  async up(db, dialect) {
    await db.schema.alterTable('user').addColumn('repo_admin_change_team_access', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    // Addresses identify individual accounts only: an organization's is contact information, often empty.
    await db.schema.dropIndex('user_lower_email').execute();
    await db.schema.createIndex('user_lower_email').on('user').column('lower_email').unique().where(sql.ref('type'), '=', 0).execute();
    await db.schema.createIndex('user_lower_email_any').on('user').column('lower_email').execute();

    await createTableWithId(db, dialect, 'org_user')
      .addColumn('uid', 'bigint', (c) => c.notNull())
      .addColumn('org_id', 'bigint', (c) => c.notNull())
      .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
      .addForeignKeyConstraint('org_user_uid_fk', ['uid'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .addForeignKeyConstraint('org_user_org_fk', ['org_id'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .execute();
    await db.schema.createIndex('org_user_uid_org').on('org_user').columns(['uid', 'org_id']).unique().execute();
    await db.schema.createIndex('org_user_org').on('org_user').columns(['org_id', 'uid']).execute();

    await createTableWithId(db, dialect, 'team')
      .addColumn('org_id', 'bigint', (c) => c.notNull())
      .addColumn('lower_name', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      // Access mode: 0 none, 1 read, 2 write, 3 admin, 4 owner (the Owners team).
      .addColumn('authorize', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('units', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('includes_all_repositories', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('can_create_org_repo', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('team_org_fk', ['org_id'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .execute();
    await db.schema.createIndex('team_org_name').on('team').columns(['org_id', 'lower_name']).unique().execute();

    await createTableWithId(db, dialect, 'team_user')
      .addColumn('org_id', 'bigint', (c) => c.notNull())
      .addColumn('team_id', 'bigint', (c) => c.notNull().references('team.id').onDelete('cascade'))
      .addColumn('uid', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('team_user_uid_fk', ['uid'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .execute();
    await db.schema.createIndex('team_user_team_uid').on('team_user').columns(['team_id', 'uid']).unique().execute();
    await db.schema.createIndex('team_user_uid_org').on('team_user').columns(['uid', 'org_id']).execute();

    await createTableWithId(db, dialect, 'team_repo')
      .addColumn('org_id', 'bigint', (c) => c.notNull())
      .addColumn('team_id', 'bigint', (c) => c.notNull().references('team.id').onDelete('cascade'))
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('team_repo_repo_fk', ['repo_id'], 'repository', ['id'], (c) => c.deferrable().initiallyDeferred())
      .execute();
    await db.schema.createIndex('team_repo_team_repo').on('team_repo').columns(['team_id', 'repo_id']).unique().execute();
    await db.schema.createIndex('team_repo_repo').on('team_repo').column('repo_id').execute();

    await createTableWithId(db, dialect, 'collaboration')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      // Access mode: 1 read, 2 write, 3 admin.
      .addColumn('mode', 'integer', (c) => c.notNull().defaultTo(2))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('collaboration_repo_fk', ['repo_id'], 'repository', ['id'], (c) => c.deferrable().initiallyDeferred())
      .addForeignKeyConstraint('collaboration_user_fk', ['user_id'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .execute();
    await db.schema.createIndex('collaboration_repo_user').on('collaboration').columns(['repo_id', 'user_id']).unique().execute();
    await db.schema.createIndex('collaboration_user').on('collaboration').column('user_id').execute();
  },
};
