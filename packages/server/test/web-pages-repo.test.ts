/**
 * The read-only pages behind `html_url`: a repository seeded through the API, read as an anonymous browser and as
 * a signed-in one. Every page is HTML under the strict policy, shows hostile names and markdown as text, answers 404
 * for what the viewer may not see, and links only to pages that exist.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PASSWORD, TEST_GIT, startTestServer, type TestServer } from '@repohost/test-support';
import { BIG, HOSTILE, seedRepository, type Seeded } from './web-pages-seed';

let s: TestServer;
let seed: Seeded;

beforeAll(async () => {
  s = await startTestServer();
  seed = await seedRepository(s);
});
afterAll(async () => s?.cleanup());

async function pageOf(path: string, init?: RequestInit): Promise<{ res: Response; text: string }> {
  const res = await s.fetch(path, { redirect: 'manual', ...init });
  return { res, text: await res.text() };
}

/** A page as the pages serve it: HTML, the strict policy, no script anywhere, none of the hostile text unescaped. */
function expectSafePage(res: Response, text: string): void {
  expect(res.headers.get('content-type')).toBe('text/html;charset=utf-8');
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'none'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(text).not.toContain('<script');
  expect(text).not.toContain(HOSTILE);
  expect(text).not.toMatch(/ on[a-z]+=/i);
  expect(text).not.toContain('javascript:');
  expect(text).not.toContain(' style=');
  expect(text).not.toContain('<style');
  expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
}

