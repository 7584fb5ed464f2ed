/**
 * Protocol v2's `ls-refs` over smart HTTP is answered from the server's ref listing instead of a `git upload-pack`
 * process. Every answer is compared byte for byte with what git itself answers to the same request on the same
 * repository (`git upload-pack --stateless-rpc` with the server's configuration), for the requests git's clients
 * send and for the corners: annotated tags, symbolic refs, hidden refs, prefixes, an unborn HEAD, refs changed on
 * disk by another process. Requests of any other shape still go to git.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';

let ts: TestServer;
let scratch: string;
let env: NodeJS.ProcessEnv;
let token: string;

function git(args: string[], cwd = scratch): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')}: ${stderr}`));
      else resolve(String(stdout));
    });
  });
}

/** git's own answer: upload-pack over stdin/stdout with the server's transfer configuration. */
function gitAnswer(repoDir: string, body: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'transfer.hideRefs=refs/repohost', '-c', 'uploadpack.allowFilter=true', '-c', 'uploadpack.allowAnySHA1InWant=true', 'upload-pack', '--stateless-rpc', repoDir], {
      env: { ...env, GIT_PROTOCOL: 'version=2' },
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git upload-pack exited ${code}: ${err}`))));
    child.stdin.end(body);
  });
}

const pkt = (payload: string) => Buffer.concat([Buffer.from((Buffer.byteLength(payload) + 4).toString(16).padStart(4, '0')), Buffer.from(payload)]);
const DELIM = Buffer.from('0001');
const FLUSH = Buffer.from('0000');

/** A stateless `ls-refs` request as git's clients send it. */
function lsRefs(args: string[], capabilities = ['agent=git/2.39.5', 'object-format=sha1']): Buffer {
  return Buffer.concat([pkt('command=ls-refs\n'), ...capabilities.map((c) => pkt(`${c}\n`)), DELIM, ...args.map((a) => pkt(`${a}\n`)), FLUSH]);
}

async function post(repo: string, body: Buffer): Promise<{ status: number; body: Buffer }> {
  const res = await ts.fetch(`/alice/${repo}.git/git-upload-pack`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' },
    body,
  });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

const processes = () => (ts.host.git as unknown as { processesStarted: number }).processesStarted;
const repoDir = (name: string) => path.join(ts.host.settings.repository.ROOT, 'alice', `${name}.git`);

/** The requests compared with git's answers. */
const REQUESTS: Array<[string, Buffer]> = [
  ['no arguments', lsRefs([])],
  ['what git clone sends', lsRefs(['peel', 'symrefs', 'unborn', 'ref-prefix HEAD', 'ref-prefix refs/heads/', 'ref-prefix refs/tags/'])],
  ['what git fetch of one branch sends', lsRefs(['symrefs', 'ref-prefix main', 'ref-prefix refs/main', 'ref-prefix refs/tags/main', 'ref-prefix refs/heads/main', 'ref-prefix refs/remotes/main', 'ref-prefix refs/remotes/main/HEAD', 'ref-prefix refs/tags/'])],
  ['peeled tags', lsRefs(['peel', 'ref-prefix refs/tags/'])],
  ['symbolic refs', lsRefs(['symrefs', 'ref-prefix refs/heads/'])],
  ['a partial name prefix', lsRefs(['ref-prefix refs/heads/fe', 'ref-prefix refs/pull/'])],
  ['hidden refs asked for by name', lsRefs(['ref-prefix refs/repohost/', 'ref-prefix refs/repohost'])],
  ['unborn without symrefs', lsRefs(['unborn', 'ref-prefix HEAD'])],
  ['unborn with symrefs', lsRefs(['unborn', 'symrefs', 'ref-prefix HEAD'])],
  ['no capabilities', lsRefs(['symrefs'], [])],
  ['server options', lsRefs(['peel'], ['agent=x', 'server-option=a b', 'object-format=sha1'])],
  ['arguments without a newline', Buffer.concat([pkt('command=ls-refs'), DELIM, pkt('symrefs'), pkt('ref-prefix HEAD'), FLUSH])],
];

beforeAll(async () => {
  ts = await startTestServer();
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-ls-refs-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n');
  env = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  await createUser(ts.host, 'alice');
  token = await createToken(ts.host, 'alice');
  for (const name of ['refs', 'empty']) {
    const res = await ts.fetch('/api/v1/user/repos', jsonInit('POST', { name }, tokenHeader(token)));
    expect(res.status).toBe(201);
  }
  // main (two commits), feature, fe/nested, a lightweight tag, annotated tags on a commit and on a tree.
  const work = path.join(scratch, 'work');
  await git(['init', '-q', work]);
  for (const n of [1, 2]) {
    await writeFile(path.join(work, `f${n}`), `${n}\n`);
    await git(['add', '.'], work);
    await git(['commit', '-q', '-m', `c${n}`], work);
  }
  await git(['branch', 'feature', 'HEAD~1'], work);
  await git(['branch', 'fe/nested'], work);
  await git(['tag', 'light', 'HEAD~1'], work);
  await git(['tag', '-a', '-m', 'release', 'v1'], work);
  await git(['tag', '-a', '-m', 'a tree', 'tree-tag', 'HEAD^{tree}'], work);
  const url = `http://alice:${token}@127.0.0.1:${new URL(ts.url).port}/alice/refs.git`;
  await git(['push', '-q', url, '--all'], work);
  await git(['push', '-q', url, '--tags'], work);
  // What the server makes itself: a pull request's head, a hidden bookkeeping ref, and a symbolic ref.
  const bare = repoDir('refs');
  await git(['--git-dir', bare, 'update-ref', 'refs/pull/1/head', 'refs/heads/feature']);
  await git(['--git-dir', bare, 'update-ref', 'refs/repohost/merge/1', 'refs/heads/main']);
  await git(['--git-dir', bare, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main']);
});

afterAll(async () => {
  await ts?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('ls-refs over smart HTTP', () => {
  for (const repo of ['refs', 'empty']) {
    for (const [label, body] of REQUESTS) {
      it(`answers ${label} as git does (${repo})`, async () => {
        const ours = await post(repo, body);
        expect(ours.status).toBe(200);
        expect(ours.body.toString('latin1')).toBe((await gitAnswer(repoDir(repo), body)).toString('latin1'));
      });
    }
  }

  it('starts no git process once the listing is read, and sees a ref another process changes on disk', async () => {
    const clone = lsRefs(['peel', 'symrefs', 'unborn', 'ref-prefix HEAD', 'ref-prefix refs/heads/', 'ref-prefix refs/tags/']);
    await post('refs', clone);
    // The listing is kept once the refs' stamp is older than the file system's clock tick (2 s).
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await post('refs', clone);
    const before = processes();
    const again = await post('refs', clone);
    expect(processes()).toBe(before);
    expect(again.body.toString('latin1')).toBe((await gitAnswer(repoDir('refs'), clone)).toString('latin1'));

    // Another process (git itself here) adds a branch, packs the refs, deletes one: each shows at once.
    const bare = repoDir('refs');
    await git(['--git-dir', bare, 'update-ref', 'refs/heads/added', 'refs/heads/main']);
    let now = await post('refs', clone);
    expect(now.body.toString('latin1')).toContain(' refs/heads/added\n');
    expect(now.body.toString('latin1')).toBe((await gitAnswer(bare, clone)).toString('latin1'));
    await git(['--git-dir', bare, 'pack-refs', '--all']);
    await git(['--git-dir', bare, 'update-ref', '-d', 'refs/heads/added']);
    now = await post('refs', clone);
    expect(now.body.toString('latin1')).not.toContain('refs/heads/added');
    expect(now.body.toString('latin1')).toBe((await gitAnswer(bare, clone)).toString('latin1'));
    // HEAD moved to another branch.
    await git(['--git-dir', bare, 'symbolic-ref', 'HEAD', 'refs/heads/feature']);
    now = await post('refs', clone);
    expect(now.body.toString('latin1')).toContain('HEAD symref-target:refs/heads/feature');
    expect(now.body.toString('latin1')).toBe((await gitAnswer(bare, clone)).toString('latin1'));
    await git(['--git-dir', bare, 'symbolic-ref', 'HEAD', 'refs/heads/main']);
  });

  it('leaves requests of another shape to git, which answers or refuses them as before', async () => {
    const cases = [
      lsRefs(['bogus-argument']),
      lsRefs(['symrefs'], ['object-format=sha256']),
      lsRefs(['symrefs'], ['session-id=abc']),
      Buffer.concat([pkt('command=ls-refs\n'), FLUSH]),
      Buffer.concat([lsRefs(['symrefs']), pkt('trailing\n')]),
      Buffer.from('zzzz'),
    ];
    for (const body of cases) {
      const before = processes();
      const res = await post('refs', body);
      expect(res.status).toBeLessThan(500);
      expect(processes()).toBeGreaterThan(before);
    }
  });

  it('serves clones, ls-remote and fetches over protocol v2', async () => {
    const url = `http://alice:${token}@127.0.0.1:${new URL(ts.url).port}/alice/refs.git`;
    const remote = await git(['-c', 'protocol.version=2', 'ls-remote', '--symref', url]);
    expect(remote).toContain('ref: refs/heads/main\tHEAD');
    expect(remote).toContain('refs/tags/v1^{}');
    expect(remote).not.toContain('refs/repohost');
    const dir = path.join(scratch, 'clone');
    await git(['-c', 'protocol.version=2', 'clone', '-q', url, dir]);
    expect((await git(['rev-parse', 'HEAD'], dir)).trim()).toBe((await git(['--git-dir', repoDir('refs'), 'rev-parse', 'refs/heads/main'])).trim());
    expect(await git(['tag', '--list'], dir)).toBe('light\ntree-tag\nv1\n');
    await git(['-c', 'protocol.version=2', 'fetch', '-q', 'origin', 'feature'], dir);
    const empty = path.join(scratch, 'empty-clone');
    const result = await new Promise<string>((resolve) => execFile('git', ['-c', 'protocol.version=2', 'clone', `http://alice:${token}@127.0.0.1:${new URL(ts.url).port}/alice/empty.git`, empty], { env }, (_e, _o, stderr) => resolve(String(stderr))));
    expect(result).toContain('You appear to have cloned an empty repository');
    expect((await git(['symbolic-ref', 'HEAD'], empty)).trim()).toBe('refs/heads/main');
  });
});
