/**
 * The two-factor settings pages as a browser uses them: plain form posts with the session cookie handled by hand.
 * Sign in through the page, enrol with a code from otpauth (an independent TOTP implementation), see that password
 * basic auth on the API then needs X-Forgejo-OTP, disable with the password and see it needed no more; and the
 * unhappy paths: anonymous, CSRF missing or wrong, another user's session, a wrong code, a wrong password.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { User } from '@repohost/core';
import { PASSWORD, basic, createUser, startTestServer, type TestServer } from '@repohost/test-support';
import { uniq } from './helpers';

const PAGE = 'user/settings/security/two_factor';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.cleanup());

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
  /** Posts the page's (first) form with its hidden fields, `extra` over them. */
  async submit(html: string, extra: Record<string, string> = {}): Promise<Response> {
    return this.post(formAction(html), { ...hiddenInputs(html), ...extra });
  }
  async post(url: string, fields: Record<string, string>): Promise<Response> {
    return this.request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  }
}

function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}

function formAction(html: string): string {
  return decode(/<form method="post" action="([^"]+)"/.exec(html)![1]!);
}

function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = decode(match[2]!);
  return fields;
}

function pageUrl(path = ''): string {
  return `${s.url}${PAGE}${path}`;
}

/** Signs in through the sign-in form the settings page shows, and lands back on the settings page. */
async function signedIn(user: User): Promise<{ browser: Browser; html: string }> {
  const browser = new Browser();
  const start = await browser.request(pageUrl());
  expect(start.status).toBe(200);
  const form = await start.text();
  expect(form).toContain('name="password"');
  expect(hiddenInputs(form).return_to).toBe(PAGE);
  const signIn = await browser.submit(form, { user_name: user.name, password: PASSWORD });
  expect(signIn.status).toBe(303);
  expect(signIn.headers.get('location')).toBe(pageUrl());
  const settings = await browser.request(signIn.headers.get('location')!);
  expect(settings.status).toBe(200);
  const html = await settings.text();
  expect(html).toContain(`Signed in as <strong>${user.name}</strong>`);
  return { browser, html };
}

/** Starts enrolment from the settings page; returns the page with the secret and the otpauth TOTP for it. */
async function startEnrolment(browser: Browser, settings: string): Promise<{ html: string; totp: TOTP }> {
  expect(settings).toContain('<strong>not enabled</strong>');
  const res = await browser.submit(settings);
  expect(res.status).toBe(200);
  const html = await res.text();
  const secret = /<code id="secret">([A-Z2-7]+)<\/code>/.exec(html)![1]!;
  const uri = decode(/<code id="uri">([^<]+)<\/code>/.exec(html)![1]!);
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(new URL(uri).searchParams.get('secret')).toBe(secret);
  expect(html).not.toMatch(/<script/i);
  return { html, totp: new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }) };
}

function apiUser(user: User, otp?: string): Promise<Response> {
  const headers: Record<string, string> = { Authorization: basic(user.name, PASSWORD) };
  if (otp !== undefined) headers['X-Forgejo-OTP'] = otp;
  return s.fetch('/api/v1/user', { headers });
}

