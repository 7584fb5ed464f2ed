/**
 * Microsoft Teams (services/webhook/msteams.go): an Office 365 connector `MessageCard` with the sender as the
 * section's activity, facts (repository, and one per event), and a "View in Forgejo" button.
 */
import {
  GREEN,
  actionMessage,
  PLAIN_MARKUP,
  YELLOW,
  escapeMarkdown,
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
  wikiMessage,
  wikiUrl,
  type JsonObject,
} from './common.js';
import type { HookEventName, HookFormatter, HookPayload } from './types.js';

interface Fact {
  name: string;
  value: string;
}

interface Card {
  title: string;
  text: string;
  target: string;
  color: number;
  fact?: Fact;
  /** The repository fact (absent only when the payload has no repository). */
  repo: JsonObject;
  /** The section's activity when not the payload's sender (a run: the account that started it). */
  sender?: JsonObject;
}

function card(p: HookPayload, event: HookEventName): Card | undefined {
  const m = { markup: PLAIN_MARKUP, withSender: false };
  const repo = repoOf(p);
  const fullName = str(repo, 'full_name');
  const html = str(repo, 'html_url');
  switch (eventKind(event)) {
    case 'create':
    case 'delete': {
      const created = eventKind(event) === 'create';
      const ref = shortRefName(str(p, 'ref'));
      const refType = str(p, 'ref_type');
      return {
        title: `[${fullName}] ${refType} ${ref} ${created ? 'created' : 'deleted'}`,
        text: '',
        target: `${html}/src/${pathEscapeSegments(ref)}`,
        color: created ? GREEN : YELLOW,
        fact: { name: `${refType}:`, value: ref },
        repo,
      };
    }
    case 'fork': {
      const forkee = str(obj(p, 'forkee'), 'full_name');
      return { title: `${forkee} is forked to ${fullName}`, text: '', target: html, color: GREEN, fact: { name: 'Forkee:', value: forkee }, repo };
    }
    case 'push': {
      const branch = shortRefName(str(p, 'ref'));
      const total = Number(p.total_commits ?? 0);
      const commits = list(p, 'commits');
      let target = total === 1 ? str(commits[0], 'url') : str(p, 'compare_url');
      if (target === '') target = `${html}/src/${pathEscapeSegments(branch)}`;
      const lines = commits.map(
        (c) => `[${shortId(c)}](${str(c, 'url')}) ${escapeMarkdown(subject(str(c, 'message')))} - ${escapeMarkdown(str(obj(c, 'author'), 'name'))}`,
      );
      return {
        title: `[${fullName}:${branch}] ${newCommits(total)}`,
        text: lines.join('\n\n'),
        target,
        color: GREEN,
        fact: { name: 'Commit count:', value: String(total) },
        repo,
      };
    }
    case 'issue': {
      const info = issueMessage(p, m);
      const issue = obj(p, 'issue');
      return { title: info.text, text: info.attachmentText, target: str(issue, 'html_url'), color: info.color, fact: { name: 'Issue #:', value: String(Number(issue.id ?? 0)) }, repo };
    }
    case 'issueComment': {
      const info = issueCommentMessage(p, m);
      const comment = obj(p, 'comment');
      const issue = obj(p, 'issue');
      return { title: info.text, text: str(comment, 'body'), target: str(comment, 'html_url'), color: info.color, fact: { name: 'Issue #:', value: String(Number(issue.id ?? 0)) }, repo };
    }
    case 'pullRequest': {
      const info = pullRequestMessage(p, m);
      const pr = obj(p, 'pull_request');
      return { title: info.text, text: info.attachmentText, target: str(pr, 'html_url'), color: info.color, fact: { name: 'Pull request #:', value: String(Number(pr.id ?? 0)) }, repo };
    }
    case 'review': {
      const pr = obj(p, 'pull_request');
      const reviewed = str(p, 'action') === 'reviewed';
      return {
        title: reviewed ? `[${fullName}] Pull request review ${reviewAction(event)}: #${Number(p.number ?? 0)} ${str(pr, 'title')}` : '',
        text: reviewed ? str(obj(p, 'review'), 'content') : '',
        target: str(pr, 'html_url'),
        color: reviewed ? reviewColor(event) : 0,
        fact: { name: 'Pull request #:', value: String(Number(pr.id ?? 0)) },
        repo,
      };
    }
    case 'repository': {
      const action = str(p, 'action');
      if (action === 'created') return { title: `[${fullName}] Repository created`, text: '', target: html, color: GREEN, repo };
      if (action === 'deleted') return { title: `[${fullName}] Repository deleted`, text: '', target: '', color: YELLOW, repo };
      return { title: '', text: '', target: '', color: 0, repo };
    }
    case 'release': {
      const info = releaseMessage(p, m);
      const release = obj(p, 'release');
      return { title: info.text, text: '', target: str(release, 'html_url'), color: info.color, fact: { name: 'Tag:', value: str(release, 'tag_name') }, repo };
    }
    case 'wiki': {
      const info = wikiMessage(p, m, false);
      return { title: info.text, text: '', target: wikiUrl(p), color: info.color, fact: { name: 'Repository:', value: fullName }, repo };
    }
    case 'package': {
      const info = packageMessage(p, m);
      const pkg = obj(p, 'package');
      return { title: info.text, text: '', target: str(pkg, 'html_url'), color: info.color, fact: { name: 'Package:', value: str(pkg, 'name') }, repo };
    }
    case 'action': {
      const info = actionMessage(p, m);
      const run = obj(p, 'run');
      return { title: info.text, text: '', target: str(run, 'html_url'), color: info.color, repo: obj(run, 'repository'), sender: obj(run, 'trigger_user') };
    }
    default:
      return undefined;
  }
}

export const MSTEAMS_FORMATTER: HookFormatter = {
  parseConfig: () => ({}),
  format(event, payload) {
    const c = card(payload, event);
    if (!c) return undefined;
    const sender = c.sender ?? obj(payload, 'sender');
    const facts: Fact[] = [];
    if ('full_name' in c.repo) facts.push({ name: 'Repository:', value: str(c.repo, 'full_name') });
    if (c.fact) facts.push(c.fact);
    const body = {
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      themeColor: hexColor(c.color),
      title: c.title,
      summary: c.title,
      sections: [
        {
          activityTitle: str(sender, 'full_name'),
          activitySubtitle: login(sender),
          activityImage: str(sender, 'avatar_url'),
          facts,
          text: c.text,
        },
      ],
      potentialAction: [{ '@type': 'OpenUri', name: 'View in Forgejo', targets: [{ os: 'default', uri: c.target }] }],
    };
    return { contentType: 'application/json', body: goJson(body) };
  },
};
