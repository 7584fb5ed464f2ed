/**
 * Every hook type's request format (webhooks/formats): hand-written payloads shaped as Forgejo's
 * (`modules/structs/hook.go`) in, the request each type sends out: method, URL, content type, the body parsed
 * and checked field by field (text, links, colours), user text escaped for each markup, and the settings each
 * type validates. Pure functions: no network, no database.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BadRequestError, ValidationError } from '../src/errors.js';
import { HOOK_FORMATTERS, adjustManifest, isValidSlackChannel, matrixPlainBody } from '../src/webhooks/formats/index.js';
import type { FormattedHook, HookEventName, HookPayload, HookRequestContent } from '../src/webhooks/formats/types.js';

const APP = 'http://localhost:3000/';
const REPO_URL = `${APP}test/repo`;

const user1 = { id: 1, login: 'user1', full_name: 'User One', email: 'user1@example.com', avatar_url: `${APP}avatars/1`, html_url: `${APP}user1` };
const user2 = { id: 2, login: 'user2', full_name: '', email: 'user2@example.com', avatar_url: `${APP}avatars/2`, html_url: `${APP}user2` };
const repository = {
  id: 1,
  name: 'repo',
  full_name: 'test/repo',
  html_url: REPO_URL,
  clone_url: `${REPO_URL}.git`,
  ssh_url: 'ssh://git@localhost:2222/test/repo.git',
  private: false,
};

const commitA = {
  id: '2020558fe2e34debb818a514715839cabd25e778',
  message: 'Fix <b>bold</b> & *stars*\n\nLonger description',
  url: `${REPO_URL}/commit/2020558fe2e34debb818a514715839cabd25e778`,
  author: { name: 'Alice <a@x>', email: 'alice@example.com', username: 'alice' },
  committer: { name: 'Alice', email: 'alice@example.com', username: 'alice' },
  timestamp: '2026-01-01T00:00:00Z',
  added: [],
  removed: [],
  modified: ['README.md'],
};
const commitB = {
  ...commitA,
  id: '3030558fe2e34debb818a514715839cabd25e779',
  message: 'second commit',
  url: `${REPO_URL}/commit/3030558fe2e34debb818a514715839cabd25e779`,
  author: { name: 'Bob', email: 'bob@example.com', username: 'bob' },
};

const push: HookPayload = {
  ref: 'refs/heads/main',
  before: commitB.id,
  after: commitA.id,
  compare_url: `${REPO_URL}/compare/3030558...2020558`,
  commits: [commitA, commitB],
  total_commits: 2,
  head_commit: commitA,
  repository,
  pusher: user1,
  sender: user1,
};

const issue = {
  id: 77,
  number: 2,
  html_url: `${REPO_URL}/issues/2`,
  title: 'crash <when> & "why"',
  body: 'issue body with <html> & *md*',
  user: user1,
  assignees: [user1, user2],
  milestone: { id: 5, title: 'v1 <m>' },
};
const issueOpened: HookPayload = { action: 'opened', number: 2, issue, repository, sender: user1 };

const pullRequest = {
  id: 12,
  number: 12,
  url: `${REPO_URL}/pulls/12`,
  html_url: `${REPO_URL}/pulls/12`,
  title: 'Fix bug',
  body: 'fixes it',
  user: user1,
  assignees: [user2],
  merged: false,
  milestone: null,
};
const prOpened: HookPayload = { action: 'opened', number: 12, pull_request: pullRequest, repository, sender: user1, review: null };

const commentPayload: HookPayload = {
  action: 'created',
  issue,
  comment: {
    id: 9,
    html_url: `${REPO_URL}/issues/2#issuecomment-9`,
    issue_url: `${REPO_URL}/issues/2`,
    pull_request_url: '',
    body: 'a comment',
    user: user2,
  },
  repository,
  sender: user2,
  is_pull: false,
};

const createPayload: HookPayload = { sha: commitA.id, ref: 'feature', ref_type: 'branch', repository, sender: user1 };
const deletePayload: HookPayload = { ref: 'feature', ref_type: 'branch', pusher_type: 'user', repository, sender: user1 };
const forkPayload: HookPayload = {
  forkee: { ...repository, full_name: 'test/repo2', html_url: `${APP}test/repo2` },
  repository,
  sender: user1,
};
const releasePayload: HookPayload = {
  action: 'published',
  release: { id: 1, tag_name: 'v1.0', name: 'First', body: 'notes', html_url: `${REPO_URL}/releases/tag/v1.0` },
  repository,
  sender: user1,
};
const wikiPayload: HookPayload = { action: 'created', repository, sender: user1, page: 'Home Page', comment: 'first edit' };
const repoCreated: HookPayload = { action: 'created', repository, organization: user1, sender: user1 };
const packagePayload: HookPayload = {
  action: 'created',
  repository: null,
  package: { id: 1, name: 'GiteaContainer', version: 'latest', type: 'container', html_url: `${APP}user1/-/packages/container/GiteaContainer/latest` },
  sender: user1,
};
const reviewPayload: HookPayload = { ...prOpened, action: 'reviewed', review: { type: 'pull_request_review_approved', content: 'LGTM' } };

function formatterOf(type: string) {
  const formatter = HOOK_FORMATTERS.get(type);
  if (!formatter) throw new Error(`no formatter for ${type}`);
  return formatter;
}

/** The settings a type cannot do without, for tests that are not about them. */
const REQUIRED_CONFIG: ReadonlyMap<string, Record<string, string>> = new Map<string, Record<string, string>>([
  ['slack', { channel: 'general' }],
  ['packagist', { package_url: 'https://packagist.org/packages/a/b' }],
  ['sourcehut_builds', { manifest_path: '.build.yml' }],
]);

