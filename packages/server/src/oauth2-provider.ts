import { randomBytes } from 'node:crypto';
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import {
  paramsOfRequest,
  OAuth2AuthorizeRefused,
  OAuth2TokenError,
  TooManyRequestsError,
  WEB_SESSION_LIFETIME,
  type AuthorizationParams,
  type AuthorizationRequest,
  type RepoHost,
  type TokenRequest,
  type User,
} from '@repohost/core';
import { errorResponse } from './api/router.js';
import { noteUser } from './access-log.js';
import { requestClientAddress } from './client-address.js';
import { FormTooLarge, cookieHeader, cookieOf, csrfMatches, csrfToken, escapeHtml, htmlPage, readForm, redirect } from './web-pages.js';

/** Pages other than the authorization page that the sign-in form may return to: a fixed set, so never an open redirect. */
const SIGN_IN_RETURN_PATHS = new Set(['user/settings/security/two_factor']);
/** Longest page path the sign-in form returns to. */
const MAX_RETURN_PATH = 1024;

/**
 * Where the sign-in form may send the browser back: the two-factor page, or a page of this site given as a path
 * under ROOT_URL (what the read-only pages link from). Only the characters a URL's path and query hold, no `//`,
 * no `..` segment and no backslash, so the redirect can only name a page of this site (ROOT_URL is its prefix).
 */
function isReturnPath(text: string): boolean {
  if (SIGN_IN_RETURN_PATHS.has(text)) return true;
  if (text.length === 0 || text.length > MAX_RETURN_PATH || text[0] === '/' || text[0] === '.') return false;
  let segmentStart = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0x2f;
    if (code <= 0x20 || code >= 0x7f || code === 0x23 || code === 0x5c || code === 0x22 || code === 0x3c || code === 0x3e) return false;
    if (code === 0x3f) break; // the query: no segments to check past it
    if (code === 0x2f) {
      const segment = text.slice(segmentStart, i);
      if (segment === '' || segment === '..' || segment === '.') return false;
      segmentStart = i + 1;
    }
  }
  return true;
}

/**
 * Forgejo's `GET /user/login`: the sign-in form on its own, returning to `redirect_to` (a path of this site) or,
 * without one, to the same-site page the link was followed from (its Referer), else to the two-factor page.
 */
function loginPage(host: RepoHost, event: H3Event): Response {
  const root = host.settings.server.ROOT_URL;
  let wanted = event.url.searchParams.get('redirect_to') ?? '';
  if (wanted.startsWith('/')) wanted = wanted.slice(1);
  if (wanted === '') {
    const referer = event.req.headers.get('referer') ?? '';
    if (referer.startsWith(root)) wanted = referer.slice(root.length);
  }
  return signInPage(host, cookieOf(event), '', 200, '', isReturnPath(wanted) ? wanted : 'user/settings/security/two_factor');
}

/**
 * The OAuth2 / OpenID Connect provider's endpoints under the server root, as Forgejo serves them: discovery, the
 * JWK set, the authorization page (sign-in, then consent: plain server-rendered HTML), the token endpoint and
 * userinfo. Core holds the rules (`host.oauth2Provider`); this file speaks HTTP and HTML.
 */
export function registerOAuth2Provider(app: H3, host: RepoHost): void {
  const provider = host.oauth2Provider;
  app.get('/.well-known/openid-configuration', () => jsonAnswer(200, provider.discovery(), { 'access-control-allow-origin': '*' }));
  app.get('/login/oauth/keys', async (event) => guard(host, event, async () => jsonAnswer(200, await provider.jwks(), { 'access-control-allow-origin': '*' })));
  app.get('/login/oauth/authorize', (event) => guard(host, event, () => authorizePage(host, event)));
  app.get('/user/login', (event) => guard(host, event, async () => loginPage(host, event)));
  app.post('/user/login', (event) => guard(host, event, () => signIn(host, event)));
  app.post('/login/oauth/grant', (event) => guard(host, event, () => grant(host, event)));
  app.post('/login/oauth/access_token', (event) => guard(host, event, () => accessToken(host, event)));
  app.get('/login/oauth/userinfo', (event) => guard(host, event, () => userInfo(host, event)));
  app.post('/login/oauth/userinfo', (event) => guard(host, event, () => userInfo(host, event)));
}

