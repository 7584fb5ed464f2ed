/**
 * Matrix (services/webhook/matrix.go): an `m.room.message` PUT to the room's send URL with a transaction id.
 * The id is the SHA-1 of the body, as Forgejo's: the body is fixed when the event happens, so every retry of a
 * delivery reuses the id and the homeserver stores the message once. `formatted_body` is HTML with user text
 * escaped; `body` is the same text with links as `[text](url)`.
 * Settings: `homeserver_url` (or `home_server_url`), `room_id`, `message_type` (`1`/`m.notice`, `2`/`m.text`).
 */
import { createHash } from 'node:crypto';
import { ValidationError } from '../../errors.js';
import {
  HTML_MARKUP,
  escapeHtml,
  actionMessage,
  eventKind,
  goJson,
  issueCommentMessage,
  issueMessage,
  list,
  login,
  obj,
  pathEscape,
  pathEscapeSegments,
  pullRequestMessage,
  releaseMessage,
  repoOf,
  reviewAction,
  shortId,
  shortRefName,
  str,
  wikiMessage,
  type JsonObject,
} from './common.js';
import type { HookEventName, HookFormatter, HookPayload } from './types.js';
import { trimEnd } from '../../text.js';

const MESSAGE_TYPES: ReadonlyMap<string, number> = new Map([
  ['1', 1],
  ['m.notice', 1],
  ['2', 2],
  ['m.text', 2],
]);
const MESSAGE_TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [1, 'm.notice'],
  [2, 'm.text'],
]);

/** Forgejo's `MatrixLinkToRef`. */
function linkToRef(repoUrl: string, ref: string): string {
  const name = shortRefName(ref);
  const kind = ref.startsWith('refs/heads/') ? 'branch' : ref.startsWith('refs/tags/') ? 'tag' : 'commit';
  return HTML_MARKUP.link(`${repoUrl}/src/${kind}/${pathEscapeSegments(name)}`, name);
}

function message(p: HookPayload, event: HookEventName): { html: string; commits?: JsonObject[] } | undefined {
  const m = { markup: HTML_MARKUP, withSender: true };
  const repo = repoOf(p);
  const fullName = escapeHtml(str(repo, 'full_name'));
  const html = str(repo, 'html_url');
  const sender = escapeHtml(login(obj(p, 'sender')));
  switch (eventKind(event)) {
    case 'create':
      return { html: `[${fullName}:${linkToRef(html, str(p, 'ref'))}] ${escapeHtml(str(p, 'ref_type'))} created by ${sender}` };
    case 'delete': {
      const repoLink = HTML_MARKUP.link(html, str(repo, 'full_name'));
      return { html: `[${repoLink}:${escapeHtml(shortRefName(str(p, 'ref')))}] ${escapeHtml(str(p, 'ref_type'))} deleted by ${sender}` };
    }
    case 'fork': {
      const forkee = obj(p, 'forkee');
      return { html: `${HTML_MARKUP.link(str(forkee, 'html_url'), str(forkee, 'full_name'))} is forked to ${HTML_MARKUP.link(html, str(repo, 'full_name'))}` };
    }
    case 'push': {
      const total = Number(p.total_commits ?? 0);
      const desc = total === 1 ? '1 commit' : `${total} commits`;
      const pusher = escapeHtml(login(obj(p, 'pusher')));
      const commits = list(p, 'commits');
      const lines = commits.map(
        (c) => `${HTML_MARKUP.link(str(c, 'url'), shortId(c))}: ${escapeHtml(str(c, 'message'))} - ${escapeHtml(str(obj(c, 'author'), 'name'))}`,
      );
      const text = `[${fullName}] ${pusher} pushed ${desc} to ${escapeHtml(shortRefName(str(p, 'ref')))}:<br>${lines.join('<br>')}`;
      return { html: text, commits };
    }
    case 'issue':
      return { html: issueMessage(p, m).text };
    case 'issueComment':
      return { html: issueCommentMessage(p, m).text };
    case 'pullRequest':
      return { html: pullRequestMessage(p, m).text };
    case 'review': {
      if (str(p, 'action') !== 'reviewed') return { html: '' };
      const pr = obj(p, 'pull_request');
      const titleLink = HTML_MARKUP.link(str(pr, 'html_url'), `#${Number(p.number ?? 0)} ${str(pr, 'title')}`);
      return { html: `[${fullName}] Pull request review ${reviewAction(event)}: ${titleLink} by ${sender}` };
    }
    case 'repository': {
      const repoLink = HTML_MARKUP.link(html, str(repo, 'full_name'));
      const action = str(p, 'action');
      return { html: action === 'created' ? `[${repoLink}] Repository created by ${sender}` : action === 'deleted' ? `[${repoLink}] Repository deleted by ${sender}` : '' };
    }
    case 'release':
      return { html: releaseMessage(p, m).text };
    case 'wiki':
      return { html: wikiMessage(p, m, true).text };
    case 'package': {
      const pkg = obj(p, 'package');
      const link = HTML_MARKUP.link(str(pkg, 'html_url'), str(pkg, 'name'));
      const action = str(p, 'action');
      return { html: action === 'created' ? `[${link}] Package published by ${sender}` : action === 'deleted' ? `[${link}] Package deleted by ${sender}` : '' };
    }
    case 'action':
      return { html: actionMessage(p, m).text };
    default:
      return undefined;
  }
}

