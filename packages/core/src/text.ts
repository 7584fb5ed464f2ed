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
