/**
 * The `Range` header of a download, as Go's `http.ServeContent` reads it: one range is served as 206; a header
 * that names bytes past the end only is 416; anything else (no header, several ranges, more bytes than the
 * blob holds) serves the whole blob.
 */
export type RangeAnswer = { start: number; end: number } | 'unsatisfiable' | undefined;

const DIGITS = /^\d+$/;

export function parseByteRange(header: string | null | undefined, size: number): RangeAnswer {
  if (!header) return undefined;
  if (!header.startsWith('bytes=')) return 'unsatisfiable';
  const ranges: { start: number; end: number }[] = [];
  let noOverlap = false;
  for (const raw of header.slice('bytes='.length).split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const dash = part.indexOf('-');
    if (dash < 0) return 'unsatisfiable';
    const first = part.slice(0, dash).trim();
    const last = part.slice(dash + 1).trim();
    if (first === '') {
      // A suffix: the last N bytes.
      if (!DIGITS.test(last)) return 'unsatisfiable';
      const length = Math.min(Number(last), size);
      if (length === 0) {
        noOverlap = true;
        continue;
      }
      ranges.push({ start: size - length, end: size - 1 });
      continue;
    }
    if (!DIGITS.test(first)) return 'unsatisfiable';
    const start = Number(first);
    if (start >= size) {
      noOverlap = true;
      continue;
    }
    let end = size - 1;
    if (last !== '') {
      if (!DIGITS.test(last)) return 'unsatisfiable';
      end = Number(last);
      if (start > end) return 'unsatisfiable';
      end = Math.min(end, size - 1);
    }
    ranges.push({ start, end });
  }
  if (ranges.length === 0) return noOverlap && size > 0 ? 'unsatisfiable' : undefined;
  // Several ranges would be a multipart answer; like a sum past the size, they get the whole blob instead.
  if (ranges.length > 1) return undefined;
  return ranges[0];
}
