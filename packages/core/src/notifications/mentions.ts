/**
 * `@name` mentions in an issue body or comment, found without the markdown pipeline (which costs a lazy import):
 * fenced code blocks and inline code spans mention nobody, as in Forgejo's `FindAllMentionsMarkdown`.
 */

/** A fence opening or closing a code block: three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** Inline code spans: a run of backticks up to the same run. */
const CODE_SPAN = /(`+)[\s\S]*?\1/g;
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
    for (const match of line.replace(CODE_SPAN, ' ').matchAll(MENTION)) names.add(match[1]!.toLowerCase());
  }
  return [...names];
}
