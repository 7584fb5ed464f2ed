import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import type { CoreContext } from '../context.js';
import { userActor } from '../users/index.js';
import { isStorableText, nowUnix } from '../storage/index.js';
import { OrgsService } from '../orgs/index.js';
import { TeamsService } from '../orgs/index.js';
import { OAuth2Service } from './service.js';
import { redirectUrisOf, type OAuth2Application } from './tables.js';
import { SCOPE_CATEGORIES, ALL_SCOPE, PUBLIC_ONLY_SCOPE, normalizeScopes } from '../tokens/index.js';
import { avatarUrl } from '../users/index.js';
import { UsersService } from '../users/index.js';
import { canSignIn, type User } from '../users/index.js';
import { webUrl } from '../urls.js';
import { TwoFactorService } from '../twofactor/index.js';
import { loadOrCreateSigningKey, signJwt, type SigningJwk, type SigningKey } from './signing.js';
import { OAuth2ProviderStore } from './provider-store.js';
import { trimEnd } from '../text.js';

/** Forgejo's `[oauth2] ACCESS_TOKEN_EXPIRATION_TIME` default: one hour. */
export const ACCESS_TOKEN_LIFETIME = 3600;
/** Forgejo's `[oauth2] REFRESH_TOKEN_EXPIRATION_TIME` default: 730 hours. */
export const REFRESH_TOKEN_LIFETIME = 730 * 3600;
/** RFC 6749 §4.1.2: a code lives 10 minutes at most. */
export const AUTHORIZATION_CODE_LIFETIME = 600;
/** A sign-in on the provider's pages lasts an hour: long enough to consent, short for a shared browser. */
export const WEB_SESSION_LIFETIME = 3600;

/** The OpenID Connect scopes (everything else in `scope` is taken as an access-token scope, or ignored). */
const OIDC_SCOPES = new Set(['openid', 'profile', 'email', 'groups']);
const ACCESS_PREFIX = 'gtat_';
const REFRESH_PREFIX = 'gtrt_';
const CODE_PREFIX = 'gta_';

/** The parameters of an authorization request, '' when absent. */
export interface AuthorizationParams {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  scope: string;
  state: string;
  nonce: string;
  code_challenge: string;
  code_challenge_method: string;
}

/** A request the authorization endpoint accepted: what the consent page shows and posts back. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string;
  nonce: string;
  codeChallenge: string;
  codeChallengeMethod: '' | 'S256' | 'plain';
}

/** The parameters of an accepted request, as the authorization endpoint reads them (the consent form posts them back). */
export function paramsOfRequest(request: AuthorizationRequest): AuthorizationParams {
  return {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scope,
    state: request.state,
    nonce: request.nonce,
    code_challenge: request.codeChallenge,
    code_challenge_method: request.codeChallengeMethod,
  };
}

export type AuthorizationCheck =
  /** The client or its redirect URI is not known: shown to the user, never redirected (no open redirects). */
  | { kind: 'error_page'; error: string; description: string }
  /** The client is known and the redirect URI is its own: the error goes back to it (RFC 6749 §4.1.2.1). */
  | { kind: 'error_redirect'; location: string }
  | { kind: 'ok'; app: OAuth2Application; request: AuthorizationRequest };

/** The token endpoint's form, '' for absent fields. */
export interface TokenRequest {
  grant_type: string;
  client_id: string;
  client_secret: string;
  code: string;
  redirect_uri: string;
  code_verifier: string;
  refresh_token: string;
  scope: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  id_token?: string;
}

/** An RFC 6749 §5.2 error of the token endpoint: Forgejo answers every one 400 with this body. */
export class OAuth2TokenError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope',
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

export interface OAuth2AuthenticatedToken {
  user: User;
  /** Access-token scopes (`all` when the grant named none). */
  scopes: string[];
}

/** Forgejo's userinfo answer. */
export interface OAuth2UserInfo {
  sub: string;
  name: string;
  preferred_username: string;
  email: string;
  email_verified: boolean;
  picture: string;
  groups?: string[];
}

function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function randomSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

