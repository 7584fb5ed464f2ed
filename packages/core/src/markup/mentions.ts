/**
 * The `@names` a markdown text could mention, found in one pass over the raw text before it is parsed, so the
 * render can look them up first and run without a database. It is a superset of what the parser finds in text
 * nodes (`collectMentions`): markup characters around a name (`**@alice**`) do not hide it here, and a name
 * followed by something a mention may not end in is still listed, with each shorter name ending before a dot.
 */

/** `[\w-]`: a name's first character. */
function isNameStart(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
}

/** `[\w.-]`: the rest of a name. */
function isNamePart(c: number): boolean {
  return isNameStart(c) || c === 0x2e;
}

/** Longer names are no account's (Forgejo's limit is 40): they are not looked up. */
const MAX_NAME = 255;

/** Lower-cased candidate names in the order they appear, at most `limit` distinct ones. */
export function mentionCandidates(text: string, limit: number): string[] {
  const names = new Set<string>();
  let at = text.indexOf('@');
  while (at >= 0 && names.size < limit) {
    let end = at + 1;
    if (end < text.length && isNameStart(text.charCodeAt(end))) {
      while (end < text.length && isNamePart(text.charCodeAt(end))) end++;
      const name = text.slice(at + 1, end);
      // Each name that ends before one of its dots (`@alice.` is alice, `@a.b!` mentions a), then the whole one.
      let dot = name.indexOf('.');
      while (dot > 0 && dot <= MAX_NAME && names.size < limit) {
        names.add(trimDots(name.slice(0, dot)).toLowerCase());
        dot = name.indexOf('.', dot + 1);
      }
      const whole = name.length <= MAX_NAME ? trimDots(name) : '';
      if (whole !== '' && names.size < limit) names.add(whole.toLowerCase());
    }
    at = text.indexOf('@', end);
  }
  names.delete('');
  return [...names];
}

function trimDots(name: string): string {
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) === 0x2e) end--;
  return name.slice(0, end);
}
