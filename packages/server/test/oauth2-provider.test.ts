/**
 * The OAuth2 / OpenID Connect provider as clients see it. oauth4webapi, a real certified OIDC client library, runs
 * discovery, the authorization-code flow with PKCE (the browser's part is plain HTTP form posts, as a browser
 * makes them), the code exchange, ID-token verification against the JWKS, userinfo and refresh. The tokens are
 * then used on the API and as git's password; and every bad input gets the answer Forgejo gives (or RFC 6749's).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as oauth from 'oauth4webapi';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { userActor, type Storage, type User } from '@repohost/core';
import { createToken, createUser, PASSWORD, startTestServer, tokenHeader, totp, type TestServer } from '@repohost/test-support';
import { headerSafeUrl } from '../src/web-pages.js';
import { json, uniq } from './helpers';

const run = promisify(execFile);
const INSECURE = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = 'https://client.example/callback';

let s: TestServer;
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  s = await startTestServer();
  const issuer = new URL(s.url);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...INSECURE }));
});
afterAll(async () => s?.cleanup());
afterEach(() => {
  vi.useRealTimers();
});

interface App {
  clientId: string;
  secret: string;
  client: oauth.Client;
  auth: oauth.ClientAuth;
}

async function registerApp(owner: User, options: { confidential?: boolean; redirectUris?: string[] } = {}): Promise<App> {
  const confidential = options.confidential ?? true;
  const { app, secret } = await s.host.oauth2.create(userActor(owner), owner, {
    name: uniq('app'),
    confidential_client: confidential,
    redirect_uris: options.redirectUris ?? [REDIRECT],
  });
  return { clientId: app.client_id, secret, client: { client_id: app.client_id }, auth: confidential ? oauth.ClientSecretBasic(secret) : oauth.None() };
}

/** A browser: one cookie jar, no automatic redirects (each hop is asserted). */
class Browser {
  cookie = '';
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
    return res;
  }
  async submit(html: string, extra: Record<string, string> = {}): Promise<Response> {
    const action = decode(/<form method="post" action="([^"]+)"/.exec(html)![1]!);
    return this.request(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...hiddenInputs(html), ...extra }).toString() });
  }
}

function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}

function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = decode(match[2]!);
  return fields;
}

interface FlowOptions {
  app: App;
  user: User;
  scope?: string;
  state?: string;
  nonce?: string;
  verifier?: string | null;
  redirectUri?: string;
  otp?: () => string;
}

function authorizeUrl(o: { clientId: string; redirectUri?: string; scope?: string; state?: string; nonce?: string; challenge?: string; method?: string }): string {
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', o.clientId);
  url.searchParams.set('redirect_uri', o.redirectUri ?? REDIRECT);
  if (o.scope) url.searchParams.set('scope', o.scope);
  if (o.state) url.searchParams.set('state', o.state);
  if (o.nonce) url.searchParams.set('nonce', o.nonce);
  if (o.challenge) url.searchParams.set('code_challenge', o.challenge);
  if (o.method) url.searchParams.set('code_challenge_method', o.method);
  return url.href;
}

