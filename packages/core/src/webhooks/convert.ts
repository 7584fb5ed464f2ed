import type { Settings } from '../config/index.js';
import { isoTime } from '../wire.js';
import { eventNames, parseEventSettings } from './hook-events.js';
import { HookContentType, type HookDelivery, type Webhook } from './tables.js';
import type { ApiHook, ApiHookDelivery, ApiHookDeliveryItem } from './schemas.js';

export function contentTypeName(value: number): 'json' | 'form' {
  return value === HookContentType.Form ? 'form' : 'json';
}

export function parseMeta(meta: string): Record<string, unknown> {
  try {
    const value = JSON.parse(meta) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** What the API shows for a hook's authorization header; sent back in an edit, it keeps the header as it is. */
export const AUTHORIZATION_HEADER_MASK = '********';

/**
 * The API `Hook` (Forgejo's `ToHook`): `url` and `config.url` are the target, `config` also has the content type
 * (and the type's own string settings). `authorization_header` is never shown in clear (Forgejo shows it): a hook
 * that has one shows `AUTHORIZATION_HEADER_MASK`, which an edit may send back to keep it. It is encrypted at rest
 * and never written to delivery records.
 */
export function toApiHook(hook: Webhook): ApiHook {
  const events = parseEventSettings(hook.events);
  const meta = parseMeta(hook.meta);
  const config: Record<string, string> = { url: hook.url, content_type: contentTypeName(hook.content_type) };
  for (const [key, value] of Object.entries(meta)) {
    if (typeof value === 'string' && !(key in config)) config[key] = value;
  }
  return {
    id: hook.id,
    type: hook.type,
    branch_filter: events.branch_filter,
    url: hook.url,
    config,
    events: eventNames(events),
    authorization_header: hook.header_authorization_encrypted === '' ? '' : AUTHORIZATION_HEADER_MASK,
    content_type: contentTypeName(hook.content_type),
    metadata: Object.keys(meta).length > 0 ? meta : null,
    active: hook.is_active === 1,
    updated_at: isoTime(hook.updated_unix),
    created_at: isoTime(hook.created_unix),
  };
}

type DeliveryRow = HookDelivery & { uuid: string; event_type: string; repo_id: number };

function statusText(row: DeliveryRow): string {
  if (row.is_succeed === 1) return 'OK';
  if (row.error) return row.error;
  return `HTTP ${row.response_status}`;
}

function actionOf(row: DeliveryRow): string | null {
  try {
    const payload = JSON.parse(row.request_body) as { action?: unknown };
    return typeof payload.action === 'string' ? payload.action : null;
  } catch {
    return null;
  }
}

export function toApiHookDeliveryItem(row: DeliveryRow): ApiHookDeliveryItem {
  return {
    id: row.id,
    guid: row.uuid,
    delivered_at: isoTime(row.delivered_unix),
    redelivery: row.is_redelivery === 1,
    duration: row.duration_ms / 1000,
    status: statusText(row),
    status_code: row.response_status,
    event: row.event_type,
    action: actionOf(row),
    repository_id: row.repo_id || null,
    url: row.request_url,
  };
}

function headersOf(json: string): Record<string, string> {
  const parsed = parseMeta(json);
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function toApiHookDelivery(row: DeliveryRow): ApiHookDelivery {
  return {
    ...toApiHookDeliveryItem(row),
    request: { headers: headersOf(row.request_headers), payload: row.request_body },
    response: { headers: headersOf(row.response_headers), payload: row.response_status === 0 ? null : row.response_body },
  };
}
