/**
 * What the chat and service formats share: reading Forgejo's payload JSON, Go's encodings (JSON, URL escaping),
 * the escaping each markup needs, and the sentences Forgejo's `services/webhook/general.go` builds for issues,
 * pull requests, comments, releases, wiki pages and packages.
 */
import type { HookEventName, HookPayload } from './types.js';
import { pathEscape, pathEscapeSegments, queryEscape } from '../../urls.js';

// Go's URL escaping lives with the other URL helpers; the formats import it from here.
export { pathEscape, pathEscapeSegments, queryEscape } from '../../urls.js';

// ---------------------------------------------------------------------------------------------------------------
// Reading the payload: Go decodes a missing field as its zero value, so these do too.

export type JsonObject = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object under `key` (an empty one when absent). */
export function obj(from: unknown, key: string): JsonObject {
  const value = isObject(from) ? from[key] : undefined;
  return isObject(value) ? value : {};
}

/** The objects of the array under `key`. */
export function list(from: unknown, key: string): JsonObject[] {
  const value = isObject(from) ? from[key] : undefined;
  return Array.isArray(value) ? value.filter(isObject) : [];
}

export function str(from: unknown, key: string): string {
  const value = isObject(from) ? from[key] : undefined;
  return typeof value === 'string' ? value : '';
}

