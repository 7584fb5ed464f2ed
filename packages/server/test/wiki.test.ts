/**
 * Wikis as Forgejo keeps them: `<name>.wiki.git` beside the repository, written through the API
 * (`/repos/{owner}/{repo}/wiki/…`) and with git over HTTP, read by both; Forgejo's page names (dashes, spaces, the
 * dash marker), statuses and messages; who may read and write (the wiki unit, globally editable wikis);
 * `has_wiki_contents` following every write, the `wiki` webhook, the wiki moving with its repository's rename and
 * going with its deletion, and a migration importing `<remote>.wiki.git`.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RepoStorageService, RepoWikiStorage, SYSTEM, WikiCommitListSchema, WikiPageMetaDataSchema, WikiPageSchema, matchesSchema, schemaErrors, wikiRepoKey, type ApiWikiPage } from '@repohost/core';
import { GitIntentStore } from '@repohost/core/internal';
import { TEST_GIT, createToken, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { startSshServer } from '@repohost/server';
import { account, checkRepo, expectApiError, json, uniq, type Account } from './helpers';
import { startHookedServer, type HookedServer, type Receiver } from './webhook-receiver';

let hooked: HookedServer | undefined;
let s: TestServer;
let receiver: Receiver;
let owner: Account;
let reader: Account;
let stranger: Account;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;

const b64 = (text: string) => Buffer.from(text).toString('base64');
const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
      else resolve(String(stdout));
    });
  });
}

/** The HTTP clone URL of a repository's wiki, with an account's token as its password (or anonymous). */
function wikiUrl(full: string, who?: Account): string {
  const port = new URL(s.url).port;
  return who ? `http://${who.name}:${who.token}@127.0.0.1:${port}/${full}.wiki.git` : `http://127.0.0.1:${port}/${full}.wiki.git`;
}

function checkPage(value: unknown): ApiWikiPage {
  expect(matchesSchema(WikiPageSchema, value), schemaErrors(WikiPageSchema, value).join('\n')).toBe(true);
  return value as ApiWikiPage;
}

async function newRepo(who: Account, options: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('w');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, ...options }, who.h));
  expect(res.status).toBe(201);
  return `${who.name}/${name}`;
}

function page(full: string, title: string, content: string, who: Account = owner, message?: string): Promise<Response> {
  return s.fetch(`/api/v1/repos/${full}/wiki/new`, jsonInit('POST', { title, content_base64: b64(content), ...(message ? { message } : {}) }, who.h));
}

async function hasWikiContents(full: string): Promise<boolean> {
  return checkRepo(await json(await s.fetch(`/api/v1/repos/${full}`, { headers: owner.h }))).has_wiki_contents;
}

