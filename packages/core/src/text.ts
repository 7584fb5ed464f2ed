/** Go's util.SplitStringAtByteN: at most `n` UTF-8 bytes of `text`, never splitting a character (columns sized in bytes). */
export function truncateBytes(text: string, n: number): string {
  if (Buffer.byteLength(text) <= n) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > n) break;
    out += char;
    bytes += size;
  }
  return out;
}

/**
 * `text` without the run of `chars` at its end: what `/[…]+$/` replaces, in linear time (a `+$` pattern tries
 * every start in a long run that does not reach the end, which is quadratic on request data).
 */
export function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the run of `chars` at its start. */
export function trimStart(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start]!)) start++;
  return start === 0 ? text : text.slice(start);
}
