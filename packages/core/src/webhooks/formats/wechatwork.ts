/**
 * WeChat Work (services/webhook/wechatwork.go): a `markdown` message with WeChat Work's `<font color>` tags.
 * Commit subjects are markdown-escaped so their `*`, `<`, `[` stay text.
 */
import {
  PLAIN_MARKUP,
  escapeMarkdown,
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

function message(p: HookPayload, event: HookEventName): string | undefined {
  const m = { markup: PLAIN_MARKUP, withSender: true };
  const repo = repoOf(p);
  const fullName = str(repo, 'full_name');
  switch (eventKind(event)) {
    case 'create':
      return `[${fullName}] ${str(p, 'ref_type')} ${shortRefName(str(p, 'ref'))} created`;
    case 'delete':
      return `[${fullName}] ${str(p, 'ref_type')} ${shortRefName(str(p, 'ref'))} deleted`;
    case 'fork':
      return `${str(obj(p, 'forkee'), 'full_name')} is forked to ${fullName}`;
    case 'push': {
      // Forgejo leaves the commit count out of the heading (an unset variable); it is written here.
      const title = `# ${fullName}:${shortRefName(str(p, 'ref'))} <font color="warning">  ${newCommits(Number(p.total_commits ?? 0))}  </font>`;
      const lines = list(p, 'commits').map((c) => {
        const author = obj(c, 'author');
        const by = 'name' in author ? `Author: ${escapeMarkdown(str(author, 'name'))}` : '';
        const text = escapeMarkdown(str(c, 'message')).replace(/\n\n/g, '\r\n');
        return ` > [${shortId(c)}](${str(c, 'url')}) \r\n ><font color="info">${text}</font> \n ><font color="warning">${by}</font>`;
      });
      return `${title}\r\n\r\n${lines.join('\n')}`;
    }
    case 'issue': {
      const info = issueMessage(p, m);
      const url = str(obj(p, 'issue'), 'html_url');
      return ` ><font color="info">${info.text}</font>\n >${info.attachmentText} \n ><font color="warning"> ${info.issueTitle}</font> \n [${url}](${url})`;
    }
    case 'issueComment': {
      const info = issueCommentMessage(p, m);
      const comment = obj(p, 'comment');
      const url = str(comment, 'html_url');
      return ` ><font color="info">${info.text}</font>\n >${str(comment, 'body')} \n ><font color="warning">${info.issueTitle}</font> \n [${url}](${url})`;
    }
    case 'pullRequest': {
      const info = pullRequestMessage(p, m);
      return `> <font color="info"> ${info.text} </font> \r\n > <font color="comment">${info.issueTitle} </font> \r\n > <font color="comment">${info.attachmentText} </font> \r\n`;
    }
    case 'review': {
      const reviewed = str(p, 'action') === 'reviewed';
      const pr = obj(p, 'pull_request');
      const title = reviewed ? `[${fullName}] Pull request review ${reviewAction(event)} : #${Number(p.number ?? 0)} ${str(pr, 'title')}` : '';
      return `# ${title}\r\n\r\n >${reviewed ? str(obj(p, 'review'), 'content') : ''}`;
    }
    case 'repository':
      switch (str(p, 'action')) {
        case 'created':
          return `[${fullName}] Repository created`;
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

export const WECHATWORK_FORMATTER: HookFormatter = {
  parseConfig: () => ({}),
  format(event, payload) {
    const content = message(payload, event);
    if (content === undefined) return undefined;
    const body = {
      msgtype: 'markdown',
      text: { content: '', mentioned_list: null, mentioned_mobile_list: null },
      markdown: { content },
    };
    return { contentType: 'application/json', body: goJson(body) };
  },
};
