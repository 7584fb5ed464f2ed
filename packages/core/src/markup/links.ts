/**
 * Where relative links and images of a rendered document point, as Forgejo resolves them (`markup.Links`): against
 * the render's base URL, into the wiki (`wiki/`, images `wiki/raw/`) or into a branch of the repository (`src/…`,
 * images `media/…`) and the document's folder.
 */
import { trimEnd, trimStart } from '../text.js';

/** What links of one render are resolved against. */
export interface LinkBase {
  /** The base URL: absolute (`http://host/owner/repo`), or empty for root-relative links. No trailing slash. */
  base: string;
  /** `branch/main`, `commit/<sha>`, … when the document lives in a repository tree; empty otherwise. */
  branchPath: string;
  /** The document's folder inside that tree (`docs/guide`); empty at the root. */
  treePath: string;
  wiki: boolean;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** True for a URL that is not resolved against the base: one with a scheme, protocol-relative, or a fragment. */
export function isAbsoluteLink(url: string): boolean {
  return SCHEME.test(url) || url.startsWith('//') || url.startsWith('#');
}

/** Joins path segments with single slashes, dropping empty ones. */
function joinPaths(...parts: string[]): string {
  return parts
    .map((p) => trimEnd(trimStart(p, '/'), '/'))
    .filter((p) => p !== '')
    .join('/');
}

/** Resolves `relative` below `prefix` (an absolute URL or a path), `..` included; a leading `/` means the prefix. */
export function urlJoin(prefix: string, relative: string): string {
  // A leading slash in the link means the base's root, not the host's (as Forgejo's URLJoin reads it).
  const trimmed = relative.replace(/^\/+/, '');
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(prefix);
  try {
    const base = absolute ? new URL(prefix) : new URL(prefix, 'http://placeholder/');
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    const resolved = new URL(trimmed, base);
    return absolute ? resolved.href : `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return `${trimEnd(prefix, '/')}/${trimmed}`;
  }
}

/** The URL a markdown link or image of the document points to. */
export function resolveLink(links: LinkBase, url: string, image: boolean): string {
  if (url === '' || isAbsoluteLink(url)) return url;
  let prefix: string;
  if (links.wiki) prefix = joinUrl(links.base, image ? 'wiki/raw' : 'wiki');
  else if (links.branchPath) prefix = joinUrl(links.base, `${image ? 'media' : 'src'}/${joinPaths(links.branchPath, links.treePath)}`);
  else prefix = links.base;
  return urlJoin(prefix, url);
}

/** The target of a `[[wiki link]]`: a wiki page in wiki mode, a file of the tree otherwise; images raw/media. */
export function resolveShortLink(links: LinkBase, target: string, image: boolean): string {
  if (isAbsoluteLink(target)) return target;
  let prefix: string;
  if (links.wiki) prefix = joinUrl(links.base, image ? 'wiki/raw' : 'wiki');
  else if (image && !links.branchPath) prefix = links.base;
  else prefix = joinUrl(links.base, `${image ? 'media' : 'src'}/${joinPaths(links.branchPath, links.treePath)}`);
  return urlJoin(prefix, target);
}

/** `base` and a path below it, with one slash between. */
export function joinUrl(base: string, path: string): string {
  const tail = joinPaths(path);
  if (tail === '') return base;
  return `${trimEnd(base, '/')}/${tail}`;
}
