import { getRouterParam, type H3, type H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { AVATARS_PATH, DEFAULT_AVATAR_PATH, NotFoundError, REPO_AVATARS_PATH, RepoAvatarsService, type AvatarImage, type RepoHost } from '@repohost/core';
import { errorResponse } from './api/router.js';

/** Every avatar's name is its content's hash (or the hash it is drawn from), so a copy never goes stale. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The hash Forgejo's default avatar (the system users') is drawn from. */
const DEFAULT_AVATAR_HASH = 'f0f0c0c0a5a5969669693c3c0f0f5a5a';

/**
 * The images `avatar_url` names: `/avatars/<hash>` (an upload, or the identicon drawn from the hash; `?size=` is
 * ignored: every avatar has one size), `/repo-avatars/<name>` and Forgejo's `/assets/img/avatar_default.png`. Anyone may fetch them, as in
 * Forgejo: the names are hashes, not account names.
 */
export function registerAvatars(app: H3, host: RepoHost): void {
  app.get(`/${AVATARS_PATH}/:name`, async (event) => {
    const name = getRouterParam(event, 'name') ?? '';
    // A storage out of reach is a 503 (a refusing one 502), as the API answers it.
    let image: AvatarImage | undefined;
    try {
      image = await host.userAvatars.read(name);
    } catch (error) {
      return errorResponse(host, error);
    }
    if (!image) return errorResponse(host, new NotFoundError());
    return imageResponse(event, name, image);
  });
  // Repository avatars (`avatar_url` of a Repository): uploads only, named by their hash as Forgejo names them.
  app.get(`/${REPO_AVATARS_PATH}/:name`, async (event) => {
    const name = getRouterParam(event, 'name') ?? '';
    let image: AvatarImage | undefined;
    try {
      image = await host.service(RepoAvatarsService).read(name);
    } catch (error) {
      return errorResponse(host, error);
    }
    if (!image) return errorResponse(host, new NotFoundError());
    return imageResponse(event, name, image);
  });
  app.get(`/${DEFAULT_AVATAR_PATH}`, (event) =>
    imageResponse(event, DEFAULT_AVATAR_HASH, { data: host.userAvatars.identicon(DEFAULT_AVATAR_HASH), contentType: 'image/png' }),
  );
}

function imageResponse(event: H3Event, name: string, image: AvatarImage): Response {
  const etag = `"${name}"`;
  const headers: Record<string, string> = { 'cache-control': CACHE_CONTROL, etag, 'x-content-type-options': 'nosniff' };
  const wanted = event.req.headers.get('if-none-match');
  if (wanted && wanted.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')) {
    return new FastResponse(null, { status: 304, headers });
  }
  headers['content-type'] = image.contentType;
  headers['content-length'] = String(image.data.length);
  return new FastResponse(image.data, { status: 200, headers });
}
