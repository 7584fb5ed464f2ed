/**
 * Telegram (services/webhook/telegram.go): `sendMessage` with HTML parse mode. User text is HTML-escaped (Forgejo
 * sanitizes instead), so a `<` in a commit message cannot break Telegram's parser. The bot token, chat and
 * thread are in the hook's URL (`https://api.telegram.org/bot<token>/sendMessage?chat_id=…&message_thread_id=…`),
 * as Forgejo's form builds it; the API takes that URL as given.
 */
import {
  HTML_MARKUP,
  escapeHtml,
  actionMessage,
  eventKind,
  goJson,
  issueCommentMessage,
  issueMessage,
  list,
  newCommits,
  obj,
  packageMessage,
  pullRequestMessage,
  releaseMessage,
  repoOf,
  reviewAction,
  shortId,
  shortRefName,
  str,
  wikiMessage,
} from './common.js';
import type { HookEventName, HookFormatter, HookPayload } from './types.js';
import { trimEnd } from '../../text.js';

function message(p: HookPayload, event: HookEventName): string | undefined {
  const m = { markup: HTML_MARKUP, withSender: true };
  const repo = repoOf(p);
  const fullName = escapeHtml(str(repo, 'full_name'));
  const html = str(repo, 'html_url');
  switch (eventKind(event)) {
    case 'create':
    case 'delete': {
      const ref = shortRefName(str(p, 'ref'));
      const verb = eventKind(event) === 'create' ? 'created' : 'deleted';
      return `[${fullName}] ${escapeHtml(str(p, 'ref_type'))} ${HTML_MARKUP.link(`${html}/src/${ref}`, ref)} ${verb}`;
    }
    case 'fork':
      return `${escapeHtml(str(obj(p, 'forkee'), 'full_name'))} is forked to ${HTML_MARKUP.link(html, str(repo, 'full_name'))}`;
    case 'push': {
      const title = `[${fullName}:${escapeHtml(shortRefName(str(p, 'ref')))}] ${newCommits(Number(p.total_commits ?? 0))}`;
      const lines = list(p, 'commits').map((c) => {
        const author = obj(c, 'author');
        const by = 'name' in author ? ` - ${escapeHtml(str(author, 'name'))}` : '';
        return `[${HTML_MARKUP.link(str(c, 'url'), shortId(c))}] ${escapeHtml(trimEnd(str(c, 'message'), '\r\n'))}${by}`;
      });
      return `${title}\n${lines.join('\n')}`;
    }
    case 'issue': {
      const info = issueMessage(p, m);
      return `${info.text}\n\n${escapeHtml(info.attachmentText)}`;
    }
    case 'issueComment':
      return `${issueCommentMessage(p, m).text}\n${escapeHtml(str(obj(p, 'comment'), 'body'))}`;
    case 'pullRequest': {
      const info = pullRequestMessage(p, m);
      return `${info.text}\n${escapeHtml(info.attachmentText)}`;
    }
    case 'review': {
      if (str(p, 'action') !== 'reviewed') return '\n';
      const pr = obj(p, 'pull_request');
      const text = `[${fullName}] Pull request review ${reviewAction(event)}: #${Number(p.number ?? 0)} ${escapeHtml(str(pr, 'title'))}`;
      return `${text}\n${escapeHtml(str(obj(p, 'review'), 'content'))}`;
    }
    case 'repository':
      switch (str(p, 'action')) {
        case 'created':
          return `[${HTML_MARKUP.link(html, str(repo, 'full_name'))}] Repository created`;
        case 'deleted':
          return `[${fullName}] Repository deleted`;
        default:
          return undefined;
      }
    case 'release':
      return releaseMessage(p, m).text;
    case 'wiki':
      return wikiMessage(p, m, true).text;
    case 'package':
      return packageMessage(p, m).text;
    case 'action':
      return actionMessage(p, m).text;
    default:
      return undefined;
  }
}

export const TELEGRAM_FORMATTER: HookFormatter = {
  parseConfig: () => ({}),
  format(event, payload) {
    const text = message(payload, event);
    if (text === undefined) return undefined;
    const body = { text: text.trim(), parse_mode: 'HTML', disable_web_page_preview: true };
    return { contentType: 'application/json', body: goJson(body) };
  },
};
