/**
 * The pages in a real browser (headless Chromium, Debian's package, driven by puppeteer-core): each kind loads without
 * a Content-Security-Policy violation, a console error or a failed request, its stylesheet applies, signing in from a
 * page comes back to it, and Swagger UI renders the API document under its policy. Skipped only where no Chromium is installed and CI is not set.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'puppeteer-core';
import { fileURLToPath } from 'node:url';
import { PASSWORD, createToken, startTestServer, type TestServer } from '@repohost/test-support';
import { seedRepository, type Seeded } from './web-pages-seed';
import { chromiumPath, launchChromium, watchProblems } from './web-pages-chromium';

const available = chromiumPath() !== undefined || process.env.CI === 'true';

let s: TestServer;
let seed: Seeded;
let browser: Browser;

describe.skipIf(!available)('pages in Chromium', () => {
  beforeAll(async () => {
    [s, browser] = await Promise.all([startTestServer(), launchChromium()]);
    seed = await seedRepository(s);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.cleanup();
  });

  test('every kind of page loads cleanly: home, files, issues and pull requests, commits, branches, tags, releases, profiles, sign-in', async () => {
    const head = ((await (await s.fetch(`/api/v1/repos/${seed.owner}/${seed.repo}/commits?sha=main&limit=1`)).json()) as { sha: string }[])[0]!.sha;
    const paths = [
      `${seed.owner}/${seed.repo}`,
      `${seed.owner}/${seed.repo}/src/branch/main/README.md`,
      `${seed.owner}/${seed.repo}/src/branch/main/src/main.ts`,
      `${seed.owner}/${seed.repo}/issues/${seed.issue}`,
      `${seed.owner}/${seed.repo}/pulls/${seed.pull}`,
      `${seed.owner}/${seed.repo}/issues?state=all`,
      `${seed.owner}/${seed.repo}/pulls`,
      `${seed.owner}/${seed.repo}/commits/branch/main`,
      `${seed.owner}/${seed.repo}/commit/${head}`,
      `${seed.owner}/${seed.repo}/branches`,
      `${seed.owner}/${seed.repo}/tags`,
      `${seed.owner}/${seed.repo}/releases`,
      seed.owner,
      seed.org,
      'user/login',
    ];
    const page = await browser.newPage();
    const problems = watchProblems(page);
    for (const path of paths) {
      const res = await page.goto(`${s.url}${path}`, { waitUntil: 'load' });
      expect(res?.status(), path).toBe(200);
      // The stylesheet applied (the site bar is dark), and no script ran: the hostile alerts never fire.
      const bar = await page.$eval('header.site', (el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor);
      expect(bar, path).toBe('rgb(36, 41, 47)');
    }
    let alerted = false;
    page.on('dialog', () => (alerted = true));
    await page.goto(`${s.url}${seed.owner}/${seed.repo}/issues/${seed.issue}`, { waitUntil: 'load' });
    expect(alerted).toBe(false);
    expect(problems.messages).toEqual([]);
    await page.close();
  }, 60_000);

  test('signing in from a page in the browser comes back to that page, signed in', async () => {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(`${s.url}${seed.owner}/${seed.repo}/issues?state=all`, { waitUntil: 'load' });
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('header.site a[href$="user/login"]')]);
    await page.type('input[name="user_name"]', seed.owner);
    await page.type('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type="submit"]')]);
    expect(page.url()).toBe(`${s.url}${seed.owner}/${seed.repo}/issues?state=all`);
    const bar = await page.$eval('header.site', (el) => el.textContent ?? '');
    expect(bar).toContain(`Signed in as ${seed.owner}`);
    // The session shows what the owner may see: the private repository.
    expect((await page.goto(`${s.url}${seed.owner}/${seed.privateRepo}`, { waitUntil: 'load' }))?.status()).toBe(200);
    expect(problems.messages).toEqual([]);
    await page.close();
  }, 60_000);

  test('the typed client (@repohost/client, bundled for the browser) calls the API from a page: a read, a write, a page of a list, a typed error', async () => {
    const { build } = await import('esbuild');
    const bundle = await build({ entryPoints: [fileURLToPath(new URL('../../client/src/index.ts', import.meta.url))], bundle: true, write: false, format: 'iife', globalName: 'RepoHostClientModule', platform: 'browser', target: 'chrome120' });
    const token = await createToken(s.host, seed.owner);
    const page = await browser.newPage();
    // The pages allow no script: the bundle goes in through DevTools, as a browser app would load it from its own origin.
    await page.setBypassCSP(true);
    await page.goto(`${s.url}${seed.owner}`, { waitUntil: 'load' });
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    const answer = await page.evaluate(
      async (owner: string, repo: string, token: string) => {
        const module = (globalThis as unknown as { RepoHostClientModule: typeof import('@repohost/client') }).RepoHostClientModule;
        const origin = (globalThis as unknown as { location: { origin: string } }).location.origin;
        const client = new module.RepoHostClient({ url: `${origin}/`, auth: { token } });
        const read = await client.repos.get(owner, repo);
        const issue = await client.issues.createIssue(owner, repo, { title: 'From the browser' });
        const firstPage = await client.issues.listIssues(owner, repo, { state: 'all', limit: 1 }).page();
        let missing = '';
        try {
          await client.repos.get(owner, 'no-such-repository');
        } catch (error) {
          missing = error instanceof module.NotFoundError ? `NotFoundError ${error.status}` : String(error);
        }
        return { name: read.full_name, issue: issue.title, items: firstPage.items.length, total: firstPage.total, missing };
      },
      seed.owner,
      seed.repo,
      token,
    );
    expect(answer).toMatchObject({ name: `${seed.owner}/${seed.repo}`, issue: 'From the browser', items: 1, missing: 'NotFoundError 404' });
    expect(answer.total).toBeGreaterThan(1);
    await page.close();
  }, 60_000);

  test('Swagger UI renders the API document under its policy', async () => {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    const res = await page.goto(`${s.url}api/swagger`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 20_000 });
    const title = await page.$eval('.swagger-ui .info .title', (el) => el.textContent ?? '');
    expect(title).toContain('RepoHost');
    await page.waitForSelector('.opblock-tag', { timeout: 20_000 });
    expect(problems.messages).toEqual([]);
    await page.close();
  }, 60_000);
});
