/**
 * Issue references in text, as Forgejo finds them for cross references: `#12` or `!12` in the same repository,
 * `owner/repo#12` in another, each standing between spaces or brackets, outside code. A keyword right before a
 * reference (`closes #12`, `reopens #3`) gives it an action, which only a pull request's references carry out.
 */
import { RefAction } from './store.js';

export interface IssueReference {
  /** Both empty: the repository the text belongs to. */
  owner: string;
  name: string;
  index: number;
  action: number;
}

const END = String.raw`(?=$|[\s)\]'"]|[:;,.?!](?:\s|$))`;
const LOCAL = new RegExp(String.raw`(?<=^|[\s(\['"])[#!]([0-9]+)${END}`, 'g');
const CROSS = new RegExp(String.raw`(?<=^|[\s(\[])([0-9a-zA-Z_.-]+)/([0-9a-zA-Z_.-]+)[#!]([0-9]+)${END}`, 'g');
const CLOSE_WORDS = ['close', 'closes', 'closed', 'fix', 'fixes', 'fixed', 'resolve', 'resolves', 'resolved'];
const REOPEN_WORDS = ['reopen', 'reopens', 'reopened'];
const KEYWORD_BEFORE = new RegExp(String.raw`(?:^|[\s(\[])(${[...CLOSE_WORDS, ...REOPEN_WORDS].join('|')}):? $`, 'i');

/** Text without what markdown shows as code (fenced and indented blocks, inline spans), where references do not count. */
function withoutCode(markdown: string): string {
  return markdown
    .replace(/^(?: {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm, ' ')
    .replace(/^(?: {4}|\t)[^\n]*$/gm, ' ')
    .replace(/(`+)[^`]*?\1/g, ' ');
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