async function guard(host: RepoHost, event: H3Event, run: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof FormTooLarge) return htmlPage(host, 413, 'Request too large', '<p>The request is too large.</p>');
    if (error instanceof OAuth2AuthorizeRefused) return errorPage(host, 'invalid_request', error.message);
    return errorResponse(host, error);
  }
}

// ---- the authorization page ----

const PARAM_NAMES = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method'] as const;

function authorizationParams(query: URLSearchParams): AuthorizationParams {
  const params = {} as AuthorizationParams;
  for (const name of PARAM_NAMES) params[name] = query.get(name) ?? '';
  return params;
}

async function authorizePage(host: RepoHost, event: H3Event): Promise<Response> {
  const check = await host.oauth2Provider.checkAuthorizationRequest(authorizationParams(event.url.searchParams));
  if (check.kind === 'error_page') return errorPage(host, check.error, check.description);
  if (check.kind === 'error_redirect') return redirect(check.location);
  const cookie = cookieOf(event);
  const user = cookie ? await host.oauth2Provider.sessionUser(cookie) : undefined;
  noteUser(event, user?.name);
  if (!user) return signInPage(host, cookie, event.url.search, 200, '');
  return consentPage(host, cookie!, user, check.app.name, check.request);
}

/**
 * The sign-in form; it posts back the authorization request's query, which the sign-in returns to, or `returnTo`
 * (`isReturnPath`: the two-factor page or another page of this site) for the other web pages.
 */
export function signInPage(host: RepoHost, cookie: string | undefined, authorizeQuery: string, status: number, message: string, returnTo = ''): Response {
  const key = cookie ?? randomBytes(32).toString('base64url');
  const root = host.settings.server.ROOT_URL;
  const body = `${message ? `<p class="error">${escapeHtml(message)}</p>` : ''}
<form method="post" action="${escapeHtml(`${root}user/login`)}">
<input type="hidden" name="_csrf" value="${csrfToken(key, 'signin')}">
<input type="hidden" name="authorize_query" value="${escapeHtml(authorizeQuery)}">
${returnTo ? `<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">\n` : ''}<p><label>Username or email <input name="user_name" autocomplete="username" required autofocus></label></p>
<p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>
<p><label>Two-factor code (when enabled) <input name="otp" inputmode="numeric" autocomplete="one-time-code"></label></p>
<p><button type="submit">Sign in</button></p>
</form>`;
  const headers: Record<string, string> = {};
  if (!cookie) headers['set-cookie'] = cookieHeader(host, key, WEB_SESSION_LIFETIME);
  return htmlPage(host, status, 'Sign in', body, headers);
}

/** Longest authorization query the sign-in form carries back (its page's own query, so a URL's length at most). */
const MAX_AUTHORIZE_QUERY = 8192;

/**
 * The authorization request's query as the sign-in form posts it back: empty, or `?` and the characters a
 * serialized URL's query holds (printable ASCII, no space, no `#`). Anything else did not come from our page.
 */
function isAuthorizeQuery(text: string): boolean {
  if (text === '') return true;
  if (text[0] !== '?' || text.length > MAX_AUTHORIZE_QUERY) return false;
  for (let i = 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code >= 0x7f || code === 0x23) return false;
  }
  return true;
}

