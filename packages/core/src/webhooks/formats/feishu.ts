/**
 * Feishu / Lark (services/webhook/feishu.go): a plain `text` message; issues and pull requests as title, link,
 * author, operator and body lines.
 */
import {
  PLAIN_MARKUP,
  actionMessage,
  eventKind,
  goJson,
  list,
  login,
  newCommits,
  obj,
  packageMessage,
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

/** Forgejo's `getIssuesInfo`/`getPullRequestInfo`: the lines of an issue or pull request message. */
function issueLines(p: HookPayload, item: JsonObject, kind: 'Issue' | 'PullRequest'): string {
  const repo = repoOf(p);
  const action = str(p, 'action');
  const title = `[${kind}-${str(repo, 'full_name')} #${Number(item.number ?? 0)}]: ${action}\n${str(item, 'title')}`;
  const assignees = list(item, 'assignees').map(login);
  const sender = login(obj(p, 'sender'));
  let result = '';
  if (action === 'assigned') result = `${sender} assign this to ${assignees[assignees.length - 1] ?? ''}`;
  else if (action === 'unassigned') result = `${sender} unassigned this for someone`;
  else if (action === 'milestoned') result = `${str(repo, 'html_url')}/milestone/${Number(obj(item, 'milestone').id ?? 0)}`;
  const link = str(item, 'html_url');
  const by = `${kind} by ${login(obj(item, 'user'))}`;
  const operator = `Operator: ${sender}`;
  const body = str(item, 'body');
  if (assignees.length > 0) {
    const assigneeLine = `Assignees: ${assignees.join(', ')}`;
    if (action === 'assigned' || action === 'unassigned' || action === 'milestoned') {
      return `${title}\n${link}\n${by}\n${operator}\n${result}\n${assigneeLine}\n\n${body}`;
    }
    return `${title}\n${link}\n${by}\n${operator}\n${assigneeLine}\n\n${body}`;
  }
  return `${title}\n${link}\n${by}\n${operator}\n\n${body}`;
}

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
      // Forgejo leaves the commit count out of this line (an unset variable); it is written here.
      const head = `[${fullName}:${shortRefName(str(p, 'ref'))}] ${newCommits(Number(p.total_commits ?? 0))}\r\n`;
      const lines = list(p, 'commits').map((c) => {
        const author = obj(c, 'author');
        const by = 'name' in author ? ` - ${str(author, 'name')}` : '';
        return `[${shortId(c)}](${str(c, 'url')}) ${trimEnd(str(c, 'message'), '\r\n')}${by}`;
      });
      return head + lines.join('\r\n');
    }
    case 'issue':
      return issueLines(p, obj(p, 'issue'), 'Issue');
    case 'issueComment': {
      const issue = obj(p, 'issue');
      const title = `[Comment-${fullName} #${Number(issue.number ?? 0)}]: ${str(p, 'action')}\n${str(issue, 'title')}`;
      const by = `${p.is_pull === true ? 'PullRequest' : 'Issue'} by ${login(obj(issue, 'user'))}`;
      return `${title}\n${str(issue, 'html_url')}\n${by}\nOperator: ${login(obj(p, 'sender'))}\n\n${str(obj(p, 'comment'), 'body')}`;
    }
    case 'pullRequest':
      return issueLines(p, obj(p, 'pull_request'), 'PullRequest');
    case 'review': {
      const pr = obj(p, 'pull_request');
      const title = `[${fullName}] Pull request review ${reviewAction(event)} : #${Number(p.number ?? 0)} ${str(pr, 'title')}`;
      return `${title}\r\n\r\n${str(obj(p, 'review'), 'content')}`;
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

export const FEISHU_FORMATTER: HookFormatter = {
  parseConfig: () => ({}),
  format(event, payload) {
    const text = message(payload, event);
    if (text === undefined) return undefined;
    return { contentType: 'application/json', body: goJson({ msg_type: 'text', content: { text: text.trim() } }) };
  },
};