beforeAll(async () => {
  hooked = await startHookedServer('wk');
  s = hooked.s;
  receiver = hooked.receiver;
  owner = { name: hooked.name, h: hooked.h, token: hooked.h.Authorization!.replace(/^token /, '') };
  [reader, stranger] = await Promise.all([account(s, 'rd'), account(s, 'st')]);
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-wiki-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Wiki Tester\n\temail = wiki@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});
afterAll(async () => {
  await hooked?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the wiki API', () => {
  let full: string;
  beforeAll(async () => {
    full = await newRepo(owner);
    expect((await s.fetch(`/api/v1/repos/${full}/collaborators/${reader.name}`, jsonInit('PUT', { permission: 'read' }, owner.h))).status).toBe(204);
  });

  test('pages are created, read, listed, edited, renamed and deleted, with Forgejo\'s names and answers', async () => {
    // No wiki yet: nothing to read, and the repository says so.
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/pages`, { headers: owner.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/page/Home`, { headers: owner.h }), 404, s.url);
    expect(await hasWikiContents(full)).toBe(false);

    const created = await page(full, 'Home', '# Welcome\n\nSee [[Other Page]].\n');
    expect(created.status).toBe(201);
    const home = checkPage(await json(created));
    expect(home).toMatchObject({ title: 'Home', sub_url: 'Home', html_url: `${s.url}${full}/wiki/Home`, commit_count: 1, sidebar: '', footer: '' });
    expect(text(home.content_base64)).toBe('# Welcome\n\nSee [[Other Page]].\n');
    expect(home.last_commit.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(home.last_commit).toMatchObject({ message: 'Add "Home"\n', author: { name: owner.name }, commiter: { name: owner.name } });
    expect(home.last_commit.author.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The first page made the wiki: the flag follows, in one read and in lists.
    expect(await hasWikiContents(full)).toBe(true);
    const mine = await json<{ full_name: string; has_wiki_contents: boolean }[]>(await s.fetch('/api/v1/user/repos?limit=50', { headers: owner.h }));
    expect(mine.find((r) => r.full_name === full)?.has_wiki_contents).toBe(true);

    // A page that exists is Forgejo's 400, naming its file.
    expect(await expectApiError(await page(full, 'Home', 'again'), 400, s.url)).toBe('wiki page already exists [title: Home.md]');

    // Spaces become dashes in the web path; a title with dashes keeps them behind the dash marker.
    const other = checkPage(await json(await page(full, 'Other Page', 'other', owner, 'my message')));
    expect(other).toMatchObject({ title: 'Other Page', sub_url: 'Other-Page', last_commit: { message: 'my message\n' } });
    const dashed = checkPage(await json(await page(full, '2000-01-02 meeting', 'minutes')));
    expect(dashed).toMatchObject({ title: '2000-01-02 meeting', sub_url: '2000-01-02+meeting.-' });
    const percent = checkPage(await json(await page(full, '100% Free', 'free')));
    expect(percent).toMatchObject({ title: '100% Free', sub_url: '100%25-Free' });
    expect(checkPage(await json(await s.fetch(`/api/v1/repos/${full}/wiki/page/${percent.sub_url}`, { headers: owner.h })))).toMatchObject({ title: '100% Free' });
    expect(checkPage(await json(await s.fetch(`/api/v1/repos/${full}/wiki/page/${dashed.sub_url}`, { headers: owner.h })))).toMatchObject({ title: '2000-01-02 meeting' });
    // The file itself is reachable by its `.md` name too.
    expect((await s.fetch(`/api/v1/repos/${full}/wiki/page/Other-Page.md`, { headers: owner.h })).status).toBe(200);

    // The sidebar and footer come with every page.
    expect((await page(full, '_Sidebar', 'side')).status).toBe(201);
    expect((await page(full, '_Footer', 'foot')).status).toBe(201);
    const withSides = checkPage(await json(await s.fetch(`/api/v1/repos/${full}/wiki/page/Home`, { headers: owner.h })));
    expect([text(withSides.sidebar), text(withSides.footer)]).toEqual(['side', 'foot']);

    // Edits: new content (a second revision), then a new title (the old page is gone).
    const edited = await s.fetch(`/api/v1/repos/${full}/wiki/page/Home`, jsonInit('PATCH', { content_base64: b64('# Welcome back\n') }, owner.h));
    expect(edited.status).toBe(200);
    expect(checkPage(await json(edited))).toMatchObject({ title: 'Home', commit_count: 2, last_commit: { message: 'Update "Home"\n' } });
    const revisions = await s.fetch(`/api/v1/repos/${full}/wiki/revisions/Home`, { headers: owner.h });
    expect(revisions.status).toBe(200);
    expect(revisions.headers.get('x-total-count')).toBe('2');
    const list = await json(revisions);
    expect(matchesSchema(WikiCommitListSchema, list), schemaErrors(WikiCommitListSchema, list).join('\n')).toBe(true);
    expect(list.count).toBe(2);
    expect(list.commits.map((c: { message: string }) => c.message)).toEqual(['Update "Home"\n', 'Add "Home"\n']);
    const renamed = await s.fetch(`/api/v1/repos/${full}/wiki/page/Other-Page`, jsonInit('PATCH', { title: 'Renamed', content_base64: b64('moved') }, owner.h));
    expect(checkPage(await json(renamed))).toMatchObject({ title: 'Renamed', sub_url: 'Renamed' });
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/page/Other-Page`, { headers: owner.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/revisions/Other-Page`, { headers: owner.h }), 404, s.url);

    // Deleting: a page that is gone is a 404.
    expect((await s.fetch(`/api/v1/repos/${full}/wiki/page/${dashed.sub_url}`, { method: 'DELETE', headers: owner.h })).status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/page/${dashed.sub_url}`, { method: 'DELETE', headers: owner.h }), 404, s.url);

    // The list: every file at the top of the tree, paged, with each page's last revision.
    const pages = await s.fetch(`/api/v1/repos/${full}/wiki/pages`, { headers: owner.h });
    expect(pages.status).toBe(200);
    expect(pages.headers.get('x-total-count')).toBe('5');
    const items = await json<unknown[]>(pages);
    for (const item of items) expect(matchesSchema(WikiPageMetaDataSchema, item), schemaErrors(WikiPageMetaDataSchema, item).join('\n')).toBe(true);
    expect(items.map((p) => (p as { title: string }).title).sort()).toEqual(['100% Free', 'Home', 'Renamed', '_Footer', '_Sidebar']);
    const second = await json<{ title: string }[]>(await s.fetch(`/api/v1/repos/${full}/wiki/pages?limit=2&page=2`, { headers: owner.h }));
    expect(second).toHaveLength(2);
    // Each page's last revision costs no git process of its own: one `git log` for the list (and the wiki's
    // long-lived object reader, when it was not running yet), none the second time (the branch is read by that reader).
    const processes = () => (s.host.git as unknown as { processesStarted?: number }).processesStarted ?? 0;
    const started = (s.host.git as unknown as { processesStarted?: number }).processesStarted;
    if (started !== undefined) {
      for (let i = 0; i < 6; i++) expect((await page(full, `Extra ${i}`, `extra ${i}`)).status).toBe(201);
      // What the writes set off (webhooks, jobs) has run, so the counts below are the list's own.
      await s.host.events.idle();
      const before = processes();
      const listed = await json<{ title: string; last_commit: { sha: string; message: string } }[]>(await s.fetch(`/api/v1/repos/${full}/wiki/pages?limit=20`, { headers: owner.h }));
      expect(listed).toHaveLength(11);
      expect(listed.find((p) => p.title === 'Extra 5')!.last_commit.message).toContain('Extra 5');
      expect(processes() - before).toBeLessThanOrEqual(2);
      const again = processes();
      await s.fetch(`/api/v1/repos/${full}/wiki/pages?limit=20`, { headers: owner.h });
      expect(processes()).toBe(again);
    }
  });

  test("a page's content renders through the markdown API in wiki mode: [[links]] lead to wiki pages", async () => {
    const home = checkPage(await json(await s.fetch(`/api/v1/repos/${full}/wiki/page/Home`, { headers: owner.h })));
    const res = await s.fetch('/api/v1/markdown', jsonInit('POST', { Text: '[[Other Page]] and [a link](Renamed)', Mode: 'gfm', Context: `${s.url}${full}`, Wiki: true }, owner.h));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`href="${s.url}${full}/wiki/Other-Page"`);
    expect(html).toContain(`href="${s.url}${full}/wiki/Renamed"`);
    expect(home.html_url).toBe(`${s.url}${full}/wiki/Home`);
  });

  test('bad input: an empty title, content that is no base64, reserved names', async () => {
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/new`, jsonInit('POST', { title: '  ', content_base64: b64('x') }, owner.h)), 400, s.url)).toBe('%!s(<nil>)');
    const bad = await s.fetch(`/api/v1/repos/${full}/wiki/new`, jsonInit('POST', { title: 'Bad', content_base64: 'abc!' }, owner.h));
    expect(await expectApiError(bad, 400, s.url)).toBe('illegal base64 data at input byte 3');
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/new`, jsonInit('POST', { title: 'Short', content_base64: 'YQ' }, owner.h)), 400, s.url)).toBe('illegal base64 data at input byte 0');
    expect(await expectApiError(await page(full, '_pages', 'x'), 400, s.url)).toBe('wiki title is reserved: _pages');
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/page/Home`, jsonInit('PATCH', { title: '_edit' }, owner.h)), 400, s.url)).toBe('wiki title is reserved: _edit');
    // Names git could not hold are refused, never a 500.
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/page/a%00.md`, jsonInit('PATCH', { content_base64: b64('x') }, owner.h)), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/page/a%00.md`, { headers: owner.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/page/..%2F.git%2Fconfig.md`, jsonInit('PATCH', { content_base64: b64('x') }, owner.h)), 400, s.url);
    // Two writers of one new page at once: one makes it, the other hears it exists.
    const both = await Promise.all([page(full, 'Racing', 'one'), page(full, 'Racing', 'two')]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
    // Not JSON at all.
    const notJson = await s.fetch(`/api/v1/repos/${full}/wiki/new`, { method: 'POST', headers: { ...owner.h, 'content-type': 'application/json' }, body: '{' });
    expect([400, 422]).toContain(notJson.status);
  });

  test('who may read and write: the wiki unit, tokens, private repositories, archived ones, globally editable wikis', async () => {
    const pagePath = `/api/v1/repos/${full}/wiki/page/Home`;
    // Readers and anonymous visitors of a public repository read; only writers write.
    expect((await s.fetch(pagePath)).status).toBe(200);
    expect((await s.fetch(pagePath, { headers: reader.h })).status).toBe(200);
    expect(await expectApiError(await page(full, 'By Reader', 'x', reader), 403, s.url)).toBe('user should have a permission to write to a repo');
    expect((await s.fetch(pagePath, { method: 'DELETE', headers: reader.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/repos/${full}/wiki/new`, jsonInit('POST', { title: 'Anon', content_base64: b64('x') }))).status).toBe(401);
    expect((await s.fetch(pagePath, { method: 'DELETE', headers: stranger.h })).status).toBe(403);

    // A private repository's wiki is not found by a stranger.
    const secret = await newRepo(owner, { private: true });
    expect((await page(secret, 'Home', 'secret')).status).toBe(201);
    await expectApiError(await s.fetch(`/api/v1/repos/${secret}/wiki/page/Home`, { headers: stranger.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${secret}/wiki/pages`), 404, s.url);
    await expectApiError(await page(secret, 'Mine', 'x', stranger), 404, s.url);

    // Globally editable: any signed-in user writes; anonymous visitors still do not.
    const open = await newRepo(owner);
    expect((await s.fetch(`/api/v1/repos/${open}`, jsonInit('PATCH', { globally_editable_wiki: true }, owner.h))).status).toBe(200);
    expect((await page(open, 'From A Stranger', 'hello', stranger)).status).toBe(201);
    expect((await s.fetch(`/api/v1/repos/${open}/wiki/new`, jsonInit('POST', { title: 'Anon', content_base64: b64('x') }))).status).toBe(401);

    // The wiki unit off: its pages are not found.
    expect((await s.fetch(`/api/v1/repos/${open}`, jsonInit('PATCH', { has_wiki: false }, owner.h))).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${open}/wiki/pages`, { headers: owner.h }), 404, s.url);
    expect(await hasWikiContents(open)).toBe(true);

    // An archived repository's wiki is read, not written (423).
    const archived = await newRepo(owner);
    expect((await page(archived, 'Home', 'old')).status).toBe(201);
    expect((await s.fetch(`/api/v1/repos/${archived}`, jsonInit('PATCH', { archived: true }, owner.h))).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${archived}/wiki/page/Home`, { headers: owner.h })).status).toBe(200);
    expect((await page(archived, 'New', 'x')).status).toBe(423);

    // A token without write:repository reads but does not write.
    const ro = tokenHeader(await createToken(s.host, owner.name, ['read:repository']));
    expect((await s.fetch(pagePath, { headers: ro })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${full}/wiki/new`, jsonInit('POST', { title: 'RO', content_base64: b64('x') }, ro))).status).toBe(403);
  });

  test('the wiki webhook: created, edited and deleted pages reach a hook that chose wiki events', async () => {
    const repo = await newRepo(owner);
    const hookPath = `/wiki-${uniq('p')}`;
    const res = await s.fetch(`/api/v1/repos/${repo}/hooks`, jsonInit('POST', { type: 'gitea', config: { url: `${receiver.url}${hookPath}`, content_type: 'json' }, events: ['wiki'], active: true }, owner.h));
    expect(res.status).toBe(201);
    const nth = (n: number) => receiver.waitFor((r) => r.url === hookPath, n, 15_000);
    expect((await page(repo, 'Hook Page', 'v1', owner, 'first words')).status).toBe(201);
    const created = await nth(1);
    expect(created.headers['x-gitea-event']).toBe('wiki');
    expect(JSON.parse(created.body)).toMatchObject({ action: 'created', page: 'Hook-Page', comment: 'first words', repository: { full_name: repo, has_wiki_contents: true }, sender: { login: owner.name } });
    expect((await s.fetch(`/api/v1/repos/${repo}/wiki/page/Hook-Page`, jsonInit('PATCH', { content_base64: b64('v2'), message: 'second' }, owner.h))).status).toBe(200);
    expect(JSON.parse((await nth(2)).body)).toMatchObject({ action: 'edited', page: 'Hook-Page', comment: 'second' });
    expect((await s.fetch(`/api/v1/repos/${repo}/wiki/page/Hook-Page`, { method: 'DELETE', headers: owner.h })).status).toBe(204);
    expect(JSON.parse((await nth(3)).body)).toMatchObject({ action: 'deleted', page: 'Hook-Page', comment: '' });
  });
});

