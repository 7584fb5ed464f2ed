/**
 * The content type a raw file is served with, from its first bytes, as Forgejo decides it: text as
 * `text/plain; charset=utf-8`, images, audio, video and PDF by their signature (browsers may show them), anything
 * else `application/octet-stream`. SVG and PDF carry a Content-Security-Policy, since they can run script.
 */

/** Bytes looked at. */
export const SNIFF_BYTES = 1024;

export interface ServedType {
  contentType: string;
  /** A Content-Security-Policy for types that may run script. */
  csp?: string;
}

const SIGNATURES: readonly (readonly [string, (b: Buffer) => boolean])[] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => /^GIF8[79]a/.test(b.toString('latin1', 0, 6))],
  ['image/webp', (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP'],
  ['image/bmp', (b) => b.toString('latin1', 0, 2) === 'BM'],
  ['image/x-icon', (b) => b.subarray(0, 4).equals(Buffer.from([0, 0, 1, 0]))],
  ['application/pdf', (b) => b.toString('latin1', 0, 5) === '%PDF-'],
  ['audio/wave', (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WAVE'],
  ['audio/mpeg', (b) => b.toString('latin1', 0, 3) === 'ID3'],
  ['application/ogg', (b) => b.toString('latin1', 0, 5) === 'OggS\0'],
  ['video/webm', (b) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))],
  ['video/mp4', (b) => b.toString('latin1', 4, 8) === 'ftyp'],
];

/** Go's rule for binary data: a byte no text file holds (controls other than tab, newlines, form feed, escape). */
function looksBinary(head: Buffer): boolean {
  for (const byte of head) {
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return true;
  }
  return false;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

function startsWithAt(text: string, at: number, prefix: string): boolean {
  return text.slice(at, at + prefix.length).toLowerCase() === prefix;
}

/**
 * Whether a text is an SVG document: `<svg` first, after whitespace, an XML declaration, comments and an SVG
 * doctype. A scanner, not a pattern: the file is anyone's, and a pattern with repeated comment groups backtracks
 * exponentially on `<!---->` repeated.
 */
export function isSvgDocument(text: string): boolean {
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  };
  skipSpace();
  if (startsWithAt(text, at, '<?xml')) {
    const end = text.indexOf('>', at);
    if (end < 0) return false;
    at = end + 1;
  }
  for (;;) {
    skipSpace();
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end < 0) return false;
      at = end + 3;
    } else if (startsWithAt(text, at, '<!doctype') && isSpace(text.charCodeAt(at + 9))) {
      let name = at + 9;
      while (name < text.length && isSpace(text.charCodeAt(name))) name++;
      if (!startsWithAt(text, name, 'svg')) return false;
      const end = text.indexOf('>', name);
      if (end < 0) return false;
      at = end + 1;
    } else break;
  }
  if (!startsWithAt(text, at, '<svg')) return false;
  const next = text.charCodeAt(at + 4);
  return isSpace(next) || next === 0x3e /* > */ || next === 0x2f /* / */;
}

export function sniffServedType(head: Buffer): ServedType {
  const sample = head.subarray(0, SNIFF_BYTES);
  for (const [type, test] of SIGNATURES) if (test(sample)) return type === 'application/pdf' ? { contentType: type, csp: "default-src 'none'; style-src 'unsafe-inline'; object-src 'self'" } : { contentType: type };
  if (looksBinary(sample)) return { contentType: 'application/octet-stream' };
  if (isSvgDocument(sample.toString('utf8'))) return { contentType: 'image/svg+xml', csp: "default-src 'none'; style-src 'unsafe-inline'; sandbox" };
  return { contentType: 'text/plain; charset=utf-8' };
}