/** The browser's part: authorize → sign-in form → consent form → the redirect back to the client. */
async function browse(o: FlowOptions, decision: 'true' | 'false' = 'true'): Promise<{ location: URL; browser: Browser }> {
  const browser = new Browser();
  const challenge = o.verifier ? await oauth.calculatePKCECodeChallenge(o.verifier) : undefined;
  const start = await browser.request(authorizeUrl({ clientId: o.app.clientId, redirectUri: o.redirectUri, scope: o.scope, state: o.state, nonce: o.nonce, challenge, method: challenge ? 'S256' : undefined }));
  expect(start.status).toBe(200);
  expect(start.headers.get('content-type')).toMatch(/^text\/html/);
  expect(start.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
  const signIn = await browser.submit(await start.text(), { user_name: o.user.name, password: PASSWORD, otp: o.otp?.() ?? '' });
  expect(signIn.status).toBe(303);
  const consent = await browser.request(signIn.headers.get('location')!);
  expect(consent.status).toBe(200);
  const consentHtml = await consent.text();
  expect(consentHtml).toContain('Authorize application');
  const granted = await browser.submit(consentHtml, { granted: decision });
  expect(granted.status).toBe(303);
  return { location: new URL(granted.headers.get('location')!), browser };
}

/** Authorize and exchange the code through oauth4webapi; returns the processed token response. */
async function signInWith(o: FlowOptions & { scope: string }) {
  const verifier = o.verifier === undefined ? oauth.generateRandomCodeVerifier() : o.verifier;
  const state = o.state ?? oauth.generateRandomState();
  const nonce = o.nonce ?? oauth.generateRandomNonce();
  const { location } = await browse({ ...o, verifier, state, nonce });
  const params = oauth.validateAuthResponse(as, o.app.client, location, state);
  const response = await oauth.authorizationCodeGrantRequest(as, o.app.client, o.app.auth, params, REDIRECT, verifier ?? oauth.nopkce, INSECURE);
  const openid = o.scope.split(' ').includes('openid');
  const result = await oauth.processAuthorizationCodeResponse(as, o.app.client, response, openid ? { expectedNonce: nonce, requireIdToken: true } : undefined);
  return { result, response, nonce };
}

async function tokenRequest(body: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await s.fetch('/login/oauth/access_token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  });
  return { status: res.status, body: await json(res) };
}

/** A code from the browser flow, not yet exchanged. */
async function codeFor(o: FlowOptions): Promise<{ code: string; verifier: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const { location } = await browse({ ...o, verifier, state: 'st' });
  return { code: location.searchParams.get('code')!, verifier };
}

function apiUser(token: string, scheme = 'Bearer'): Promise<Response> {
  return s.fetch('/api/v1/user', { headers: { Authorization: `${scheme} ${token}` } });
}

describe('discovery and keys', () => {
  test('the OpenID configuration names the endpoints under ROOT_URL and the methods supported', async () => {
    const res = await s.fetch('/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(doc.issuer).toBe(s.url.replace(/\/$/, ''));
    expect(doc.authorization_endpoint).toBe(`${s.url}login/oauth/authorize`);
    expect(doc.token_endpoint).toBe(`${s.url}login/oauth/access_token`);
    expect(doc.userinfo_endpoint).toBe(`${s.url}login/oauth/userinfo`);
    expect(doc.jwks_uri).toBe(`${s.url}login/oauth/keys`);
    expect(doc.code_challenge_methods_supported).toEqual(['plain', 'S256']);
    expect(doc.id_token_signing_alg_values_supported).toEqual(['RS256']);
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'groups']));
  });

  test('the JWK set holds one RSA signing key, kept across calls and on disk', async () => {
    const first = await json(await s.fetch('/login/oauth/keys'));
    expect(first.keys).toHaveLength(1);
    expect(first.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    expect(first.keys[0].kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await json(await s.fetch('/login/oauth/keys'));
    expect(again).toEqual(first);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path.join(s.host.settings.server.APP_DATA_PATH, 'jwt', 'private.pem'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });
});

describe('authorization code flow with PKCE, driven by oauth4webapi', () => {
  test('sign-in, consent, exchange, verified ID token, userinfo, API scopes, refresh with rotation', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const user = await createUser(s.host, uniq('alice'));
    const app = await registerApp(owner);
    const { result, response, nonce } = await signInWith({ app, user, scope: 'openid profile email read:user' });
    expect(result.token_type).toBe('bearer');
    expect(result.expires_in).toBe(3600);
    expect(typeof result.refresh_token).toBe('string');

    // The ID token's signature, verified by the library against /login/oauth/keys.
    await oauth.validateApplicationLevelSignature(as, response, INSECURE);
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expect(claims).toMatchObject({ iss: as.issuer, aud: app.clientId, sub: String(user.id), nonce, preferred_username: user.name, email: user.email, email_verified: true });

    const info = await oauth.processUserInfoResponse(as, app.client, claims.sub, await oauth.userInfoRequest(as, app.client, result.access_token, INSECURE));
    expect(info).toMatchObject({ sub: String(user.id), preferred_username: user.name, name: user.name, email: user.email, email_verified: true });
    expect(info.picture).toMatch(new RegExp(`^${s.url}avatars/`));

    // On the API: read:user reads the account (Bearer and token schemes alike), but may not create a repository.
    for (const scheme of ['Bearer', 'token']) {
      const me = await apiUser(result.access_token, scheme);
      expect(me.status).toBe(200);
      expect((await json(me)).login).toBe(user.name);
    }
    const create = await s.fetch('/api/v1/user/repos', { method: 'POST', headers: { Authorization: `Bearer ${result.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'nope' }) });
    expect(create.status).toBe(403);
    expect((await json(create)).message).toContain('write:repository');

    // Refresh rotates: the new tokens work, the old refresh token is refused...
    const refreshed = await oauth.processRefreshTokenResponse(as, app.client, await oauth.refreshTokenGrantRequest(as, app.client, app.auth, result.refresh_token!, INSECURE));
    expect(refreshed.refresh_token).not.toBe(result.refresh_token);
    expect((await apiUser(refreshed.access_token)).status).toBe(200);
    const replay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: result.refresh_token!, client_id: app.clientId, client_secret: app.secret });
    expect(replay).toEqual({ status: 400, body: { error: 'unauthorized_client', error_description: 'token was already used' } });
    // ...and its replay revokes the family: the newest tokens stop working too.
    expect((await apiUser(refreshed.access_token)).status).toBe(401);
    const afterReplay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token!, client_id: app.clientId, client_secret: app.secret });
    expect(afterReplay.status).toBe(400);
  });

  test('a public client signs in with PKCE and no secret; a token without granular scopes counts as all', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const user = await createUser(s.host, uniq('pub'));
    const app = await registerApp(owner, { confidential: false });
    const { result } = await signInWith({ app, user, scope: 'openid' });
    const create = await s.fetch('/api/v1/user/repos', { method: 'POST', headers: { Authorization: `Bearer ${result.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: uniq('r') }) });
    expect(create.status).toBe(201);
  });

  test('JSON bodies and client_secret_post are accepted at the token endpoint; tokens are not cached', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const user = await createUser(s.host, uniq('js'));
    const app = await registerApp(owner);
    const { code, verifier } = await codeFor({ app, user, scope: 'read:user' });
    const res = await s.fetch('/login/oauth/access_token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: app.clientId, client_secret: app.secret }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
  });

  test('an account with two-factor authentication signs in with its current TOTP code', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const user = await createUser(s.host, uniq('tfa'));
    const { secret } = await s.host.twoFactor.enrol(userActor(user), user);
    const step = Math.floor(Date.now() / 30_000);
    await s.host.twoFactor.confirm(userActor(user), user, totp(secret, step - 1));
    const app = await registerApp(owner);

    const browser = new Browser();
    const start = await browser.request(authorizeUrl({ clientId: app.clientId, state: 'x', challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), method: 'S256' }));
    const form = await start.text();
    const withoutCode = await browser.submit(form, { user_name: user.name, password: PASSWORD });
    expect(withoutCode.status).toBe(401);
    expect(await withoutCode.text()).toContain('two-factor code is missing or wrong');
    const withCode = await browser.submit(form, { user_name: user.name, password: PASSWORD, otp: totp(secret, step) });
    expect(withCode.status).toBe(303);
    expect(withCode.headers.get('location')).toMatch(/\/login\/oauth\/authorize\?/);
  });
});

