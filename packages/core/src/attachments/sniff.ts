/**
 * What kind of file a few leading bytes are, as Go's `http.DetectContentType` (the WHATWG sniffing rules) tells
 * it and Forgejo's type sniffer refines it (SVG), and whether `[attachment] ALLOWED_TYPES` lets a file in.
 */

/** How many leading bytes sniffing looks at (Go's sniffLen). */
export const SNIFF_LENGTH = 512;

const OCTET_STREAM = 'application/octet-stream';

interface Signature {
  /** Bytes that must match, under `mask` (0xff when absent). */
  pattern: readonly number[];
  mask?: readonly number[];
  /** Leading whitespace may come first. */
  skipWhitespace?: boolean;
  type: string;
}

const bytes = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));
const upper = (n: number): number => (n >= 0x61 && n <= 0x7a ? n - 0x20 : n);

/** HTML openers: the tag, then a space or `>`. */
const HTML_TAGS = ['<!DOCTYPE HTML', '<HTML', '<HEAD', '<SCRIPT', '<IFRAME', '<H1', '<DIV', '<FONT', '<TABLE', '<A', '<STYLE', '<TITLE', '<B', '<BODY', '<BR', '<P', '<!--'];

const SIGNATURES: readonly Signature[] = [
  { pattern: bytes('<?xml'), skipWhitespace: true, type: 'text/xml; charset=utf-8' },
  { pattern: bytes('%PDF-'), type: 'application/pdf' },
  { pattern: bytes('%!PS-Adobe-'), type: 'application/postscript' },
  { pattern: [0xfe, 0xff, 0, 0], mask: [0xff, 0xff, 0, 0], type: 'text/plain; charset=utf-16be' },
  { pattern: [0xff, 0xfe, 0, 0], mask: [0xff, 0xff, 0, 0], type: 'text/plain; charset=utf-16le' },
  { pattern: [0xef, 0xbb, 0xbf, 0], mask: [0xff, 0xff, 0xff, 0], type: 'text/plain; charset=utf-8' },
  { pattern: [0, 0, 1, 0], type: 'image/x-icon' },
  { pattern: [0, 0, 2, 0], type: 'image/x-icon' },
  { pattern: bytes('BM'), type: 'image/bmp' },
  { pattern: bytes('GIF87a'), type: 'image/gif' },
  { pattern: bytes('GIF89a'), type: 'image/gif' },
  { pattern: [...bytes('RIFF'), 0, 0, 0, 0, ...bytes('WEBPVP')], mask: [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], type: 'image/webp' },
  { pattern: [0x89, ...bytes('PNG'), 0x0d, 0x0a, 0x1a, 0x0a], type: 'image/png' },
  { pattern: [0xff, 0xd8, 0xff], type: 'image/jpeg' },
  { pattern: [...bytes('FORM'), 0, 0, 0, 0, ...bytes('AIFF')], mask: [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], type: 'audio/aiff' },
  { pattern: bytes('ID3'), type: 'audio/mpeg' },
  { pattern: [...bytes('OggS'), 0], type: 'application/ogg' },
  { pattern: [...bytes('MThd'), 0, 0, 0, 6], type: 'audio/midi' },
  { pattern: [...bytes('RIFF'), 0, 0, 0, 0, ...bytes('AVI ')], mask: [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], type: 'video/avi' },
  { pattern: [...bytes('RIFF'), 0, 0, 0, 0, ...bytes('WAVE')], mask: [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], type: 'audio/wave' },
  { pattern: [0x1a, 0x45, 0xdf, 0xa3], type: 'video/webm' },
  { pattern: bytes('wOFF'), type: 'font/woff' },
  { pattern: bytes('wOF2'), type: 'font/woff2' },
  { pattern: [0x1f, 0x8b, 0x08], type: 'application/x-gzip' },
  { pattern: [...bytes('PK'), 3, 4], type: 'application/zip' },
  { pattern: [...bytes('Rar!'), 0x1a, 0x07, 0x00], type: 'application/x-rar-compressed' },
  { pattern: [...bytes('Rar!'), 0x1a, 0x07, 0x01, 0x00], type: 'application/x-rar-compressed' },
  { pattern: [0, ...bytes('asm')], type: 'application/wasm' },
];

function isWhitespace(b: number): boolean {
  return b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
}

function matches(data: Uint8Array, sig: Signature): boolean {
  let start = 0;
  if (sig.skipWhitespace) while (start < data.length && isWhitespace(data[start]!)) start++;
  if (data.length - start < sig.pattern.length) return false;
  return sig.pattern.every((p, i) => (data[start + i]! & (sig.mask?.[i] ?? 0xff)) === p);
}

function isHtml(data: Uint8Array): boolean {
  let start = 0;
  while (start < data.length && isWhitespace(data[start]!)) start++;
  return HTML_TAGS.some((tag) => {
    const end = start + tag.length;
    if (data.length <= end) return false;
    for (let i = 0; i < tag.length; i++) if (upper(data[start + i]!) !== tag.charCodeAt(i)) return false;
    const next = data[end]!;
    return next === 0x20 || next === 0x3e;
  });
}

/** MP4: a box of type `ftyp` whose brands include `mp4`. */
function isMp4(data: Uint8Array): boolean {
  if (data.length < 12) return false;
  const boxSize = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0;
  if (data.length < boxSize || boxSize % 4 !== 0 || boxSize < 12) return false;
  if (String.fromCharCode(...data.subarray(4, 8)) !== 'ftyp') return false;
  for (let at = 8; at + 3 <= boxSize; at += 4) {
    if (at === 12) continue;
    if (String.fromCharCode(...data.subarray(at, at + 3)) === 'mp4') return true;
  }
  return false;
}

/** Bytes WHATWG calls binary: control characters other than tab, newlines, form feed and escape. */
function hasBinaryBytes(data: Uint8Array): boolean {
  for (const b of data) {
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return true;
  }
  return false;
}

/** The media type (with its charset for text) of a file starting with `head`. */
export function sniffContentType(head: Uint8Array): string {
  const data = head.subarray(0, SNIFF_LENGTH);
  if (isHtml(data)) return 'text/html; charset=utf-8';
  for (const sig of SIGNATURES) if (matches(data, sig)) return sig.type;
  if (isMp4(data)) return 'video/mp4';
  if (hasBinaryBytes(data)) return OCTET_STREAM;
  return 'text/plain; charset=utf-8';
}

/** The media type without parameters, lower-case. */
export function mediaTypeOf(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

const WILDCARD = /^[a-z]+\/\*$/;

/** The last `.ext` of a file name, lower-case (`''` when none), as Go's `path.Ext`. */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot).toLowerCase();
}

/**
 * Whether `[attachment] ALLOWED_TYPES` lets the file in: an empty list or `*\/*` allows all; otherwise an entry
 * must be the file's extension (`.png`), its sniffed media type (`image/png`) or a wildcard of it (`image/*`).
 * `|` separates entries too (Forgejo's older format).
 */
export function isAllowedType(allowedTypes: string, fileName: string, head: Uint8Array): boolean {
  const entries = allowedTypes
    .replaceAll('|', ',')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  if (entries.length === 0) return true;
  const mediaType = mediaTypeOf(sniffContentType(head));
  const extension = extensionOf(fileName);
  return entries.some(
    (entry) =>
      entry === '*/*' ||
      (entry.startsWith('.') && entry === extension) ||
      entry === mediaType ||
      (WILDCARD.test(entry) && mediaType.startsWith(entry.slice(0, -1))),
  );
}