describe('the wiki over git', () => {
  test('a clone shows pages written through the API; a push shows in the API; readers cannot push', async () => {
    const full = await newRepo(owner);
    expect((await s.fetch(`/api/v1/repos/${full}/collaborators/${reader.name}`, jsonInit('PUT', { permission: 'read' }, owner.h))).status).toBe(204);
    expect((await page(full, 'Home', 'from the API\n')).status).toBe(201);
    expect((await page(full, 'Second Page', 'two\n')).status).toBe(201);

    const dir = path.join(scratch, uniq('clone'));
    await git(['clone', '-q', wikiUrl(full, owner), dir], scratch);
    expect(await readFile(path.join(dir, 'Home.md'), 'utf8')).toBe('from the API\n');
    expect(await readFile(path.join(dir, 'Second-Page.md'), 'utf8')).toBe('two\n');
    // Anonymous clones of a public repository's wiki work too.
    await git(['clone', '-q', wikiUrl(full), path.join(scratch, uniq('anon'))], scratch);

    await writeFile(path.join(dir, 'Pushed-Page.md'), 'pushed\n');
    await git(['add', '.'], dir);
    await git(['commit', '-q', '-m', 'push a page'], dir);
    await git(['push', '-q', 'origin', 'HEAD'], dir);
    const pushed = checkPage(await json(await s.fetch(`/api/v1/repos/${full}/wiki/page/Pushed-Page`, { headers: owner.h })));
    expect(pushed).toMatchObject({ title: 'Pushed Page', last_commit: { message: 'push a page\n', author: { name: 'Wiki Tester' } } });
    expect(text(pushed.content_base64)).toBe('pushed\n');

    // A reader clones, but its push is refused.
    const readerDir = path.join(scratch, uniq('reader'));
    await git(['clone', '-q', wikiUrl(full, reader), readerDir], scratch);
    await writeFile(path.join(readerDir, 'Nope.md'), 'no\n');
    await git(['add', '.'], readerDir);
    await git(['commit', '-q', '-m', 'nope'], readerDir);
    await expect(git(['push', '-q', 'origin', 'HEAD'], readerDir)).rejects.toThrow(/403|denied/i);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/wiki/page/Nope`, { headers: owner.h }), 404, s.url);
  });

  test("a first push makes the wiki and flips has_wiki_contents; a private repository's wiki asks strangers for nothing", async () => {
    const full = await newRepo(owner, { private: true });
    expect(await hasWikiContents(full)).toBe(false);
    const dir = path.join(scratch, uniq('fresh'));
    await mkdir(dir);
    await git(['init', '-q', '-b', 'main'], dir);
    await writeFile(path.join(dir, 'Home.md'), 'first\n');
    await git(['add', '.'], dir);
    await git(['commit', '-q', '-m', 'first'], dir);
    await git(['push', '-q', wikiUrl(full, owner), 'main'], dir);
    expect(await hasWikiContents(full)).toBe(true);
    expect(text(checkPage(await json(await s.fetch(`/api/v1/repos/${full}/wiki/page/Home`, { headers: owner.h }))).content_base64)).toBe('first\n');
    await expect(git(['clone', '-q', wikiUrl(full, stranger), path.join(scratch, uniq('no'))], scratch)).rejects.toThrow();
    await expect(git(['ls-remote', wikiUrl(full)], scratch)).rejects.toThrow();
  });

  test('a rename moves the wiki with its repository; a deletion removes it', async () => {
    const full = await newRepo(owner);
    expect((await page(full, 'Home', 'kept\n')).status).toBe(201);
    const renamedName = uniq('renamed');
    expect((await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', { name: renamedName }, owner.h))).status).toBe(200);
    const renamed = `${owner.name}/${renamedName}`;
    expect(text(checkPage(await json(await s.fetch(`/api/v1/repos/${renamed}/wiki/page/Home`, { headers: owner.h }))).content_base64)).toBe('kept\n');
    expect(await hasWikiContents(renamed)).toBe(true);
    const dir = path.join(scratch, uniq('renamed'));
    await git(['clone', '-q', wikiUrl(renamed, owner), dir], scratch);
    expect(await readFile(path.join(dir, 'Home.md'), 'utf8')).toBe('kept\n');
    // The old wiki URL redirects to the new one, as the repository's does: git follows it.
    const moved = await s.fetch(`/${full}.wiki.git/info/refs?service=git-upload-pack`, { headers: owner.h, redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/${renamed}.wiki.git/info/refs?service=git-upload-pack`);
    const viaOld = path.join(scratch, uniq('via-old'));
    await git(['clone', '-q', wikiUrl(full, owner), viaOld], scratch);
    expect(await readFile(path.join(viaOld, 'Home.md'), 'utf8')).toBe('kept\n');
    // A private repository's old wiki URL leads nowhere for one who may not see it, as its own old URL does.
    const secret = await newRepo(owner, { private: true });
    const secretName = uniq('secret-renamed');
    expect((await s.fetch(`/api/v1/repos/${secret}`, jsonInit('PATCH', { name: secretName }, owner.h))).status).toBe(200);
    expect((await s.fetch(`/${secret}.wiki.git/info/refs?service=git-upload-pack`, { headers: stranger.h, redirect: 'manual' })).status).toBe(404);
    const ownersMove = await s.fetch(`/${secret}.wiki.git/info/refs?service=git-upload-pack`, { headers: owner.h, redirect: 'manual' });
    expect(ownersMove.status).toBe(301);
    expect(ownersMove.headers.get('location')).toBe(`/${owner.name}/${secretName}.wiki.git/info/refs?service=git-upload-pack`);

    const key = { owner: owner.name.toLowerCase(), name: renamedName.toLowerCase() };
    expect(await s.host.git.exists(wikiRepoKey(key))).toBe(true);
    expect((await s.fetch(`/api/v1/repos/${renamed}`, { method: 'DELETE', headers: owner.h })).status).toBe(204);
    expect(await s.host.git.exists(wikiRepoKey(key))).toBe(false);
    // A repository made again under that name has no wiki.
    const again = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: renamedName }, owner.h));
    expect(checkRepo(await json(again)).has_wiki_contents).toBe(false);
    await expectApiError(await s.fetch(`/api/v1/repos/${renamed}/wiki/pages`, { headers: owner.h }), 404, s.url);
  });
});

