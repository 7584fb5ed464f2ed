/**
 * `@name` mentions in an issue body or comment, found without the markdown pipeline (which costs a lazy import):
 * fenced code blocks and inline code spans mention nobody, as in Forgejo's `FindAllMentionsMarkdown`.
 */

/** A fence opening or closing a code block: three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/**
 * Inline code spans, each replaced by a space, as `/(`+)[\s\S]*?\1/g` replaced them: a run of backticks up to the
 * next place the same run starts. Where it never does, the pattern gave up backticks from the end of the run until
 * what it kept appeared again: within the run itself (the first two of three backticks), or at a later run at least
 * as long. Computed from the lengths of the line's runs, as the pattern's retries were quadratic on a long run.
 */
function withoutCodeSpans(line: string): string {
  const runs: { start: number; length: number }[] = [];
  for (let at = line.indexOf('`'); at !== -1; at = line.indexOf('`', at)) {
    const start = at;
    while (line[at] === '`') at++;
    runs.push({ start, length: at - start });
  }
  if (runs.length === 0) return line;
  // longest[r]: the longest run from the r-th on.
  const longest = new Array<number>(runs.length + 1).fill(0);
  for (let r = runs.length - 1; r >= 0; r--) longest[r] = Math.max(runs[r]!.length, longest[r + 1]!);
  let out = '';
  let kept = 0;
  let r = 0;
  let at = runs[0]!.start;
  while (r < runs.length) {
    const run = runs[r]!;
    const length = run.start + run.length - at;
    if (length <= 0) {
      r++;
      if (r < runs.length) at = runs[r]!.start;
      continue;
    }
    // The longest part of the run, kept from its start, that appears again after it.
    const keep = Math.max(Math.floor(length / 2), Math.min(length, longest[r + 1]!));
    if (keep === 0) {
      at += length;
      continue;
    }
    let end: number;
    if (2 * keep <= length) end = at + 2 * keep;
    else {
      let later = r + 1;
      while (runs[later]!.length < keep) later++;
      r = later;
      end = runs[later]!.start + keep;
    }
    out += `${line.slice(kept, at)} `;
    kept = end;
    at = end;
  }
  return kept === 0 ? line : out + line.slice(kept);
}

/** A mention: after a start, a space, `(` or `[`; a name of word characters, dashes and inner dots. */
const MENTION = /(?<=^|[\s([])@([\w-](?:[\w.-]*[\w-])?)(?=$|['\s)\]]|[:,;.?!](?:\s|$))/gu;

/** The lower-cased names mentioned in `text`, each once, in order of first mention. */
export function findMentions(text: string): string[] {
  if (!text.includes('@')) return [];
  const names = new Set<string>();
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const opening = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      continue;
    }
    if (opening) {
      fence = opening;
      continue;
    }
    for (const match of withoutCodeSpans(line).matchAll(MENTION)) names.add(match[1]!.toLowerCase());
  }
  return [...names];
}
