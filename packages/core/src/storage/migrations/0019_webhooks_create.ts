import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Webhooks (Forgejo's `webhook`), the outbox of their tasks (`hook_task`: one per event and hook, with the
 * payload built when the event happened) and one row per delivery attempt (`hook_delivery`).
 */
export const m0019_webhooks_create: Migration = {
  name: '0019_webhooks_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'webhook')
      // A repository's hook (repo_id), an account's (owner_id), or neither: a system or default hook.
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('owner_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('is_system_webhook', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('http_method', 'varchar(8)', (c) => c.notNull().defaultTo('POST'))
      // 1 json, 2 form.
      .addColumn('content_type', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('secret', 'text', (c) => c.notNull().defaultTo(''))
      // Forgejo's HookEvent as JSON: push_only, send_everything, choose_events, branch_filter, events.
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('type', 'varchar(32)', (c) => c.notNull())
      // The type's own settings, as its formatter parsed them (JSON).
      .addColumn('meta', 'text', (c) => c.notNull().defaultTo('{}'))
      // AES-GCM under a key derived from [security] SECRET_KEY; empty when none.
      .addColumn('header_authorization_encrypted', 'text', (c) => c.notNull().defaultTo(''))
      // 0 none yet, 1 succeeded, 2 failed (the last delivery's outcome).
      .addColumn('last_status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_repo_id').on('webhook').column('repo_id').execute();
    await db.schema.createIndex('webhook_owner_id').on('webhook').column('owner_id').execute();

    await createTableWithId(db, dialect, 'hook_task')
      .addColumn('hook_id', 'bigint', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      // The delivery id clients see (`X-Forgejo-Delivery`); kept across retries.
      .addColumn('uuid', 'varchar(36)', (c) => c.notNull())
      .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
      .addColumn('payload_content', 'text', (c) => c.notNull())
      .addColumn('is_delivered', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_unix', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('hook_task_pending').on('hook_task').columns(['is_delivered', 'next_attempt_unix']).execute();
    await db.schema.createIndex('hook_task_hook_id').on('hook_task').column('hook_id').execute();
    await db.schema.createIndex('hook_task_uuid').unique().on('hook_task').column('uuid').execute();

    await createTableWithId(db, dialect, 'hook_delivery')
      .addColumn('hook_id', 'bigint', (c) => c.notNull())
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('is_redelivery', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_succeed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('request_url', 'text', (c) => c.notNull())
      .addColumn('request_method', 'varchar(8)', (c) => c.notNull())
      .addColumn('request_headers', 'text', (c) => c.notNull())
      .addColumn('request_body', 'text', (c) => c.notNull())
      // 0 when no response came (refused, unreachable, timed out).
      .addColumn('response_status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('response_headers', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('response_body', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('duration_ms', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('delivered_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('hook_delivery_hook_id').on('hook_delivery').columns(['hook_id', 'id']).execute();
  },
};
