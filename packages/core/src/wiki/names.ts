/**
 * Wiki page names as Forgejo spells them (services/wiki/wiki_path.go), in three forms:
 * - the title a reader sees: `Home Page`, `100% Free`, `2000-01-02 meeting`;
 * - the web path (the API's `sub_url` and `{pageName}`): `Home-Page`, `100%25+Free`, `2000-01-02+meeting.-`. A
 *   segment ending in the dash marker `.-` keeps its dashes (no dash-space conversion); a web path ending in `.md`
 *   is the file's own path, unescaped;
 * - the git path (the file in the wiki's tree): `Home-Page.md`, `100%25 Free.md`, `2000-01-02 meeting.-.md`.
 * Everything here is a scan of the text: no pattern sees it.
 */
import { BadRequestError } from '../errors.js';

/** A web path (the API's form of a page name). */
export type WebPath = string;

const DASH_MARKER = '.-';
const RESERVED_NAMES: ReadonlySet<string> = new Set(['_pages', '_new', '_edit', 'raw']);

const HEX = '0123456789ABCDEF';

/** Go's `url.QueryEscape`: bytes other than letters, digits and `-_.~` as `%XX`, spaces as `+`. */
export function queryEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    if ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2d || byte === 0x5f || byte === 0x2e || byte === 0x7e) {
      out += String.fromCharCode(byte);
    } else if (byte === 0x20) out += '+';
    else out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

/** Go's `url.QueryUnescape` (`plus`: `+` is a space) and `url.PathUnescape`; undefined for a malformed escape. */
function unescape(text: string, plus: boolean): string | undefined {
  if (!text.includes('%') && !(plus && text.includes('+'))) return text;
  const bytes = Buffer.from(text, 'utf8');
  const out = Buffer.alloc(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x25) {
      const high = i + 2 < bytes.length ? hexValue(bytes[i + 1]!) : -1;
      const low = high >= 0 ? hexValue(bytes[i + 2]!) : -1;
      if (low < 0) return undefined;
      out[n++] = high * 16 + low;
      i += 2;
    } else out[n++] = plus && byte === 0x2b ? 0x20 : byte;
  }
  return out.subarray(0, n).toString('utf8');
}

export const queryUnescape = (text: string) => unescape(text, true);
export const pathUnescape = (text: string) => unescape(text, false);