describe('the authorization endpoint refuses', () => {
  test('an unknown client or an unregistered redirect URI with an error page, never a redirect', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const app = await registerApp(owner);
    for (const url of [
      authorizeUrl({ clientId: 'no-such-client', state: 's1' }),
      authorizeUrl({ clientId: app.clientId, redirectUri: 'https://evil.example/callback', state: 's1' }),
      authorizeUrl({ clientId: app.clientId, redirectUri: `${REDIRECT}/more`, state: 's1' }),
      authorizeUrl({ clientId: app.clientId, redirectUri: `${REDIRECT}?x=1`, state: 's1' }),
    ]) {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toMatch(/Client ID not registered|Unregistered Redirect URI/);
    }
  });

  test('a public client without PKCE, back at its redirect URI with invalid_request and the state', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const app = await registerApp(owner, { confidential: false });
    const res = await fetch(authorizeUrl({ clientId: app.clientId, state: 'keep-me' }), { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'invalid_request', error_description: 'PKCE is required for public clients', state: 'keep-me' });
    const badMethod = await fetch(authorizeUrl({ clientId: app.clientId, state: 'k', challenge: 'x'.repeat(43), method: 'S512' }), { redirect: 'manual' });
    expect(new URL(badMethod.headers.get('location')!).searchParams.get('error_description')).toBe('unsupported code challenge method');
  });

  test('a denied consent goes back with access_denied and the state; a consent with a changed field is refused', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const user = await createUser(s.host, uniq('deny'));
    const app = await registerApp(owner, { redirectUris: [REDIRECT, 'https://client.example/other'] });
    const denied = await browse({ app, user, state: 'st-123', verifier: oauth.generateRandomCodeVerifier() }, 'false');
    expect(Object.fromEntries(denied.location.searchParams)).toEqual({ error: 'access_denied', error_description: 'the request is denied', state: 'st-123' });

    const granted = await browse({ app, user, state: 'st-456', verifier: oauth.generateRandomCodeVerifier() });
    expect(granted.location.searchParams.get('state')).toBe('st-456');
    expect(granted.location.searchParams.get('code')).toMatch(/^gta_/);

    // The consent form again, with its redirect URI swapped for the other registered one: the token does not match.
    const browser = granted.browser;
    const page = await browser.request(authorizeUrl({ clientId: app.clientId, state: 's', challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), method: 'S256' }));
    const html = await page.text();
    const forged = await browser.submit(html, { granted: 'true', redirect_uri: 'https://client.example/other' });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
    // Without the session cookie (a cross-site post), nothing is granted either.
    const anonymous = await new Browser().submit(html, { granted: 'true' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('location')).toBeNull();
  });

  test('a sign-in form posted without its cookie (login CSRF) or with a wrong password signs nobody in', async () => {
    const user = await createUser(s.host, uniq('csrf'));
    const owner = await createUser(s.host, uniq('owner'));
    const app = await registerApp(owner);
    const browser = new Browser();
    const form = await (await browser.request(authorizeUrl({ clientId: app.clientId, challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), method: 'S256' }))).text();
    const wrong = await browser.submit(form, { user_name: user.name, password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    const crossSite = await new Browser().submit(form, { user_name: user.name, password: PASSWORD });
    expect(crossSite.status).toBe(400);
    expect(crossSite.headers.get('location')).toBeNull();
  });
});

