/**
 * Slack (services/webhook/slack.go): `text` in Slack's mrkdwn with `<url|text>` links and names in inline code,
 * commits and bodies as an attachment. Settings: `channel` (required), `username`, `icon_url`, `color`.
 */
import { BadRequestError, ValidationError } from '../../errors.js';
import {
  actionMessage,
  escapeSlack,
  eventKind,
  goJson,
  hexColor,
  issueCommentMessage,
  issueMessage,
  list,
  login,
  newCommits,
  obj,
  packageMessage,
  pullRequestMessage,
  refUrl,
  releaseMessage,
  repoOf,
  reviewAction,
  shortId,
  shortRefName,
  str,
  subject,
  wikiMessage,
  type Markup,
} from './common.js';
import type { HookFormatter, HookPayload, HookRequestContent } from './types.js';

/** Slack's conversation names (lower-case letters, digits, `-`, `_`, at most 80), with an optional `#`. */
const SLACK_CHANNEL = /^#?[a-z0-9_-]{1,80}$/;

export function isValidSlackChannel(name: string): boolean {
  return SLACK_CHANNEL.test(name);
}

export const SLACK_MARKUP: Markup = {
  link: (url, text) => `<${url}|${escapeSlack(text)}>`,
  // Inline code, so a name does not notify its owner.
  name: (name) => `\`${escapeSlack(name.replace(/`/g, "'"))}\``,
  text: escapeSlack,
};

interface SlackMeta {
  channel: string;
  username: string;
  icon_url: string;
  color: string;
}

interface SlackAttachment {
  fallback: string;
  color: string;
  title: string;
  title_link: string;
  text: string;
}

function metaOf(meta: Record<string, unknown>): SlackMeta {
  const get = (k: string) => (typeof meta[k] === 'string' ? (meta[k] as string) : '');
  return { channel: get('channel'), username: get('username'), icon_url: get('icon_url'), color: get('color') };
}

function attachment(color: string, title: string, titleLink: string, text: string): SlackAttachment {
  return { fallback: '', color, title, title_link: titleLink, text };
}

