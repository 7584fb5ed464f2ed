/**
 * The commit message a merge gets when the caller gives no title: Forgejo's default wording, or the repository's
 * merge message template (`.forgejo/default_merge_message/<STYLE>_TEMPLATE.md`, else `.gitea/…`, read from the
 * default branch) whose first line is the title and the rest the body, with `$Variables` expanded. The body is the
 * description when the caller gives none (the service description's rule; Forgejo's API drops it).
 */
import type { MergeStyle } from '../repos/index.js';

/** Bytes of a template read at most (Forgejo's `DEFAULT_MERGE_MESSAGE_SIZE`). */
export const MERGE_TEMPLATE_MAX_BYTES = 5 * 1024;

/** Where a style's template may be, in the order they are tried. */
export function mergeTemplatePaths(style: MergeStyle): string[] {
  const file = `${style.toUpperCase()}_TEMPLATE.md`;
  return [`.forgejo/default_merge_message/${file}`, `.gitea/default_merge_message/${file}`];
}

export interface MergeMessageFacts {
  style: MergeStyle;
  title: string;
  description: string;
  index: number;
  /** `#`, or `!` when the repository uses an external issue tracker. */
  reference: '#' | '!';
  baseOwner: string;
  baseRepo: string;
  baseBranch: string;
  /** Undefined when the head repository is gone. */
  headOwner?: string;
  headRepo?: string;
  headBranch: string;
  sameRepo: boolean;
  posterName: string;
  /** The pull request's page. */
  htmlUrl: string;
  /** `Reviewed-by: …` lines of the approvers, '' when none. */
  reviewedBy: string;
  /** Extra variables (a rebase's `CommitTitle` and `CommitBody`). */
  extra?: Record<string, string>;
}

/** Forgejo's default title and body for a style, before any template. */
export function defaultMergeMessage(facts: MergeMessageFacts): { title: string; body: string } {
  const ref = `${facts.reference}${facts.index}`;
  const body = `Reviewed-on: ${facts.htmlUrl}\n${facts.reviewedBy}`;
  if (facts.style === 'squash') return { title: `${facts.title} (${ref})`, body };
  let from = facts.headBranch;
  if (!facts.sameRepo) from = facts.headOwner !== undefined ? `${facts.headOwner}/${facts.headRepo}:${facts.headBranch}` : `<deleted>:${facts.headBranch}`;
  return { title: `Merge pull request '${facts.title}' (${ref}) from ${from} into ${facts.baseBranch}`, body };
}

/**
 * The title and body for `style` given the template's text (undefined when the repository has none). A rebase
 * without a template keeps its commits' messages: both come back empty.
 */
export function composeMergeMessage(facts: MergeMessageFacts, template: string | undefined): { title: string; body: string } {
  const fallback = defaultMergeMessage(facts);
  if (template === undefined) return facts.style === 'rebase' ? { title: '', body: '' } : fallback;
  if (template === '') return fallback;
  const lookup = templateLookup(facts);
  const newline = template.indexOf('\n');
  if (newline < 0) return { title: expandVariables(template.trim(), lookup), body: fallback.body };
  const first = template.slice(0, newline);
  const rest = template.slice(newline + 1);
  return {
    title: first === '' ? fallback.title : expandVariables(first.trim(), lookup),
    body: rest === '' ? fallback.body : expandVariables(rest.trimEnd(), lookup),
  };
}

/**
 * The description a template gives: its lines after the first, expanded; undefined when it has none (no template,
 * or one line only), so that the caller's default stays.
 */
export function templateDescription(facts: MergeMessageFacts, template: string | undefined): string | undefined {
  const newline = template?.indexOf('\n') ?? -1;
  if (template === undefined || newline < 0) return undefined;
  const rest = template.slice(newline + 1).trimEnd();
  return rest === '' ? undefined : expandVariables(rest, templateLookup(facts));
}

/** The `$Variables` a template may use (Forgejo's set). */
function templateLookup(facts: MergeMessageFacts): (name: string) => string {
  const vars: Record<string, string> = {
    BaseRepoOwnerName: facts.baseOwner,
    BaseRepoName: facts.baseRepo,
    BaseBranch: facts.baseBranch,
    HeadRepoOwnerName: facts.headOwner ?? '',
    HeadRepoName: facts.headRepo ?? '',
    HeadBranch: facts.headBranch,
    PullRequestTitle: facts.title,
    PullRequestDescription: facts.description,
    PullRequestPosterName: facts.posterName,
    PullRequestIndex: String(facts.index),
    PullRequestReference: `${facts.reference}${facts.index}`,
    ReviewedOn: `Reviewed-on: ${facts.htmlUrl}`,
    ReviewedBy: facts.reviewedBy,
    ClosingIssues: '',
    ...facts.extra,
  };
  return (name: string) => vars[name] ?? '';
}

const SPECIAL = new Set(['*', '#', '$', '@', '!', '?', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
const NAME_CHAR = /[A-Za-z0-9_]/;

/**
 * Go's `os.Expand`, which Forgejo applies to templates: `$Name` and `${Name}` are replaced, a `$` before nothing
 * nameable stays, and broken `${` syntax is dropped.
 */
export function expandVariables(text: string, lookup: (name: string) => string): string {
  let out = '';
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    if (text[at] !== '$' || at + 1 >= text.length) continue;
    out += text.slice(from, at);
    const rest = text.slice(at + 1);
    let name = '';
    let width = 0;
    if (rest[0] === '{') {
      if (rest.length > 2 && SPECIAL.has(rest[1]!) && rest[2] === '}') {
        name = rest[1]!;
        width = 3;
      } else {
        const close = rest.indexOf('}', 1);
        if (close < 0) width = 1;
        else if (close === 1) width = 2;
        else {
          name = rest.slice(1, close);
          width = close + 1;
        }
      }
    } else if (SPECIAL.has(rest[0]!)) {
      name = rest[0]!;
      width = 1;
    } else {
      while (width < rest.length && NAME_CHAR.test(rest[width]!)) width++;
      name = rest.slice(0, width);
    }
    if (name !== '') out += lookup(name);
    else if (width === 0) out += '$';
    at += width;
    from = at + 1;
  }
  return out + text.slice(from);
}

/**
 * Adds a trailer (`Co-authored-by: …`) as git does: on the message's trailer block when it ends with one, else
 * after a blank line.
 */
export function addTrailer(message: string, key: string, value: string): string {
  const trailer = `${key}: ${value}`;
  const trimmed = message.trimEnd();
  const paragraphs = trimmed.split(/\n\s*\n/);
  const last = paragraphs.length > 1 ? paragraphs[paragraphs.length - 1]! : '';
  const isTrailerBlock = last !== '' && last.split('\n').every((line) => /^[A-Za-z0-9-]+: /.test(line));
  if (isTrailerBlock) {
    if (last.split('\n').includes(trailer)) return trimmed;
    return `${trimmed}\n${trailer}`;
  }
  return `${trimmed}\n\n${trailer}`;
}
