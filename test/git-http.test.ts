/**
 * End-to-end git smart HTTP: the real `git` binary against a real RepoHost server on loopback.
 * Everything is asserted from the client's side: git's exit status and output, the clone's content,
 * raw HTTP responses, and the API's view of the repository afterwards.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '@repohost/core';
import { PASSWORD, basic, createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

let ts: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let aliceToken: string;
let bobToken: string;
let port: number;

/** Runs git in `cwd` with an isolated environment; never throws on a non-zero exit. */
function git(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd: options.cwd ?? scratch, env: { ...gitEnv, ...options.env }, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Runs git and fails the test with git's output when it does not succeed. */
async function gitOk(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<GitResult> {
  const result = await git(args, options);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return result;
}

/** Clone URL with optional credentials: `http://user:secret@127.0.0.1:PORT/owner/repo.git`. */
function cloneUrl(repoPath: string, user?: string, secret?: string): string {
  const auth = user ? `${encodeURIComponent(user)}:${encodeURIComponent(secret ?? '')}@` : '';
  return `http://${auth}127.0.0.1:${port}/${repoPath}`;
}

let dirCounter = 0;
/** A fresh, not yet existing folder path under the scratch folder. */
function freshDir(label: string): string {
  dirCounter += 1;
  return path.join(scratch, `${label}-${dirCounter}`);
}

async function commitFile(repoDir: string, file: string, content: string | Buffer, message: string): Promise<string> {
  await mkdir(path.dirname(path.join(repoDir, file)), { recursive: true });
  await writeFile(path.join(repoDir, file), content);
  await gitOk(['add', '--', file], { cwd: repoDir });
  await gitOk(['commit', '-q', '-m', message], { cwd: repoDir });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: repoDir })).stdout.trim();
}

async function createRepo(token: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await ts.fetch('/api/v1/user/repos', jsonInit('POST', body, tokenHeader(token)));
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Record<string, unknown>;
}