function hrefs(text: string): string[] {
  return [...text.matchAll(/ (?:href|src)="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"'));
}

describe('repository home', () => {
  test('shows the description, README rendered, the tree, refs and clone URLs', async () => {
    const { res, text } = await pageOf(`/${seed.owner}/${seed.repo}`);
    expect(res.status).toBe(200);
    expectSafePage(res, text);
    expect(text).toContain('A demo &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; repository');
    // The README through the markup domain: headings and emphasis rendered, the script and handler gone.
    expect(text).toMatch(/<h1[^>]*>Demo<\/h1>/);
    expect(text).toContain('<em>small</em>');
    expect(text).toContain('README.md');
    for (const name of ['data/', 'docs/', 'src/', 'README.md', 'logo.bin']) expect(text).toContain(`>${name}</a>`);
    expect(text).toContain(`value="${s.url}${seed.owner}/${seed.repo}.git"`);
    expect(text).toContain('2 branches');
    expect(text).toContain('1 tag');
    expect(text).toMatch(/<link rel="stylesheet" href="\/assets\/repohost-[0-9a-f]{12}\.css">/);
    const head = await s.fetch(`/${seed.owner}/${seed.repo}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(res.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  test('every same-origin link of the home page resolves', async () => {
    const { text } = await pageOf(`/${seed.owner}/${seed.repo}`);
    const links = [...new Set(hrefs(text).filter((h) => h.startsWith('/') || h.startsWith(s.url)))];
    expect(links.length).toBeGreaterThan(10);
    const answers = await Promise.all(links.map(async (href) => [href, (await s.fetch(href.startsWith('/') ? href : href.slice(s.url.length - 1), { redirect: 'manual' })).status] as const));
    const broken = answers.filter(([, status]) => status >= 400);
    expect(broken).toEqual([]);
  });

  test('the stylesheet is one immutable file, and the same name again is a 304', async () => {
    const { text } = await pageOf(`/${seed.owner}/${seed.repo}`);
    const css = hrefs(text).find((h) => h.endsWith('.css'))!;
    const res = await s.fetch(css);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css;charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('immutable');
    const again = await s.fetch(css, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await s.fetch('/assets/nothing.css')).status).toBe(404);
  });

  test('a private repository, a missing one and a missing owner are the same 404 page to anonymous', async () => {
    for (const path of [`/${seed.owner}/${seed.privateRepo}`, `/${seed.owner}/${seed.privateRepo}/src/branch/main/README.md`, `/${seed.owner}/${seed.privateRepo}/issues`, `/${seed.owner}/nothing`, '/nobody-here', '/nobody-here/x']) {
      const { res, text } = await pageOf(path);
      expect(res.status, path).toBe(404);
      expectSafePage(res, text);
      expect(text).not.toContain(seed.privateRepo === 'secret' && path.includes('secret') ? 'Initial commit' : '\u0000');
    }
  });

  test('the owner sees the private repository once signed in through the sign-in form', async () => {
    const cookie = await signIn(seed.owner);
    const { res, text } = await pageOf(`/${seed.owner}/${seed.privateRepo}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(text).toContain('Private');
    expect(text).toContain(`Signed in as <a href="/${seed.owner}">${seed.owner}</a>`);
    const profile = await pageOf(`/${seed.owner}`, { headers: { cookie } });
    expect(profile.text).toContain(`>${seed.privateRepo}</a>`);
    const anonymous = await pageOf(`/${seed.owner}`);
    expect(anonymous.text).not.toContain(`>${seed.privateRepo}</a>`);
  });
});

describe('signing in from a page', () => {
  test('the Sign in link leads to /user/login, whose form returns to the page it was followed from; only paths of this site', async () => {
    const home = await pageOf(`/${seed.owner}/${seed.repo}`);
    expect(home.text).toContain('<a href="/user/login">Sign in</a>');
    const root = s.host.settings.server.ROOT_URL;
    const returnOf = async (init: RequestInit, query = '') => {
      const res = await s.fetch(`/user/login${query}`, init);
      expect(res.status).toBe(200);
      // The sign-in form is one of the site's pages now: its stylesheet, no inline style or script allowed.
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toContain('unsafe');
      const text = await res.clone().text();
      expect(text).not.toMatch(/<script|<style|style=/i);
      expect(text).toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+\.css">/);
      return /name="return_to" value="([^"]*)"/.exec(await res.text())?.[1];
    };
    expect(await returnOf({ headers: { referer: `${root}${seed.owner}/${seed.repo}/issues?state=all` } })).toBe(`${seed.owner}/${seed.repo}/issues?state=all`);
    expect(await returnOf({}, `?redirect_to=${encodeURIComponent(`/${seed.owner}/${seed.repo}`)}`)).toBe(`${seed.owner}/${seed.repo}`);
    // Another site, a scheme-relative or climbing path, or a header-splitting one: back to the two-factor page only.
    for (const wanted of ['//evil.example/x', 'https://evil.example/', '../x', 'a/../../b', 'a\\b', 'a\r\nSet-Cookie:x=y', 'a b']) {
      expect(await returnOf({}, `?redirect_to=${encodeURIComponent(wanted)}`)).toBe('user/settings/security/two_factor');
    }
    expect(await returnOf({ headers: { referer: 'https://evil.example/alice' } })).toBe('user/settings/security/two_factor');

    // The form posted with a page path signs in and goes back there, with the session.
    const form = await s.fetch(`/user/login?redirect_to=${encodeURIComponent(`${seed.owner}/${seed.privateRepo}`)}`, { redirect: 'manual' });
    const cookie = form.headers.get('set-cookie')!.split(';')[0]!;
    const html = await form.text();
    const fields: Record<string, string> = { user_name: seed.owner, password: PASSWORD };
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
    const res = await s.fetch('/user/login', { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root}${seed.owner}/${seed.privateRepo}`);
    const session = (res.headers.get('set-cookie') ?? cookie).split(';')[0]!;
    expect((await pageOf(`/${seed.owner}/${seed.privateRepo}`, { headers: { cookie: session } })).res.status).toBe(200);
    // A return path changed in the form to another site is not followed.
    const tampered = await s.fetch('/user/login', { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...fields, return_to: '//evil.example/' }).toString() });
    expect(tampered.headers.get('location') ?? '').not.toContain('evil.example');
  });
});

/** Signs in through the sign-in form (the two-factor settings page shows it), returning the session cookie. */
async function signIn(name: string): Promise<string> {
  const form = await s.fetch('/user/settings/security/two_factor', { redirect: 'manual' });
  const cookie = form.headers.get('set-cookie')!.split(';')[0]!;
  const html = await form.text();
  const fields: Record<string, string> = { user_name: name, password: PASSWORD };
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
  const res = await s.fetch('/user/login', { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? cookie).split(';')[0]!;
}

describe('files', () => {
  test('markdown renders, code shows escaped, folders list, binary files link to raw', async () => {
    const md = await pageOf(`/${seed.owner}/${seed.repo}/src/branch/main/docs/guide.md`);
    expect(md.res.status).toBe(200);
    expectSafePage(md.res, md.text);
    expect(md.text).toMatch(/<h1[^>]*>Guide<\/h1>/);
    const code = await pageOf(`/${seed.owner}/${seed.repo}/src/branch/main/src/main.ts`);
    expect(code.res.status).toBe(200);
    expectSafePage(code.res, code.text);
    // Highlighted (Lezer, in a worker thread): tokens in classes, the hostile string still escaped inside its span.
    expect(code.text).toContain('<span class="tok-keyword">const</span> <span class="tok-variableName tok-definition">tag</span>');
    expect(code.text).toContain('<span class="tok-string">&quot;&lt;script&gt;alert(&#39;code&#39;)&lt;/script&gt;&quot;</span>');
    expect(code.text).toContain(`href="/${seed.owner}/${seed.repo}/raw/branch/main/src/main.ts"`);
    const dir = await pageOf(`/${seed.owner}/${seed.repo}/src/branch/main/src`);
    expect(dir.res.status).toBe(200);
    expect(dir.text).toContain('>a &lt;b&gt; &amp; c.txt</a>');
    expect(dir.text).toContain('href="/alice/demo/src/branch/main/src/a%20%3Cb%3E%20%26%20c.txt"');
    const hostile = await pageOf('/alice/demo/src/branch/main/src/a%20%3Cb%3E%20%26%20c.txt');
    expect(hostile.res.status).toBe(200);
    const binary = await pageOf(`/${seed.owner}/${seed.repo}/src/branch/main/logo.bin`);
    expect(binary.text).toContain('Binary file');
  });

  test('a branch with a slash, a tag and a commit name trees; a missing path or ref is a 404', async () => {
    expect((await pageOf(`/${seed.owner}/${seed.repo}/src/branch/feature/x/src/feature.ts`)).res.status).toBe(200);
    expect((await pageOf(`/${seed.owner}/${seed.repo}/src/tag/v1.0/README.md`)).res.status).toBe(200);
    const commits = await (await s.fetch(`/api/v1/repos/${seed.owner}/${seed.repo}/commits?sha=main&limit=1`)).json() as { sha: string }[];
    expect((await pageOf(`/${seed.owner}/${seed.repo}/src/commit/${commits[0]!.sha}/docs`)).res.status).toBe(200);
    for (const path of ['src/branch/main/nothing.md', 'src/branch/nothing/README.md', 'src/tag/v9/README.md', 'src/commit/0000000000000000000000000000000000000000/README.md', 'src/other/main', 'raw/branch/main/docs', 'nothing',
      'src/branch/a..b/x', 'src/branch/-x/y', 'src/branch/main/%2e%2e/secret/README.md', 'raw/commit/zzzz/README.md', 'raw/branch/main/%2e%2e%2fREADME.md',
      `commit/${'a'.repeat(64)}`, 'commits/branch/nothing', 'commits/other', 'releases/tag', 'issues/99999999999999999', 'branches/x']) {
      const { res, text } = await pageOf(`/${seed.owner}/${seed.repo}/${path}`);
      expect(res.status, path).toBe(404);
      expectSafePage(res, text);
    }
  });

  test('raw serves the bytes, never as a page that runs', async () => {
    const res = await s.fetch(`/${seed.owner}/${seed.repo}/raw/branch/main/src/main.ts`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain("<script>alert('code')</script>");
    const again = await s.fetch(`/${seed.owner}/${seed.repo}/raw/branch/main/src/main.ts`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const big = await s.fetch(`/${seed.owner}/${seed.repo}/raw/commit/${(await s.fetch(`/api/v1/repos/${seed.owner}/${seed.repo}/branches/main`).then((r) => r.json()) as { commit: { id: string } }).commit.id}/data/big.txt`);
    expect(big.status).toBe(200);
    expect(await big.text()).toBe(BIG);
    const bigPage = await pageOf(`/${seed.owner}/${seed.repo}/src/branch/main/data/big.txt`);
    expect(bigPage.text).toContain('line 3999 &lt;tag&gt; &amp; more');
    const head = await s.fetch(`/${seed.owner}/${seed.repo}/raw/branch/feature/x/src/feature.ts`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String('export const feature = true;\n'.length));
  });
});

describe('issues and pull requests', () => {
  test('the issue list filters by state and shows hostile titles as text', async () => {
    const open = await pageOf(`/${seed.owner}/${seed.repo}/issues`);
    expect(open.res.status).toBe(200);
    expectSafePage(open.res, open.text);
    expect(open.text).toContain('Broken &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; title');
    expect(open.text).not.toContain('A closed one');
    const closed = await pageOf(`/${seed.owner}/${seed.repo}/issues?state=closed`);
    expect(closed.text).toContain('A closed one');
    expect(closed.text).not.toContain('Broken &lt;');
    const all = await pageOf(`/${seed.owner}/${seed.repo}/issues?state=all&page=x`);
    expect(all.text).toContain('A closed one');
    expect(all.text).toContain('Broken &lt;');
  });

  test('an issue shows its body and comments rendered, nothing of their markup runs', async () => {
    const { res, text } = await pageOf(`/${seed.owner}/${seed.repo}/issues/${seed.issue}`);
    expect(res.status).toBe(200);
    expectSafePage(res, text);
    expect(text).toContain('<em>markdown</em>');
    expect(text).toContain('<strong>bold</strong>');
    expect(text).toMatch(/id="issuecomment-\d+"/);
    // The timeline's events, the label's hostile name as text.
    expect(text).toContain('added the label <span class="badge">bug &lt;script&gt;');
    expect(text.indexOf('closed this')).toBeGreaterThan(-1);
    expect(text.indexOf('reopened this')).toBeGreaterThan(text.indexOf('closed this'));
    // The pull request's number under /issues goes to its own page.
    const moved = await s.fetch(`/${seed.owner}/${seed.repo}/issues/${seed.pull}`, { redirect: 'manual' });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe(`/${seed.owner}/${seed.repo}/pulls/${seed.pull}`);
    for (const path of ['issues/999', 'issues/0', 'issues/x', 'pulls/999']) expect((await pageOf(`/${seed.owner}/${seed.repo}/${path}`)).res.status, path).toBe(404);
  });

  test('a pull request shows its branches, comments and diff', async () => {
    const { res, text } = await pageOf(`/${seed.owner}/${seed.repo}/pulls/${seed.pull}`);
    expect(res.status).toBe(200);
    expectSafePage(res, text);
    expect(text).toContain('<code>feature/x</code>');
    expect(text).toContain('Looks good to me.');
    if (TEST_GIT === 'native') {
      expect(text).toMatch(/<a href="\/alice\/demo\/src\/commit\/[0-9a-f]{40}\/src\/feature.ts">src\/feature.ts<\/a><\/td><td>added<\/td>/);
      expect(text).toMatch(/src\/main.ts<\/a><\/td><td>changed<\/td>/);
      // Every link of the pull request's page resolves too (its files at the head commit).
      const links = [...new Set(hrefs(text).filter((h) => h.startsWith('/')))];
      const statuses = await Promise.all(links.map(async (href) => [href, (await s.fetch(href, { redirect: 'manual' })).status] as const));
      expect(statuses.filter(([, status]) => status >= 400)).toEqual([]);
    }
    // The in-memory git backend makes no diffs: the page says so instead.
    if (TEST_GIT === 'native') expect(text).toContain('<span class="add">+export const feature = true;</span>');
    else expect(text).toContain('shows no diffs');
    const list = await pageOf(`/${seed.owner}/${seed.repo}/pulls`);
    expect(list.text).toContain('Feature &lt;script&gt;');
  });
});

describe('profiles, commits, releases', () => {
  test('a user and an organization', async () => {
    const user = await pageOf(`/${seed.owner}`);
    expect(user.res.status).toBe(200);
    expectSafePage(user.res, user.text);
    expect(user.text).toContain(`>${seed.repo}</a>`);
    const org = await pageOf(`/${seed.org}`);
    expect(org.res.status).toBe(200);
    expectSafePage(org.res, org.text);
    expect(org.text).toContain('Organization');
    expect(org.text).toContain('About &lt;script&gt;');
    expect(org.text).toContain('>tools</a>');
  });

  test('the commit list and one commit with its diff', async () => {
    const list = await pageOf(`/${seed.owner}/${seed.repo}/commits/branch/feature/x`);
    expect(list.res.status).toBe(200);
    expectSafePage(list.res, list.text);
    expect(list.text).toContain('Add a feature &lt;script&gt;');
    const sha = /href="\/alice\/demo\/commit\/([0-9a-f]{40})"/.exec(list.text)![1]!;
    const one = await pageOf(`/${seed.owner}/${seed.repo}/commit/${sha}`);
    expect(one.res.status).toBe(200);
    expectSafePage(one.res, one.text);
    expect(one.text).toContain(TEST_GIT === 'native' ? 'diff --git' : 'shows no diffs');
    expect((await pageOf(`/${seed.owner}/${seed.repo}/commit/nothing`)).res.status).toBe(404);
  });

  test('releases, one by its tag', async () => {
    const list = await pageOf(`/${seed.owner}/${seed.repo}/releases`);
    expect(list.res.status).toBe(200);
    expectSafePage(list.res, list.text);
    expect(list.text).toContain('First &lt;script&gt;');
    expect(list.text).toContain('<strong>bold</strong>');
    expect((await pageOf(`/${seed.owner}/${seed.repo}/releases/tag/v1.0`)).res.status).toBe(200);
    expect((await pageOf(`/${seed.owner}/${seed.repo}/releases/tag/v9`)).res.status).toBe(404);
  });
});

describe('routes beside the pages', () => {
  test('git, the API and their errors are untouched', async () => {
    const refs = await s.fetch(`/${seed.owner}/${seed.repo}.git/info/refs?service=git-upload-pack`);
    expect(refs.status).toBe(200);
    expect(refs.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    const api = await s.fetch('/api/v1/repos/alice/nothing');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    const unknownApi = await s.fetch('/api/nothing');
    expect(unknownApi.headers.get('content-type')).toMatch(/^application\/json/);
    const home = await pageOf('/');
    expect(home.res.status).toBe(200);
    expectSafePage(home.res, home.text);
    // A POST to a page is not a page.
    expect((await s.fetch(`/${seed.owner}/${seed.repo}`, { method: 'POST' })).status).toBe(404);
  });
});
