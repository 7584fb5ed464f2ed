import type { Generated, Selectable } from 'kysely';

export interface WebhookTable {
  id: Generated<number>;
  repo_id: number;
  owner_id: number;
  /** 1: a system hook (every repository); 0 with no repo and no owner: a default hook (copied to new repositories). */
  is_system_webhook: number;
  url: string;
  http_method: string;
  /** HookContentType. */
  content_type: number;
  secret: string;
  /** Forgejo's HookEvent as JSON (see `events.ts`). */
  events: string;
  is_active: number;
  type: string;
  meta: string;
  header_authorization_encrypted: string;
  last_status: number;
  created_unix: number;
  updated_unix: number;
}

export interface HookTaskTable {
  id: Generated<number>;
  hook_id: number;
  repo_id: number;
  uuid: string;
  event_type: string;
  payload_content: string;
  is_delivered: number;
  attempts: number;
  next_attempt_unix: number;
  created_unix: number;
  /** The process delivering the task now (`host:pid:random`), '' when none; see `lease_until_unix`. */
  lease_owner: Generated<string>;
  /** The claim holds until then (unix seconds): a task whose lease passed may be taken by any process. */
  lease_until_unix: Generated<number>;
  /** 1: the next attempt was asked for through the API (recorded as a redelivery). */
  is_redelivery: Generated<number>;
}

export interface HookDeliveryTable {
  id: Generated<number>;
  hook_id: number;
  task_id: number;
  is_redelivery: number;
  is_succeed: number;
  request_url: string;
  request_method: string;
  /** JSON object of header name → value. */
  request_headers: string;
  request_body: string;
  response_status: number;
  response_headers: string;
  response_body: string;
  duration_ms: number;
  error: string;
  delivered_unix: number;
}

export interface WebhooksTables {
  webhook: WebhookTable;
  hook_task: HookTaskTable;
  hook_delivery: HookDeliveryTable;
}

export type Webhook = Selectable<WebhookTable>;
export type HookTask = Selectable<HookTaskTable>;
export type HookDelivery = Selectable<HookDeliveryTable>;

export const HookContentType = { Json: 1, Form: 2 } as const;
export const HookStatus = { None: 0, Succeed: 1, Fail: 2 } as const;

declare module '../storage/schema.js' {
  interface Schema extends WebhooksTables {}
}
