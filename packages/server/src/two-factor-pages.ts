import type { H3, H3Event } from 'h3';
import { ConflictError, NotFoundError, TooManyRequestsError, ValidationError, userActor, type RepoHost, type User } from '@repohost/core';
import { errorResponse } from './api/router.js';
import { noteUser } from './access-log.js';
import { requestClientAddress } from './client-address.js';
import { signInPage } from './oauth2-provider.js';
import { FormTooLarge, cookieOf, csrfMatches, csrfToken, escapeHtml, htmlPage, readForm, redirect } from './web-pages.js';

/** The settings page, under Forgejo's `/user/settings/security`; the sign-in form returns here (no leading slash: ROOT_URL ends in one). */
const PAGE = 'user/settings/security/two_factor';
const TITLE = 'Two-factor authentication';

/**
 * The minimal two-factor settings pages (plain HTML, no script), for the session the OAuth2 provider's sign-in
 * form opens: see whether TOTP is on, enrol (secret and `otpauth://` URI, then a first code, then the scratch code
 * once) and disable (with the password). Every POST carries a CSRF token keyed by the session id, so a form posted
 * from another site, or with another session's token, changes nothing. Core holds the rules (`host.twoFactor`).
 */
export function registerTwoFactorPages(app: H3, host: RepoHost): void {
  app.get(`/${PAGE}`, (event) => guard(host, event, () => statusPage(host, event)));
  app.post(`/${PAGE}/enroll`, (event) => guard(host, event, () => startEnrolment(host, event)));
  app.post(`/${PAGE}/confirm`, (event) => guard(host, event, () => confirmEnrolment(host, event)));
  app.post(`/${PAGE}/disable`, (event) => guard(host, event, () => disable(host, event)));
}

async function guard(host: RepoHost, event: H3Event, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof FormTooLarge) return htmlPage(host, 413, 'Request too large', '<p>The request is too large.</p>');
    return errorResponse(host, error);
  }
}

interface Session {
  cookie: string;
  user: User;
}

async function sessionOf(host: RepoHost, event: H3Event): Promise<Session | undefined> {
  const cookie = cookieOf(event);
  const user = cookie ? await host.oauth2Provider.sessionUser(cookie) : undefined;
  noteUser(event, user?.name);
  return cookie && user ? { cookie, user } : undefined;
}

function signIn(host: RepoHost, event: H3Event, status: number): Response {
  return signInPage(host, cookieOf(event), '', status, status === 401 ? 'Please sign in.' : '', PAGE);
}

/** A POST's session and form, or the answer when it has no session (401, the sign-in form) or a wrong CSRF token (403). */
async function postedForm(host: RepoHost, event: H3Event, purpose: string): Promise<{ session: Session; form: URLSearchParams } | Response> {
  const form = await readForm(event);
  const session = await sessionOf(host, event);
  if (!session) return signIn(host, event, 401);
  if (!csrfMatches(session.cookie, purpose, form.get('_csrf') ?? '')) {
    return page(host, 403, '<p class="error">The form has expired or was not sent by this page; please try again.</p>', session, await host.twoFactor.isEnrolled(session.user));
  }
  return { session, form };
}

function action(host: RepoHost, path: string): string {
  return escapeHtml(`${host.settings.server.ROOT_URL}${PAGE}${path}`);
}

function csrfInput(session: Session, purpose: string): string {
  return `<input type="hidden" name="_csrf" value="${csrfToken(session.cookie, purpose)}">`;
}

/** The status page: whether TOTP is on, and the one form that fits (start enrolment, or disable). */
function page(host: RepoHost, status: number, message: string, session: Session, enrolled: boolean): Response {
  const signedIn = `<p>Signed in as <strong>${escapeHtml(session.user.name)}</strong>.</p>`;
  const form = enrolled ? disableForm(host, session) : enrolForm(host, session);
  return htmlPage(host, status, TITLE, `${signedIn}\n${message}\n${form}`);
}

function enrolForm(host: RepoHost, session: Session): string {
  return `<p>Two-factor authentication is <strong>not enabled</strong>.</p>
<form method="post" action="${action(host, '/enroll')}">
${csrfInput(session, 'two_factor.enroll')}
<p><button type="submit">Enable two-factor authentication</button></p>
</form>`;
}

