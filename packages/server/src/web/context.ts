import type { H3Event } from 'h3';
import { ANONYMOUS, AccessMode, NotFoundError, unitMode, userActor, type Actor, type ApiView, type RepoAccess, type RepoHost, type User } from '@repohost/core';
import { errorStatus } from '../api/errors.js';
import { noteUser } from '../access-log.js';
import { cookieOf } from '../web-pages.js';
import { errorPage, notFoundPage } from './layout.js';

/** Who views a page: the web session's account (the sign-in form's cookie), or nobody. */
export interface Viewer {
  host: RepoHost;
  event: H3Event;
  user: User | undefined;
  actor: Actor;
  view: ApiView;
  /** The request's query. */
  query: URLSearchParams;
}

export async function viewerOf(host: RepoHost, event: H3Event): Promise<Viewer> {
  const cookie = cookieOf(event);
  const user = cookie ? await host.oauth2Provider.sessionUser(cookie) : undefined;
  noteUser(event, user?.name);
  const actor = user ? userActor(user) : ANONYMOUS;
  return { host, event, user, actor, view: { viewer: actor, settings: host.settings }, query: event.url.searchParams };
}

/** Runs a page; a core error becomes the page for its status (what may not be seen: 404), never a stack trace. */
export async function servePage(host: RepoHost, event: H3Event, run: (viewer: Viewer) => Promise<Response>): Promise<Response> {
  let viewer: Viewer | undefined;
  try {
    viewer = await viewerOf(host, event);
    return await run(viewer);
  } catch (error) {
    if (error instanceof NotFoundError) return notFoundPage(host, viewer?.user);
    const { status, message } = errorStatus(error);
    if (status === 500) console.error('[repohost] internal error:', error);
    return errorPage(host, viewer?.user, status, status === 500 ? 'Internal Server Error' : message);
  }
}

/** The path's segments, decoded; a malformed escape is a 404. */
export function pathSegments(event: H3Event): string[] {
  const path = event.url.pathname;
  const parts = path.split('/').slice(1);
  return parts.map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new NotFoundError();
    }
  });
}

/** A repository the viewer may see, by the API's rule (404 otherwise); `name.git` names `name`. */
export async function loadRepo(viewer: Viewer, owner: string, name: string): Promise<RepoAccess> {
  const bare = name.endsWith('.git') && !name.endsWith('.wiki.git') ? name.slice(0, -4) : name;
  const access = await viewer.host.repos.resolve(viewer.actor, owner, bare);
  // A fork's parent as the viewer may see it, as the API's repository read loads it.
  const [loaded] = await viewer.host.forks.withParents(viewer.actor, [access]);
  return loaded ?? access;
}

/** Whether the viewer may read the repository's unit (what its tabs show). */
export function mayRead(access: RepoAccess, unit: 'repo.code' | 'repo.issues' | 'repo.pulls' | 'repo.releases'): boolean {
  return unitMode(access, unit) >= AccessMode.Read;
}

/** The viewer may read the repository's unit (Forgejo's web pages check it as its API does); otherwise 404. */
export function requireUnit(access: RepoAccess, unit: 'repo.code' | 'repo.issues' | 'repo.pulls' | 'repo.releases'): void {
  if (unitMode(access, unit) < AccessMode.Read) throw new NotFoundError();
}

/** A positive page number from the query (1 when absent or not one), bounded. */
export function pageNumber(query: URLSearchParams): number {
  const text = query.get('page') ?? '';
  if (!/^\d{1,6}$/.test(text)) return 1;
  return Math.max(1, Number(text));
}