describe('the sign-in form refuses an authorization query it did not write', () => {
  /** The account's web sessions, as stored. */
  const sessionsOf = async (uid: number): Promise<number> => {
    const { db } = (s.host as unknown as { storage: Storage }).storage;
    const rows = await db.selectFrom('web_session').select('uid').where('uid', '=', uid).execute();
    return rows.length;
  };

  test('with control characters or bytes beyond ASCII: 400 before the password is checked, and no session', async () => {
    const user = await createUser(s.host, uniq('query'));
    const owner = await createUser(s.host, uniq('owner'));
    const app = await registerApp(owner);
    const browser = new Browser();
    const form = await (await browser.request(authorizeUrl({ clientId: app.clientId, challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), method: 'S256' }))).text();
    const cookie = browser.cookie;
    for (const authorize_query of ['?client_id=x\r\nSet-Cookie: planted=1', '?state=\u00e9', '?a=b c', '?a#b', 'https://elsewhere.example/', `?${'a'.repeat(9000)}`]) {
      const res = await browser.submit(form, { user_name: user.name, password: PASSWORD, authorize_query });
      expect(res.status, JSON.stringify(authorize_query)).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('The sign-in request is malformed');
      // The sign-in cookie is the one the form was made for, not a new session's.
      expect(browser.cookie).toBe(cookie);
    }
    expect(await sessionsOf(user.id)).toBe(0);
    // The form as the page wrote it still signs in, to the authorization page.
    const ok = await browser.submit(form, { user_name: user.name, password: PASSWORD });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toMatch(new RegExp(`^${s.url}login/oauth/authorize\\?response_type=code&client_id=`));
    expect(await sessionsOf(user.id)).toBe(1);
  });

  test('a redirect never carries a control character into its Location header', () => {
    expect(headerSafeUrl('https://x.example/a?b=1')).toBe('https://x.example/a?b=1');
    expect(headerSafeUrl('https://x.example/?a=\r\nSet-Cookie: x é')).toBe('https://x.example/?a=%0D%0ASet-Cookie:%20x%20%C3%A9');
  });
});