async function signIn(host: RepoHost, event: H3Event): Promise<Response> {
  const form = await readForm(event);
  const cookie = cookieOf(event);
  const authorizeQuery = form.get('authorize_query') ?? '';
  const returnTo = isReturnPath(form.get('return_to') ?? '') ? form.get('return_to')! : '';
  // Checked before the password (and so before any session exists): the answer's Location is built from it.
  if (!isAuthorizeQuery(authorizeQuery)) return signInPage(host, cookie, '', 400, 'The sign-in request is malformed; start again from the application.', returnTo);
  // A cross-site form cannot know the token: it is keyed by the cookie only this browser holds (no login CSRF).
  if (!cookie || !csrfMatches(cookie, 'signin', form.get('_csrf') ?? '')) return signInPage(host, undefined, authorizeQuery, 400, 'The form has expired; please sign in again.', returnTo);
  const login = form.get('user_name') ?? '';
  const password = form.get('password') ?? '';
  let outcome;
  try {
    // Throttled by the client's address as a trusted proxy reports it, not the proxy's own.
    outcome = await host.oauth2Provider.signIn(login, password, form.get('otp') ?? '', requestClientAddress(event));
  } catch (error) {
    if (error instanceof TooManyRequestsError) return signInPage(host, cookie, authorizeQuery, 429, 'Too many failed sign-in attempts; try again later.', returnTo);
    throw error;
  }
  if ('failure' in outcome) {
    const message = outcome.failure === 'second_factor' ? 'The two-factor code is missing or wrong.' : 'Username or password is incorrect.';
    return signInPage(host, cookie, authorizeQuery, 401, message, returnTo);
  }
  noteUser(event, outcome.user.name);
  // A new id after sign-in: a value planted before it (session fixation) is worth nothing.
  const session = await host.oauth2Provider.createSession(outcome.user);
  if (returnTo) return redirect(`${host.settings.server.ROOT_URL}${returnTo}`, { 'set-cookie': cookieHeader(host, session, WEB_SESSION_LIFETIME) });
  // Back to the authorization page only: the path is fixed, so this can never redirect elsewhere.
  const query = authorizeQuery.startsWith('?') ? authorizeQuery : '';
  return redirect(`${host.settings.server.ROOT_URL}login/oauth/authorize${query}`, { 'set-cookie': cookieHeader(host, session, WEB_SESSION_LIFETIME) });
}

const REQUEST_FIELDS = ['client_id', 'redirect_uri', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method'] as const;

/** The consent token binds the session (its cookie keys it) to this very request: no field can be swapped. */
function consentPurpose(fields: Readonly<Partial<Record<string, string>>>): string {
  return `grant\0${JSON.stringify(REQUEST_FIELDS.map((name) => fields[name] ?? ''))}`;
}

function consentPage(host: RepoHost, cookie: string, user: User, appName: string, request: AuthorizationRequest): Response {
  const fields = paramsOfRequest(request);
  const hidden = REQUEST_FIELDS.map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(fields[name])}">`).join('\n');
  const scopes = request.scope.split(/\s+/).filter(Boolean);
  const body = `<p>Signed in as <strong>${escapeHtml(user.name)}</strong>.</p>
<p><strong>${escapeHtml(appName)}</strong> would like to access your account${scopes.length ? ` with the scopes <code>${escapeHtml(scopes.join(' '))}</code>` : ''}.</p>
<p>You will be sent back to <strong>${escapeHtml(request.redirectUri)}</strong>.</p>
<form method="post" action="${escapeHtml(`${host.settings.server.ROOT_URL}login/oauth/grant`)}">
<input type="hidden" name="_csrf" value="${csrfToken(cookie, consentPurpose({ ...fields }))}">
${hidden}
<p><button type="submit" name="granted" value="true">Authorize application</button>
<button type="submit" name="granted" value="false">Cancel</button></p>
</form>`;
  return htmlPage(host, 200, `Authorize ${appName}`, body);
}

async function grant(host: RepoHost, event: H3Event): Promise<Response> {
  const form = await readForm(event);
  const cookie = cookieOf(event);
  const user = cookie ? await host.oauth2Provider.sessionUser(cookie) : undefined;
  noteUser(event, user?.name);
  if (!cookie || !user) return errorPage(host, 'access_denied', 'You are not signed in (or your session has expired); start again from the application.', 401);
  const fields: Record<string, string> = {};
  for (const name of REQUEST_FIELDS) fields[name] = form.get(name) ?? '';
  if (!csrfMatches(cookie, consentPurpose(fields), form.get('_csrf') ?? '')) return errorPage(host, 'invalid_request', 'The form has expired or was not sent by this page.', 400);
  const request: AuthorizationRequest = {
    clientId: fields.client_id!,
    redirectUri: fields.redirect_uri!,
    scope: fields.scope!,
    state: fields.state!,
    nonce: fields.nonce!,
    codeChallenge: fields.code_challenge!,
    codeChallengeMethod: fields.code_challenge_method as AuthorizationRequest['codeChallengeMethod'],
  };
  const location = form.get('granted') === 'true' ? await host.oauth2Provider.approve(user, request) : await host.oauth2Provider.deny(request);
  return redirect(location);
}

