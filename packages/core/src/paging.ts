import type { Settings } from './config/settings.js';

/** A caller's page request as given: both optional, not yet clamped. */
export interface Paging {
  page?: number;
  limit?: number;
}

/** Page request after clamping: `page` is 1-based. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** One page of a list and the size of the whole list (what the caller may see of it). */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Clamps a caller's page/limit to the configured bounds ([api] DEFAULT_PAGING_NUM, MAX_RESPONSE_ITEMS), and the
 * page so that its offset, `(page - 1) * limit`, stays a safe integer: a page that far out is empty anyway, and
 * an offset past 2^53 would reach SQL inexact (or as a float).
 */
export function clampPage(settings: Settings, paging: Paging = {}): PageRequest {
  const { page, limit } = paging;
  const max = settings.api.MAX_RESPONSE_ITEMS;
  let safeLimit = limit && Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : settings.api.DEFAULT_PAGING_NUM;
  if (safeLimit > max) safeLimit = max;
  const lastPage = Math.floor(Number.MAX_SAFE_INTEGER / safeLimit) + 1;
  let safePage = page && Number.isFinite(page) && page > 0 ? Math.floor(page) : 1;
  if (safePage > lastPage) safePage = lastPage;
  return { page: safePage, limit: safeLimit };
}

export function offsetOf(page: PageRequest): number {
  return (page.page - 1) * page.limit;
}
