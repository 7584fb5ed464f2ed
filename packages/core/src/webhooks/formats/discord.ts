/**
 * Discord (services/webhook/discord.go): one embed per event (title, description, link, colour, author).
 * Settings: `username`, `icon_url`.
 */
import { ValidationError } from '../../errors.js';
import {
  GREEN,
  actionMessage,
  PLAIN_MARKUP,
  RED,
  escapeMarkdown,
  eventKind,
  goJson,
  issueCommentMessage,
  issueMessage,
  list,
  login,
  newCommits,
  obj,
  packageMessage,
  pathEscapeSegments,
  pullRequestMessage,
  releaseMessage,
  repoOf,
  reviewAction,
  reviewColor,
  shortId,
  shortRefName,
  str,
  subject,
  truncateRunes,
  truncateString,
  wikiMessage,
  wikiUrl,
  type JsonObject,
} from './common.js';
import type { HookEventName, HookFormatter, HookPayload } from './types.js';

/** Discord's embed limits differ by script; Forgejo cuts descriptions at 2000 characters. */
const DESCRIPTION_LIMIT = 2000;

interface Embed {
  title: string;
  description: string;
  url: string;
  color: number;
  /** Who the embed names as its author when not the payload's sender (a run: the account that started it). */
  author?: JsonObject;
}

function embed(p: HookPayload, event: HookEventName): Embed | undefined {
  const m = { markup: PLAIN_MARKUP, withSender: false };
  const repo = repoOf(p);
  const fullName = str(repo, 'full_name');
  const html = str(repo, 'html_url');
  switch (eventKind(event)) {
    case 'create':
    case 'delete': {
      const created = eventKind(event) === 'create';
      const ref = shortRefName(str(p, 'ref'));
      return {
        title: `[${fullName}] ${str(p, 'ref_type')} ${ref} ${created ? 'created' : 'deleted'}`,
        description: '',
        url: `${html}/src/${pathEscapeSegments(ref)}`,
        color: created ? GREEN : RED,
      };
    }
    case 'fork':
      return { title: `${str(obj(p, 'forkee'), 'full_name')} is forked to ${fullName}`, description: '', url: html, color: GREEN };
    case 'push': {
      const branch = shortRefName(str(p, 'ref'));
      const total = Number(p.total_commits ?? 0);
      const commits = list(p, 'commits');
      let url = total === 1 ? str(commits[0], 'url') : str(p, 'compare_url');
      if (url === '') url = `${html}/src/${pathEscapeSegments(branch)}`;
      const lines = commits.map((c: JsonObject) => {
        // The subject only, escaped, and cut at 50 characters as GitHub does.
        const message = truncateRunes(escapeMarkdown(subject(str(c, 'message'))), 50, 47);
        return `[${shortId(c)}](${str(c, 'url')}) ${message} - ${escapeMarkdown(str(obj(c, 'author'), 'name'))}`;
      });
      return { title: `[${fullName}:${branch}] ${newCommits(total)}`, description: lines.join('\n'), url, color: GREEN };
    }
    case 'issue': {
      const info = issueMessage(p, m);
      return { title: info.text, description: info.attachmentText, url: str(obj(p, 'issue'), 'html_url'), color: info.color };
    }
    case 'issueComment': {
      const info = issueCommentMessage(p, m);
      const comment = obj(p, 'comment');
      return { title: info.text, description: str(comment, 'body'), url: str(comment, 'html_url'), color: info.color };
    }
    case 'pullRequest': {
      const info = pullRequestMessage(p, m);
      return { title: info.text, description: info.attachmentText, url: str(obj(p, 'pull_request'), 'html_url'), color: info.color };
    }
    case 'review': {
      const pr = obj(p, 'pull_request');
      if (str(p, 'action') !== 'reviewed') return { title: '', description: '', url: str(pr, 'html_url'), color: 0 };
      return {
        title: `[${fullName}] Pull request review ${reviewAction(event)}: #${Number(p.number ?? 0)} ${str(pr, 'title')}`,
        description: str(obj(p, 'review'), 'content'),
        url: str(pr, 'html_url'),
        color: reviewColor(event),
      };
    }
    case 'repository':
      switch (str(p, 'action')) {
        case 'created':
          return { title: `[${fullName}] Repository created`, description: '', url: html, color: GREEN };
        case 'deleted':
          return { title: `[${fullName}] Repository deleted`, description: '', url: '', color: RED };
        default:
          return { title: '', description: '', url: '', color: 0 };
      }
    case 'release': {
      const info = releaseMessage(p, m);
      const release = obj(p, 'release');
      return { title: info.text, description: str(release, 'body'), url: str(release, 'html_url'), color: info.color };
    }
    case 'wiki': {
      const info = wikiMessage(p, m, false);
      return { title: info.text, description: str(p, 'action') !== 'deleted' ? str(p, 'comment') : '', url: wikiUrl(p), color: info.color };
    }
    case 'package': {
      const info = packageMessage(p, m);
      return { title: info.text, description: '', url: str(obj(p, 'package'), 'html_url'), color: info.color };
    }
    case 'action': {
      const info = actionMessage(p, m);
      const run = obj(p, 'run');
      return { title: info.text, description: '', url: str(run, 'html_url'), color: info.color, author: obj(run, 'trigger_user') };
    }
    default:
      return undefined;
  }
}

export const DISCORD_FORMATTER: HookFormatter = {
  parseConfig(config) {
    const username = config.username ?? '';
    const iconUrl = config.icon_url ?? '';
    if (Array.from(username).length > 80) throw new ValidationError('', 'Discord username must be at most 80 characters');
    if (Array.from(iconUrl).length > 2048) throw new ValidationError('', 'Discord icon URL must be at most 2048 characters');
    return { username, icon_url: iconUrl };
  },
  format(event, payload, hook) {
    const e = embed(payload, event);
    if (!e) return undefined;
    const sender = e.author ?? obj(payload, 'sender');
    const body: Record<string, unknown> = {
      username: typeof hook.meta.username === 'string' ? hook.meta.username : '',
    };
    const avatar = typeof hook.meta.icon_url === 'string' ? hook.meta.icon_url : '';
    if (avatar !== '') body.avatar_url = avatar;
    body.embeds = [
      {
        title: truncateRunes(e.title, 256, 253),
        description: truncateString(truncateRunes(e.description, 4096, 4093), DESCRIPTION_LIMIT),
        url: e.url,
        color: e.color,
        author: { name: login(sender), url: str(sender, 'html_url'), icon_url: str(sender, 'avatar_url') },
      },
    ];
    return { contentType: 'application/json', body: goJson(body) };
  },
};