// ---- the token endpoint and userinfo ----

const TOKEN_FIELDS = ['grant_type', 'client_id', 'client_secret', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'scope'] as const;

async function accessToken(host: RepoHost, event: H3Event): Promise<Response> {
  let form: URLSearchParams;
  try {
    form = await readForm(event, { json: true });
  } catch (error) {
    if (error instanceof FormTooLarge) throw error;
    return tokenError(new OAuth2TokenError('invalid_request', 'cannot parse the request body'));
  }
  const input = {} as TokenRequest;
  for (const name of TOKEN_FIELDS) input[name] = form.get(name) ?? '';
  // Client authentication by HTTP basic (RFC 6749 §2.3.1) fills what the body left out; both must agree.
  if (input.client_id === '' || input.client_secret === '') {
    const authorization = event.req.headers.get('authorization') ?? '';
    const space = authorization.indexOf(' ');
    if (space > 0 && authorization.slice(0, space).toLowerCase() === 'basic') {
      const decoded = Buffer.from(authorization.slice(space + 1).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return tokenError(new OAuth2TokenError('invalid_request', 'cannot parse basic auth header'));
      const clientId = formDecode(decoded.slice(0, colon));
      const clientSecret = formDecode(decoded.slice(colon + 1));
      if (input.client_id !== '' && input.client_id !== clientId) {
        return tokenError(new OAuth2TokenError('invalid_request', 'client_id in request body inconsistent with Authorization header'));
      }
      if (input.client_secret !== '' && input.client_secret !== clientSecret) {
        return tokenError(new OAuth2TokenError('invalid_request', 'client_secret in request body inconsistent with Authorization header'));
      }
      input.client_id = clientId;
      input.client_secret = clientSecret;
    }
  }
  try {
    return jsonAnswer(200, await host.oauth2Provider.token(input), NO_STORE);
  } catch (error) {
    if (error instanceof OAuth2TokenError) return tokenError(error);
    throw error;
  }
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function tokenError(error: OAuth2TokenError): Response {
  return jsonAnswer(400, { error: error.error, error_description: error.description }, NO_STORE);
}

/** Only an OAuth2 access token opens userinfo (as in Forgejo: not a personal token, not a password). */
async function userInfo(host: RepoHost, event: H3Event): Promise<Response> {
  const authorization = event.req.headers.get('authorization') ?? '';
  const [scheme, value, ...rest] = authorization.trim().split(/\s+/);
  const found =
    rest.length === 0 && value && (scheme?.toLowerCase() === 'bearer' || scheme?.toLowerCase() === 'token') ? await host.oauth2Provider.authenticate(value) : null;
  if (!found) {
    const body = 'no valid authorization';
    return new FastResponse(body, {
      status: 401,
      headers: { 'www-authenticate': 'Bearer realm=""', 'content-type': 'text/plain;charset=utf-8', 'content-length': String(body.length) },
    });
  }
  noteUser(event, found.user.name);
  return jsonAnswer(200, await host.oauth2Provider.userInfo(found.user), NO_STORE);
}

// ---- HTTP helpers ----

/** RFC 6749 §2.3.1: client credentials in basic auth are form-encoded first; a value that is not stays as it is. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  const body = JSON.stringify(value);
  return new FastResponse(body, {
    status,
    headers: { ...headers, 'content-type': 'application/json;charset=utf-8', 'content-length': String(Buffer.byteLength(body)) },
  });
}

function errorPage(host: RepoHost, error: string, description: string, status = 400): Response {
  return htmlPage(host, status, 'Authorization failed', `<p class="error"><strong>${escapeHtml(error)}</strong>: ${escapeHtml(description)}</p>`);
}