async function getRepo(fullName: string, headers: Record<string, string> = tokenHeader(aliceToken)): Promise<Record<string, unknown>> {
  const res = await ts.fetch(`/api/v1/repos/${fullName}`, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

function pkt(payload: string): string {
  return (Buffer.byteLength(payload) + 4).toString(16).padStart(4, '0') + payload;
}

/** Splits a pkt-line stream into its payloads; flush/delim packets appear as `null`. */
function parsePktLines(data: Buffer): (string | null)[] {
  const lines: (string | null)[] = [];
  let offset = 0;
  while (offset + 4 <= data.length) {
    const length = Number.parseInt(data.subarray(offset, offset + 4).toString('ascii'), 16);
    if (Number.isNaN(length)) break;
    if (length < 4) {
      lines.push(null);
      offset += 4;
      continue;
    }
    lines.push(data.subarray(offset + 4, offset + length).toString('utf8'));
    offset += length;
  }
  return lines;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const waitForNextSecond = async () => {
  const second = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === second) await new Promise((r) => setTimeout(r, 50));
};

beforeAll(async () => {
  ts = await startTestServer();
  port = Number(new URL(ts.url).port);
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-git-e2e-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(
    path.join(home, '.gitconfig'),
    [
      '[user]',
      '\tname = Git Tester',
      '\temail = tester@example.com',
      '[init]',
      '\tdefaultBranch = main',
      '[advice]',
      '\tdetachedHead = false',
      '',
    ].join('\n'),
  );
  gitEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  await createUser(ts.host, 'alice', { admin: true });
  await createUser(ts.host, 'bob');
  aliceToken = await createToken(ts.host, 'alice');
  bobToken = await createToken(ts.host, 'bob');
});

afterAll(async () => {
  await ts?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('git smart HTTP with the real git client', () => {
  it('clones an auto-initialized repository, pushes with a token, and the API sees the push', async () => {
    const created = await createRepo(aliceToken, { name: 'demo', auto_init: true });
    expect(created.empty).toBe(false);
    const before = await getRepo('alice/demo');

    const work = freshDir('demo');
    await gitOk(['clone', '-q', cloneUrl('alice/demo.git', 'alice', aliceToken), work]);
    expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain('# demo');
    const log = await gitOk(['log', '--format=%s', 'origin/main'], { cwd: work });
    expect(log.stdout.trim().split('\n')).toEqual(['Initial commit']);

    // updated_at has second resolution: make sure the push lands in a later second.
    await waitForNextSecond();
    // Incompressible content, so the repository's size (in KiB) must grow.
    const pushed = await commitFile(work, 'data/payload.bin', randomBytes(16 * 1024), 'Add payload');
    const push = await gitOk(['push', 'origin', 'main'], { cwd: work });
    expect(push.stderr).toContain('main -> main');

    const again = freshDir('demo-again');
    await gitOk(['clone', '-q', cloneUrl('alice/demo.git', 'alice', aliceToken), again]);
    expect((await gitOk(['rev-parse', 'HEAD'], { cwd: again })).stdout.trim()).toBe(pushed);
    expect((await gitOk(['log', '--format=%s'], { cwd: again })).stdout.trim().split('\n')).toEqual(['Add payload', 'Initial commit']);
    expect(sha256(await readFile(path.join(again, 'data/payload.bin')))).toBe(sha256(await readFile(path.join(work, 'data/payload.bin'))));

    const after = await getRepo('alice/demo');
    expect(after.empty).toBe(false);
    expect(after.default_branch).toBe('main');
    expect(after.size as number).toBeGreaterThan(before.size as number);
    expect(Date.parse(after.updated_at as string)).toBeGreaterThan(Date.parse(before.updated_at as string));
  });

  it('pushes with the account password; a wrong password fails with a Basic challenge', async () => {
    const work = freshDir('demo-password');
    await gitOk(['clone', '-q', cloneUrl('alice/demo.git', 'alice', PASSWORD), work]);
    const id = await commitFile(work, 'password.txt', 'pushed with a password\n', 'Push with password');
    await gitOk(['push', 'origin', 'main'], { cwd: work });
    const refs = await gitOk(['ls-remote', cloneUrl('alice/demo.git', 'alice', PASSWORD), 'refs/heads/main']);
    expect(refs.stdout.split('\t')[0]).toBe(id);

    await commitFile(work, 'wrong.txt', 'never arrives\n', 'Push with a wrong password');
    await gitOk(['remote', 'set-url', 'origin', cloneUrl('alice/demo.git', 'alice', 'not-the-password')], { cwd: work });
    const rejected = await git(['push', 'origin', 'main'], { cwd: work });
    expect(rejected.code).not.toBe(0);
    expect(rejected.stderr).toMatch(/Authentication failed/);
    const still = await gitOk(['ls-remote', cloneUrl('alice/demo.git', 'alice', aliceToken), 'refs/heads/main']);
    expect(still.stdout.split('\t')[0]).toBe(id);

    const res = await ts.fetch('/alice/demo.git/info/refs?service=git-receive-pack', { headers: { Authorization: basic('alice', 'not-the-password') } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Basic/);
    await res.arrayBuffer();
  });

  it('speaks protocol v2 when asked and v0 otherwise', async () => {
    const v2dir = freshDir('demo-v2');
    const v2 = await gitOk(['-c', 'protocol.version=2', 'clone', cloneUrl('alice/demo.git', 'alice', aliceToken), v2dir], {
      env: { GIT_TRACE_PACKET: '1' },
    });
    // The client really negotiated v2 (it sent an ls-refs command).
    expect(v2.stderr).toMatch(/command=ls-refs/);
    expect(await readFile(path.join(v2dir, 'password.txt'), 'utf8')).toBe('pushed with a password\n');

    const v0dir = freshDir('demo-v0');
    await gitOk(['-c', 'protocol.version=0', 'clone', '-q', cloneUrl('alice/demo.git', 'alice', aliceToken), v0dir]);
    expect(await readFile(path.join(v0dir, 'password.txt'), 'utf8')).toBe('pushed with a password\n');

    const withV2 = await ts.fetch('/alice/demo.git/info/refs?service=git-upload-pack', {
      headers: { ...tokenHeader(aliceToken), 'Git-Protocol': 'version=2' },
    });
    expect(withV2.status).toBe(200);
    expect(withV2.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    const v2body = Buffer.from(await withV2.arrayBuffer());
    expect(v2body.toString('utf8').startsWith('000eversion 2\n')).toBe(true);
    expect(v2body.toString('utf8')).not.toContain('# service=');
    const caps = parsePktLines(v2body);
    expect(caps).toContain('ls-refs=unborn\n');
    expect(caps.some((c) => c?.startsWith('fetch'))).toBe(true);
    expect(caps.at(-1)).toBeNull();

    const plain = await ts.fetch('/alice/demo.git/info/refs?service=git-upload-pack', { headers: tokenHeader(aliceToken) });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(plain.headers.get('cache-control')).toContain('no-cache');
    const v0body = await plain.text();
    expect(v0body.startsWith('001e# service=git-upload-pack\n0000')).toBe(true);
    expect(v0body).toMatch(/^001e# service=git-upload-pack\n0000[0-9a-f]{4}[0-9a-f]{40} HEAD\0/);
  });

  it('accepts gzip-encoded upload-pack request bodies (v0 fetch and v2 ls-refs)', async () => {
    const adv = Buffer.from(await (await ts.fetch('/alice/demo.git/info/refs?service=git-upload-pack', { headers: tokenHeader(aliceToken) })).arrayBuffer());
    const lines = parsePktLines(adv);
    // [# service=…, flush, "<sha> HEAD\0caps", …]
    const headLine = lines[2]!;
    const head = headLine.slice(0, 40);
    expect(headLine.slice(41, 45)).toBe('HEAD');
    const refsMain = lines.find((l) => l?.includes(' refs/heads/main'));
    expect(refsMain?.slice(0, 40)).toBe(head);

    const v0request = Buffer.from(pkt(`want ${head} ofs-delta agent=repohost-test\n`) + '0000' + pkt('done\n'));
    const v0 = await ts.fetch('/alice/demo.git/git-upload-pack', {
      method: 'POST',
      headers: {
        ...tokenHeader(aliceToken),
        'content-type': 'application/x-git-upload-pack-request',
        accept: 'application/x-git-upload-pack-result',
        'content-encoding': 'gzip',
      },
      body: gzipSync(v0request),
    });
    expect(v0.status).toBe(200);
    expect(v0.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    const v0body = Buffer.from(await v0.arrayBuffer());
    expect(v0body.subarray(0, 8).toString('ascii')).toBe('0008NAK\n');
    const packAt = v0body.indexOf('PACK');
    expect(packAt).toBe(8);
    // Pack header: "PACK", version 2, and at least the commit, its tree and a blob.
    expect(v0body.readUInt32BE(packAt + 4)).toBe(2);
    expect(v0body.readUInt32BE(packAt + 8)).toBeGreaterThanOrEqual(3);

    const v2request = Buffer.from(pkt('command=ls-refs\n') + pkt('agent=repohost-test\n') + '0001' + pkt('symrefs\n') + pkt('ref-prefix refs/heads/\n') + pkt('ref-prefix HEAD\n') + '0000');
    const v2 = await ts.fetch('/alice/demo.git/git-upload-pack', {
      method: 'POST',
      headers: {
        ...tokenHeader(aliceToken),
        'content-type': 'application/x-git-upload-pack-request',
        'git-protocol': 'version=2',
        'content-encoding': 'gzip',
      },
      body: gzipSync(v2request),
    });
    expect(v2.status).toBe(200);
    expect(v2.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    const refs = parsePktLines(Buffer.from(await v2.arrayBuffer()));
    expect(refs).toContain(`${head} HEAD symref-target:refs/heads/main\n`);
    expect(refs).toContain(`${head} refs/heads/main\n`);
    expect(refs.at(-1)).toBeNull();

    // The same bytes without the gzip header are not a valid request: git fails, and the client gets no refs
    // (the 200 is already sent when upload-pack fails, so the response is cut short or empty).
    let undeclaredBody = '';
    try {
      const undeclared = await ts.fetch('/alice/demo.git/git-upload-pack', {
        method: 'POST',
        headers: { ...tokenHeader(aliceToken), 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' },
        body: gzipSync(v2request),
      });
      undeclaredBody = Buffer.from(await undeclared.arrayBuffer()).toString('latin1');
    } catch {
      // connection cut: no listing either
    }
    expect(undeclaredBody).not.toContain('refs/heads/main');
  });

  it('handles a large (chunked) push and a fetch whose request git gzips itself', async () => {
    await createRepo(aliceToken, { name: 'big', auto_init: true });
    const work = freshDir('big');
    await gitOk(['clone', '-q', cloneUrl('alice/big.git', 'alice', aliceToken), work]);
    const files = new Map<string, string>();
    for (let i = 0; i < 3; i++) {
      const content = randomBytes(1024 * 1024);
      await writeFile(path.join(work, `blob-${i}.bin`), content);
      files.set(`blob-${i}.bin`, sha256(content));
    }
    await gitOk(['add', '.'], { cwd: work });
    await gitOk(['commit', '-q', '-m', 'Three megabytes of noise'], { cwd: work });
    // 40 branches on 40 distinct commits: a clone then sends 40 "want" lines (> 1 KiB), which git gzips.
    for (let i = 0; i < 40; i++) {
      await gitOk(['commit', '-q', '--allow-empty', '-m', `empty ${i}`], { cwd: work });
      await gitOk(['branch', `topic-${String(i).padStart(2, '0')}`], { cwd: work });
    }
    const push = await gitOk(['push', '-q', 'origin', '--all'], {
      cwd: work,
      env: { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' },
    });
    // The pack is bigger than http.postBuffer, so git streamed it with chunked transfer encoding.
    expect(push.stderr).toMatch(/Send header: Transfer-Encoding: chunked/i);
    expect(push.stderr).toMatch(/Recv header: HTTP\/1\.1 200/);

    const clone = freshDir('big-clone');
    const cloned = await gitOk(['clone', cloneUrl('alice/big.git', 'alice', aliceToken), clone], {
      env: { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' },
    });
    expect(cloned.stderr).toMatch(/Send header: Content-Encoding: gzip/i);
    for (const [name, digest] of files) expect(sha256(await readFile(path.join(clone, name)))).toBe(digest);
    const branches = (await gitOk(['branch', '-r', '--format=%(refname:short)'], { cwd: clone })).stdout.trim().split('\n');
    expect(branches.filter((b) => b.startsWith('origin/topic-'))).toHaveLength(40);
    expect((await gitOk(['rev-parse', 'origin/topic-39'], { cwd: clone })).stdout).toBe((await gitOk(['rev-parse', 'topic-39'], { cwd: work })).stdout);

    const repo = await getRepo('alice/big');
    expect(repo.size as number).toBeGreaterThanOrEqual(3 * 1024);
  });

  it('clones an empty repository and records the first push', async () => {
    const created = await createRepo(aliceToken, { name: 'blank' });
    expect(created.empty).toBe(true);
    const work = freshDir('blank');
    const clone = await gitOk(['clone', cloneUrl('alice/blank.git', 'alice', aliceToken), work]);
    expect(clone.stderr).toMatch(/cloned an empty repository/);
    const id = await commitFile(work, 'first.txt', 'first\n', 'First commit');
    await gitOk(['push', 'origin', 'HEAD:refs/heads/main'], { cwd: work });

    const repo = await getRepo('alice/blank');
    expect(repo.empty).toBe(false);
    expect(repo.default_branch).toBe('main');
    const refs = await gitOk(['ls-remote', '--symref', cloneUrl('alice/blank.git', 'alice', aliceToken), 'HEAD']);
    expect(refs.stdout).toContain('ref: refs/heads/main\tHEAD');
    expect(refs.stdout).toContain(`${id}\tHEAD`);
    // The push's intent was cleared with its bookkeeping: nothing is left for start-up to repair.
    expect(await ts.host.repoStorage.pending()).toEqual([]);
  });

  it('reports each push as repo.pushed with the ref changes that took effect, and records the size git counts', async () => {
    await createRepo(aliceToken, { name: 'events', auto_init: true });
    const seen: DomainEvent<'repo.pushed'>[] = [];
    const off = ts.host.events.on('repo.pushed', (event) => {
      seen.push(event);
    });
    try {
      const work = freshDir('events');
      await gitOk(['clone', '-q', cloneUrl('alice/events.git', 'alice', aliceToken), work]);
      const base = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).stdout.trim();
      const id = await commitFile(work, 'blob.bin', randomBytes(8 * 1024), 'Add blob');
      await gitOk(['push', 'origin', 'main', 'HEAD:refs/heads/feature'], { cwd: work });
      await ts.host.events.idle();
      expect(seen).toHaveLength(1);
      const { payload } = seen[0]!;
      expect(payload.repo.name).toBe('events');
      expect(payload.actor.kind === 'user' && payload.actor.user.name).toBe('alice');
      const zero = '0'.repeat(40);
      expect([...payload.updates].sort((a, b) => a.ref.localeCompare(b.ref))).toEqual([
        { ref: 'refs/heads/feature', oldId: zero, newId: id },
        { ref: 'refs/heads/main', oldId: base, newId: id },
      ]);

      // Size is what `git count-objects` says the objects take (KiB in the API).
      const bare = path.join(ts.host.settings.repository.ROOT, 'alice', 'events.git');
      const counted = (await gitOk(['--git-dir', bare, 'count-objects', '-v'])).stdout;
      const kib = [...counted.matchAll(/^(?:size|size-pack|size-garbage): (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
      expect(kib).toBeGreaterThan(0);
      expect(payload.repo.size).toBe(kib * 1024);
      expect((await getRepo('alice/events')).size).toBe(kib);

      // A deletion is reported as a change to the all-zero id; a rejected push reports nothing.
      await gitOk(['push', 'origin', ':feature'], { cwd: work });
      await gitOk(['reset', '-q', '--hard', base], { cwd: work });
      await commitFile(work, 'other.txt', 'diverged\n', 'Diverge');
      expect((await git(['push', 'origin', 'main'], { cwd: work })).code).not.toBe(0);
      await ts.host.events.idle();
      expect(seen).toHaveLength(2);
      expect(seen[1]!.payload.updates).toEqual([{ ref: 'refs/heads/feature', oldId: id, newId: zero }]);
    } finally {
      off();
    }
  });

  it('makes the only pushed branch the default when the default branch does not exist', async () => {
    const created = await createRepo(aliceToken, { name: 'trunky' });
    expect(created.default_branch).toBe('main');
    const work = freshDir('trunky');
    await gitOk(['clone', '-q', cloneUrl('alice/trunky.git', 'alice', aliceToken), work]);
    await gitOk(['checkout', '-q', '-b', 'trunk'], { cwd: work });
    const id = await commitFile(work, 'trunk.txt', 'trunk\n', 'On trunk');
    await gitOk(['push', 'origin', 'trunk'], { cwd: work });

    const repo = await getRepo('alice/trunky');
    expect(repo.empty).toBe(false);
    expect(repo.default_branch).toBe('trunk');
    // A fresh clone checks out trunk: HEAD on the server moved too.
    const clone = freshDir('trunky-clone');
    await gitOk(['clone', '-q', cloneUrl('alice/trunky.git', 'alice', aliceToken), clone]);
    expect((await gitOk(['symbolic-ref', '--short', 'HEAD'], { cwd: clone })).stdout.trim()).toBe('trunk');
    expect((await gitOk(['rev-parse', 'HEAD'], { cwd: clone })).stdout.trim()).toBe(id);
  });

  it('keeps private repositories private', async () => {
    await createRepo(aliceToken, { name: 'secret', auto_init: true, private: true });

    const anon = await git(['clone', cloneUrl('alice/secret.git'), freshDir('secret-anon')]);
    expect(anon.code).not.toBe(0);
    const anonRes = await ts.fetch('/alice/secret.git/info/refs?service=git-upload-pack');
    expect(anonRes.status).toBe(401);
    expect(anonRes.headers.get('www-authenticate') ?? '').toMatch(/^Basic/);
    expect(await anonRes.text()).not.toContain('refs/heads');

    const bobRes = await ts.fetch('/alice/secret.git/info/refs?service=git-upload-pack', { headers: tokenHeader(bobToken) });
    expect(bobRes.status).toBe(404);
    expect(await bobRes.text()).not.toContain('refs/heads');
    const bobClone = await git(['clone', cloneUrl('alice/secret.git', 'bob', bobToken), freshDir('secret-bob')]);
    expect(bobClone.code).not.toBe(0);
    expect(bobClone.stderr).toMatch(/not found/);
    const bobPush = await ts.fetch('/alice/secret.git/info/refs?service=git-receive-pack', { headers: tokenHeader(bobToken) });
    expect(bobPush.status).toBe(404);
    await bobPush.arrayBuffer();

    const owner = freshDir('secret-owner');
    await gitOk(['clone', '-q', cloneUrl('alice/secret.git', 'alice', aliceToken), owner]);
    expect(await readFile(path.join(owner, 'README.md'), 'utf8')).toContain('# secret');
  });

  it('lets anyone clone a public repository but asks anonymous pushers to sign in', async () => {
    const anonDir = freshDir('demo-anon');
    await gitOk(['clone', '-q', cloneUrl('alice/demo.git'), anonDir]);
    expect(await readFile(path.join(anonDir, 'README.md'), 'utf8')).toContain('# demo');
    const before = (await gitOk(['rev-parse', 'HEAD'], { cwd: anonDir })).stdout.trim();

    await commitFile(anonDir, 'anon.txt', 'anonymous\n', 'Anonymous push');
    const push = await git(['push', 'origin', 'main'], { cwd: anonDir });
    expect(push.code).not.toBe(0);
    // Without credentials git is challenged and, unable to prompt, gives up.
    expect(push.stderr).toMatch(/could not read Username|Authentication failed/);
    const res = await ts.fetch('/alice/demo.git/info/refs?service=git-receive-pack');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Basic/);
    await res.arrayBuffer();
    const post = await ts.fetch('/alice/demo.git/git-receive-pack', {
      method: 'POST',
      headers: { 'content-type': 'application/x-git-receive-pack-request' },
      body: '0000',
    });
    expect(post.status).toBe(401);
    await post.arrayBuffer();

    const remote = await gitOk(['ls-remote', cloneUrl('alice/demo.git'), 'refs/heads/main']);
    expect(remote.stdout.split('\t')[0]).toBe(before);
  });

  it('honours token scopes: read:repository clones, write:repository pushes', async () => {
    const readToken = await createToken(ts.host, 'alice', ['read:repository']);
    const writeToken = await createToken(ts.host, 'alice', ['write:repository']);
    await createRepo(aliceToken, { name: 'scoped', auto_init: true, private: true });

    const work = freshDir('scoped');
    await gitOk(['clone', '-q', cloneUrl('alice/scoped.git', 'alice', readToken), work]);
    expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain('# scoped');
    const original = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).stdout.trim();

    const id = await commitFile(work, 'scoped.txt', 'scoped\n', 'Scoped push');
    const denied = await git(['push', 'origin', 'main'], { cwd: work });
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toMatch(/returned error: 403\b/);
    expect(denied.stderr).not.toMatch(/Authentication failed/);
    const raw = await ts.fetch('/alice/scoped.git/info/refs?service=git-receive-pack', { headers: tokenHeader(readToken) });
    // The token is valid, it just lacks the scope: Forgejo answers 403, not a credentials challenge.
    expect(raw.status).toBe(403);
    expect(await raw.text()).toMatch(/write:repository/);
    expect((await gitOk(['ls-remote', cloneUrl('alice/scoped.git', 'alice', readToken), 'refs/heads/main'])).stdout.split('\t')[0]).toBe(original);

    await gitOk(['remote', 'set-url', 'origin', cloneUrl('alice/scoped.git', 'alice', writeToken)], { cwd: work });
    await gitOk(['push', 'origin', 'main'], { cwd: work });
    expect((await gitOk(['ls-remote', cloneUrl('alice/scoped.git', 'alice', readToken), 'refs/heads/main'])).stdout.split('\t')[0]).toBe(id);

    // A token scoped to something else entirely cannot even read.
    const userToken = await createToken(ts.host, 'alice', ['read:user']);
    const noRead = await git(['clone', '-q', cloneUrl('alice/scoped.git', 'alice', userToken), freshDir('scoped-user')]);
    expect(noRead.code).not.toBe(0);
    const noReadRes = await ts.fetch('/alice/scoped.git/info/refs?service=git-upload-pack', { headers: tokenHeader(userToken) });
    expect(noReadRes.status).toBe(403);
    await noReadRes.arrayBuffer();
  });

  it('answers 404 for a missing repository and accepts URLs without .git', async () => {
    const missing = await ts.fetch('/alice/nope.git/info/refs?service=git-upload-pack', { headers: tokenHeader(aliceToken) });
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    const missingUser = await ts.fetch('/nobody/nope.git/info/refs?service=git-upload-pack', { headers: tokenHeader(aliceToken) });
    expect(missingUser.status).toBe(404);
    await missingUser.arrayBuffer();
    const clone = await git(['clone', cloneUrl('alice/nope.git', 'alice', aliceToken), freshDir('nope')]);
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toMatch(/not found/);

    const work = freshDir('demo-nosuffix');
    await gitOk(['clone', '-q', cloneUrl('alice/demo', 'alice', aliceToken), work]);
    expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain('# demo');
    const id = await commitFile(work, 'nosuffix.txt', 'no suffix\n', 'Push without .git');
    await gitOk(['push', 'origin', 'main'], { cwd: work });
    const remote = await gitOk(['ls-remote', cloneUrl('alice/demo.git', 'alice', aliceToken), 'refs/heads/main']);
    expect(remote.stdout.split('\t')[0]).toBe(id);
  });
});
