/**
 * No request may stall the others: the inputs that once held the event loop for seconds to hours (markdown that
 * parses in quadratic time, an SVG sniffing pattern that backtracked exponentially, branch filters compiled to
 * backtracking expressions) are sent, anonymously where the API allows, while another client measures
 * `GET /api/v1/version`. Each answers for itself (rendered, or refused with its reason), and the probe's p99 stays
 * under 100 ms and its slowest under 500 ms, less the time the probing thread waited for a CPU that other threads
 * held.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '@repohost/test-support';
import { account, type Account } from './helpers.js';

const execFileAsync = promisify(execFile);

let server: TestServer;
let owner: Account;

/**
 * This thread's time waiting for a CPU while runnable, in ms (Linux's schedstat), or undefined where the system does
 * not say. The test shares the machine with other test files and processes; when they hold every core, this thread
 * waits in the run queue whatever the server does, and that wait is theirs, not the server's.
 */
function runQueueWaitMs(): number | undefined {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return undefined;
  }
}

/** One probe: its wall-clock time, and the part of it this thread (client and server alike) waited for a CPU. */
interface ProbeTime {
  ms: number;
  waitedMs: number;
}

/** `GET /api/v1/version`, one request after another, until `stop` resolves. */
async function probe(stop: Promise<unknown>): Promise<ProbeTime[]> {
  const times: ProbeTime[] = [];
  let done = false;
  void stop.finally(() => (done = true));
  while (!done) {
    const started = performance.now();
    const waitedBefore = runQueueWaitMs();
    const res = await server.fetch('/api/v1/version');
    await res.arrayBuffer();
    const ms = performance.now() - started;
    const waitedAfter = runQueueWaitMs();
    times.push({ ms, waitedMs: waitedBefore === undefined || waitedAfter === undefined ? 0 : waitedAfter - waitedBefore });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return times;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Status, body and time of each attack, sent at once by a child process. */
type Answers = Record<string, { status: number; body: string; ms: number }>;

const ATTACKER = `
const [base, token, repo] = process.argv.slice(1);
const auth = { authorization: 'token ' + token, 'content-type': 'application/json' };
const post = (path, body, type = 'application/json') => fetch(new URL(path.slice(1), base), { method: 'POST', headers: { 'content-type': type }, body });
const bodies = {
  images: JSON.stringify({ Text: '!['.repeat(2000) + 'x' + '](y)'.repeat(2000), Mode: 'gfm' }),
  emphasis32: '*a'.repeat(16000),
  emphasis1m: JSON.stringify({ Text: '*a'.repeat(500000), Mode: 'gfm' }),
  plain: 'plain words and more words\\n'.repeat(350000),
  branch: JSON.stringify({ content: Buffer.from('x').toString('base64'), message: 'push', new_branch: 'a'.repeat(40) }),
};
const answers = {};
const timed = async (name, send) => {
  const started = performance.now();
  const res = await send();
  answers[name] = { status: res.status, body: await res.text(), ms: performance.now() - started };
};
await Promise.all([
  timed('nested images', () => post('/api/v1/markdown', bodies.images)),
  timed('emphasis 32 KB', () => post('/api/v1/markdown/raw', bodies.emphasis32, 'text/plain')),
  timed('emphasis 1 MB', () => post('/api/v1/markup', bodies.emphasis1m)),
  timed('plain text 9.4 MB', () => post('/api/v1/markdown/raw', bodies.plain, 'text/plain')),
  timed('svg raw', () => fetch(new URL(repo.slice(1) + '/raw/trap.svg', base))),
  timed('svg media', () => fetch(new URL(repo.slice(1) + '/media/trap.svg', base))),
  timed('branch filter', () => fetch(new URL(repo.slice(1) + '/contents/pushed.txt', base), { method: 'POST', headers: auth, body: bodies.branch })),
]);
process.stdout.write(JSON.stringify(answers));
`;

async function runAttacker(base: string, token: string, repo: string): Promise<Answers> {
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', ATTACKER, base, token, repo], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as Answers;
}

beforeAll(async () => {
  // A shorter render budget than the default 5 s keeps the test short; the mechanism is the same.
  server = await startTestServer({ markdown: { RENDER_TIMEOUT: 2 } });
  owner = await account(server, 'avail');
  const created = await server.fetch('/api/v1/user/repos', {
    method: 'POST',
    headers: { ...owner.h, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'target', auto_init: true, default_branch: 'main' }),
  });
  expect(created.status).toBe(201);
}, 120_000);
afterAll(() => server?.cleanup());

describe('availability under hostile input', () => {
  test('markdown, SVG sniffing and branch filters answer for themselves while /version stays fast', { timeout: 120_000 }, async () => {
    const repo = `/api/v1/repos/${owner.name}/target`;
    // 140 empty comments: under the 1 KiB the sniffer reads, and far past what a backtracking pattern survives.
    const svgTrap = `${'<!---->'.repeat(140)}x`;
    const addSvg = await server.fetch(`${repo}/contents/trap.svg`, {
      method: 'POST',
      headers: { ...owner.h, 'content-type': 'application/json' },
      body: JSON.stringify({ content: Buffer.from(svgTrap).toString('base64'), message: 'trap' }),
    });
    expect(addSvg.status).toBe(201);
    const hook = await server.fetch(`${repo}/hooks`, {
      method: 'POST',
      headers: { ...owner.h, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'gitea', config: { url: 'http://example.invalid/hook', content_type: 'json' }, events: ['push', 'create'], branch_filter: '*a*a*a*a*a*a*a*a*a*a*c', active: true }),
    });
    expect(hook.status).toBe(201);

    // The attacks come from another process, so that building and sending 10 MB of bodies is not counted
    // against this process's event loop, which serves the requests and runs the probe.
    const attacks = runAttacker(server.url, owner.token, repo);
    const probes = await probe(attacks);
    const answers = await attacks;

    // Every answer, for the failure message: which request took how long.
    const summary = JSON.stringify(Object.fromEntries(Object.entries(answers).map(([name, a]) => [name, { status: a.status, ms: Math.round(a.ms) }])));
    expect(answers['nested images']!.status, summary).toBe(422);
    expect(JSON.parse(answers['nested images']!.body).message).toBe('[Text]: the document took longer than 2 s to render');
    // Rendered within the budget or refused for overrunning it: which depends on the machine, never a stall.
    expect([200, 422]).toContain(answers['emphasis 32 KB']!.status);
    expect(answers['emphasis 1 MB']!.status, summary).toBe(422);
    expect(answers['plain text 9.4 MB']!.status).toBe(413);
    expect(JSON.parse(answers['plain text 9.4 MB']!.body).message).toBe('the text is larger than the 1048576 bytes a render takes ([markdown] MAX_RENDER_SIZE)');
    for (const name of ['svg raw', 'svg media']) {
      expect(answers[name]!.status).toBe(200);
      expect(answers[name]!.body).toBe(svgTrap);
      expect(answers[name]!.ms).toBeLessThan(1000);
    }
    expect(answers['branch filter']!.status).toBe(201);
    for (const name of ['nested images', 'emphasis 1 MB']) expect(answers[name]!.ms, summary).toBeLessThan(5000);

    expect(probes.length).toBeGreaterThan(20);
    // What the server made the probe wait: its time less this thread's wait for a CPU that other threads held.
    // A request holding the event loop shows here in full (the thread is running or blocked, not queued).
    const held = probes.map((p) => p.ms - p.waitedMs);
    const slowest = [...probes].sort((a, b) => b.ms - a.ms).slice(0, 5).map((p) => `${Math.round(p.ms)} (${Math.round(p.waitedMs)} queued)`);
    const measured = `${probes.length} probes, slowest ${slowest.join(', ')} ms; ${summary}`;
    expect(percentile(held, 99), measured).toBeLessThan(100);
    // Probes run one after another, so a stall is one slow probe among hundreds, which a percentile does not see: an
    // event loop held for seconds by three requests left the p99 at 8 ms. No probe may be held half a second.
    expect(Math.max(...held), measured).toBeLessThan(500);
  });

  test('the SVG trap is served as text (it is not an SVG document), and a real SVG after comments still is one', async () => {
    const repo = `/api/v1/repos/${owner.name}/target`;
    const raw = await server.fetch(`${repo}/raw/trap.svg`);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const svg = '<?xml version="1.0"?>\n<!-- a -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<!-- b --><svg xmlns="http://www.w3.org/2000/svg"></svg>';
    const added = await server.fetch(`${repo}/contents/real.svg`, {
      method: 'POST',
      headers: { ...owner.h, 'content-type': 'application/json' },
      body: JSON.stringify({ content: Buffer.from(svg).toString('base64'), message: 'real' }),
    });
    expect(added.status).toBe(201);
    const real = await server.fetch(`${repo}/raw/real.svg`);
    expect(real.headers.get('content-type')).toBe('image/svg+xml');
    expect(real.headers.get('content-security-policy')).toContain('sandbox');
    expect(await real.text()).toBe(svg);
  });
});