describe('repairs', () => {
  test('a wiki write interrupted by a crash is repaired at start-up: has_wiki_contents follows the wiki as git has it', async () => {
    const full = await newRepo(owner);
    expect((await page(full, 'Home', 'soon gone')).status).toBe(201);
    const [ownerName, name] = full.split('/') as [string, string];
    const access = await s.host.repos.resolve(SYSTEM, ownerName, name);
    const wikis = s.host.service(RepoWikiStorage);
    // A write began (its intent recorded) and changed the storage; the process died before the row followed.
    const intent = await wikis.begin(access);
    await s.host.git.remove(wikis.key(access));
    expect(await hasWikiContents(full)).toBe(true);
    const report = await s.host.service(RepoStorageService).reconcile();
    expect(report.resynced).toContainEqual({ owner: ownerName.toLowerCase(), name: name.toLowerCase() });
    expect(await hasWikiContents(full)).toBe(false);
    expect((await s.host.service(RepoStorageService).pending()).some((i) => i.id === intent)).toBe(false);
  });

  test('a rename interrupted after the storage moved is undone at start-up, the wiki with the repository', async () => {
    const full = await newRepo(owner);
    expect((await page(full, 'Home', 'stays')).status).toBe(201);
    const [ownerName, name] = full.split('/') as [string, string];
    const access = await s.host.repos.resolve(SYSTEM, ownerName, name);
    const from = { owner: ownerName.toLowerCase(), name: name.toLowerCase() };
    const to = { owner: from.owner, name: uniq('moved') };
    // The rename recorded its intent and moved both folders; the process died before the row changed.
    const ctx = (s.host as unknown as { ctx: { store<T>(c: new (...a: never[]) => T): T } }).ctx;
    await ctx.store(GitIntentStore).insert('rename', to, access.repo.id);
    await s.host.git.rename(from, to);
    await s.host.git.rename(wikiRepoKey(from), wikiRepoKey(to));
    const report = await s.host.service(RepoStorageService).reconcile();
    expect(report.undoneRenames).toContainEqual(from);
    expect([await s.host.git.exists(wikiRepoKey(from)), await s.host.git.exists(wikiRepoKey(to))]).toEqual([true, false]);
    expect(text(checkPage(await json(await s.fetch(`/api/v1/repos/${full}/wiki/page/Home`, { headers: owner.h }))).content_base64)).toBe('stays');
  });
});

