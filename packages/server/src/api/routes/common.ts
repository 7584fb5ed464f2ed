/**
 * What several route modules share: how an `{id}` reads, the empty reply most writes answer with, and pages of
 * accounts and repositories as their lists send them.
 */
import { toApiOrganization, toApiRepository, toApiUser, type ApiView, type Page, type RepoAccess, type RepoHostErrorKind, type User } from '@repohost/core';
import type { PathParams, RequestBase } from '../contract.js';
import { mapPage, type RouteGroup } from '../router.js';

/** Go's `strconv.ParseInt` syntax, as Forgejo reads an `{id}` path parameter. */
const PATH_ID = /^[+-]?\d{1,19}$/;

/** An `{id}` path parameter as Forgejo reads it: anything but an int64 reads as 0, which names nothing. */
export function pathId(value: string): number {
  return PATH_ID.test(value) ? Number(value) : 0;
}

/** No body: Forgejo's `empty` response. */
export const EMPTY = { status: 204, description: 'APIEmpty is an empty response' } as const;

/**
 * A route on an account, declared alike for the signed-in user (`/user/…`) and for others (`/users/{username}/…`,
 * `/admin/users/{username}/…`): its words, and the account, from what its group loaded.
 */
export interface AccountRoute<Loaded> {
  operationId: string;
  summary: string;
  auth?: 'token';
  errors: readonly RepoHostErrorKind[];
  account: (loaded: Loaded) => User;
}

/** One of a pair of bodiless routes that put something in place and take it away again. */
export interface Change {
  method: 'PUT' | 'POST' | 'DELETE';
  operationId: string;
  summary: string;
  /** The 204's words, where Forgejo gives this one its own (by default `EMPTY`'s). */
  description?: string;
  errors: readonly RepoHostErrorKind[];
}

/**
 * Routes on one path that put something in place (`PUT`, `POST`) or take it away (`DELETE`) and answer 204, alike
 * but for their words: `change` does either, told which (`put`).
 */
export function addChanges<P extends string, Loaded, const Path extends string>(
  group: RouteGroup<P, Loaded, true>,
  path: Path,
  changes: readonly Change[],
  change: (ctx: RequestBase<PathParams<`${P}${Path}`>> & Loaded, put: boolean) => Promise<void>,
): void {
  for (const { method, operationId, summary, description, errors } of changes) {
    const reply = description === undefined ? EMPTY : { status: 204, description } as const;
    group.add({ method, path, operationId, summary, reply, errors, handler: async (ctx) => change(ctx, method !== 'DELETE') });
  }
}

export function apiUsers(page: Page<User>, view: ApiView) {
  return mapPage(page, (u) => toApiUser(u, view));
}

export function apiOrganizations(page: Page<User>, view: ApiView) {
  return mapPage(page, (o) => toApiOrganization(o, view));
}

export function apiRepositories(page: Page<RepoAccess>, view: ApiView) {
  return mapPage(page, (r) => toApiRepository(r, view));
}
