import type { Kysely } from 'kysely';
import type { Settings } from './config/settings.js';
import type { Database, DialectName, DirectRead } from './storage/database.js';
import type { GitBackend } from './git/backend.js';

/** What every domain service is built over. One per RepoHost instance; nothing here is global. */
export interface CoreContext {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** SQLite's synchronous read path for precompiled queries; absent on PostgreSQL. */
  readonly directRead?: DirectRead;
  readonly settings: Settings;
  readonly git: GitBackend;
}

/** Page request after clamping: `page` is 1-based. */
export interface PageRequest {
  page: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** Clamps a caller's page/limit to the configured bounds ([api] DEFAULT_PAGING_NUM, MAX_RESPONSE_ITEMS). */
export function clampPage(settings: Settings, page?: number, limit?: number): PageRequest {
  const max = settings.api.MAX_RESPONSE_ITEMS;
  const safePage = page && Number.isFinite(page) && page > 0 ? Math.floor(page) : 1;
  let safeLimit = limit && Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : settings.api.DEFAULT_PAGING_NUM;
  if (safeLimit > max) safeLimit = max;
  return { page: safePage, limit: safeLimit };
}

export function offsetOf(page: PageRequest): number {
  return (page.page - 1) * page.limit;
}