describe.skipIf(TEST_GIT === 'memory')('the wiki over SSH', () => {
  test('the built-in SSH server clones and pushes `owner/repo.wiki.git` for a writer', async () => {
    const ssh = await startSshServer(s.host, { port: 0, hostname: '127.0.0.1' });
    try {
      const keyFile = path.join(scratch, uniq('key'));
      await new Promise<void>((resolve, reject) =>
        execFile('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile], { env: gitEnv }, (error) => (error ? reject(error) : resolve())),
      );
      const publicKey = (await readFile(`${keyFile}.pub`, 'utf8')).trim();
      expect((await s.fetch('/api/v1/user/keys', jsonInit('POST', { title: uniq('k'), key: publicKey }, owner.h))).status).toBe(201);
      const sshEnv = `ssh -F /dev/null -i ${keyFile} -p ${ssh.port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`;
      const full = await newRepo(owner);
      expect((await page(full, 'Home', 'over ssh\n')).status).toBe(201);
      const dir = path.join(scratch, uniq('ssh'));
      const sshGit = (args: string[], cwd: string) => {
        const saved = gitEnv;
        gitEnv = { ...saved, GIT_SSH_COMMAND: sshEnv };
        return git(args, cwd).finally(() => (gitEnv = saved));
      };
      await sshGit(['clone', '-q', `ssh://git@127.0.0.1/${full}.wiki.git`, dir], scratch);
      expect(await readFile(path.join(dir, 'Home.md'), 'utf8')).toBe('over ssh\n');
      await writeFile(path.join(dir, 'By-Ssh.md'), 'pushed over ssh\n');
      await git(['add', '.'], dir);
      await git(['commit', '-q', '-m', 'over ssh'], dir);
      await sshGit(['push', '-q', 'origin', 'HEAD'], dir);
      const pushed = checkPage(await json(await s.fetch(`/api/v1/repos/${full}/wiki/page/By-Ssh`, { headers: owner.h })));
      expect(text(pushed.content_base64)).toBe('pushed over ssh\n');
    } finally {
      await ssh.close();
    }
  });
});

describe.skipIf(TEST_GIT === 'memory')('migrations', () => {
  let migrating: TestServer;
  beforeAll(async () => {
    migrating = await startTestServer({ migrations: { ALLOW_LOCALNETWORKS: true } });
  });
  afterAll(async () => migrating?.cleanup());

  test('`wiki: true` imports `<remote>.wiki.git`; a remote without a wiki leaves none', async () => {
    const full = await newRepo(owner);
    expect((await page(full, 'Home', 'imported\n')).status).toBe(201);
    const plain = await newRepo(owner);
    const who = await account(migrating, 'mg');
    const name = uniq('mig');
    const res = await migrating.fetch('/api/v1/repos/migrate', jsonInit('POST', { clone_addr: `${s.url}${full}.git`, repo_name: name, wiki: true }, who.h));
    expect(res.status, await res.clone().text()).toBe(201);
    expect(checkRepo(await json(res)).has_wiki_contents).toBe(true);
    const imported = checkPage(await json(await migrating.fetch(`/api/v1/repos/${who.name}/${name}/wiki/page/Home`, { headers: who.h })));
    expect(text(imported.content_base64)).toBe('imported\n');

    const without = uniq('mig');
    const res2 = await migrating.fetch('/api/v1/repos/migrate', jsonInit('POST', { clone_addr: `${s.url}${plain}.git`, repo_name: without, wiki: true }, who.h));
    expect(res2.status, await res2.clone().text()).toBe(201);
    expect(checkRepo(await json(res2)).has_wiki_contents).toBe(false);
    await expectApiError(await migrating.fetch(`/api/v1/repos/${who.name}/${without}/wiki/pages`, { headers: who.h }), 404, migrating.url);
  });

  test('wikis are no unadopted repositories', async () => {
    const admin = await account(s, 'ad', { admin: true });
    const listed = await json<string[]>(await s.fetch('/api/v1/admin/unadopted?limit=50', { headers: admin.h }));
    expect(listed.filter((name) => name.endsWith('.wiki'))).toEqual([]);
  });
});