describe('the token endpoint refuses', () => {
  let owner: User;
  let user: User;
  let app: App;
  beforeAll(async () => {
    owner = await createUser(s.host, uniq('owner'));
    user = await createUser(s.host, uniq('tok'));
    app = await registerApp(owner);
  });

  const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
    tokenRequest({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: app.clientId, client_secret: app.secret, ...extra });

  test('a wrong PKCE verifier', async () => {
    const { code } = await codeFor({ app, user });
    expect(await exchange(code, oauth.generateRandomCodeVerifier())).toEqual({ status: 400, body: { error: 'unauthorized_client', error_description: 'failed PKCE code challenge' } });
  });

  test('a reused code, and revokes what its first use issued', async () => {
    const { code, verifier } = await codeFor({ app, user });
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    expect((await apiUser(first.body.access_token)).status).toBe(200);
    expect(await exchange(code, verifier)).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'authorization code has already been used' } });
    expect((await apiUser(first.body.access_token)).status).toBe(401);
  });

  test('a code presented by another client, even with that client’s right secret', async () => {
    const other = await registerApp(owner);
    const { code, verifier } = await codeFor({ app, user });
    const res = await tokenRequest({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: other.clientId, client_secret: other.secret });
    expect(res).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'invalid grant' } });
    // The code is still good for its own client.
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  test('an expired code (codes live ten minutes)', async () => {
    const { code, verifier } = await codeFor({ app, user });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11 * 60 * 1000 });
    expect(await exchange(code, verifier)).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'authorization code has expired' } });
  });

  test('a wrong, empty or mismatching client secret; an unknown client; an unsupported grant type', async () => {
    const { code, verifier } = await codeFor({ app, user });
    expect(await exchange(code, verifier, { client_secret: `${app.secret}x` })).toEqual({ status: 400, body: { error: 'unauthorized_client', error_description: 'invalid client secret' } });
    expect(await exchange(code, verifier, { client_secret: '' })).toEqual({ status: 400, body: { error: 'unauthorized_client', error_description: 'invalid empty client secret' } });
    const basicMismatch = await tokenRequest(
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: app.clientId },
      { Authorization: `Basic ${Buffer.from(`${app.clientId}x:${app.secret}`).toString('base64')}` },
    );
    expect(basicMismatch).toEqual({ status: 400, body: { error: 'invalid_request', error_description: 'client_id in request body inconsistent with Authorization header' } });
    expect((await exchange(code, verifier, { client_id: 'nobody' })).body.error).toBe('invalid_client');
    expect(await exchange(code, verifier, { grant_type: 'password' })).toEqual({
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'Only refresh_token or authorization_code grant type is supported' },
    });
    expect(await exchange(code, verifier, { redirect_uri: 'https://evil.example/callback' })).toEqual({ status: 400, body: { error: 'unauthorized_client', error_description: 'unexpected redirect URI' } });
    // None of these used the code up.
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  test('a refresh that asks for more scope than was granted; a narrower one is granted', async () => {
    const { code, verifier } = await codeFor({ app, user, scope: 'openid read:user' });
    const tokens = (await exchange(code, verifier)).body;
    const refresh = (scope: string, token: string) => tokenRequest({ grant_type: 'refresh_token', refresh_token: token, scope, client_id: app.clientId, client_secret: app.secret });
    expect(await refresh('openid read:user write:repository', tokens.refresh_token)).toEqual({ status: 400, body: { error: 'invalid_scope', error_description: 'scope exceeds the grant: write:repository' } });
    expect(await refresh('all', tokens.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    // Refused requests leave the refresh token usable; a narrower scope drops the ID token and keeps read:user.
    const narrower = await refresh('read:user', tokens.refresh_token);
    expect(narrower.status).toBe(200);
    expect(narrower.body.id_token).toBeUndefined();
    expect((await apiUser(narrower.body.access_token)).status).toBe(200);
    // A refresh with a wrong client secret is invalid_client (Forgejo's code on this grant type).
    const wrongSecret = await tokenRequest({ grant_type: 'refresh_token', refresh_token: narrower.body.refresh_token, client_id: app.clientId, client_secret: 'gto_wrong' });
    expect(wrongSecret).toEqual({ status: 400, body: { error: 'invalid_client', error_description: 'invalid client secret' } });
  });
});