function disableForm(host: RepoHost, session: Session): string {
  return `<p>Two-factor authentication is <strong>enabled</strong>.</p>
<form method="post" action="${action(host, '/disable')}">
${csrfInput(session, 'two_factor.disable')}
<p><label>Current password <input name="password" type="password" autocomplete="current-password" required></label></p>
<p><button type="submit">Disable two-factor authentication</button></p>
</form>`;
}

function confirmForm(host: RepoHost, session: Session): string {
  return `<form method="post" action="${action(host, '/confirm')}">
${csrfInput(session, 'two_factor.confirm')}
<p><label>Code from the app <input name="passcode" inputmode="numeric" autocomplete="one-time-code" required autofocus></label></p>
<p><button type="submit">Verify</button></p>
</form>`;
}

async function statusPage(host: RepoHost, event: H3Event): Promise<Response> {
  const session = await sessionOf(host, event);
  if (!session) return signIn(host, event, 200);
  return page(host, 200, '', session, await host.twoFactor.isEnrolled(session.user));
}

async function startEnrolment(host: RepoHost, event: H3Event): Promise<Response> {
  const posted = await postedForm(host, event, 'two_factor.enroll');
  if (posted instanceof Response) return posted;
  const { session } = posted;
  let enrolment;
  try {
    enrolment = await host.twoFactor.enrol(userActor(session.user), session.user);
  } catch (error) {
    if (error instanceof ConflictError) return page(host, 409, '<p class="error">Two-factor authentication is already enabled.</p>', session, true);
    throw error;
  }
  const body = `<p>Signed in as <strong>${escapeHtml(session.user.name)}</strong>.</p>
<p>Add this secret to your authenticator app (TOTP, SHA-1, 6 digits, 30 seconds):</p>
<p><code id="secret">${escapeHtml(enrolment.secret)}</code></p>
<p>Or as a URI: <code id="uri">${escapeHtml(enrolment.uri)}</code></p>
<p>Then enter the code the app shows to finish.</p>
${confirmForm(host, session)}`;
  return htmlPage(host, 200, TITLE, body);
}

async function confirmEnrolment(host: RepoHost, event: H3Event): Promise<Response> {
  const posted = await postedForm(host, event, 'two_factor.confirm');
  if (posted instanceof Response) return posted;
  const { session, form } = posted;
  let scratch;
  try {
    ({ scratch } = await host.twoFactor.confirm(userActor(session.user), session.user, (form.get('passcode') ?? '').slice(0, 64)));
  } catch (error) {
    if (error instanceof ValidationError) {
      const body = `<p>Signed in as <strong>${escapeHtml(session.user.name)}</strong>.</p>
<p class="error">The code is wrong; enter the current code from your app.</p>
${confirmForm(host, session)}`;
      return htmlPage(host, 400, TITLE, body);
    }
    if (error instanceof NotFoundError) return page(host, 400, '<p class="error">No enrolment is in progress; start again.</p>', session, false);
    if (error instanceof ConflictError) return page(host, 409, '<p class="error">Two-factor authentication is already enabled.</p>', session, true);
    throw error;
  }
  const body = `<p>Two-factor authentication is now <strong>enabled</strong>.</p>
<p>Your scratch code, shown only this once: <code id="scratch">${escapeHtml(scratch)}</code></p>
<p>Keep it safe: it signs you in once if you lose your device.</p>
<p><a href="${action(host, '')}">Back to the settings</a></p>`;
  return htmlPage(host, 200, TITLE, body);
}

async function disable(host: RepoHost, event: H3Event): Promise<Response> {
  const posted = await postedForm(host, event, 'two_factor.disable');
  if (posted instanceof Response) return posted;
  const { session, form } = posted;
  // The password, checked as a sign-in is (`[security] LOGIN_*` throttle), so the page is no way to guess it.
  let checked;
  try {
    checked = await host.users.authenticate(session.user.name, form.get('password') ?? '', { address: requestClientAddress(event) });
  } catch (error) {
    if (error instanceof TooManyRequestsError) return page(host, 429, '<p class="error">Too many failed attempts; try again later.</p>', session, true);
    throw error;
  }
  if (!checked || checked.id !== session.user.id) {
    return page(host, 401, '<p class="error">The password is incorrect.</p>', session, await host.twoFactor.isEnrolled(session.user));
  }
  await host.twoFactor.disable(userActor(session.user), session.user);
  return redirect(`${host.settings.server.ROOT_URL}${PAGE}`);
}