describe('two-factor settings pages', () => {
  test('anonymous: the page is the sign-in form returning here; posts are 401 and change nothing', async () => {
    const res = await fetch(pageUrl(), { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<title>Sign in</title>');
    expect(hiddenInputs(html).return_to).toBe(PAGE);
    for (const path of ['/enroll', '/confirm', '/disable']) {
      const post = await new Browser().post(pageUrl(path), { _csrf: 'x', passcode: '123456', password: PASSWORD });
      expect(post.status).toBe(401);
      expect(await post.text()).toContain('<title>Sign in</title>');
    }
  });

  test('the sign-in form refuses a return path it does not know (no open redirect)', async () => {
    const user = await createUser(s.host, uniq('tfredir'));
    const browser = new Browser();
    const form = await (await browser.request(pageUrl())).text();
    const res = await browser.submit(form, { user_name: user.name, password: PASSWORD, return_to: '//evil.example/' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${s.url}login/oauth/authorize`);
  });

  test('enrol with a code from otpauth, the API then needs X-Forgejo-OTP; disable with the password, and it needs none', async () => {
    const user = await createUser(s.host, uniq('tfpage'));
    const { browser, html: settings } = await signedIn(user);
    const { html: enrolPage, totp } = await startEnrolment(browser, settings);

    // A wrong code: the form again, with a message; nothing enrolled.
    const current = totp.generate();
    const wrong = String((Number(current) + 1) % 1_000_000).padStart(6, '0');
    const refused = await browser.submit(enrolPage, { passcode: wrong });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('The code is wrong');
    expect(refusedHtml).toContain('name="passcode"');
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(false);

    const confirmed = await browser.submit(refusedHtml, { passcode: current });
    expect(confirmed.status).toBe(200);
    const scratch = /<code id="scratch">([A-Za-z0-9]{10})<\/code>/.exec(await confirmed.text())?.[1];
    expect(scratch).toBeDefined();
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(true);

    const enabled = await (await browser.request(pageUrl())).text();
    expect(enabled).toContain('<strong>enabled</strong>');
    expect(enabled).not.toContain(scratch!); // shown once only

    // Existing behaviour: basic auth now needs the code (the next step's: each code signs in once).
    expect((await apiUser(user)).status).toBe(401);
    expect((await apiUser(user, totp.generate({ timestamp: Date.now() + 30_000 }))).status).toBe(200);

    // Disabling needs the password.
    const badPassword = await browser.submit(enabled, { password: 'not-the-password' });
    expect(badPassword.status).toBe(401);
    expect(await badPassword.text()).toContain('The password is incorrect.');
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(true);

    const disabled = await browser.submit(enabled, { password: PASSWORD });
    expect(disabled.status).toBe(303);
    expect(disabled.headers.get('location')).toBe(pageUrl());
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(false);
    expect(await (await browser.request(pageUrl())).text()).toContain('<strong>not enabled</strong>');
    expect((await apiUser(user)).status).toBe(200);
  });

  test('a POST without its CSRF token, with a wrong one or with another form\'s is 403 and changes nothing', async () => {
    const user = await createUser(s.host, uniq('tfcsrf'));
    const { browser, html: settings } = await signedIn(user);
    const token = hiddenInputs(settings)._csrf!;
    for (const csrf of [undefined, '', 'A'.repeat(43), token.slice(1)]) {
      const fields: Record<string, string> = csrf === undefined ? {} : { _csrf: csrf };
      const res = await browser.post(pageUrl('/enroll'), fields);
      expect(res.status).toBe(403);
    }
    // The enrol form's token does not disable.
    expect((await browser.post(pageUrl('/disable'), { _csrf: token, password: PASSWORD })).status).toBe(403);
    const { html: enrolPage, totp } = await startEnrolment(browser, settings);
    expect((await browser.post(pageUrl('/confirm'), { _csrf: token, passcode: totp.generate() })).status).toBe(403);
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(false);
    const confirmed = await browser.submit(enrolPage, { passcode: totp.generate() });
    expect(confirmed.status).toBe(200);
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(true);
    // Oversized forms are refused before anything is read.
    const huge = await browser.post(pageUrl('/disable'), { _csrf: token, password: 'x'.repeat(70 * 1024) });
    expect(huge.status).toBe(413);
    expect(await s.host.twoFactor.isEnrolled(user)).toBe(true);
  });

  test('another user\'s session sees and changes only its own account', async () => {
    const alice = await createUser(s.host, uniq('tfalice'));
    const bob = await createUser(s.host, uniq('tfbob'));
    const a = await signedIn(alice);
    const b = await signedIn(bob);
    const { html: enrolPage, totp } = await startEnrolment(a.browser, a.html);
    // Bob's cookie with Alice's form (her token): refused, and Alice's enrolment is still pending.
    expect((await b.browser.submit(enrolPage, { passcode: totp.generate() })).status).toBe(403);
    expect(await s.host.twoFactor.isEnrolled(alice)).toBe(false);
    expect((await a.browser.submit(enrolPage, { passcode: totp.generate() })).status).toBe(200);

    // Bob's page shows Bob, not enrolled; his disable (his form, his password) leaves Alice enrolled.
    const bobPage = await (await b.browser.request(pageUrl())).text();
    expect(bobPage).toContain(`Signed in as <strong>${bob.name}</strong>`);
    expect(bobPage).not.toContain(alice.name);
    expect(bobPage).toContain('<strong>not enabled</strong>');
    expect((await b.browser.post(pageUrl('/disable'), { ...hiddenInputs(bobPage), password: PASSWORD })).status).toBe(403);
    const alicePage = await (await a.browser.request(pageUrl())).text();
    expect((await b.browser.submit(alicePage, { password: PASSWORD })).status).toBe(403);
    expect(await s.host.twoFactor.isEnrolled(alice)).toBe(true);
    expect(await s.host.twoFactor.isEnrolled(bob)).toBe(false);
  });
});