describe('lifetimes and native clients', () => {
  test('an access token stops working after an hour; its refresh token still renews it', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const user = await createUser(s.host, uniq('exp'));
    const app = await registerApp(owner);
    const { result } = await signInWith({ app, user, scope: 'openid' });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60 * 1000 });
    expect((await apiUser(result.access_token)).status).toBe(401);
    expect((await s.fetch('/login/oauth/userinfo', { headers: { Authorization: `Bearer ${result.access_token}` } })).status).toBe(401);
    const renewed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: result.refresh_token!, client_id: app.clientId, client_secret: app.secret });
    expect(renewed.status).toBe(200);
    expect((await apiUser(renewed.body.access_token)).status).toBe(200);
  });

  test('a public client registered with a loopback URI may use any port (RFC 8252); a confidential one may not', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const user = await createUser(s.host, uniq('native'));
    const loopback = 'http://127.0.0.1/callback';
    const native = await registerApp(owner, { confidential: false, redirectUris: [loopback] });
    const server = await registerApp(owner, { confidential: true, redirectUris: [loopback] });
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const withPort = 'http://127.0.0.1:49152/callback';
    const nativeStart = await fetch(authorizeUrl({ clientId: native.clientId, redirectUri: withPort, challenge, method: 'S256' }), { redirect: 'manual' });
    expect(nativeStart.status).toBe(200);
    const serverStart = await fetch(authorizeUrl({ clientId: server.clientId, redirectUri: withPort, challenge, method: 'S256' }), { redirect: 'manual' });
    expect(serverStart.status).toBe(400);
    expect(serverStart.headers.get('location')).toBeNull();
    // The plain method works too (the verifier is the challenge).
    const verifier = oauth.generateRandomCodeVerifier();
    const browser = new Browser();
    const form = await (await browser.request(authorizeUrl({ clientId: native.clientId, redirectUri: withPort, challenge: verifier, method: 'plain', state: 'p' }))).text();
    const consent = await browser.request((await browser.submit(form, { user_name: user.name, password: PASSWORD })).headers.get('location')!);
    const back = new URL((await browser.submit(await consent.text(), { granted: 'true' })).headers.get('location')!);
    expect(back.origin).toBe('http://127.0.0.1:49152');
    const tokens = await tokenRequest({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: withPort, client_id: native.clientId });
    expect(tokens.status).toBe(200);
  });
});

describe('userinfo', () => {
  test('takes only an OAuth2 access token', async () => {
    const user = await createUser(s.host, uniq('ui'));
    const personal = await createToken(s.host, user.name);
    for (const headers of [{}, tokenHeader(personal), { Authorization: 'Bearer gtat_0000000000000000000000000000000000000000000' }]) {
      const res = await s.fetch('/login/oauth/userinfo', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm=""');
    }
  });
});

describe('git over HTTP', () => {
  test('takes an OAuth2 access token as the password, within its scopes', async () => {
    const owner = await createUser(s.host, uniq('owner'));
    const user = await createUser(s.host, uniq('git'));
    await s.host.repos.create(userActor(user), { name: 'code', private: true, auto_init: true });
    const app = await registerApp(owner);
    const full = (await signInWith({ app, user, scope: 'openid' })).result.access_token;
    const narrow = (await signInWith({ app, user, scope: 'read:user' })).result.access_token;
    const scratch = await mkdtemp(path.join(tmpdir(), 'oauth-git-'));
    try {
      const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', GIT_CONFIG_NOSYSTEM: '1', HOME: scratch };
      const remote = (secret: string) => `${s.url.replace('://', `://${user.name}:${encodeURIComponent(secret)}@`)}${user.name}/code.git`;
      await run('git', ['clone', '--quiet', remote(full), path.join(scratch, 'clone')], { env });
      const { stdout } = await run('git', ['-C', path.join(scratch, 'clone'), 'log', '--oneline'], { env });
      expect(stdout.trim()).not.toBe('');
      // read:user does not reach repositories; an unknown token is no credential at all.
      await expect(run('git', ['ls-remote', remote(narrow)], { env })).rejects.toThrow(/403|denied|fatal/);
      await expect(run('git', ['ls-remote', remote('gtat_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')], { env })).rejects.toThrow();
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
