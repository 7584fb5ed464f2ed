/**
 * Two-factor authentication (TOTP, RFC 6238) as a client sees it: enrolment through core, then password basic
 * auth on the API needs `X-Forgejo-OTP` (or `X-Gitea-OTP`) with a current code used only once; tokens are
 * unaffected; git over HTTP takes no password of an enrolled account; wrong codes count in the sign-in throttle.
 * Codes are computed by the test support's own RFC 6238 code, independently of the otpauth library core uses.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConflictError, ForbiddenError, NotFoundError, SYSTEM, UserSchema, ValidationError, matchesSchema, userActor, type User } from '@repohost/core';
import { TwoFactorStore } from '@repohost/core/internal';
import { PASSWORD, basic, createToken, createUser, startTestServer, tokenHeader, totp, totpStep, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const run = promisify(execFile);

/** A user with confirmed two-factor authentication; `last` is the step its confirming code used. */
async function enrolled(s: TestServer, prefix: string): Promise<{ user: User; secret: string; last: number; scratch: string }> {
  const user = await createUser(s.host, uniq(prefix));
  const { secret } = await s.host.twoFactor.enrol(userActor(user), user);
  const last = totpStep();
  const { scratch } = await s.host.twoFactor.confirm(userActor(user), user, totp(secret, last));
  return { user, secret, last, scratch };
}

function getUser(s: TestServer, login: string, headers: Record<string, string> = {}): Promise<Response> {
  return s.fetch('/api/v1/user', { headers: { Authorization: basic(login, PASSWORD), ...headers } });
}

