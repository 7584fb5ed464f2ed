import { createHmac, timingSafeEqual } from 'node:crypto';
import type { H3Event } from 'h3';
import { FastResponse } from 'srvx';
import type { RepoHost } from '@repohost/core';
import { STYLESHEET_PATH } from './web/assets.js';
import { rootPath } from './web/layout.js';

/**
 * What the server's few HTML pages share (the OAuth2 provider's sign-in and consent, the two-factor settings): the
 * session cookie, CSRF tokens keyed by it, bounded form reading and a script-free page.
 */

/** The web pages' cookie: a session id once signed in, else a random value that keys the sign-in form's CSRF token. */
export const COOKIE = 'repohost_oauth';
/** Forms and token requests are small; anything longer is not one. */
export const MAX_FORM_BYTES = 64 * 1024;

export class FormTooLarge extends Error {}

/** A urlencoded form (or, where allowed, a JSON object of strings) as URLSearchParams, at most MAX_FORM_BYTES. */
export async function readForm(event: H3Event, options: { json?: boolean } = {}): Promise<URLSearchParams> {
  const declared = event.req.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_FORM_BYTES) throw new FormTooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const body = event.req.body;
  if (body) {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_FORM_BYTES) {
        await reader.cancel();
        throw new FormTooLarge();
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const type = (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (options.json && type === 'application/json') {
    const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('not a JSON object');
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') params.set(key, value);
    return params;
  }
  return new URLSearchParams(text);
}

export function cookieOf(event: H3Event): string | undefined {
  const header = event.req.headers.get('cookie') ?? '';
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function cookieHeader(host: RepoHost, value: string, maxAge: number): string {
  const secure = host.settings.server.ROOT_URL.startsWith('https:') ? '; Secure' : '';
  return `${COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

export function csrfToken(key: string, purpose: string): string {
  return createHmac('sha256', key).update(purpose).digest('base64url');
}

export function csrfMatches(key: string, purpose: string, given: string): boolean {
  const expected = Buffer.from(csrfToken(key, purpose));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new FastResponse(null, { status: 303, headers: { ...headers, location: headerSafeUrl(location), 'cache-control': 'no-store' } });
}

/**
 * A URL with every byte outside printable ASCII percent-encoded (UTF-8): callers pass checked URLs, and should one
 * still carry a control character, it can neither split the header nor make Node refuse the whole answer.
 */
export function headerSafeUrl(url: string): string {
  let safe = true;
  for (let i = 0; i < url.length && safe; i++) safe = url.charCodeAt(i) > 0x20 && url.charCodeAt(i) < 0x7f;
  if (safe) return url;
  let out = '';
  for (const byte of Buffer.from(url, 'utf8')) out += byte > 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** A page that runs no script, cannot be framed (no clickjacking of the consent) and is never cached. */
export function htmlPage(host: RepoHost, status: number, title: string, body: string, headers: Record<string, string> = {}): Response {
  // The read-only pages' stylesheet, under ROOT_URL's path: no inline style, so the policy below allows none.
  const root = rootPath(host);
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(root + STYLESHEET_PATH)}">
</head><body><header class="site"><nav aria-label="Site"><a class="brand" href="${escapeHtml(root)}">Home</a></nav></header>
<main class="form-page"><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
  return new FastResponse(html, {
    status,
    headers: {
      ...headers,
      'content-type': 'text/html;charset=utf-8',
      'content-length': String(Buffer.byteLength(html)),
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    },
  });
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
