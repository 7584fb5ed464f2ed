/**
 * DingTalk (services/webhook/dingtalk.go): an `actionCard` (markdown text, one button opening the link in the
 * browser); a deleted repository is a plain `text` message.
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
  pathEscapeSegments,
  pullRequestMessage,
  queryEscape,
  releaseMessage,
  repoOf,
  reviewAction,
  shortId,
  shortRefName,
  str,
  wikiMessage,
  wikiUrl,
} from './common.js';
import type { HookEventName, HookFormatter, HookPayload } from './types.js';
import { trimEnd } from '../../text.js';

interface DingtalkPayload {
  msgtype: string;
  text: { content: string };
  actionCard: { text: string; title: string; hideAvatar: string; singleTitle: string; singleURL: string };
}

function actionCard(title: string, text: string, singleTitle: string, singleUrl: string): DingtalkPayload {
  return {
    msgtype: 'actionCard',
    text: { content: '' },
    actionCard: {
      text: text.trim(),
      title: title.trim(),
      hideAvatar: '0',
      singleTitle,
      // This scheme opens the link in the browser rather than inside DingTalk, where private pages fail.
      singleURL: `dingtalk://dingtalkclient/page/link?pc_slide=false&url=${queryEscape(singleUrl)}`,
    },
  };
}

function emptyCard(): DingtalkPayload {
  return { msgtype: '', text: { content: '' }, actionCard: { text: '', title: '', hideAvatar: '', singleTitle: '', singleURL: '' } };
}

function payloadOf(p: HookPayload, event: HookEventName): DingtalkPayload | undefined {
  const m = { markup: PLAIN_MARKUP, withSender: true };
  const repo = repoOf(p);
  const fullName = str(repo, 'full_name');
  const html = str(repo, 'html_url');
  switch (eventKind(event)) {
    case 'create':
    case 'delete': {
      const ref = shortRefName(str(p, 'ref'));
      const title = `[${fullName}] ${str(p, 'ref_type')} ${ref} ${eventKind(event) === 'create' ? 'created' : 'deleted'}`;
      return actionCard(title, title, `view ref ${ref}`, `${html}/src/${pathEscapeSegments(ref)}`);
    }
    case 'fork': {
      const title = `${str(obj(p, 'forkee'), 'full_name')} is forked to ${fullName}`;
      return actionCard(title, title, `view forked repo ${fullName}`, html);
    }
    case 'push': {
      const branch = shortRefName(str(p, 'ref'));
      const total = Number(p.total_commits ?? 0);
      const commits = list(p, 'commits');
      let link = total === 1 ? str(commits[0], 'url') : str(p, 'compare_url');
      if (link === '') link = `${html}/src/${pathEscapeSegments(branch)}`;
      const lines = commits.map((c) => {
        const author = obj(c, 'author');
        const by = 'name' in author ? ` - ${escapeMarkdown(str(author, 'name'))}` : '';
        return `[${shortId(c)}](${str(c, 'url')}) ${escapeMarkdown(trimEnd(str(c, 'message'), '\r\n'))}${by}`;
      });
      return actionCard(`[${fullName}:${branch}] ${newCommits(total)}`, lines.join('\r\n'), total === 1 ? 'view commit' : 'view commits', link);
    }
    case 'issue': {
      const info = issueMessage(p, m);
      return actionCard(info.issueTitle, `${info.text}\r\n\r\n${info.attachmentText}`, 'view issue', str(obj(p, 'issue'), 'html_url'));
    }
    case 'issueComment': {
      const info = issueCommentMessage(p, m);
      const comment = obj(p, 'comment');
      return actionCard(info.issueTitle, `${info.text}\r\n\r\n${str(comment, 'body')}`, 'view issue comment', str(comment, 'html_url'));
    }
    case 'pullRequest': {
      const info = pullRequestMessage(p, m);
      return actionCard(info.issueTitle, `${info.text}\r\n\r\n${info.attachmentText}`, 'view pull request', str(obj(p, 'pull_request'), 'html_url'));
    }
    case 'review': {
      const pr = obj(p, 'pull_request');
      const reviewed = str(p, 'action') === 'reviewed';
      const title = reviewed ? `[${fullName}] Pull request review ${reviewAction(event)} : #${Number(p.number ?? 0)} ${str(pr, 'title')}` : '';
      const text = reviewed ? str(obj(p, 'review'), 'content') : '';
      return actionCard(title, `${title}\r\n\r\n${text}`, 'view pull request', str(pr, 'html_url'));
    }
    case 'repository':
      switch (str(p, 'action')) {
        case 'created': {
          const title = `[${fullName}] Repository created`;
          return actionCard(title, title, 'view repository', html);
        }
        case 'deleted':
          return { ...emptyCard(), msgtype: 'text', text: { content: `[${fullName}] Repository deleted` } };
        default:
          return emptyCard();
      }
    case 'release': {
      const { text } = releaseMessage(p, m);
      return actionCard(text, text, 'view release', str(obj(p, 'release'), 'html_url'));
    }
    case 'wiki': {
      const { text } = wikiMessage(p, m, true);
      return actionCard(text, text, 'view wiki', wikiUrl(p));
    }
    case 'package': {
      const { text } = packageMessage(p, m);
      return actionCard(text, text, 'view package', str(obj(p, 'package'), 'html_url'));
    }
    case 'action': {
      const { text } = actionMessage(p, m);
      return actionCard(text, text, 'view run', str(obj(p, 'run'), 'html_url'));
    }
    default:
      return undefined;
  }
}

export const DINGTALK_FORMATTER: HookFormatter = {
  parseConfig: () => ({}),
  format(event, payload) {
    const body = payloadOf(payload, event);
    return body && { contentType: 'application/json', body: goJson(body) };
  },
};
