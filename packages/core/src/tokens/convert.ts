import { isoTime } from '../wire.js';
import type { ApiAccessToken } from './schemas.js';
import type { ApiRepositoryMeta } from '../repos/index.js';
import type { AccessToken } from './tables.js';

/**
 * The API view of a token; `secret` (the token itself) only in the response that created it; `repositories` those
 * of a repository-limited token (null when it is not one).
 */
export function toApiAccessToken(token: AccessToken, secret = '', repositories: ApiRepositoryMeta[] | null = null): ApiAccessToken {
  return {
    id: token.id,
    name: token.name,
    sha1: secret,
    token_last_eight: token.token_last_eight,
    scopes: token.scope.split(',').filter(Boolean),
    created_at: isoTime(token.created_unix),
    repositories,
  };
}
