import { ANONYMOUS, canSignIn, ForbiddenError, NotFoundError, TasksService, UnauthorizedError, isPublicOnly, isSiteAdmin, looksLikeOAuth2AccessToken, looksLikeToken, userActor, type Actor, type RepoHost, type User } from '@repohost/core';
import { normalizeAddress, proxyTrust } from './client-address.js';

/** How a request proved who it is. Token management needs `basic_password` (or reverse-proxy) auth. */
export type AuthMethod = 'anonymous' | 'token' | 'basic_password' | 'reverse_proxy';

export interface Authentication {
  actor: Actor;
  method: AuthMethod;
  /** Scopes of the token used; null when not authenticated by a token (then every scope applies). */
  scopes: string[] | null;
  /** Set on `basic_password` when the account has two-factor authentication (git over HTTP then refuses it). */
  twoFactor?: boolean;
}

export interface CredentialSource {
  header(name: string): string | null;
  query: URLSearchParams;
  /** The socket's peer: a reverse proxy's own address when there is one (what `REVERSE_PROXY_TRUSTED_PROXIES` is checked against). */
  remoteAddress: string | undefined;
  /**
   * The client's address as a trusted proxy reports it (`client-address.ts`): what sign-in throttling counts.
   * Absent, the peer's address is the client's.
   */
  clientAddress?: string;
  /** Told who the request turned out to be (the access log's user). */
  identified?(auth: Authentication): void;
}

export const QUERY_TOKEN_WARNING = 'token and access_token API authentication is deprecated';

/**
 * Works out the actor of a request from its credentials: `Authorization: token|Bearer`, basic auth (password,
 * or a token as password or as user name), the deprecated query token, and, when enabled, a reverse-proxy
 * header from a trusted proxy. Wherever a personal token is taken, a running workflow task's token is too (the
 * Actions user acting for the task). Session cookies are never looked at. Throws UnauthorizedError on bad
 * credentials.
 */
export async function authenticate(host: RepoHost, source: CredentialSource, options: { allowReverseProxy: boolean }): Promise<Authentication> {
  const auth = await authenticateOnce(host, source, options);
  source.identified?.(auth);
  return auth;
}

async function authenticateOnce(host: RepoHost, source: CredentialSource, options: { allowReverseProxy: boolean }): Promise<Authentication> {
  const settings = host.settings;
  const queryToken = source.query.get('token') || source.query.get('access_token');
  const authorization = source.header('authorization');

  if (authorization) {
    const space = authorization.indexOf(' ');
    const scheme = (space < 0 ? authorization : authorization.slice(0, space)).toLowerCase();
    const value = space < 0 ? '' : authorization.slice(space + 1).trim();
    if (scheme === 'token' || scheme === 'bearer') return byToken(host, value);
    if (scheme === 'basic') return byBasic(host, value, source);
    // Other schemes are not ours to judge (Forgejo ignores them too): carry on as if there were none.
  }
  if (queryToken) {
    if (settings.security.DISABLE_QUERY_AUTH_TOKEN) throw new UnauthorizedError('token in the query string is disabled; use the Authorization header');
    return byToken(host, queryToken);
  }
  if (options.allowReverseProxy && settings.service.ENABLE_REVERSE_PROXY_AUTHENTICATION_API) {
    const name = source.header(settings.security.REVERSE_PROXY_AUTHENTICATION_USER);
    if (name && isTrustedProxy(settings, source.remoteAddress)) {
      const user = await host.users.findByName(name);
      if (user && canSignIn(user)) {
        return { actor: userActor(user), method: 'reverse_proxy', scopes: null };
      }
    }
  }
  return { actor: ANONYMOUS, method: 'anonymous', scopes: null };
}

/** An OAuth2 access token: its grant's scopes are enforced as a personal token's are (`all` when it has none). */
async function byOAuth2Token(host: RepoHost, value: string): Promise<Authentication | null> {
  const found = await host.oauth2Provider.authenticate(value);
  if (!found) return null;
  return { actor: userActor(found.user, { publicOnly: isPublicOnly(found.scopes) }), method: 'token', scopes: found.scopes };
}

