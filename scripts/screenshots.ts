/**
 * `npm run screenshots`: starts a server on a fresh in-memory forge, seeds a repository through the API (the web
 * pages' test seed), and writes PNGs of the repository home, a file, an issue, a pull request and the API
 * documentation into docs/screenshots/, taken by headless Chromium (Debian's `chromium`; REPOHOST_CHROMIUM names
 * another). Run from the sources with tsx.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '@repohost/test-support';
import { seedRepository } from '../packages/server/test/web-pages-seed.js';
import { launchChromium, watchProblems } from '../packages/server/test/web-pages-chromium.js';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');

const server = await startTestServer();
const browser = await launchChromium();
try {
  const seed = await seedRepository(server);
  await mkdir(out, { recursive: true });
  const shots: [string, string][] = [
    ['repository-home', `${seed.owner}/${seed.repo}`],
    ['file', `${seed.owner}/${seed.repo}/src/branch/main/src/main.ts`],
    ['issue', `${seed.owner}/${seed.repo}/issues/${seed.issue}`],
    ['pull-request', `${seed.owner}/${seed.repo}/pulls/${seed.pull}`],
    ['api-documentation', 'api/swagger'],
  ];
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 850 });
  const problems = watchProblems(page);
  for (const [name, where] of shots) {
    const res = await page.goto(`${server.url}${where}`, { waitUntil: 'networkidle0' });
    if (res?.status() !== 200) throw new Error(`${where}: ${res?.status()}`);
    if (name === 'api-documentation') await page.waitForSelector('.opblock-tag', { timeout: 30_000 });
    const file = path.join(out, `${name}.png`);
    await page.screenshot({ path: file as `${string}.png` });
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
  if (problems.messages.length > 0) throw new Error(`the pages reported problems:\n${problems.messages.join('\n')}`);
} finally {
  await browser.close();
  await server.cleanup();
}
