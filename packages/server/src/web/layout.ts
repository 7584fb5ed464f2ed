import { FastResponse } from 'srvx';
import type { RepoHost, User } from '@repohost/core';
import { html, type HtmlValue, type SafeHtml } from './html.js';
import { FAVICON_PATH, STYLESHEET_PATH } from './assets.js';

/**
 * The pages' Content-Security-Policy: nothing runs, styles only from our one stylesheet, images from us and from
 * https (rendered markdown may show remote images), forms post only to us, and no page may be framed.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self' https:; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The path of ROOT_URL (`/`, or `/forge/` behind a proxy): every link of a page starts with it. */
export function rootPath(host: RepoHost): string {
  try {
    const path = new URL(host.settings.server.ROOT_URL).pathname;
    return path.endsWith('/') ? path : `${path}/`;
  } catch {
    return '/';
  }
}

/** A link target under ROOT_URL from path segments, each escaped as a URL path segment (slashes inside kept by `pathOf`). */
export function link(host: RepoHost, ...segments: string[]): string {
  return rootPath(host) + segments.map((s) => encodeURIComponent(s)).join('/');
}

/** A path of a tree (`docs/a b.md`): each segment escaped, the slashes kept. */
export function treeLink(path: string): string {
  return path.split('/').map((s) => encodeURIComponent(s)).join('/');
}

export interface PageParts {
  title: string;
  viewer: User | undefined;
  /** Breadcrumbs or the repository header above the main content. */
  header?: HtmlValue;
  body: HtmlValue;
}

/** The security and caching headers every page carries. */
export function pageHeaders(length: number, csp = PAGE_CSP): Record<string, string> {
  return {
    'content-type': 'text/html;charset=utf-8',
    'content-length': String(length),
    // Pages show what the viewer may see: never kept by a shared cache.
    'cache-control': 'private, no-cache',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
  };
}

/** `APP_NAME`, read as the two-factor and Debian code reads it. */
export function appName(host: RepoHost): string {
  return (host.settings as unknown as Record<string, { APP_NAME?: string } | undefined>)['']?.APP_NAME || 'RepoHost';
}

/** A whole page: the site bar (who is signed in), the page's header and body, in small accessible HTML. */
export function page(host: RepoHost, status: number, parts: PageParts): Response {
  const root = rootPath(host);
  const who = parts.viewer
    ? html`<span>Signed in as <a href="${link(host, parts.viewer.name)}">${parts.viewer.name}</a> · <a href="${root}user/settings/security/two_factor">Security</a></span>`
    : html`<a href="${root}user/login">Sign in</a>`;
  const doc = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title} - ${appName(host)}</title>
<link rel="icon" type="image/svg+xml" href="${root}${FAVICON_PATH}">
<link rel="stylesheet" href="${root}${STYLESHEET_PATH}">
</head><body>
<header class="site"><nav aria-label="Site"><a class="brand" href="${root}">${appName(host)}</a> ${who}</nav></header>
<main>
${parts.header ?? ''}
${parts.body}
</main>
</body></html>
`;
  return new FastResponse(doc.value, { status, headers: pageHeaders(Buffer.byteLength(doc.value)) });
}

/** The page for what does not exist or may not be seen (one answer for both, as the API's 404). */
export function notFoundPage(host: RepoHost, viewer: User | undefined): Response {
  return page(host, 404, { title: 'Not found', viewer, body: html`<h1>Not found</h1><p>The page does not exist, or you may not see it.</p>` });
}

export function errorPage(host: RepoHost, viewer: User | undefined, status: number, message: string): Response {
  return page(host, status, { title: 'Error', viewer, body: html`<h1>Error ${status}</h1><p>${message}</p>` });
}

export type { SafeHtml };