function scopeList(scope: string): string[] {
  return scope.split(/[\s,]+/).filter(Boolean);
}

const CATEGORY_SCOPES = new Set<string>([ALL_SCOPE, PUBLIC_ONLY_SCOPE, ...SCOPE_CATEGORIES.flatMap((c) => [`read:${c}`, `write:${c}`])]);

/**
 * The access-token scopes a grant's scope carries: the granular ones it names (Forgejo's additional grant
 * scopes), or `all` when it names none. Unknown words (`offline_access`, …) are ignored, as Forgejo does.
 */
export function apiScopesOf(scope: string): string[] {
  const granular = scopeList(scope).filter((s) => !OIDC_SCOPES.has(s) && CATEGORY_SCOPES.has(s));
  const normalized = normalizeScopes(granular);
  return normalized.some((s) => s !== PUBLIC_ONLY_SCOPE) ? normalized : [...normalized, ALL_SCOPE];
}

/** True when `value` has the shape of one of our OAuth2 access tokens (so no other lookup needs to run). */
export function looksLikeOAuth2AccessToken(value: string): boolean {
  return value.startsWith(ACCESS_PREFIX) && value.length === ACCESS_PREFIX.length + 43;
}

/**
 * RFC 6749 §3.1.2.3 exact match; for a public client, an `http` loopback IP literal matches whatever its port
 * (RFC 8252 §7.3: a native app listens on a port the system gives it).
 */
function redirectUriMatches(app: OAuth2Application, uri: string): boolean {
  const registered = redirectUrisOf(app);
  if (registered.includes(uri)) return true;
  if (app.confidential_client === 1) return false;
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return false;
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (parsed.protocol !== 'http:' || parsed.port === '' || !isLoopback(host)) return false;
  parsed.port = '';
  const withoutPort = parsed.href;
  return registered.some((candidate) => {
    try {
      return new URL(candidate).href === withoutPort;
    } catch {
      return false;
    }
  });
}

function isLoopback(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && (host === '::1' || host === '0:0:0:0:0:0:0:1');
}