async function byToken(host: RepoHost, value: string): Promise<Authentication> {
  if (looksLikeOAuth2AccessToken(value)) {
    const oauth = await byOAuth2Token(host, value);
    if (!oauth) throw new UnauthorizedError('invalid username, password or token');
    return oauth;
  }
  const found = value ? await host.tokens.authenticate(value) : null;
  if (!found) {
    const task = value ? await byTaskToken(host, value) : null;
    if (task) return task;
    throw new UnauthorizedError('invalid username, password or token');
  }
  return {
    actor: userActor(found.user, { publicOnly: isPublicOnly(found.scopes), repoIds: found.repoIds }),
    method: 'token',
    scopes: found.scopes,
  };
}

async function byBasic(host: RepoHost, encoded: string, source: CredentialSource): Promise<Authentication> {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new UnauthorizedError('invalid basic authentication');
  const login = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  // A token may stand in the user name (with an empty or `x-oauth-basic` password) or in the password.
  if ((looksLikeToken(login) || looksLikeOAuth2AccessToken(login)) && (password === '' || password === 'x-oauth-basic')) return byToken(host, login);
  // An OAuth2 access token as the password (Git Credential Manager, git-credential-oauth), whatever the user name.
  if (looksLikeOAuth2AccessToken(password)) {
    const oauth = await byOAuth2Token(host, password);
    if (oauth) return oauth;
  }
  if (looksLikeToken(password)) {
    const found = await host.tokens.authenticate(password);
    if (found) {
      return { actor: userActor(found.user, { publicOnly: isPublicOnly(found.scopes), repoIds: found.repoIds }), method: 'token', scopes: found.scopes };
    }
  }
  // A workflow task's token as the password, whatever the user name (how actions/checkout clones).
  const task = await byTaskToken(host, password);
  if (task) return task;
  // With two-factor authentication the password needs the current code beside it (Forgejo's header, or Gitea's);
  // checked within the throttled attempt, so wrong codes count as wrong passwords do.
  const code = source.header('x-forgejo-otp') || source.header('x-gitea-otp') || '';
  const second: { factor: 'none' | 'accepted' | 'refused' } = { factor: 'none' };
  const secondFactor = async (candidate: User) => (second.factor = await host.twoFactor.signInFactor(candidate, code)) !== 'refused';
  const user = login ? await host.users.authenticate(login, password, { address: source.clientAddress ?? source.remoteAddress, secondFactor }) : null;
  if (!user) throw new UnauthorizedError(second.factor === 'refused' ? 'invalid provided OTP' : 'invalid username, password or token');
  return { actor: userActor(user), method: 'basic_password', scopes: null, twoFactor: second.factor === 'accepted' };
}

/**
 * A running workflow task's token (Forgejo's `GetRunningTaskByToken`): the Actions user acting for its task. No
 * scope narrows it (`scopes` null): the permission rule alone says what the task may do. A finished task's token is
 * no token at all.
 */
async function byTaskToken(host: RepoHost, value: string): Promise<Authentication | null> {
  const actor = await host.service(TasksService).actorOfToken(value);
  return actor ? { actor, method: 'token', scopes: null } : null;
}

/** Applies `Sudo`/`?sudo=`: a site administrator acts as another user. */
export async function applySudo(host: RepoHost, auth: Authentication, name: string | null): Promise<Authentication> {
  if (!name) return auth;
  if (!isSiteAdmin(auth.actor) || auth.actor.kind !== 'user') throw new ForbiddenError('Only administrators allowed to sudo.');
  const user = await host.users.findByName(name);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${name}]`);
  return { ...auth, actor: userActor(user, { publicOnly: auth.actor.publicOnly, repoIds: auth.actor.repoIds }) };
}

/** Whether the socket's peer (never a forwarded address) is one of `REVERSE_PROXY_TRUSTED_PROXIES`. */
function isTrustedProxy(settings: RepoHost['settings'], peer: string | undefined): boolean {
  const address = peer === undefined ? undefined : normalizeAddress(peer);
  return address !== undefined && proxyTrust(settings).trusts(address);
}