describe('two-factor authentication', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ security: { LOGIN_MAX_FAILURES_PER_ACCOUNT: 1000, LOGIN_MAX_FAILURES_PER_ADDRESS: 1000 } });
  });
  afterAll(async () => s?.cleanup());

  test('enrol gives a secret and an otpauth URI; it is pending (no code needed) until a right code confirms it', async () => {
    const user = await createUser(s.host, uniq('enrol'));
    const actor = userActor(user);
    const { secret, uri } = await s.host.twoFactor.enrol(actor, user);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.host).toBe('totp');
    expect(decodeURIComponent(parsed.pathname)).toContain(user.name);
    expect(parsed.searchParams.get('secret')).toBe(secret);
    expect(parsed.searchParams.get('issuer')).toContain(s.url.replace(/\/$/, ''));
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(false);
    expect((await getUser(s, user.name)).status).toBe(200);

    // Enrolling again while pending replaces the secret: the old one no longer confirms.
    const again = await s.host.twoFactor.enrol(actor, user);
    expect(again.secret).not.toBe(secret);
    await expect(s.host.twoFactor.confirm(actor, user, totp(secret, totpStep()))).rejects.toBeInstanceOf(ValidationError);
    await expect(s.host.twoFactor.confirm(actor, user, 'abcdef')).rejects.toBeInstanceOf(ValidationError);
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(false);

    const { scratch } = await s.host.twoFactor.confirm(actor, user, totp(again.secret, totpStep()));
    expect(scratch).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(true);
    await expect(s.host.twoFactor.enrol(actor, user)).rejects.toBeInstanceOf(ConflictError);
    await expect(s.host.twoFactor.confirm(actor, user, totp(again.secret, totpStep() + 1))).rejects.toBeInstanceOf(ConflictError);
  });

  test('only the user or a site administrator manages it; confirming without enrolling is not found', async () => {
    const alice = await createUser(s.host, uniq('alice'));
    const mallory = await createUser(s.host, uniq('mallory'));
    const admin = await createUser(s.host, uniq('admin'), { admin: true });
    await expect(s.host.twoFactor.enrol(userActor(mallory), alice)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(s.host.twoFactor.disable(userActor(mallory), alice)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(s.host.twoFactor.confirm(userActor(alice), alice, '123456')).rejects.toBeInstanceOf(NotFoundError);
    const { secret } = await s.host.twoFactor.enrol(userActor(admin), alice);
    await s.host.twoFactor.confirm(userActor(admin), alice, totp(secret, totpStep()));
    expect(await s.host.twoFactor.isEnrolled(alice)).toBe(true);
  });

  test('the secret is stored encrypted, not as the base32 text', async () => {
    const { user, secret } = await enrolled(s, 'stored');
    const row = await (s.host as unknown as { ctx: { store: <T>(c: new (...a: never[]) => T) => T } }).ctx.store(TwoFactorStore).byUid(user.id);
    expect(row).toBeDefined();
    expect(row!.secret_encrypted).not.toContain(secret);
    expect(Buffer.from(row!.secret_encrypted, 'base64').toString('latin1')).not.toContain(secret);
    expect(row!.scratch_hash).toMatch(/^[0-9a-f]+$/);
  });

  test('password basic auth needs the current code in X-Forgejo-OTP: missing or wrong is 401, right is 200', async () => {
    const { user, secret, last } = await enrolled(s, 'otp');
    expect(await expectApiError(await getUser(s, user.name), 401, s.url)).toBe('invalid provided OTP');
    const wrong = totp(secret, last + 1) === '000000' ? '111111' : '000000';
    expect(await expectApiError(await getUser(s, user.name, { 'X-Forgejo-OTP': wrong }), 401, s.url)).toBe('invalid provided OTP');
    expect(await expectApiError(await getUser(s, user.name, { 'X-Forgejo-OTP': 'not-a-code' }), 401, s.url)).toBe('invalid provided OTP');
    // A code far from now (an hour ago) is refused.
    expect((await getUser(s, user.name, { 'X-Forgejo-OTP': totp(secret, last - 120) })).status).toBe(401);
    // A wrong password is still the password's error, whatever the code.
    const badPassword = await s.fetch('/api/v1/user', { headers: { Authorization: basic(user.name, 'wrong-password'), 'X-Forgejo-OTP': totp(secret, last + 1) } });
    expect(await expectApiError(badPassword, 401, s.url)).toBe('invalid username, password or token');

    const ok = await getUser(s, user.name, { 'X-Forgejo-OTP': totp(secret, last + 1) });
    expect(ok.status).toBe(200);
    const body = await json(ok);
    expect(matchesSchema(UserSchema, body)).toBe(true);
    expect(body.login).toBe(user.name);
  });

  test('a code is accepted once: the same code again (same window) is refused, as is the confirming code', async () => {
    const { user, secret, last } = await enrolled(s, 'replay');
    expect((await getUser(s, user.name, { 'X-Forgejo-OTP': totp(secret, last) })).status).toBe(401);
    const code = totp(secret, last + 1);
    expect((await getUser(s, user.name, { 'X-Forgejo-OTP': code })).status).toBe(200);
    expect(await expectApiError(await getUser(s, user.name, { 'X-Forgejo-OTP': code }), 401, s.url)).toBe('invalid provided OTP');
    // Nor can an earlier window's code follow a later one.
    expect((await getUser(s, user.name, { 'X-Forgejo-OTP': totp(secret, last) })).status).toBe(401);
  });

  test("Gitea's X-Gitea-OTP header works too", async () => {
    const { user, secret, last } = await enrolled(s, 'gitea');
    expect((await getUser(s, user.name, { 'X-Gitea-OTP': totp(secret, last + 1) })).status).toBe(200);
  });

  test('token auth is unaffected: Authorization token, a token as basic password or as user name', async () => {
    const { user } = await enrolled(s, 'tok');
    const token = await createToken(s.host, user.name);
    for (const headers of [tokenHeader(token), { Authorization: basic(user.name, token) }, { Authorization: basic(token, 'x-oauth-basic') }]) {
      const res = await s.fetch('/api/v1/user', { headers });
      expect(res.status).toBe(200);
      expect(matchesSchema(UserSchema, await json(res))).toBe(true);
    }
  });

  test('the scratch code verifies once through the library (two-factor stays enrolled); basic auth takes TOTP codes only', async () => {
    const { user, scratch } = await enrolled(s, 'scratch');
    expect(await expectApiError(await getUser(s, user.name, { 'X-Forgejo-OTP': scratch }), 401, s.url)).toBe('invalid provided OTP');
    expect(await s.host.twoFactor.verify(user, 'wrongscrat')).toBeNull();
    expect(await s.host.twoFactor.verify(user, scratch)).toBe('scratch');
    expect(await s.host.twoFactor.verify(user, scratch)).toBeNull();
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(true);
    // A new one can be made; it works once too.
    const fresh = await s.host.twoFactor.regenerateScratch(userActor(user), user);
    expect(fresh).not.toBe(scratch);
    expect(await s.host.twoFactor.verify(user, fresh)).toBe('scratch');
  });

  test('verify accepts a current TOTP code once', async () => {
    const { user, secret, last } = await enrolled(s, 'verify');
    expect(await s.host.twoFactor.verify(user, totp(secret, last + 1))).toBe('totp');
    expect(await s.host.twoFactor.verify(user, totp(secret, last + 1))).toBeNull();
    const plain = await createUser(s.host, uniq('plain'));
    expect(await s.host.twoFactor.verify(plain, '123456')).toBeNull();
  });

  test('disable: by the user or a site administrator; then the password alone works again', async () => {
    const { user } = await enrolled(s, 'off');
    const admin = await createUser(s.host, uniq('root'), { admin: true });
    expect((await getUser(s, user.name)).status).toBe(401);
    expect(await s.host.twoFactor.disable(userActor(admin), user)).toBe(true);
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(false);
    expect((await getUser(s, user.name)).status).toBe(200);
    expect(await s.host.twoFactor.disable(userActor(user), user)).toBe(false);
    // And a new enrolment can start.
    const { secret } = await s.host.twoFactor.enrol(userActor(user), user);
    await s.host.twoFactor.confirm(userActor(user), user, totp(secret, totpStep()));
    expect(await s.host.twoFactor.disable(SYSTEM, user)).toBe(true);
  });

  test('deleting the account removes its two-factor row', async () => {
    const { user } = await enrolled(s, 'gone');
    await s.host.accounts.deleteUser(SYSTEM, user);
    const store = (s.host as unknown as { ctx: { store: <T>(c: new (...a: never[]) => T) => T } }).ctx.store(TwoFactorStore);
    expect(await store.byUid(user.id)).toBeUndefined();
  });

  test('the admin user list filters on is_2fa_enabled', async () => {
    const { user } = await enrolled(s, 'listed');
    const pending = await createUser(s.host, uniq('pending'));
    await s.host.twoFactor.enrol(userActor(pending), pending);
    const admin = await createUser(s.host, uniq('lister'), { admin: true });
    const headers = tokenHeader(await createToken(s.host, admin.name));
    const on = await json<{ login: string }[]>(await s.fetch('/api/v1/admin/users?is_2fa_enabled=true&limit=50', { headers }));
    expect(on.map((u) => u.login)).toContain(user.name);
    expect(on.map((u) => u.login)).not.toContain(pending.name);
    const off = await json<{ login: string }[]>(await s.fetch('/api/v1/admin/users?is_2fa_enabled=false&limit=50', { headers }));
    expect(off.map((u) => u.login)).not.toContain(user.name);
    expect(off.map((u) => u.login)).toContain(pending.name);
  });

  test('git over HTTP refuses the password of an enrolled account (even with a right code); a token works', async () => {
    const { user, secret, last } = await enrolled(s, 'git');
    await s.host.repos.create(userActor(user), { name: 'code', auto_init: true, private: true });
    const refs = `/${user.name}/code.git/info/refs?service=git-upload-pack`;

    const noCode = await s.fetch(refs, { headers: { Authorization: basic(user.name, PASSWORD) } });
    expect(noCode.status).toBe(401);
    await noCode.arrayBuffer();
    const withCode = await s.fetch(refs, { headers: { Authorization: basic(user.name, PASSWORD), 'X-Forgejo-OTP': totp(secret, last + 1) } });
    expect(withCode.status).toBe(401);
    expect(withCode.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await withCode.text()).toContain('Users with two-factor authentication enabled cannot perform HTTP/HTTPS operations via plain username and password');

    const token = await createToken(s.host, user.name);
    const byToken = await s.fetch(refs, { headers: { Authorization: basic(user.name, token) } });
    expect(byToken.status).toBe(200);
    await byToken.arrayBuffer();

    // The git client itself: the password fails, the token lists the refs.
    const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true' };
    const remote = (secretText: string) => `${s.url.replace('://', `://${user.name}:${encodeURIComponent(secretText)}@`)}${user.name}/code.git`;
    await expect(run('git', ['ls-remote', remote(PASSWORD)], { env })).rejects.toThrow();
    const listed = await run('git', ['ls-remote', remote(token)], { env });
    expect(listed.stdout).toMatch(/refs\/heads\//);
  });
});

describe('two-factor codes in the sign-in throttle', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ security: { LOGIN_MAX_FAILURES_PER_ACCOUNT: 3, LOGIN_MAX_FAILURES_PER_ADDRESS: 1000, LOGIN_FAILURE_WINDOW: 300 } });
  });
  afterAll(async () => s?.cleanup());

  test('wrong codes count as failed sign-ins: after 3 the account is refused with 429, even with the right code; tokens still work', async () => {
    const { user, secret, last } = await enrolled(s, 'guess');
    const right = totp(secret, last + 1);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) expect((await getUser(s, user.name, { 'X-Forgejo-OTP': wrong })).status).toBe(401);
    const locked = await getUser(s, user.name, { 'X-Forgejo-OTP': right });
    await expectApiError(locked, 429, s.url);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const token = await createToken(s.host, user.name);
    expect((await s.fetch('/api/v1/user', { headers: tokenHeader(token) })).status).toBe(200);
  });

  test('40 parallel wrong codes with the right password: 3 are checked (401), 37 refused unchecked (429)', async () => {
    const { user, secret, last } = await enrolled(s, 'flood');
    const current = new Set([0, 1, 2].map((d) => totp(secret, last + d)));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !current.has(code))!;
    const responses = await Promise.all(Array.from({ length: 40 }, () => getUser(s, user.name, { 'X-Forgejo-OTP': wrong })));
    expect(responses.map((res) => res.status).sort()).toEqual([...Array<number>(3).fill(401), ...Array<number>(37).fill(429)]);
    for (const res of responses) await res.arrayBuffer();
  });

  test('a right code clears the account counter as a right password does', async () => {
    const { user, secret, last } = await enrolled(s, 'clear');
    const wrong = totp(secret, last + 1) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 2; i++) expect((await getUser(s, user.name, { 'X-Forgejo-OTP': wrong })).status).toBe(401);
    expect((await getUser(s, user.name, { 'X-Forgejo-OTP': totp(secret, last + 1) })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await getUser(s, user.name, { 'X-Forgejo-OTP': wrong })).status).toBe(401);
    // Two failures since the success: not locked yet (a locked account would answer 429).
    expect((await getUser(s, user.name, { 'X-Forgejo-OTP': wrong })).status).toBe(401);
  });
});
