/**
 * Answers for the names renames and transfers left behind, as Forgejo's `RedirectToRepo` and `RedirectToUser` give
 * them for every method: the same path with the new names in place of the old ones, the query kept. A repository's
 * old name is a 301 (git follows it when it clones, fetches or pushes); an account's old name is a 307, as Forgejo
 * sends it. Only a caller who may see where the name went is told; anyone else gets the usual answer.
 */
import type { H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { API_PREFIX, NotFoundError, type Actor, type RepoHost, type User } from '@repohost/core';

/** Thrown by a loader (or the git handler) to answer with a redirect instead of what it could not find. */
export class MovedError extends Error {
  constructor(
    readonly status: 301 | 307,
    readonly location: string,
  ) {
    super(`moved to ${location}`);
  }
}

/** Index, in a request path split at `/`, of the segment after the API prefix's (`/api/v1/repos/{owner}`: `repos`). */
const API_GROUP_SEGMENT = API_PREFIX.split('/').length;

/** The redirect itself: no body, and `Location` a path on this server. */
export function movedResponse(error: MovedError, headers: Record<string, string> = {}): Response {
  delete headers['content-type'];
  headers.location = error.location;
  headers['content-length'] = '0';
  return new FastResponse(null, { status: error.status, headers });
}

/** ROOT_URL's path without its trailing slash: Forgejo's AppSubURL, which its redirects start with. */
function subPath(host: RepoHost): string {
  const path = new URL(host.settings.server.ROOT_URL).pathname;
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The request's path with the segments at the given positions (0 is the empty one before the first slash) renamed,
 * and its query. Undefined when a segment is not the name the route matched (then nothing is redirected): each
 * name is replaced where the route read it, never wherever the same text happens to appear first.
 */
function movedLocation(host: RepoHost, url: URL, changes: ReadonlyArray<{ at: number; from: string; to: string }>): string | undefined {
  const segments = url.pathname.split('/');
  for (const { at, from, to } of changes) {
    const segment = segments[at];
    if (segment === undefined) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (decoded.toLowerCase() !== from.toLowerCase()) return undefined;
    segments[at] = encodeURIComponent(to);
  }
  return `${subPath(host)}${segments.join('/')}${url.search}`;
}

/**
 * Where a request for repository path `owner/segment` (at path positions `at` and `at + 1`; `segment` may end in
 * `.git`, kept in the new path) should go, when the name found nothing: the owner's new name, or the repository's new
 * owner and name. Undefined when nothing `actor` may see was renamed from it.
 */
export async function repoMoved(host: RepoHost, actor: Actor, event: H3Event, at: number, owner: string, segment: string, name: string): Promise<MovedError | undefined> {
  const moved = await host.redirects.findRepo(actor, owner, name);
  if (!moved) return undefined;
  if (moved.kind === 'owner') {
    const location = movedLocation(host, event.url, [{ at, from: owner, to: moved.owner.name }]);
    return location === undefined ? undefined : new MovedError(307, location);
  }
  const suffix = segment.slice(name.length);
  const location = movedLocation(host, event.url, [
    { at, from: owner, to: moved.access.owner.name },
    { at: at + 1, from: segment, to: moved.access.repo.name + suffix },
  ]);
  return location === undefined ? undefined : new MovedError(301, location);
}

/** For the `/repos/{owner}/{repo}` loader: rethrows `error`, or the redirect when the path's names were renamed. */
export async function repoMovedOr(error: unknown, ctx: { host: RepoHost; actor: Actor; event: H3Event }, owner: string, repo: string): Promise<never> {
  if (error instanceof NotFoundError) {
    const moved = await repoMoved(ctx.host, ctx.actor, ctx.event, API_GROUP_SEGMENT + 1, owner, repo, repo);
    if (moved) throw moved;
  }
  throw error;
}

/**
 * For the `/users/{username}` and `/orgs/{org}` loaders: rethrows `error`, or the redirect to the account's new
 * name when `accept` takes the account it leads to.
 */
export async function accountMovedOr(
  error: unknown,
  ctx: { host: RepoHost; actor: Actor; event: H3Event },
  name: string,
  accept: (account: User) => boolean = () => true,
): Promise<never> {
  if (error instanceof NotFoundError) {
    const moved = await ctx.host.redirects.findUser(ctx.actor, name);
    const location = moved && accept(moved) ? movedLocation(ctx.host, ctx.event.url, [{ at: API_GROUP_SEGMENT + 1, from: name, to: moved.name }]) : undefined;
    if (location !== undefined) throw new MovedError(307, location);
  }
  throw error;
}