const ENTITIES: ReadonlyMap<string, string> = new Map([
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&#34;', '"'],
  ['&#39;', "'"],
  ['&amp;', '&'],
]);

function unescapeHtml(s: string): string {
  return s.replace(/&(?:lt|gt|amp|#34|#39);/g, (e) => ENTITIES.get(e) ?? e);
}

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/g;

/**
 * Links as `[text](url)`, as `/<a [^>]*?href="([^">]*?)">(.*?)<\/a>/g` wrote them: the tag ends at its first `>`,
 * right after the quote closing an `href="…"`; the text runs to the first `</a>`, on the same line. A scan whose
 * searches only move forward: the pattern ran from every `<a ` to the end of its line, quadratic on many of them.
 */
function markdownLinks(html: string): string {
  const next = (what: string, from: number) => {
    const found = html.indexOf(what, from);
    return found === -1 ? html.length : found;
  };
  let out = '';
  let kept = 0;
  let tagEnd = -1;
  let previousTagEnd = -1;
  let quote = -1;
  let closing = -1;
  let lineEnd = -1;
  for (let at = html.indexOf('<a '); at !== -1; ) {
    if (tagEnd < at + 3) {
      previousTagEnd = tagEnd;
      tagEnd = next('>', at + 3);
      // The quote opening the url: the last one before the closing `"`, after the previous tag's end.
      quote = tagEnd - 2;
      while (quote > previousTagEnd && html[quote] !== '"') quote--;
    }
    if (tagEnd < html.length && html[tagEnd - 1] === '"' && quote > previousTagEnd && quote - 5 >= at + 3 && html.startsWith('href="', quote - 5)) {
      if (closing < tagEnd + 1) closing = next('</a>', tagEnd + 1);
      if (lineEnd < tagEnd + 1) {
        LINE_TERMINATOR.lastIndex = tagEnd + 1;
        lineEnd = LINE_TERMINATOR.exec(html)?.index ?? html.length;
      }
      if (closing < html.length && closing <= lineEnd) {
        out += `${html.slice(kept, at)}[${html.slice(tagEnd + 1, closing)}](${html.slice(quote + 1, tagEnd - 1)})`;
        kept = closing + 4;
        at = html.indexOf('<a ', kept);
        continue;
      }
    }
    at = html.indexOf('<a ', at + 1);
  }
  return kept === 0 ? html : out + html.slice(kept);
}

/** The plain `body`: links as `[text](url)`, `<br>` as new lines, entities decoded. */
export function matrixPlainBody(html: string): string {
  return unescapeHtml(markdownLinks(html).replace(/<br>/g, '\n'));
}

function parseMessageType(config: Readonly<Record<string, string>>): number {
  const given = config.message_type;
  if (given === undefined || given === '') return 1;
  const type = MESSAGE_TYPES.get(given);
  if (type === undefined) throw new ValidationError('', 'Invalid matrix message type');
  return type;
}

export const MATRIX_FORMATTER: HookFormatter = {
  parseConfig(config) {
    return {
      homeserver_url: config.homeserver_url ?? config.home_server_url ?? '',
      room_id: config.room_id ?? '',
      message_type: parseMessageType(config),
    };
  },
  format(event, payload, hook) {
    const msg = message(payload, event);
    if (!msg) return undefined;
    const type = typeof hook.meta.message_type === 'number' ? hook.meta.message_type : 1;
    const body: Record<string, unknown> = {
      body: matrixPlainBody(msg.html),
      msgtype: MESSAGE_TYPE_NAMES.get(type) ?? 'm.notice',
      format: 'org.matrix.custom.html',
      formatted_body: msg.html,
    };
    if (msg.commits && msg.commits.length > 0) body['io.gitea.commits'] = msg.commits;
    const json = goJson(body);
    const txnId = createHash('sha1').update(json).digest('hex');
    // Forgejo's form stores the room's send URL as the hook URL; a hook made through the API with only the
    // homeserver and room in its settings gets that URL built here.
    const homeserver = typeof hook.meta.homeserver_url === 'string' ? hook.meta.homeserver_url : '';
    const room = typeof hook.meta.room_id === 'string' ? hook.meta.room_id : '';
    const sendUrl =
      !hook.url.includes('/_matrix/') && homeserver !== '' && room !== ''
        ? `${trimEnd(homeserver, '/')}/_matrix/client/v3/rooms/${pathEscape(room)}/send/m.room.message`
        : hook.url;
    return { method: 'PUT', url: `${sendUrl}/${txnId}`, contentType: 'application/json', body: json };
  },
};