export function num(from: unknown, key: string): number {
  const value = isObject(from) ? from[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function bool(from: unknown, key: string): boolean {
  const value = isObject(from) ? from[key] : undefined;
  return value === true;
}

/** `CreatePayload`/`PushPayload`/… name the repository `repository`; Forgejo's structs call it `Repo`. */
export function repoOf(p: HookPayload): JsonObject {
  return obj(p, 'repository');
}

/** The account name of an API `User` (`login`). */
export function login(user: JsonObject): string {
  return str(user, 'login');
}

// ---------------------------------------------------------------------------------------------------------------
// Go's encodings.

/** `json.MarshalIndent(v, "", "  ")`: encoding/json escapes `<`, `>`, `&`, U+2028 and U+2029. */
export function goJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Go's `url.Values{...}.Encode()` for one key. */
export function formEncode(key: string, value: string): string {
  return `${queryEscape(key)}=${queryEscape(value)}`;
}

/** Go's `%.Ns` (at most N runes) followed by `...`, when the text is longer than `limit` runes. */
export function truncateRunes(s: string, limit: number, keep: number): string {
  const runes = Array.from(s);
  return runes.length > limit ? `${runes.slice(0, keep).join('')}...` : s;
}

/** Forgejo's `base.TruncateString`: at most `limit` runes, the last one an ellipsis when cut. */
export function truncateString(s: string, limit: number): string {
  const runes = Array.from(s);
  if (runes.length <= limit) return s;
  return `${runes.slice(0, Math.max(0, limit - 1)).join('')}…`;
}

/** Go's `fmt.Sprintf("%x", color)`. */
export function hexColor(color: number): string {
  return color.toString(16);
}

// ---------------------------------------------------------------------------------------------------------------
// Refs.

/** `git.RefName(ref).ShortName()`. */
export function shortRefName(ref: string): string {
  for (const prefix of ['refs/heads/', 'refs/tags/', 'refs/remotes/', 'refs/pull/', 'refs/for/']) {
    if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  }
  return ref;
}

/** `git.RefURL`: a branch, a tag, a commit id, or (a short name, as `CreatePayload.ref` is) a branch. */
export function refUrl(repoUrl: string, ref: string): string {
  const name = pathEscapeSegments(shortRefName(ref));
  if (ref.startsWith('refs/heads/')) return `${repoUrl}/src/branch/${name}`;
  if (ref.startsWith('refs/tags/')) return `${repoUrl}/src/tag/${name}`;
  if (/^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(ref)) return `${repoUrl}/src/commit/${name}`;
  return `${repoUrl}/src/branch/${name}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Escaping for each markup.

/** Go's `html.EscapeString`. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ENTITIES.get(c) ?? c);
}
const HTML_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&#34;'],
  ["'", '&#39;'],
]);

/** Slack's control characters (https://api.slack.com/docs/formatting): `&`, `<`, `>`. */
export function escapeSlack(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Markdown's syntax characters backslash-escaped, so a commit subject renders as the text it is (Forgejo's
 * `escapeMarkdown` for Discord: emphasis, code, links, headings, lists, quotes, tables).
 */
export function escapeMarkdown(s: string): string {
  return s
    .replace(/[\\`*_~[\]()#!|<>]/g, (c) => `\\${c}`)
    // A dot after a digit (`(\d+)\.` did the same, retrying a long run of digits from each one).
    .replace(/(\d)\./g, '$1\\.')
    .replace(/(^|\s)([+-])(?=\s)/g, '$1\\$2')
    .replace(/---/g, '\\---');
}

/** How one markup writes links, account names and the user text placed in it. */
export interface Markup {
  /** A link; `text` is user text and is escaped by the markup. */
  link(url: string, text: string): string;
  /** An account name. */
  name(name: string): string;
  /** User text written into the message outside a link. */
  text(s: string): string;
}

/** No links (the text only), no escaping: plain-text messages and the titles of embeds and cards. */
export const PLAIN_MARKUP: Markup = { link: (_url, text) => text, name: (n) => n, text: (s) => s };

/** HTML (Matrix's `formatted_body`, Telegram's HTML parse mode). */
export const HTML_MARKUP: Markup = {
  link: (url, text) => `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`,
  name: (n) => escapeHtml(n),
  text: escapeHtml,
};

// ---------------------------------------------------------------------------------------------------------------
// Colours (Discord's palette, shared by Slack attachments and MS Teams cards).

export const GREEN = 0x1ac600;
export const GREEN_LIGHT = 0xbfe5bf;
export const YELLOW = 0xffd930;
export const GREY = 0x4f545c;
export const PURPLE = 0x7289da;
export const ORANGE = 0xeb6420;
export const ORANGE_LIGHT = 0xe68d60;
export const RED = 0xff3232;

// ---------------------------------------------------------------------------------------------------------------
// Which convertor method Forgejo's `shared.NewPayload` calls for an event.

export type EventKind =
  | 'create'
  | 'delete'
  | 'fork'
  | 'issue'
  | 'issueComment'
  | 'push'
  | 'pullRequest'
  | 'review'
  | 'repository'
  | 'release'
  | 'wiki'
  | 'package'
  | 'action';

const EVENT_KINDS: ReadonlyMap<HookEventName, EventKind> = new Map<HookEventName, EventKind>([
  ['create', 'create'],
  ['delete', 'delete'],
  ['fork', 'fork'],
  ['issues', 'issue'],
  ['issue_assign', 'issue'],
  ['issue_label', 'issue'],
  ['issue_milestone', 'issue'],
  ['issue_comment', 'issueComment'],
  ['pull_request_comment', 'issueComment'],
  ['push', 'push'],
  ['pull_request', 'pullRequest'],
  ['pull_request_assign', 'pullRequest'],
  ['pull_request_label', 'pullRequest'],
  ['pull_request_milestone', 'pullRequest'],
  ['pull_request_sync', 'pullRequest'],
  ['pull_request_review_request', 'pullRequest'],
  ['pull_request_review_approved', 'review'],
  ['pull_request_review_rejected', 'review'],
  ['pull_request_review_comment', 'review'],
  ['repository', 'repository'],
  ['release', 'release'],
  ['wiki', 'wiki'],
  ['package', 'package'],
  ['action_run_failure', 'action'],
  ['action_run_recover', 'action'],
  ['action_run_success', 'action'],
]);

/** The kind of payload an event carries; `undefined` for events the chat types do not render (workflows). */
export function eventKind(event: HookEventName): EventKind | undefined {
  return EVENT_KINDS.get(event);
}

/** The words of a review event (`parseHookPullRequestEventType`). */
export function reviewAction(event: HookEventName): string {
  switch (event) {
    case 'pull_request_review_approved':
      return 'approved';
    case 'pull_request_review_rejected':
      return 'requested changes';
    default:
      return 'comment';
  }
}

/** The colour of a review event. */
export function reviewColor(event: HookEventName): number {
  switch (event) {
    case 'pull_request_review_approved':
      return GREEN;
    case 'pull_request_review_rejected':
      return RED;
    case 'pull_request_review_comment':
      return GREY;
    default:
      return YELLOW;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Forgejo's sentences (services/webhook/general.go).

export interface MessageOptions {
  markup: Markup;
  /** Append ` by <sender>`. */
  withSender: boolean;
}

export interface IssueMessage {
  text: string;
  /** `#<index> <title>`, unescaped. */
  issueTitle: string;
  /** The body, for the actions that show it. */
  attachmentText: string;
  color: number;
}

function withRepoAndSender(p: HookPayload, text: string, o: MessageOptions): string {
  let out = `[${o.markup.text(str(repoOf(p), 'full_name'))}] ${text}`;
  if (o.withSender) out += ` by ${o.markup.name(login(obj(p, 'sender')))}`;
  return out;
}

function withSender(p: HookPayload, text: string, o: MessageOptions): string {
  return o.withSender ? `${text} by ${o.markup.name(login(obj(p, 'sender')))}` : text;
}

/** `appURL + name` for an assignee's link: the account's page is its repository owner URL's parent. */
function userPage(user: JsonObject): string {
  return str(user, 'html_url');
}

export function issueMessage(p: HookPayload, o: MessageOptions): IssueMessage {
  const issue = obj(p, 'issue');
  const index = num(p, 'number') || num(issue, 'number');
  const issueTitle = `#${index} ${str(issue, 'title')}`;
  const titleLink = o.markup.link(`${str(repoOf(p), 'html_url')}/issues/${index}`, issueTitle);
  let color = YELLOW;
  let text = '';
  switch (str(p, 'action')) {
    case 'opened':
      text = `Issue opened: ${titleLink}`;
      color = ORANGE;
      break;
    case 'closed':
      text = `Issue closed: ${titleLink}`;
      color = RED;
      break;
    case 'reopened':
      text = `Issue re-opened: ${titleLink}`;
      break;
    case 'edited':
      text = `Issue edited: ${titleLink}`;
      break;
    case 'assigned': {
      const names = list(issue, 'assignees').map((u) => o.markup.link(userPage(u), login(u)));
      text = `Issue assigned to ${names.join(', ')}: ${titleLink}`;
      color = GREEN;
      break;
    }
    case 'unassigned':
      text = `Issue unassigned: ${titleLink}`;
      break;
    case 'label_updated':
      text = `Issue labels updated: ${titleLink}`;
      break;
    case 'label_cleared':
      text = `Issue labels cleared: ${titleLink}`;
      break;
    case 'synchronized':
      text = `Issue synchronized: ${titleLink}`;
      break;
    case 'milestoned':
      text = `Issue milestoned to ${o.markup.text(str(obj(issue, 'milestone'), 'title'))}: ${titleLink}`;
      break;
    case 'demilestoned':
      text = `Issue milestone cleared: ${titleLink}`;
      break;
  }
  const action = str(p, 'action');
  const attachmentText = action === 'opened' || action === 'edited' ? str(issue, 'body') : '';
  return { text: withRepoAndSender(p, text, o), issueTitle, attachmentText, color };
}

export function pullRequestMessage(p: HookPayload, o: MessageOptions): IssueMessage {
  const pr = obj(p, 'pull_request');
  const index = num(p, 'number') || num(pr, 'number');
  const issueTitle = `#${index} ${str(pr, 'title')}`;
  const titleLink = o.markup.link(str(pr, 'url') || str(pr, 'html_url'), issueTitle);
  let color = YELLOW;
  let text = '';
  let attachmentText = '';
  switch (str(p, 'action')) {
    case 'opened':
      text = `Pull request opened: ${titleLink}`;
      attachmentText = str(pr, 'body');
      color = GREEN;
      break;
    case 'closed':
      if (bool(pr, 'merged')) {
        text = `Pull request merged: ${titleLink}`;
        color = PURPLE;
      } else {
        text = `Pull request closed: ${titleLink}`;
        color = RED;
      }
      break;
    case 'reopened':
      text = `Pull request re-opened: ${titleLink}`;
      break;
    case 'edited':
      text = `Pull request edited: ${titleLink}`;
      attachmentText = str(pr, 'body');
      break;
    case 'assigned': {
      const names = list(pr, 'assignees').map((u) => o.markup.link(userPage(u), login(u)));
      text = `Pull request assigned to ${names.join(', ')}: ${titleLink}`;
      color = GREEN;
      break;
    }
    case 'unassigned':
      text = `Pull request unassigned: ${titleLink}`;
      break;
    case 'label_updated':
      text = `Pull request labels updated: ${titleLink}`;
      break;
    case 'label_cleared':
      text = `Pull request labels cleared: ${titleLink}`;
      break;
    case 'synchronized':
      text = `Pull request synchronized: ${titleLink}`;
      break;
    case 'milestoned':
      text = `Pull request milestoned to ${o.markup.text(str(obj(pr, 'milestone'), 'title'))}: ${titleLink}`;
      break;
    case 'demilestoned':
      text = `Pull request milestone cleared: ${titleLink}`;
      break;
    case 'reviewed':
      text = `Pull request reviewed: ${titleLink}`;
      attachmentText = str(obj(p, 'review'), 'content');
      break;
    case 'review_requested':
      text = `Pull request review requested: ${titleLink}`;
      break;
    case 'review_request_removed':
      text = `Pull request review request removed: ${titleLink}`;
      break;
  }
  return { text: withRepoAndSender(p, text, o), issueTitle, attachmentText, color };
}

export function issueCommentMessage(p: HookPayload, o: MessageOptions): { text: string; issueTitle: string; color: number } {
  const issue = obj(p, 'issue');
  const comment = obj(p, 'comment');
  const issueTitle = `#${num(issue, 'number')} ${str(issue, 'title')}`;
  const isPull = bool(p, 'is_pull');
  const kind = isPull ? 'pull request' : 'issue';
  const titleLink = o.markup.link(isPull ? str(comment, 'pull_request_url') : str(comment, 'issue_url'), issueTitle);
  let color = YELLOW;
  let text = '';
  switch (str(p, 'action')) {
    case 'created':
      text = `New comment on ${kind} ${titleLink}`;
      color = isPull ? GREEN_LIGHT : ORANGE_LIGHT;
      break;
    case 'edited':
      text = `Comment edited on ${kind} ${titleLink}`;
      break;
    case 'deleted':
      text = `Comment deleted on ${kind} ${titleLink}`;
      color = RED;
      break;
  }
  return { text: withRepoAndSender(p, text, o), issueTitle, color };
}

export function releaseMessage(p: HookPayload, o: MessageOptions): { text: string; color: number } {
  const release = obj(p, 'release');
  const tag = str(release, 'tag_name');
  const refLink = o.markup.link(`${str(repoOf(p), 'html_url')}/releases/tag/${pathEscapeSegments(tag)}`, tag);
  let text = '';
  let color = 0;
  switch (str(p, 'action')) {
    case 'published':
      text = `Release created: ${refLink}`;
      color = GREEN;
      break;
    case 'updated':
      text = `Release updated: ${refLink}`;
      color = YELLOW;
      break;
    case 'deleted':
      text = `Release deleted: ${refLink}`;
      color = RED;
      break;
  }
  return { text: withRepoAndSender(p, text, o), color };
}

export function wikiUrl(p: HookPayload): string {
  return `${str(repoOf(p), 'html_url')}/wiki/${pathEscape(str(p, 'page'))}`;
}

export function wikiMessage(p: HookPayload, o: MessageOptions, withCommitMessage: boolean): { text: string; color: number } {
  const pageLink = o.markup.link(wikiUrl(p), str(p, 'page'));
  let color = GREEN;
  let text = '';
  const action = str(p, 'action');
  switch (action) {
    case 'created':
      text = `New wiki page "${pageLink}"`;
      break;
    case 'edited':
      text = `Wiki page "${pageLink}" edited`;
      color = YELLOW;
      break;
    case 'deleted':
      text = `Wiki page "${pageLink}" deleted`;
      color = RED;
      break;
  }
  const comment = str(p, 'comment');
  if (action !== 'deleted' && comment !== '' && withCommitMessage) text += ` (${o.markup.text(comment)})`;
  return { text: withRepoAndSender(p, text, o), color };
}

export function packageMessage(p: HookPayload, o: MessageOptions): { text: string; color: number } {
  const pkg = obj(p, 'package');
  const refLink = o.markup.link(str(pkg, 'html_url'), `${str(pkg, 'name')}:${str(pkg, 'version')}`);
  let text = '';
  let color = 0;
  switch (str(p, 'action')) {
    case 'created':
      text = `Package created: ${refLink}`;
      color = GREEN;
      break;
    case 'deleted':
      text = `Package deleted: ${refLink}`;
      color = RED;
      break;
  }
  return { text: withSender(p, text, o), color };
}

/**
 * A finished workflow run (`ActionPayload`, Forgejo's `getActionPayloadInfo`): the run linked by its title, its
 * repository, and the ref it ran on; no sender (the run's trigger user stands for it where a format shows one).
 */
export function actionMessage(p: HookPayload, o: MessageOptions): { text: string; color: number } {
  const run = obj(p, 'run');
  const repo = obj(run, 'repository');
  const runLink = o.markup.link(str(run, 'html_url'), str(run, 'title'));
  const repoLink = o.markup.link(str(repo, 'html_url'), str(repo, 'full_name'));
  // A branch name may hold markup characters; each markup escapes it as it does other user text.
  const ref = o.markup.text(str(run, 'prettyref'));
  switch (str(p, 'action')) {
    case 'failure':
      return { text: `${runLink} Action Failed in ${repoLink} ${ref}`, color: RED };
    case 'recover':
      return { text: `${runLink} Action Recovered in ${repoLink} ${ref}`, color: GREEN };
    case 'success':
      return { text: `${runLink} Action Succeeded in ${repoLink} ${ref}`, color: GREEN };
    default:
      return { text: '', color: 0 };
  }
}

/** `1 new commit` / `N new commits`. */
export function newCommits(total: number): string {
  return total === 1 ? '1 new commit' : `${total} new commits`;
}

/** The first line of a commit message. */
export function subject(message: string): string {
  return message.split('\n')[0]!.replace(/\r$/, '');
}

/** The short id Forgejo shows (`commit.ID[:7]`). */
export function shortId(commit: JsonObject): string {
  return str(commit, 'id').slice(0, 7);
}