/** `redirect_uri` with `params` added to its query (its own query kept). */
function withQuery(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PLAIN_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * The OAuth2 / OpenID Connect provider, as Forgejo serves it under `/login/oauth/`: authorization codes (PKCE
 * required of public clients), the token endpoint (code exchange, refresh with rotation), ID tokens signed RS256,
 * userinfo, and the sign-in sessions of its pages. Core holds the rules; the server renders the pages.
 */
export class OAuth2ProviderService {
  private readonly store: OAuth2ProviderStore;
  private signingKey: Promise<SigningKey> | undefined;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(OAuth2ProviderStore);
  }

  /** An account's grants, tokens, codes and sessions go with it. Registered once per host. */
  subscribe(): void {
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => {
      await tx.store(OAuth2ProviderStore).deleteAllOf(payload.user.id);
    });
  }

  private get apps(): OAuth2Service {
    return this.ctx.service(OAuth2Service);
  }

  /** The issuer: ROOT_URL without its trailing slash, as Forgejo has it. */
  get issuer(): string {
    return trimEnd(this.ctx.settings.server.ROOT_URL, '/');
  }

  /** Created on first use (not at start-up) and kept under the data path, as the SSH host key is. */
  private key(): Promise<SigningKey> {
    const file = path.join(this.ctx.settings.server.APP_DATA_PATH, 'jwt', 'private.pem');
    const pending = (this.signingKey ??= loadOrCreateSigningKey(file));
    pending.catch(() => {
      // A failure (unwritable folder) is not remembered: the next request tries again.
      if (this.signingKey === pending) this.signingKey = undefined;
    });
    return pending;
  }

  /** `/.well-known/openid-configuration`. */
  discovery(): Record<string, unknown> {
    const root = this.ctx.settings.server.ROOT_URL;
    return {
      issuer: this.issuer,
      authorization_endpoint: `${root}login/oauth/authorize`,
      token_endpoint: `${root}login/oauth/access_token`,
      jwks_uri: `${root}login/oauth/keys`,
      userinfo_endpoint: `${root}login/oauth/userinfo`,
      response_types_supported: ['code'],
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['public'],
      scopes_supported: ['openid', 'profile', 'email', 'groups'],
      claims_supported: ['aud', 'exp', 'iat', 'iss', 'sub', 'name', 'preferred_username', 'profile', 'picture', 'website', 'locale', 'updated_at', 'email', 'email_verified', 'groups'],
      code_challenge_methods_supported: ['plain', 'S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    };
  }

  /** `/login/oauth/keys`: the JWK set ID tokens verify against. */
  async jwks(): Promise<{ keys: SigningJwk[] }> {
    return { keys: [(await this.key()).jwk] };
  }

  // ---- the authorization endpoint ----

  /** Checks an authorization request in Forgejo's order; the client and its redirect URI come first. */
  async checkAuthorizationRequest(params: AuthorizationParams): Promise<AuthorizationCheck> {
    const app = params.client_id ? await this.apps.byClientId(params.client_id) : undefined;
    if (!app) return { kind: 'error_page', error: 'unauthorized_client', description: 'Client ID not registered' };
    if (!isStorableText(params.redirect_uri) || !redirectUriMatches(app, params.redirect_uri)) {
      return { kind: 'error_page', error: 'invalid_request', description: 'Unregistered Redirect URI' };
    }
    const fail = (error: string, description: string): AuthorizationCheck => ({
      kind: 'error_redirect',
      location: withQuery(params.redirect_uri, { error, error_description: description, state: params.state }),
    });
    if (params.response_type !== 'code') return fail('unsupported_response_type', 'Only code response type is supported.');
    // RFC 7636 §4.3: a challenge without a method is `plain`.
    const method = params.code_challenge_method || (params.code_challenge ? 'plain' : '');
    if (method === '') {
      // RFC 8252 §8.1, RFC 7636 §4.4.1: public clients must use PKCE.
      if (app.confidential_client !== 1) return fail('invalid_request', 'PKCE is required for public clients');
    } else if (method !== 'S256' && method !== 'plain') {
      return fail('invalid_request', 'unsupported code challenge method');
    } else if (!(method === 'S256' ? S256_CHALLENGE : PLAIN_CHALLENGE).test(params.code_challenge)) {
      return fail('invalid_request', 'invalid code challenge');
    }
    for (const [name, value] of [['scope', params.scope], ['state', params.state], ['nonce', params.nonce]] as const) {
      if (value.length > 2048 || !isStorableText(value)) return fail('invalid_request', `invalid ${name}`);
    }
    return {
      kind: 'ok',
      app,
      request: {
        clientId: app.client_id,
        redirectUri: params.redirect_uri,
        scope: params.scope,
        state: params.state,
        nonce: params.nonce,
        codeChallenge: params.code_challenge,
        codeChallengeMethod: method,
      },
    };
  }

  /** The consent: a new code for `user`, and where to send the browser with it (and `state`). */
  async approve(user: User, request: AuthorizationRequest): Promise<string> {
    const check = await this.recheck(request);
    if (check.kind !== 'ok') return check.location;
    const code = randomSecret(CODE_PREFIX);
    const now = nowUnix();
    await this.store.deleteExpiredCodes(now);
    await this.store.insertCode({
      code_hash: sha256Hex(code),
      application_id: check.app.id,
      uid: user.id,
      redirect_uri: request.redirectUri,
      scope: request.scope,
      nonce: request.nonce,
      code_challenge: request.codeChallenge,
      code_challenge_method: request.codeChallengeMethod,
      expires_unix: now + AUTHORIZATION_CODE_LIFETIME,
      created_unix: now,
    });
    return withQuery(request.redirectUri, request.state ? { code, state: request.state } : { code });
  }

  /** The refusal: back to the client with `access_denied`. */
  async deny(request: AuthorizationRequest): Promise<string> {
    const check = await this.recheck(request);
    if (check.kind !== 'ok') return check.location;
    return withQuery(request.redirectUri, { error: 'access_denied', error_description: 'the request is denied', state: request.state });
  }

  /** A consent posted back is checked again: the application may have changed its redirect URIs meanwhile. */
  private async recheck(request: AuthorizationRequest): Promise<{ kind: 'ok'; app: OAuth2Application } | { kind: 'error'; location: string }> {
    const check = await this.checkAuthorizationRequest(paramsOfRequest(request));
    if (check.kind === 'ok') return { kind: 'ok', app: check.app };
    if (check.kind === 'error_redirect') return { kind: 'error', location: check.location };
    throw new OAuth2AuthorizeRefused(check.description);
  }

  // ---- the token endpoint ----

  /** `POST /login/oauth/access_token`. Throws OAuth2TokenError with Forgejo's codes. */
  async token(input: TokenRequest): Promise<TokenResponse> {
    if (input.grant_type !== 'authorization_code' && input.grant_type !== 'refresh_token') {
      throw new OAuth2TokenError('unsupported_grant_type', 'Only refresh_token or authorization_code grant type is supported');
    }
    const app = input.client_id ? await this.apps.byClientId(input.client_id) : undefined;
    if (!app) throw new OAuth2TokenError('invalid_client', `cannot load client with client id: '${input.client_id}'`);
    // A confidential client authenticates; a public one has nothing to prove but its PKCE verifier.
    if (app.confidential_client === 1 && !this.apps.verifyClientSecret(app, input.client_secret)) {
      const description = input.client_secret === '' ? 'invalid empty client secret' : 'invalid client secret';
      throw new OAuth2TokenError(input.grant_type === 'refresh_token' ? 'invalid_client' : 'unauthorized_client', description);
    }
    return input.grant_type === 'authorization_code' ? this.exchangeCode(app, input) : this.refresh(app, input);
  }

  private async exchangeCode(app: OAuth2Application, input: TokenRequest): Promise<TokenResponse> {
    if (input.redirect_uri !== '' && !redirectUriMatches(app, input.redirect_uri)) {
      throw new OAuth2TokenError('unauthorized_client', 'unexpected redirect URI');
    }
    const code = input.code && isStorableText(input.code) ? await this.store.codeByHash(sha256Hex(input.code)) : undefined;
    if (!code) throw new OAuth2TokenError('unauthorized_client', 'client is not authorized');
    if (code.application_id !== app.id) throw new OAuth2TokenError('invalid_grant', 'invalid grant');
    if (code.used === 1) {
      // RFC 6749 §4.1.2: a code used twice was likely stolen; what the first use issued is revoked.
      if (code.grant_id !== 0) await this.store.deleteGrant(code.grant_id);
      throw new OAuth2TokenError('invalid_grant', 'authorization code has already been used');
    }
    const now = nowUnix();
    if (code.expires_unix < now) throw new OAuth2TokenError('invalid_grant', 'authorization code has expired');
    // RFC 6749 §4.1.3: the redirect URI of the request, when it named one, is named again.
    if (input.redirect_uri !== code.redirect_uri) throw new OAuth2TokenError('invalid_grant', 'redirect_uri does not match the authorization request');
    if (!verifierMatches(code.code_challenge_method, code.code_challenge, input.code_verifier)) {
      throw new OAuth2TokenError('unauthorized_client', 'failed PKCE code challenge');
    }
    const user = await this.ctx.service(UsersService).findById(code.uid);
    if (!user || !canSignIn(user)) throw new OAuth2TokenError('invalid_grant', 'the user may not sign in');
    if (!(await this.store.claimCode(code.id))) throw new OAuth2TokenError('invalid_grant', 'authorization code has already been used');
    const grant = await this.ctx.transaction(async (tx) => {
      const store = tx.store(OAuth2ProviderStore);
      const created = await store.insertGrant({ application_id: app.id, uid: user.id, scope: code.scope, nonce: code.nonce, created_unix: now, updated_unix: now });
      await store.setCodeGrant(code.id, created.id);
      return created;
    });
    return this.issue(app, user, grant.id, code.scope, code.nonce);
  }

  private async refresh(app: OAuth2Application, input: TokenRequest): Promise<TokenResponse> {
    const presented = input.refresh_token.startsWith(REFRESH_PREFIX) && isStorableText(input.refresh_token) ? await this.store.tokenByHash(sha256Hex(input.refresh_token)) : undefined;
    if (!presented || presented.kind !== 'refresh') throw new OAuth2TokenError('unauthorized_client', 'unable to parse refresh token');
    const grant = await this.store.grantById(presented.grant_id);
    if (!grant) throw new OAuth2TokenError('invalid_grant', 'grant does not exist');
    if (grant.application_id !== app.id) throw new OAuth2TokenError('invalid_grant', 'invalid grant');
    const now = nowUnix();
    if (presented.expires_unix < now) throw new OAuth2TokenError('invalid_grant', 'refresh token has expired');
    // RFC 6749 §6: the scope may narrow, never grow.
    let scope = presented.scope;
    if (input.scope.trim() !== '') {
      const allowed = new Set(scopeList(presented.scope));
      const requested = scopeList(input.scope);
      const extra = requested.filter((s) => !allowed.has(s));
      if (extra.length > 0) throw new OAuth2TokenError('invalid_scope', `scope exceeds the grant: ${extra.join(' ')}`);
      scope = requested.join(' ');
    }
    if (presented.consumed === 1 || !(await this.store.consumeToken(presented.id))) {
      // A rotated refresh token came back: one of its holders is not the client. The whole family goes.
      await this.store.deleteGrant(grant.id);
      throw new OAuth2TokenError('unauthorized_client', 'token was already used');
    }
    const user = await this.ctx.service(UsersService).findById(grant.uid);
    if (!user || !canSignIn(user)) throw new OAuth2TokenError('invalid_grant', 'the user may not sign in');
    return this.issue(app, user, grant.id, scope, grant.nonce);
  }

  /** A new access and refresh token of a grant, and an ID token when `openid` was granted. */
  private async issue(app: OAuth2Application, user: User, grantId: number, scope: string, nonce: string): Promise<TokenResponse> {
    const now = nowUnix();
    const access = randomSecret(ACCESS_PREFIX);
    const refresh = randomSecret(REFRESH_PREFIX);
    await this.store.deleteExpiredTokensOf(grantId, now);
    await this.store.insertTokens([
      { token_hash: sha256Hex(access), grant_id: grantId, uid: user.id, kind: 'access', scope, expires_unix: now + ACCESS_TOKEN_LIFETIME, created_unix: now },
      { token_hash: sha256Hex(refresh), grant_id: grantId, uid: user.id, kind: 'refresh', scope, expires_unix: now + REFRESH_TOKEN_LIFETIME, created_unix: now },
    ]);
    const response: TokenResponse = { access_token: access, token_type: 'bearer', expires_in: ACCESS_TOKEN_LIFETIME, refresh_token: refresh };
    const scopes = new Set(scopeList(scope));
    if (scopes.has('openid')) response.id_token = await this.idToken(app, user, scopes, nonce, now);
    return response;
  }

  private async idToken(app: OAuth2Application, user: User, scopes: Set<string>, nonce: string, now: number): Promise<string> {
    const settings = this.ctx.settings;
    const claims: Record<string, unknown> = { iss: this.issuer, sub: String(user.id), aud: app.client_id, iat: now, exp: now + ACCESS_TOKEN_LIFETIME };
    if (nonce) claims.nonce = nonce;
    if (scopes.has('profile')) {
      Object.assign(claims, {
        name: user.full_name || user.name,
        preferred_username: user.name,
        profile: webUrl(settings, encodeURIComponent(user.name)),
        picture: avatarUrl(user, settings),
        website: user.website,
        locale: user.language,
        updated_at: user.updated_unix,
      });
    }
    if (scopes.has('email')) Object.assign(claims, { email: user.email, email_verified: user.is_active === 1 });
    if (scopes.has('groups')) claims.groups = await this.groupsOf(user);
    return signJwt(await this.key(), claims);
  }

  // ---- tokens on the API, userinfo ----

  /** The account and scopes of a live OAuth2 access token; null for anything else. One indexed query, then the user. */
  async authenticate(value: string): Promise<OAuth2AuthenticatedToken | null> {
    if (!looksLikeOAuth2AccessToken(value)) return null;
    const found = await this.store.accessTokenByHash(sha256Hex(value));
    if (!found || found.kind !== 'access' || found.expires_unix < nowUnix()) return null;
    const user = await this.ctx.service(UsersService).findById(found.uid);
    if (!user || !canSignIn(user)) return null;
    return { user, scopes: apiScopesOf(found.scope) };
  }

  /** `/login/oauth/userinfo`, Forgejo's fields. */
  async userInfo(user: User): Promise<OAuth2UserInfo> {
    const info: OAuth2UserInfo = {
      sub: String(user.id),
      name: user.full_name || user.name,
      preferred_username: user.name,
      email: user.email,
      email_verified: user.is_active === 1,
      picture: avatarUrl(user, this.ctx.settings),
    };
    const groups = await this.groupsOf(user);
    if (groups.length > 0) info.groups = groups;
    return info;
  }

  /** `org` for each organization the user belongs to, and `org:team` for each of its teams there (first 50 of each). */
  private async groupsOf(user: User): Promise<string[]> {
    const orgs = await this.ctx.service(OrgsService).listOfUser(userActor(user), user, { page: 1, limit: 50 });
    const teams = await this.ctx.service(TeamsService).listOfUser(user, { page: 1, limit: 50 });
    const groups: string[] = [];
    for (const org of orgs.items) {
      groups.push(org.name);
      for (const { team, org: teamOrg } of teams.items) if (teamOrg?.id === org.id) groups.push(`${org.name}:${team.lower_name}`);
    }
    return groups;
  }

  // ---- sign-in sessions of the provider's pages ----

  /**
   * A password sign-in for the pages, throttled as every sign-in is; an account with two-factor authentication
   * needs its current TOTP code (or its scratch code) too, checked within the same throttled attempt.
   */
  async signIn(login: string, password: string, code: string, address: string | undefined): Promise<{ user: User } | { failure: 'credentials' | 'second_factor' }> {
    const second: { factor: 'none' | 'accepted' | 'refused' } = { factor: 'none' };
    const twoFactor = this.ctx.service(TwoFactorService);
    const user = await this.ctx.service(UsersService).authenticate(login, password, {
      address,
      secondFactor: async (candidate) => {
        if (!(await twoFactor.isEnrolled(candidate))) return true;
        second.factor = code.trim() !== '' && (await twoFactor.verify(candidate, code)) !== null ? 'accepted' : 'refused';
        return second.factor === 'accepted';
      },
    });
    if (user) return { user };
    return { failure: second.factor === 'refused' ? 'second_factor' : 'credentials' };
  }

  /** Starts a session; returns the cookie value (the only copy of the id). */
  async createSession(user: User): Promise<string> {
    const value = randomBytes(32).toString('base64url');
    const now = nowUnix();
    await this.store.deleteExpiredSessions(now);
    await this.store.insertSession(sha256Hex(value), user.id, now + WEB_SESSION_LIFETIME, now);
    return value;
  }

  /** The account of a live session cookie, or undefined. */
  async sessionUser(value: string): Promise<User | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(value)) return undefined;
    const session = await this.store.sessionByHash(sha256Hex(value));
    if (!session || session.expires_unix < nowUnix()) return undefined;
    const user = await this.ctx.service(UsersService).findById(session.uid);
    return user && canSignIn(user) ? user : undefined;
  }
}

/** A consent posted for a client or redirect URI that is no longer registered: an error page, not a redirect. */
export class OAuth2AuthorizeRefused extends Error {}

function verifierMatches(method: string, challenge: string, verifier: string): boolean {
  if (method === '' && challenge === '') return true;
  if (verifier === '' || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  if (method === 'S256') return safeEqual(createHash('sha256').update(verifier, 'ascii').digest('base64url'), challenge);
  if (method === 'plain') return safeEqual(verifier, challenge);
  return false;
}