function hookOf(type: string, config: Record<string, string> = REQUIRED_CONFIG.get(type) ?? {}, extra: Partial<FormattedHook> = {}): FormattedHook {
  const url = config.url ?? 'https://hooks.example.com/x';
  return { type, url, meta: formatterOf(type).parseConfig({ url, content_type: 'json', ...config }), contentType: 'json', ...extra };
}

function send(type: string, event: HookEventName, payload: HookPayload, hook: FormattedHook = hookOf(type)): HookRequestContent {
  const request = formatterOf(type).format(event, payload, hook);
  if (!request) throw new Error(`${type} sends nothing for ${event}`);
  return request;
}

function json(request: HookRequestContent): Record<string, any> {
  expect(request.contentType).toBe('application/json');
  return JSON.parse(request.body) as Record<string, any>;
}

describe('the set of types', () => {
  it('has a formatter for every type Forgejo knows', () => {
    expect([...HOOK_FORMATTERS.keys()].sort()).toEqual(
      ['dingtalk', 'discord', 'feishu', 'forgejo', 'gitea', 'gogs', 'matrix', 'msteams', 'packagist', 'slack', 'sourcehut_builds', 'telegram', 'wechatwork'].sort(),
    );
  });

  it('formats every event Forgejo renders for the chat types, and nothing for workflow events', () => {
    const payloads: [HookEventName, HookPayload][] = [
      ['push', push],
      ['create', createPayload],
      ['delete', deletePayload],
      ['fork', forkPayload],
      ['repository', repoCreated],
      ['release', releasePayload],
      ['issues', issueOpened],
      ['issue_assign', { ...issueOpened, action: 'assigned' }],
      ['issue_label', { ...issueOpened, action: 'label_updated' }],
      ['issue_milestone', { ...issueOpened, action: 'milestoned' }],
      ['issue_comment', commentPayload],
      ['pull_request', prOpened],
      ['pull_request_assign', { ...prOpened, action: 'assigned' }],
      ['pull_request_label', { ...prOpened, action: 'label_cleared' }],
      ['pull_request_milestone', { ...prOpened, action: 'demilestoned' }],
      ['pull_request_comment', { ...commentPayload, is_pull: true }],
      ['pull_request_review_approved', reviewPayload],
      ['pull_request_review_rejected', reviewPayload],
      ['pull_request_review_comment', reviewPayload],
      ['pull_request_sync', { ...prOpened, action: 'synchronized' }],
      ['pull_request_review_request', { ...prOpened, action: 'review_requested' }],
      ['wiki', wikiPayload],
      ['package', packagePayload],
    ];
    for (const type of ['slack', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork']) {
      for (const [event, payload] of payloads) {
        const request = send(type, event, payload);
        expect(() => JSON.parse(request.body), `${type} ${event}`).not.toThrow();
      }
      expect(formatterOf(type).format('workflow_run', {}, hookOf(type))).toBeUndefined();
    }
  });

  it('survives a payload with fields missing (Go reads them as zero values)', () => {
    for (const type of HOOK_FORMATTERS.keys()) {
      for (const event of ['push', 'issues', 'pull_request', 'issue_comment', 'create', 'release'] as HookEventName[]) {
        expect(() => formatterOf(type).format(event, {}, hookOf(type)), `${type} ${event}`).not.toThrow();
      }
    }
  });
});

describe('forgejo, gitea, gogs', () => {
  for (const type of ['forgejo', 'gitea', 'gogs']) {
    it(`${type}: the payload as indented JSON, HTML characters escaped as Go does`, () => {
      const request = send(type, 'push', push);
      expect(request.method ?? 'POST').toBe('POST');
      expect(request.url).toBeUndefined();
      expect(request.contentType).toBe('application/json');
      expect(request.body).toBe(JSON.stringify(push, null, 2).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026'));
      expect(JSON.parse(request.body)).toEqual(push);
    });

    it(`${type}: form content type sends payload=<json>, encoded as Go's url.Values`, () => {
      const request = send(type, 'issues', issueOpened, { ...hookOf(type), contentType: 'form' });
      expect(request.contentType).toBe('application/x-www-form-urlencoded');
      expect(request.body.startsWith('payload=')).toBe(true);
      expect(request.body).not.toMatch(/[ "{}]/);
      expect(request.body).toContain('+'); // spaces, as Go's QueryEscape writes them
      const form = new URLSearchParams(request.body);
      expect(JSON.parse(form.get('payload')!)).toEqual(issueOpened);
    });
  }
});

describe('slack', () => {
  const hook = hookOf('slack', { channel: '#dev', username: 'bot', icon_url: 'https://i.example/x.png', color: 'good' });

  it('validates the channel as Forgejo does', () => {
    const slack = formatterOf('slack');
    expect(() => slack.parseConfig({ url: 'https://x', content_type: 'json' })).toThrow(ValidationError);
    expect(() => slack.parseConfig({ url: 'https://x', content_type: 'json' })).toThrow('Missing config option: channel');
    for (const bad of ['', '  ', '#', 'Dev', 'has space', 'x'.repeat(81), 'dev!']) {
      expect(() => slack.parseConfig({ channel: bad }), bad).toThrow(BadRequestError);
      expect(() => slack.parseConfig({ channel: bad }), bad).toThrow('Invalid slack channel name');
    }
    expect(slack.parseConfig({ channel: '  #dev-ops_1  ', username: 'u', icon_url: 'i', color: 'c' })).toEqual({
      channel: '#dev-ops_1',
      username: 'u',
      icon_url: 'i',
      color: 'c',
    });
    expect(isValidSlackChannel('gitea')).toBe(true);
    expect(isValidSlackChannel('gitea   ')).toBe(false);
  });

  it('push: branch link, compare link, pusher in code, commits as an escaped attachment', () => {
    const body = json(send('slack', 'push', push, hook));
    expect(body).toMatchObject({ channel: '#dev', username: 'bot', icon_url: 'https://i.example/x.png', unfurl_links: 0, link_names: 0 });
    expect(body.text).toBe(`[test/repo:<${REPO_URL}/src/branch/main|main>] <${REPO_URL}/compare/3030558...2020558|2 new commits> pushed by \`user1\``);
    expect(body.attachments).toHaveLength(1);
    expect(body.attachments[0]).toMatchObject({ color: 'good', title: REPO_URL, title_link: REPO_URL });
    expect(body.attachments[0].text).toBe(
      `<${commitA.url}|2020558>: Fix &lt;b&gt;bold&lt;/b&gt; &amp; *stars* - \`Alice &lt;a@x&gt;\`\n<${commitB.url}|3030558>: second commit - \`Bob\``,
    );
  });

  it('issue opened: escaped title link, body attachment in the issue colour', () => {
    const body = json(send('slack', 'issues', issueOpened, hook));
    expect(body.text).toBe(`[test/repo] Issue opened: <${REPO_URL}/issues/2|#2 crash &lt;when&gt; &amp; "why"> by \`user1\``);
    expect(body.attachments).toEqual([
      { fallback: '', color: 'eb6420', title: '#2 crash &lt;when&gt; &amp; "why"', title_link: issue.html_url, text: 'issue body with &lt;html&gt; &amp; *md*' },
    ]);
    const closed = json(send('slack', 'issues', { ...issueOpened, action: 'closed' }, hook));
    expect(closed.text).toBe(`[test/repo] Issue closed: <${REPO_URL}/issues/2|#2 crash &lt;when&gt; &amp; "why"> by \`user1\``);
    expect(closed.attachments).toBeNull();
  });

  it('pull request, comment, review, create, delete, fork, release, wiki, repository, package', () => {
    expect(json(send('slack', 'pull_request', prOpened, hook)).text).toBe(`[test/repo] Pull request opened: <${REPO_URL}/pulls/12|#12 Fix bug> by \`user1\``);
    expect(json(send('slack', 'pull_request', { ...prOpened, action: 'closed', pull_request: { ...pullRequest, merged: true } }, hook)).text).toBe(
      `[test/repo] Pull request merged: <${REPO_URL}/pulls/12|#12 Fix bug> by \`user1\``,
    );
    const comment = json(send('slack', 'issue_comment', commentPayload, hook));
    expect(comment.text).toBe(`[test/repo] New comment on issue <${REPO_URL}/issues/2|#2 crash &lt;when&gt; &amp; "why"> by \`user2\``);
    expect(comment.attachments[0]).toMatchObject({ color: 'e68d60', title_link: `${REPO_URL}/issues/2#issuecomment-9`, text: 'a comment' });
    expect(json(send('slack', 'pull_request_review_approved', reviewPayload, hook)).text).toBe(
      `[test/repo] Pull request review approved: [#12 Fix bug](${REPO_URL}/pulls/12) by \`user1\``,
    );
    expect(json(send('slack', 'create', createPayload, hook)).text).toBe(`[test/repo:<${REPO_URL}/src/branch/feature|feature>] branch created by \`user1\``);
    expect(json(send('slack', 'delete', deletePayload, hook)).text).toBe(`[<${REPO_URL}|test/repo>:feature] branch deleted by \`user1\``);
    expect(json(send('slack', 'fork', forkPayload, hook)).text).toBe(`<${APP}test/repo2|test/repo2> is forked to <${REPO_URL}|test/repo>`);
    expect(json(send('slack', 'release', releasePayload, hook)).text).toBe(`[test/repo] Release created: <${REPO_URL}/releases/tag/v1.0|v1.0> by \`user1\``);
    expect(json(send('slack', 'wiki', wikiPayload, hook)).text).toBe(`[test/repo] New wiki page "<${REPO_URL}/wiki/Home%20Page|Home Page>" (first edit) by \`user1\``);
    expect(json(send('slack', 'repository', repoCreated, hook)).text).toBe(`[<${REPO_URL}|test/repo>] Repository created by \`user1\``);
    expect(json(send('slack', 'package', packagePayload, hook)).text).toBe(
      `Package created: <${APP}user1/-/packages/container/GiteaContainer/latest|GiteaContainer:latest> by \`user1\``,
    );
  });

  it('a backtick in a name cannot close the code span', () => {
    const body = json(send('slack', 'push', { ...push, pusher: { ...user1, login: 'a`b' } }, hook));
    expect(body.text.endsWith("pushed by `a'b`")).toBe(true);
  });
});

describe('discord', () => {
  const hook = hookOf('discord', { username: 'forge', icon_url: 'https://i.example/a.png' });

  it('settings: username and icon_url, with Forgejo limits', () => {
    expect(hook.meta).toEqual({ username: 'forge', icon_url: 'https://i.example/a.png' });
    expect(() => formatterOf('discord').parseConfig({ username: 'x'.repeat(81) })).toThrow(ValidationError);
    expect(() => formatterOf('discord').parseConfig({ icon_url: `https://x/${'a'.repeat(2048)}` })).toThrow(ValidationError);
  });

  it('push: one embed with the compare link, commit subjects markdown-escaped and cut at 50 characters', () => {
    const body = json(send('discord', 'push', push, hook));
    expect(body.username).toBe('forge');
    expect(body.avatar_url).toBe('https://i.example/a.png');
    expect(body.embeds).toHaveLength(1);
    const embed = body.embeds[0];
    expect(embed).toMatchObject({ title: '[test/repo:main] 2 new commits', url: push.compare_url, color: 0x1ac600 });
    expect(embed.author).toEqual({ name: 'user1', url: user1.html_url, icon_url: user1.avatar_url });
    const [first, second] = embed.description.split('\n');
    expect(first).toBe(`[2020558](${commitA.url}) Fix \\<b\\>bold\\</b\\> & \\*stars\\* - Alice \\<a@x\\>`);
    expect(second).toBe(`[3030558](${commitB.url}) second commit - Bob`);
    const long = json(send('discord', 'push', { ...push, total_commits: 1, commits: [{ ...commitB, message: 'y'.repeat(60) }] }, hook));
    expect(long.embeds[0].url).toBe(commitB.url);
    expect(long.embeds[0].description).toBe(`[3030558](${commitB.url}) ${'y'.repeat(47)}... - Bob`);
  });

  it('issue, pull request and review: title, body, link and colour; no avatar_url when none is set', () => {
    const plain = hookOf('discord');
    const issueBody = json(send('discord', 'issues', issueOpened, plain));
    expect(issueBody).not.toHaveProperty('avatar_url');
    expect(issueBody.embeds[0]).toMatchObject({
      title: '[test/repo] Issue opened: #2 crash <when> & "why"',
      description: issue.body,
      url: issue.html_url,
      color: 0xeb6420,
    });
    expect(json(send('discord', 'pull_request', prOpened, plain)).embeds[0]).toMatchObject({
      title: '[test/repo] Pull request opened: #12 Fix bug',
      description: 'fixes it',
      url: pullRequest.html_url,
      color: 0x1ac600,
    });
    expect(json(send('discord', 'pull_request_review_rejected', reviewPayload, plain)).embeds[0]).toMatchObject({
      title: '[test/repo] Pull request review requested changes: #12 Fix bug',
      description: 'LGTM',
      color: 0xff3232,
    });
    expect(json(send('discord', 'delete', deletePayload, plain)).embeds[0]).toMatchObject({ title: '[test/repo] branch feature deleted', url: `${REPO_URL}/src/feature`, color: 0xff3232 });
    expect(json(send('discord', 'release', releasePayload, plain)).embeds[0]).toMatchObject({ title: '[test/repo] Release created: v1.0', description: 'notes' });
  });
});

describe('telegram', () => {
  it('push: HTML with escaped commit messages and commit links', () => {
    const request = send('telegram', 'push', push);
    expect(request.url).toBeUndefined();
    const body = json(request);
    expect(body.parse_mode).toBe('HTML');
    expect(body.disable_web_page_preview).toBe(true);
    expect(body.text).toBe(
      [
        '[test/repo:main] 2 new commits',
        `[<a href="${commitA.url}">2020558</a>] Fix &lt;b&gt;bold&lt;/b&gt; &amp; *stars*\n\nLonger description - Alice &lt;a@x&gt;`,
        `[<a href="${commitB.url}">3030558</a>] second commit - Bob`,
      ].join('\n'),
    );
  });

  it('issue and pull request: linked, escaped title and body', () => {
    expect(json(send('telegram', 'issues', issueOpened)).text).toBe(
      `[test/repo] Issue opened: <a href="${REPO_URL}/issues/2">#2 crash &lt;when&gt; &amp; &#34;why&#34;</a> by user1\n\nissue body with &lt;html&gt; &amp; *md*`,
    );
    expect(json(send('telegram', 'pull_request', prOpened)).text).toBe(
      `[test/repo] Pull request opened: <a href="${REPO_URL}/pulls/12">#12 Fix bug</a> by user1\nfixes it`,
    );
    expect(json(send('telegram', 'create', createPayload)).text).toBe(`[test/repo] branch <a href="${REPO_URL}/src/feature">feature</a> created`);
  });
});

describe('matrix', () => {
  const hookUrl = 'https://matrix.example.org/_matrix/client/v3/rooms/!room%3Aexample.org/send/m.room.message';

  it('settings: homeserver, room and message type (m.notice by default)', () => {
    const matrix = formatterOf('matrix');
    expect(matrix.parseConfig({ home_server_url: 'https://m.example', room_id: '!r:m.example' })).toEqual({
      homeserver_url: 'https://m.example',
      room_id: '!r:m.example',
      message_type: 1,
    });
    expect(matrix.parseConfig({ homeserver_url: 'https://m.example', room_id: '!r', message_type: 'm.text' })).toMatchObject({ message_type: 2 });
    expect(matrix.parseConfig({ message_type: '2' })).toMatchObject({ message_type: 2 });
    expect(() => matrix.parseConfig({ message_type: 'm.image' })).toThrow(ValidationError);
  });

  it('push: PUT to the room URL with a txn id derived from the body, HTML and plain bodies, commits attached', () => {
    const hook = hookOf('matrix', { url: hookUrl, message_type: 'm.text' });
    const request = send('matrix', 'push', push, hook);
    expect(request.method).toBe('PUT');
    const txnId = createHash('sha1').update(request.body).digest('hex');
    expect(request.url).toBe(`${hookUrl}/${txnId}`);
    // The same delivery (and its retries) sends the same transaction id.
    expect(send('matrix', 'push', push, hook).url).toBe(request.url);
    const body = json(request);
    expect(body.msgtype).toBe('m.text');
    expect(body.format).toBe('org.matrix.custom.html');
    expect(body.formatted_body).toBe(
      `[test/repo] user1 pushed 2 commits to main:<br><a href="${commitA.url}">2020558</a>: Fix &lt;b&gt;bold&lt;/b&gt; &amp; *stars*\n\nLonger description - Alice &lt;a@x&gt;<br><a href="${commitB.url}">3030558</a>: second commit - Bob`,
    );
    expect(body.body).toBe(
      `[test/repo] user1 pushed 2 commits to main:\n[2020558](${commitA.url}): Fix <b>bold</b> & *stars*\n\nLonger description - Alice <a@x>\n[3030558](${commitB.url}): second commit - Bob`,
    );
    expect(body['io.gitea.commits']).toEqual([commitA, commitB]);
  });

  it('issue: escaped link text, no commits; a hook with only homeserver and room gets the send URL built', () => {
    const hook = hookOf('matrix', { url: 'https://matrix.example.org', homeserver_url: 'https://matrix.example.org/', room_id: '!room:example.org' });
    const request = send('matrix', 'issues', issueOpened, hook);
    expect(request.url).toMatch(/^https:\/\/matrix\.example\.org\/_matrix\/client\/v3\/rooms\/%21room:example\.org\/send\/m\.room\.message\/[0-9a-f]{40}$/);
    const body = json(request);
    expect(body.msgtype).toBe('m.notice');
    expect(body.formatted_body).toBe(`[test/repo] Issue opened: <a href="${REPO_URL}/issues/2">#2 crash &lt;when&gt; &amp; &#34;why&#34;</a> by user1`);
    expect(body.body).toBe(`[test/repo] Issue opened: [#2 crash <when> & "why"](${REPO_URL}/issues/2) by user1`);
    expect(body).not.toHaveProperty('io.gitea.commits');
    expect(json(send('matrix', 'pull_request_review_approved', reviewPayload, hook)).formatted_body).toBe(
      `[test/repo] Pull request review approved: <a href="${REPO_URL}/pulls/12">#12 Fix bug</a> by user1`,
    );
    expect(matrixPlainBody('<a href="u">t</a><br>x')).toBe('[t](u)\nx');
  });
});

describe('msteams', () => {
  it('push: a MessageCard with facts, escaped commit lines and the compare link as action', () => {
    const body = json(send('msteams', 'push', push));
    expect(body).toMatchObject({ '@type': 'MessageCard', '@context': 'https://schema.org/extensions', themeColor: '1ac600', title: '[test/repo:main] 2 new commits', summary: '[test/repo:main] 2 new commits' });
    expect(body.sections).toHaveLength(1);
    expect(body.sections[0]).toMatchObject({ activityTitle: 'User One', activitySubtitle: 'user1', activityImage: user1.avatar_url });
    expect(body.sections[0].facts).toEqual([
      { name: 'Repository:', value: 'test/repo' },
      { name: 'Commit count:', value: '2' },
    ]);
    expect(body.sections[0].text).toBe(`[2020558](${commitA.url}) Fix \\<b\\>bold\\</b\\> & \\*stars\\* - Alice \\<a@x\\>\n\n[3030558](${commitB.url}) second commit - Bob`);
    expect(body.potentialAction).toEqual([{ '@type': 'OpenUri', name: 'View in Forgejo', targets: [{ os: 'default', uri: push.compare_url }] }]);
  });

  it('issue and pull request', () => {
    const issueBody = json(send('msteams', 'issues', issueOpened));
    expect(issueBody.title).toBe('[test/repo] Issue opened: #2 crash <when> & "why"');
    expect(issueBody.themeColor).toBe('eb6420');
    expect(issueBody.sections[0].text).toBe(issue.body);
    expect(issueBody.sections[0].facts[1]).toEqual({ name: 'Issue #:', value: '77' });
    const prBody = json(send('msteams', 'pull_request', { ...prOpened, action: 'closed' }));
    expect(prBody.title).toBe('[test/repo] Pull request closed: #12 Fix bug');
    expect(prBody.themeColor).toBe('ff3232');
    expect(prBody.potentialAction[0].targets[0].uri).toBe(pullRequest.html_url);
  });
});

describe('dingtalk', () => {
  it('push: an actionCard with escaped commit lines and a link opening in the browser', () => {
    const body = json(send('dingtalk', 'push', push));
    expect(body.msgtype).toBe('actionCard');
    expect(body.actionCard.title).toBe('[test/repo:main] 2 new commits');
    expect(body.actionCard.text).toBe(
      `[2020558](${commitA.url}) Fix \\<b\\>bold\\</b\\> & \\*stars\\*\n\nLonger description - Alice \\<a@x\\>\r\n[3030558](${commitB.url}) second commit - Bob`,
    );
    expect(body.actionCard.singleTitle).toBe('view commits');
    expect(body.actionCard.singleURL).toBe(`dingtalk://dingtalkclient/page/link?pc_slide=false&url=${encodeURIComponent(push.compare_url as string)}`);
    expect(body.actionCard.hideAvatar).toBe('0');
  });

  it('issue and pull request; a deleted repository is a text message', () => {
    const body = json(send('dingtalk', 'issues', issueOpened));
    expect(body.actionCard.title).toBe('#2 crash <when> & "why"');
    expect(body.actionCard.text).toBe(`[test/repo] Issue opened: #2 crash <when> & "why" by user1\r\n\r\n${issue.body}`);
    expect(body.actionCard.singleTitle).toBe('view issue');
    expect(json(send('dingtalk', 'pull_request', prOpened)).actionCard.singleTitle).toBe('view pull request');
    const deleted = json(send('dingtalk', 'repository', { ...repoCreated, action: 'deleted' }));
    expect(deleted.msgtype).toBe('text');
    expect(deleted.text.content).toBe('[test/repo] Repository deleted');
  });
});

describe('feishu', () => {
  it('push: a text message with the commit count and commit lines', () => {
    const body = json(send('feishu', 'push', push));
    expect(body.msg_type).toBe('text');
    expect(body.content.text).toBe(
      `[test/repo:main] 2 new commits\r\n[2020558](${commitA.url}) Fix <b>bold</b> & *stars*\n\nLonger description - Alice <a@x>\r\n[3030558](${commitB.url}) second commit - Bob`,
    );
  });

  it('issue and pull request: title, link, author, operator, assignees, body', () => {
    expect(json(send('feishu', 'issues', issueOpened)).content.text).toBe(
      `[Issue-test/repo #2]: opened\ncrash <when> & "why"\n${issue.html_url}\nIssue by user1\nOperator: user1\nAssignees: user1, user2\n\n${issue.body}`,
    );
    expect(json(send('feishu', 'pull_request_assign', { ...prOpened, action: 'assigned' })).content.text).toBe(
      `[PullRequest-test/repo #12]: assigned\nFix bug\n${pullRequest.html_url}\nPullRequest by user1\nOperator: user1\nuser1 assign this to user2\nAssignees: user2\n\nfixes it`,
    );
    expect(json(send('feishu', 'issue_comment', commentPayload)).content.text).toBe(
      `[Comment-test/repo #2]: created\ncrash <when> & "why"\n${issue.html_url}\nIssue by user1\nOperator: user2\n\na comment`,
    );
  });
});

describe('wechatwork', () => {
  it('push: markdown with escaped commit messages', () => {
    const body = json(send('wechatwork', 'push', push));
    expect(body.msgtype).toBe('markdown');
    const content: string = body.markdown.content;
    expect(content.startsWith('# test/repo:main <font color="warning">  2 new commits  </font>\r\n\r\n')).toBe(true);
    expect(content).toContain(` > [2020558](${commitA.url}) \r\n ><font color="info">Fix \\<b\\>bold\\</b\\> & \\*stars\\*\r\nLonger description</font> \n ><font color="warning">Author: Alice \\<a@x\\></font>`);
    expect(content).toContain(`[3030558](${commitB.url})`);
  });

  it('issue and pull request', () => {
    expect(json(send('wechatwork', 'issues', issueOpened)).markdown.content).toBe(
      ` ><font color="info">[test/repo] Issue opened: #2 crash <when> & "why" by user1</font>\n >${issue.body} \n ><font color="warning"> #2 crash <when> & "why"</font> \n [${issue.html_url}](${issue.html_url})`,
    );
    expect(json(send('wechatwork', 'pull_request', prOpened)).markdown.content).toBe(
      `> <font color="info"> [test/repo] Pull request opened: #12 Fix bug by user1 </font> \r\n > <font color="comment">#12 Fix bug </font> \r\n > <font color="comment">fixes it </font> \r\n`,
    );
  });
});

describe('packagist', () => {
  it('settings: package_url required and a URL', () => {
    const packagist = formatterOf('packagist');
    expect(() => packagist.parseConfig({ url: 'https://x', content_type: 'json' })).toThrow('Missing config option: package_url');
    expect(() => packagist.parseConfig({ package_url: 'not a url' })).toThrow(ValidationError);
  });

  it('push only: the package URL, to the update-package endpoint when the account is given', () => {
    const hook = hookOf('packagist', { username: 'me', api_token: 't&k', package_url: 'https://packagist.org/packages/a/b' });
    const request = send('packagist', 'push', push, hook);
    expect(request.url).toBe('https://packagist.org/api/update-package?username=me&apiToken=t%26k');
    expect(json(request)).toEqual({ repository: { url: 'https://packagist.org/packages/a/b' } });
    expect(formatterOf('packagist').format('issues', issueOpened, hook)).toBeUndefined();
    expect(formatterOf('packagist').format('pull_request', prOpened, hook)).toBeUndefined();
    const bare = send('packagist', 'push', push, hookOf('packagist', { package_url: 'https://packagist.org/packages/a/b' }));
    expect(bare.url).toBeUndefined();
  });
});

describe('sourcehut_builds', () => {
  const manifest = [
    '# build it',
    'image: alpine/edge',
    'sources:',
    '  - https://example.com/other.git',
    `  - ${REPO_URL}.git`,
    'environment:',
    '  FOO: "bar"',
    'tasks:',
    '  - build: |',
    '      make',
    '',
  ].join('\n');

  it('settings: manifest_path required and relative, visibility and secrets checked', () => {
    const builds = formatterOf('sourcehut_builds');
    expect(() => builds.parseConfig({})).toThrow('Missing config option: manifest_path');
    for (const bad of ['/abs.yml', '../x.yml', 'a//b.yml', 'dir/']) expect(() => builds.parseConfig({ manifest_path: bad }), bad).toThrow(ValidationError);
    expect(() => builds.parseConfig({ manifest_path: '.build.yml', visibility: 'SECRET' })).toThrow(ValidationError);
    expect(() => builds.parseConfig({ manifest_path: '.build.yml', secrets: 'maybe' })).toThrow(ValidationError);
    expect(builds.parseConfig({ manifest_path: '.builds/ci.yml', secrets: 'true' })).toEqual({ manifest_path: '.builds/ci.yml', visibility: 'PRIVATE', secrets: true });
  });

  it('push: asks for the manifest at the head commit and submits it with the commit pinned', () => {
    const builds = formatterOf('sourcehut_builds');
    const hook = hookOf('sourcehut_builds', { manifest_path: '.build.yml', visibility: 'PUBLIC', secrets: 'true' });
    expect(builds.filesWanted?.('push', push, hook.meta)).toEqual({ commit: commitA.id, paths: ['.build.yml'] });
    expect(builds.filesWanted?.('issues', issueOpened, hook.meta)).toBeUndefined();
    expect(builds.format('issues', issueOpened, hook)).toBeUndefined();
    const body = json(send('sourcehut_builds', 'push', push, { ...hook, files: { '.build.yml': manifest } }));
    expect(body.query).toContain('submit(');
    expect(body.variables).toMatchObject({
      tags: ['test/repo', 'branch/main', '.build.yml'],
      note: commitA.message,
      secrets: true,
      execute: true,
      visibility: 'PUBLIC',
    });
    const text: string = body.variables.manifest;
    expect(text).toContain('image: alpine/edge');
    expect(text).toContain(`  - "${REPO_URL}.git#${commitA.id}"`);
    expect(text).toContain('  - "https://example.com/other.git"');
    expect(text).toContain('  "FOO": "bar"');
    expect(text).toContain('  "BUILD_SUBMITTER": "forgejo"');
    expect(text).toContain(`  "BUILD_SUBMITTER_URL": "${APP}"`);
    expect(text).toContain('  "GIT_REF": "refs/heads/main"');
    expect(text).toContain('  - build: |\n      make');
  });

  it('a private repository without its URL in the sources is added over SSH; a missing manifest is reported', () => {
    const out = adjustManifest('image: alpine/edge\n', { ...repository, private: true }, 'abc', 'refs/heads/main', APP);
    expect(out).toContain(`sources:\n  - "${repository.ssh_url}#abc"`);
    const hook = hookOf('sourcehut_builds', { manifest_path: '.build.yml' });
    const missing = json(send('sourcehut_builds', 'push', push, hook));
    expect(missing.error).toBe('test/repo:refs/heads/main could not open manifest ".build.yml"');
    expect(missing).not.toHaveProperty('query');
    const broken = json(send('sourcehut_builds', 'create', createPayload, { ...hook, files: { '.build.yml': 'sources: {a: [b]}\n' } }));
    expect(broken.error).toBe('test/repo:feature could not decode manifest ".build.yml"');
  });
});