function message(p: HookPayload, event: Parameters<HookFormatter['format']>[0], meta: SlackMeta): { text: string; attachments: SlackAttachment[] | null } | undefined {
  const m = { markup: SLACK_MARKUP, withSender: true };
  const repo = repoOf(p);
  const sender = SLACK_MARKUP.name(login(obj(p, 'sender')));
  switch (eventKind(event)) {
    case 'create': {
      const ref = str(p, 'ref');
      const refLink = SLACK_MARKUP.link(refUrl(str(repo, 'html_url'), ref), shortRefName(ref));
      return { text: `[${escapeSlack(str(repo, 'full_name'))}:${refLink}] ${str(p, 'ref_type')} created by ${sender}`, attachments: null };
    }
    case 'delete': {
      const repoLink = SLACK_MARKUP.link(str(repo, 'html_url'), str(repo, 'full_name'));
      return { text: `[${repoLink}:${escapeSlack(shortRefName(str(p, 'ref')))}] ${str(p, 'ref_type')} deleted by ${sender}`, attachments: null };
    }
    case 'fork': {
      const forkee = obj(p, 'forkee');
      const base = SLACK_MARKUP.link(str(forkee, 'html_url'), str(forkee, 'full_name'));
      const fork = SLACK_MARKUP.link(str(repo, 'html_url'), str(repo, 'full_name'));
      return { text: `${base} is forked to ${fork}`, attachments: null };
    }
    case 'push': {
      const desc = newCommits(Number(p.total_commits ?? 0));
      const compare = str(p, 'compare_url');
      const commitString = compare ? SLACK_MARKUP.link(compare, desc) : desc;
      const branchLink = SLACK_MARKUP.link(refUrl(str(repo, 'html_url'), str(p, 'ref')), shortRefName(str(p, 'ref')));
      const pusher = SLACK_MARKUP.name(login(obj(p, 'pusher')));
      const text = `[${escapeSlack(str(repo, 'full_name'))}:${branchLink}] ${commitString} pushed by ${pusher}`;
      const lines = list(p, 'commits').map(
        (c) => `${SLACK_MARKUP.link(str(c, 'url'), shortId(c))}: ${escapeSlack(subject(str(c, 'message')))} - ${SLACK_MARKUP.name(str(obj(c, 'author'), 'name'))}`,
      );
      return { text, attachments: [attachment(meta.color, str(repo, 'html_url'), str(repo, 'html_url'), lines.join('\n'))] };
    }
    case 'issue': {
      const info = issueMessage(p, m);
      if (info.attachmentText === '') return { text: info.text, attachments: null };
      const a = attachment(hexColor(info.color), escapeSlack(info.issueTitle), str(obj(p, 'issue'), 'html_url'), escapeSlack(info.attachmentText));
      return { text: info.text, attachments: [a] };
    }
    case 'issueComment': {
      const info = issueCommentMessage(p, m);
      const comment = obj(p, 'comment');
      const a = attachment(hexColor(info.color), escapeSlack(info.issueTitle), str(comment, 'html_url'), escapeSlack(str(comment, 'body')));
      return { text: info.text, attachments: [a] };
    }
    case 'pullRequest': {
      const info = pullRequestMessage(p, m);
      if (info.attachmentText === '') return { text: info.text, attachments: null };
      const pr = obj(p, 'pull_request');
      const a = attachment(hexColor(info.color), escapeSlack(info.issueTitle), str(pr, 'html_url'), escapeSlack(info.attachmentText));
      return { text: info.text, attachments: [a] };
    }
    case 'review': {
      if (str(p, 'action') !== 'reviewed') return { text: '', attachments: null };
      const pr = obj(p, 'pull_request');
      const index = Number(p.number ?? 0);
      const title = escapeSlack(`#${index} ${str(pr, 'title')}`);
      const link = `${str(repo, 'html_url')}/pulls/${index}`;
      return {
        text: `[${escapeSlack(str(repo, 'full_name'))}] Pull request review ${reviewAction(event)}: [${title}](${link}) by ${sender}`,
        attachments: null,
      };
    }
    case 'repository': {
      const repoLink = SLACK_MARKUP.link(str(repo, 'html_url'), str(repo, 'full_name'));
      const action = str(p, 'action');
      const text = action === 'created' ? `[${repoLink}] Repository created by ${sender}` : action === 'deleted' ? `[${repoLink}] Repository deleted by ${sender}` : '';
      return { text, attachments: null };
    }
    case 'release':
      return { text: releaseMessage(p, m).text, attachments: null };
    case 'wiki':
      return { text: wikiMessage(p, m, true).text, attachments: null };
    case 'package':
      return { text: packageMessage(p, m).text, attachments: null };
    case 'action':
      return { text: actionMessage(p, m).text, attachments: null };
    default:
      return undefined;
  }
}

export const SLACK_FORMATTER: HookFormatter = {
  parseConfig(config) {
    const channel = config.channel;
    if (channel === undefined) throw new ValidationError('', 'Missing config option: channel');
    const trimmed = channel.trim();
    if (!isValidSlackChannel(trimmed)) throw new BadRequestError('Invalid slack channel name');
    const meta: SlackMeta = {
      channel: trimmed,
      username: config.username ?? '',
      icon_url: config.icon_url ?? '',
      color: config.color ?? '',
    };
    return { ...meta };
  },
  format(event, payload, hook): HookRequestContent | undefined {
    const meta = metaOf(hook.meta);
    const msg = message(payload, event, meta);
    if (!msg) return undefined;
    const body = {
      channel: meta.channel,
      text: msg.text,
      username: meta.username,
      icon_url: meta.icon_url,
      unfurl_links: 0,
      link_names: 0,
      attachments: msg.attachments,
    };
    return { contentType: 'application/json', body: goJson(body) };
  },
};