/** Go's `path.Clean` of a rooted path (`/…`): no empty, `.` or `..` segments, no trailing slash. */
function cleanRooted(text: string): string {
  const parts: string[] = [];
  for (const part of text.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/**
 * Forgejo's `util.PathJoinRelX`: the elements joined as a relative, cleaned path (backslashes are slashes; no
 * leading slash, no `..` above the root); '' for nothing, '.' for the root.
 */
export function pathJoinRelX(...elements: string[]): string {
  const cleaned = elements.filter((e) => e !== '').map((e) => cleanRooted(`/${e.replaceAll('\\', '/')}`));
  if (cleaned.length === 0) return '';
  const joined = cleanRooted(cleaned.join('/'));
  return joined === '/' ? '.' : joined.slice(1);
}

function unescapeSegment(segment: string): { text: string; ok: boolean } {
  const text = segment.endsWith(DASH_MARKER) ? segment.slice(0, -DASH_MARKER.length) : segment.replaceAll('-', ' ');
  const unescaped = queryUnescape(text);
  // A segment that does not unescape is still a fine title: it is shown as it is.
  return unescaped === undefined ? { text, ok: false } : { text: unescaped, ok: true };
}

function escapeSegmentToWeb(segment: string, hadDashMarker: boolean): string {
  const marked = hadDashMarker || segment.includes('-') || segment.endsWith('.md') ? `${segment}${DASH_MARKER}` : segment.replaceAll(' ', '-');
  return queryEscape(marked);
}

/** The titles of a web path's segments. */
function webPathSegments(path: WebPath): string[] {
  return path.split('/').map((segment) => unescapeSegment(segment).text);
}

/** Forgejo refuses pages with a segment named as its own wiki pages (`_pages`, `_new`, `_edit`, `raw`): a 400. */
export function assertValidWebPath(path: WebPath): void {
  for (const segment of webPathSegments(path)) {
    if (RESERVED_NAMES.has(segment)) throw new BadRequestError(`wiki title is reserved: ${segment}`);
  }
}

/** The file a web path names in the wiki's tree ('' when a `.md` web path does not unescape). */
export function webPathToGitPath(path: WebPath): string {
  if (path.endsWith('.md')) return pathJoinRelX(pathUnescape(path) ?? '');
  const segments = path.split('/').map((segment) => {
    const marked = segment.endsWith(DASH_MARKER);
    const escaped = escapeSegmentToWeb(unescapeSegment(segment).text, marked);
    // Spaces are kept as they are in a git path.
    return escaped.replaceAll('%20', ' ').replaceAll('+', ' ');
  });
  return `${segments.join('/')}.md`;
}

/** The web path of a file of the wiki's tree; undefined for a file that is no page (not `.md`, or not unescaping). */
export function gitPathToWebPath(path: string): WebPath | undefined {
  if (!path.endsWith('.md')) return undefined;
  const segments: string[] = [];
  for (const segment of path.slice(0, -3).split('/')) {
    const marked = segment.endsWith(DASH_MARKER);
    const unescaped = unescapeSegment(segment);
    if (!unescaped.ok) return undefined;
    segments.push(escapeSegmentToWeb(unescaped.text, marked));
  }
  return segments.join('/');
}

/** The title a reader sees of a web path (its last segment's). */
export function webPathToTitle(path: WebPath): string {
  let display = path.slice(path.lastIndexOf('/') + 1);
  if (display === '') display = path === '' ? '.' : path.split('/').filter((s) => s !== '').at(-1) ?? '/';
  if (display.endsWith('.md')) display = pathUnescape(display.slice(0, -3)) ?? '';
  return unescapeSegment(display).text;
}

/**
 * The web path a request's `{pageName}` names, as it came in the URL (still escaped): cleaned, and its slashes
 * taken as part of the name (`%2F`), as Forgejo's older wikis always wrote them.
 */
export function webPathFromRequest(raw: string): WebPath {
  return pathJoinRelX(raw).replaceAll('/', '%2F');
}

/** The web path of a page titled `title` (Forgejo's UserTitleToWebPath): `unnamed` for a title of nothing. */
export function titleToWebPath(title: string): WebPath {
  const path = pathJoinRelX(escapeSegmentToWeb(title.trim(), false));
  return path === '' || path === '.' ? 'unnamed' : path;
}

/**
 * Go's `base64.StdEncoding.DecodeString`: strict padding, line breaks skipped; a malformed input fails with Go's
 * message (`illegal base64 data at input byte N`), as Forgejo answers it.
 */
export function decodeBase64Strictly(text: string): Buffer {
  const src = Buffer.from(text, 'utf8');
  const out = Buffer.alloc(Math.ceil(src.length / 4) * 3);
  const fail = (offset: number) => new BadRequestError(`illegal base64 data at input byte ${offset}`);
  const newline = (c: number | undefined) => c === 0x0a || c === 0x0d;
  let si = 0;
  let n = 0;
  for (;;) {
    const quantum = [0, 0, 0, 0];
    let length = 4;
    let last = false;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return out.subarray(0, n);
        throw fail(si - j);
      }
      const c = src[si]!;
      si++;
      const value = BASE64_VALUES[c]!;
      if (value !== 255) {
        quantum[j] = value;
        continue;
      }
      if (newline(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d || j < 2) throw fail(si - 1);
      if (j === 2) {
        while (si < src.length && newline(src[si])) si++;
        if (si === src.length) throw fail(src.length);
        if (src[si] !== 0x3d) throw fail(si - 1);
        si++;
      }
      while (si < src.length && newline(src[si])) si++;
      if (si < src.length) throw fail(si);
      length = j;
      last = true;
      break;
    }
    const bits = (quantum[0]! << 18) | (quantum[1]! << 12) | (quantum[2]! << 6) | quantum[3]!;
    out[n++] = (bits >> 16) & 255;
    if (length > 2) out[n++] = (bits >> 8) & 255;
    if (length > 3) out[n++] = bits & 255;
    if (last) return out.subarray(0, n);
  }
}

const BASE64_VALUES: Uint8Array = (() => {
  const values = new Uint8Array(256).fill(255);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  return values;
})();
