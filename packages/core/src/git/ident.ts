/**
 * git's ident lines (`Name <email> 1700000000 +0100`: authors, committers, taggers) read by scanning from their
 * end. Users write these lines in what they push, and the patterns that read them (`^(.*) <(.*)> (\d+) …$`) tried
 * every split of a long name, which is quadratic; the tail is fixed, so reading it first leaves one split.
 */

/** The tail of an ident line: where its `>` stands, and the seconds and zone after it. */
export interface IdentTail {
  /** The index of the `>` that closes the email. */
  close: number;
  /** `1700000000`, or `-5` when negative seconds are allowed. */
  seconds: string;
  /** `+0100`. */
  offset: string;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Whether `text` is `[+-]` and four digits. */
export function isZoneOffset(text: string): boolean {
  if (text.length !== 5 || (text[0] !== '+' && text[0] !== '-')) return false;
  for (let i = 1; i < 5; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

/**
 * What `/> (-?\d+) ([+-]\d{4})$/` matches at the end of `line` (`-?` only when `negative`), or undefined. The
 * match is unique: the seconds are the whole run of digits before the zone, since a `> ` must precede them.
 */
export function identTail(line: string, negative: boolean): IdentTail | undefined {
  const zone = line.length - 5;
  if (zone < 1 || !isZoneOffset(line.slice(zone)) || line[zone - 1] !== ' ') return undefined;
  let start = zone - 1;
  while (start > 0 && isDigit(line.charCodeAt(start - 1))) start--;
  if (start === zone - 1) return undefined;
  if (negative && line[start - 1] === '-') start--;
  if (start < 2 || line[start - 1] !== ' ' || line[start - 2] !== '>') return undefined;
  return { close: start - 2, seconds: line.slice(start, zone - 1), offset: line.slice(zone) };
}

/** Whether `text` holds a character a regular expression's `.` does not match. */
export function hasLineTerminator(text: string): boolean {
  return /[\n\r\u2028\u2029]/.test(text);
}
