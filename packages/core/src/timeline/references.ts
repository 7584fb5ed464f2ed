/**
 * Issue references in text, as Forgejo finds them for cross references: `#12` or `!12` in the same repository,
 * `owner/repo#12` in another, each standing between spaces or brackets, outside code. A keyword right before a
 * reference (`closes #12`, `reopens #3`) gives it an action, which only a pull request's references carry out.
 */
import { RefAction } from './types.js';

export interface IssueReference {
  /** Both empty: the repository the text belongs to. */
  owner: string;
  name: string;
  index: number;
  action: number;
}

// Literals (the linearity test reads them): a reference ends at the end, a space, a bracket or quote, or
// punctuation followed by either.
const LOCAL = /(?<=^|[\s(\['"])[#!]([0-9]+)(?=$|[\s)\]'"]|[:;,.?!](?:\s|$))/g;
const CROSS = /(?<=^|[\s(\[])([0-9a-zA-Z_.-]+)\/([0-9a-zA-Z_.-]+)[#!]([0-9]+)(?=$|[\s)\]'"]|[:;,.?!](?:\s|$))/g;
const REOPEN_WORDS = ['reopen', 'reopens', 'reopened'];
/** A close or reopen keyword right before a reference (`fixes #1`). */
const KEYWORD_BEFORE = /(?:^|[\s(\[])(close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved|reopen|reopens|reopened):? $/i;

/** Text without what markdown shows as code (fenced and indented blocks, inline spans), where references do not count. */
function withoutCode(markdown: string): string {
  return withoutInlineCode(withoutFencedCode(markdown).replace(/^(?: {4}|\t)[^\n]*$/gm, ' '));
}

/** Whether a line starts at `at` as `^` sees it in multiline mode: at the start, or after any line terminator. */
function atLineStart(text: string, at: number): boolean {
  if (at === 0) return true;
  const before = text[at - 1];
  return before === '\n' || before === '\r' || before === '\u2028' || before === '\u2029';
}

/** The spaces at `at`, when there are at most three of them. */
function indent(text: string, at: number): number | undefined {
  let spaces = 0;
  while (text[at + spaces] === ' ') if (++spaces > 3) return undefined;
  return spaces;
}

/**
 * Fenced code blocks, each replaced by a space, as `/^(?: {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm`
 * replaced them: a fence (its whole run of backticks or tildes) on a line that a line feed ends, up to the end of
 * the first line that starts with the same fence, or to the end. A scan: the pattern tried every shorter fence of a
 * long run of backticks on a last line, which is quadratic.
 */
function withoutFencedCode(text: string): string {
  let out = '';
  let kept = 0;
  let at = 0;
  while (at < text.length) {
    const spaces = atLineStart(text, at) ? indent(text, at) : undefined;
    const char = spaces === undefined ? undefined : text[at + spaces];
    if (spaces === undefined || (char !== '`' && char !== '~')) {
      at++;
      continue;
    }
    let run = at + spaces;
    while (text[run] === char) run++;
    const fence = text.slice(at + spaces, run);
    const newline = text.indexOf('\n', run);
    // No line feed after it: neither this fence nor any later one opens a block.
    if (fence.length < 3 || newline === -1) {
      if (newline === -1 && fence.length >= 3) break;
      at = run;
      continue;
    }
    let end = text.length;
    for (let line = newline + 1; line <= text.length; line++) {
      if (!atLineStart(text, line)) continue;
      const closing = indent(text, line);
      if (closing !== undefined && text.startsWith(fence, line + closing)) {
        const lineEnd = text.indexOf('\n', line + closing + fence.length);
        end = lineEnd === -1 ? text.length : lineEnd;
        break;
      }
    }
    out += `${text.slice(kept, at)} `;
    kept = end;
    at = end;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/**
 * Inline code spans, each replaced by a space, as `/(`+)[^`]*?\1/g` replaced them: a run of backticks up to the
 * next backtick when that starts the same run; otherwise the pattern gave up backticks from the end of the run
 * until the rest of the run began with what it kept, which takes the first half of it in pairs (four of five).
 * Counted here, as the pattern's retries were quadratic on a long run.
 */
function withoutInlineCode(text: string): string {
  let out = '';
  let kept = 0;
  let at = text.indexOf('`');
  while (at !== -1) {
    let run = at;
    while (text[run] === '`') run++;
    const length = run - at;
    const next = text.indexOf('`', run);
    let end: number | undefined;
    if (next !== -1 && text.startsWith(text.slice(at, run), next)) end = next + length;
    else if (length >= 2) end = at + 2 * Math.floor(length / 2);
    if (end === undefined) {
      at = next;
      continue;
    }
    out += `${text.slice(kept, at)} `;
    kept = end;
    at = text.indexOf('`', end);
  }
  return kept === 0 ? text : out + text.slice(kept);
}

function actionBefore(text: string, at: number): number {
  const m = KEYWORD_BEFORE.exec(text.slice(Math.max(0, at - 20), at));
  if (!m) return RefAction.None;
  return REOPEN_WORDS.includes(m[1]!.toLowerCase()) ? RefAction.Reopens : RefAction.Closes;
}

/** The references in `text` (markdown unless `plain`), in order of appearance per kind; an index past 2^53 is skipped. */
export function findIssueReferences(text: string, options: { plain?: boolean } = {}): IssueReference[] {
  const source = options.plain ? text : withoutCode(text);
  const found: IssueReference[] = [];
  for (const m of source.matchAll(LOCAL)) {
    const index = Number(m[1]);
    if (Number.isSafeInteger(index) && index > 0) found.push({ owner: '', name: '', index, action: actionBefore(source, m.index!) });
  }
  for (const m of source.matchAll(CROSS)) {
    const index = Number(m[3]);
    if (Number.isSafeInteger(index) && index > 0) found.push({ owner: m[1]!, name: m[2]!, index, action: actionBefore(source, m.index!) });
  }
  return found;
}
