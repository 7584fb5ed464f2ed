/**
 * Git LFS end to end: Debian's `git-lfs` client against one in-process server (HTTP with passwords and tokens,
 * SSH through the built-in server's `git-lfs-authenticate`), and the batch, object and lock APIs by hand for what
 * the client never sends. A 100 MiB object goes up and comes back byte-identical while the server's memory stays
 * flat. Migrations and pull mirrors fetch objects from a stand-in LFS server; a push mirror uploads them.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaService, SYSTEM, userActor, type User } from '@repohost/core';
import { PASSWORD, createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';

const LFS_JSON = 'application/vnd.git-lfs+json';
const BIG_BYTES = 100 * 1024 * 1024;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let ts: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let counter = 0;
let sshPort: number;
let alice: User;
let bob: User;
let carol: User;
let aliceToken: string;
let aliceKeyFile: string;

function freshDir(label: string): string {
  return path.join(scratch, `${label}-${++counter}`);
}

function exec(file: string, args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { cwd: options.cwd ?? scratch, env: { ...gitEnv, ...options.env }, maxBuffer: 16 << 20, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end();
  });
}

async function gitOk(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<Result> {
  const result = await exec('git', args, options);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return result;
}

/** The repository's clone URL with a user's password in it (git and git-lfs both take it from there). */
function httpUrl(user: string, repo: string, secret = PASSWORD): string {
  const url = new URL(`${repo}.git`, ts.url);
  url.username = user;
  url.password = secret;
  return url.toString();
}

function lfsPath(repo: string, rest: string): string {
  return `/${repo}.git/info/lfs/${rest}`;
}

function basicHeader(user: string, secret = PASSWORD): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` };
}

function lfsPost(repo: string, rest: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return ts.fetch(lfsPath(repo, rest), {
    method: 'POST',
    headers: { accept: LFS_JSON, 'content-type': LFS_JSON, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The garbage collector, reached through V8's flag (vitest's workers do not start with --expose-gc). */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * Runs `work` while sampling this process's memory (the server runs in it): the largest growth of the RSS and of
 * the memory held by Buffers over the start. The chunks a transfer passes through are garbage once written.
 */
async function rssGrowthDuring<T>(work: () => Promise<T>): Promise<{ result: T; growth: number; buffers: number }> {
  collect();
  const start = process.memoryUsage();
  let peak = start.rss;
  let buffers = start.arrayBuffers;
  const sample = () => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.rss);
    buffers = Math.max(buffers, now.arrayBuffers);
  };
  // Collected every 200 ms, so what is measured is what the transfer holds, not how much garbage V8 lets pile up
  // before its next collection (up to some 64 MiB of Buffers at the rate a transfer makes them).
  let ticks = 0;
  const timer = setInterval(() => {
    if (++ticks % 8 === 0) collect();
    sample();
  }, 25);
  try {
    const result = await work();
    sample();
    if (process.env['REPOHOST_LFS_MEMORY_LOG']) console.log('lfs memory', { rss: peak - start.rss, buffers: buffers - start.arrayBuffers });
    return { result, growth: peak - start.rss, buffers: buffers - start.arrayBuffers };
  } finally {
    clearInterval(timer);
  }
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-lfs-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = LFS Tester\n\temail = lfs@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  await gitOk(['lfs', 'install']);
  ts = await startTestServer({
    server: { LFS_START_SERVER: true, START_SSH_SERVER: true, SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: 0 },
    actions: { ENABLED: false },
    // The migration test fetches from this server and from a stand-in LFS server, both on the loopback.
    migrations: { ALLOW_LOCALNETWORKS: true },
  });
  sshPort = ts.host.settings.server.SSH_PORT;
  [alice, bob, carol] = await Promise.all([createUser(ts.host, 'alice'), createUser(ts.host, 'bob'), createUser(ts.host, 'carol')]);
  aliceToken = await createToken(ts.host, 'alice');
  const owner = userActor(alice);
  const big = await ts.host.repos.create(owner, { name: 'big', auto_init: true });
  await ts.host.repos.create(owner, { name: 'secret', auto_init: true, private: true });
  await ts.host.collaborators.add(owner, big, bob, { permission: 'write' });
  aliceKeyFile = path.join(scratch, 'alice-key');
  const keygen = await exec('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'alice@example.com', '-f', aliceKeyFile]);
  expect(keygen.code, keygen.stderr).toBe(0);
  const publicKey = (await readFile(`${aliceKeyFile}.pub`, 'utf8')).trim();
  await ts.host.keys.add(owner, alice, { title: 'laptop', key: publicKey });
}, 60_000);

afterAll(async () => {
  await ts?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('git lfs with the real client', () => {
  let bigSha: string;
  let smallOid: string;

  it('pushes a 100 MiB object and clones it back byte-identical, with flat server memory', async () => {
    const work = freshDir('push');
    await gitOk(['clone', '-q', httpUrl('alice', 'alice/big'), work]);
    await gitOk(['lfs', 'track', '*.bin'], { cwd: work });
    // 100 MiB of random bytes, written in 1 MiB blocks (hashed on the way).
    const hash = createHash('sha256');
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(path.join(work, 'big.bin'));
      out.on('error', reject);
      let left = BIG_BYTES / (1024 * 1024);
      const next = () => {
        while (left > 0) {
          const block = randomBytes(1024 * 1024);
          hash.update(block);
          left--;
          if (!out.write(block)) return void out.once('drain', next);
        }
        out.end(resolve);
      };
      next();
    });
    bigSha = hash.digest('hex');
    // A small object first: what the first LFS request sets up once is not counted below.
    const small = Buffer.from('a small tracked file\n');
    smallOid = sha256(small);
    await writeFile(path.join(work, 'small.bin'), small);
    await gitOk(['add', '.gitattributes', 'small.bin'], { cwd: work });
    await gitOk(['commit', '-q', '-m', 'Add a small LFS file'], { cwd: work });
    await gitOk(['push', '-q', 'origin', 'main'], { cwd: work });
    await gitOk(['add', 'big.bin'], { cwd: work });
    await gitOk(['commit', '-q', '-m', 'Add a big LFS file'], { cwd: work });

    const push = await rssGrowthDuring(() => gitOk(['push', 'origin', 'main'], { cwd: work }));
    expect(push.result.stderr).toContain('main -> main');
    // The object went through the server in chunks: the Buffers alive or awaiting collection at any moment, and
    // the RSS, grew well below the object's size (buffering it whole would grow both by 100 MiB or more).
    expect(push.buffers, 'Buffers').toBeLessThan(48 * 1024 * 1024);
    expect(push.growth, 'RSS').toBeLessThan(64 * 1024 * 1024);

    const clone = freshDir('clone');
    const cloned = await rssGrowthDuring(() => gitOk(['clone', '-q', httpUrl('bob', 'alice/big'), clone]));
    expect(cloned.buffers, 'Buffers').toBeLessThan(48 * 1024 * 1024);
    expect(cloned.growth, 'RSS').toBeLessThan(64 * 1024 * 1024);
    expect(await fileSha256(path.join(clone, 'big.bin'))).toBe(bigSha);
    expect(await readFile(path.join(clone, 'small.bin'))).toEqual(small);

    // Counted once per repository in the owner's quota.
    const usage = await ts.host.service(QuotaService).usageOf(alice);
    expect(usage.size.git.LFS).toBe(BIG_BYTES + small.length);
  }, 120_000);

  it('serves the object behind a pointer at /media and the pointer at /raw', async () => {
    const media = await ts.fetch('/api/v1/repos/alice/big/media/small.bin', { headers: tokenHeader(aliceToken) });
    expect(media.status).toBe(200);
    expect(media.headers.get('etag')).toBe(`"${smallOid}"`);
    expect(await media.text()).toBe('a small tracked file\n');
    const raw = await ts.fetch('/api/v1/repos/alice/big/raw/small.bin', { headers: tokenHeader(aliceToken) });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toContain(`oid sha256:${smallOid}`);
  });

  it('gives a fork its parent objects', async () => {
    const parent = await ts.host.repos.resolve(userActor(carol), 'alice', 'big');
    await ts.host.forks.fork(userActor(carol), parent, {});
    const res = await lfsPost('carol/big', 'objects/batch', { operation: 'download', objects: [{ oid: smallOid, size: 21 }] }, basicHeader('carol'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { objects: { actions?: { download?: { href: string } }; error?: unknown }[] };
    expect(body.objects[0]!.error).toBeUndefined();
    const href = body.objects[0]!.actions!.download!.href;
    expect(href).toBe(`${ts.url}carol/big.git/info/lfs/objects/${smallOid}`);
    const object = await fetch(href, { headers: basicHeader('carol') });
    expect(object.status).toBe(200);
    expect(await object.text()).toBe('a small tracked file\n');
  });

  it('locks across two users: only the owner unlocks, unless forced; a locked file is not pushed by another', async () => {
    const aliceWork = freshDir('lock-alice');
    await gitOk(['clone', '-q', httpUrl('alice', 'alice/big'), aliceWork], { env: { GIT_LFS_SKIP_SMUDGE: '1' } });
    const lock = await gitOk(['lfs', 'lock', 'small.bin'], { cwd: aliceWork });
    expect(lock.stdout).toContain('Locked small.bin');
    const listed = await gitOk(['lfs', 'locks'], { cwd: aliceWork });
    expect(listed.stdout).toMatch(/small\.bin\s+alice\s+ID:\d+/);

    const bobWork = freshDir('lock-bob');
    await gitOk(['clone', '-q', httpUrl('bob', 'alice/big'), bobWork], { env: { GIT_LFS_SKIP_SMUDGE: '1' } });
    const refused = await exec('git', ['lfs', 'unlock', 'small.bin'], { cwd: bobWork });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr + refused.stdout).toContain("user doesn't own lock and force flag is not set");

    // Bob changes the locked file: git-lfs checks the locks before the push and, told to verify them, refuses.
    await gitOk(['config', `lfs.${ts.url}alice/big.git/info/lfs.locksverify`, 'true'], { cwd: bobWork });
    await writeFile(path.join(bobWork, 'small.bin'), 'bob was here\n');
    await gitOk(['commit', '-q', '-am', 'Change a locked file'], { cwd: bobWork });
    const push = await exec('git', ['push', 'origin', 'main'], { cwd: bobWork });
    expect(push.code).not.toBe(0);
    expect(push.stderr + push.stdout).toContain('Unable to push locked files');

    const forced = await gitOk(['lfs', 'unlock', '--force', 'small.bin'], { cwd: bobWork });
    expect(forced.stdout).toContain('Unlocked small.bin');
    await gitOk(['push', 'origin', 'main'], { cwd: bobWork });
    const none = await gitOk(['lfs', 'locks'], { cwd: aliceWork });
    expect(none.stdout.trim()).toBe('');
  }, 60_000);

  it('clones over SSH with a token from git-lfs-authenticate', async () => {
    const ssh = `ssh -F /dev/null -i ${aliceKeyFile} -p ${sshPort} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`;
    const work = freshDir('ssh');
    await gitOk(['clone', '-q', `ssh://git@127.0.0.1:${sshPort}/alice/big.git`, work], { env: { GIT_SSH_COMMAND: ssh, GIT_LFS_SKIP_SMUDGE: '1' } });
    await gitOk(['lfs', 'pull', '--include', 'small.bin'], { cwd: work, env: { GIT_SSH_COMMAND: ssh } });
    expect(await readFile(path.join(work, 'small.bin'), 'utf8')).toBe('bob was here\n');

    // The token itself: good for downloads of that repository only.
    const answer = await exec('ssh', [...ssh.split(' ').slice(1), 'git@127.0.0.1', 'git-lfs-authenticate', 'alice/secret.git', 'download']);
    expect(answer.code, answer.stderr).toBe(0);
    const token = JSON.parse(answer.stdout) as { header: { Authorization: string }; href: string; expires_at: string };
    expect(token.href).toBe(`${ts.url}alice/secret.git/info/lfs`);
    expect(token.header.Authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(Date.parse(token.expires_at)).toBeGreaterThan(Date.now());
    const auth = { authorization: token.header.Authorization };
    const download = await lfsPost('alice/secret', 'objects/batch', { operation: 'download', objects: [{ oid: smallOid, size: 21 }] }, auth);
    expect(download.status).toBe(200);
    const upload = await lfsPost('alice/secret', 'objects/batch', { operation: 'upload', objects: [{ oid: smallOid, size: 21 }] }, auth);
    expect(upload.status).toBe(401);
    const elsewhere = await lfsPost('alice/big', 'objects/batch', { operation: 'download', objects: [] }, auth);
    expect(elsewhere.status).toBe(401);

    const unknown = await exec('ssh', [...ssh.split(' ').slice(1), 'git@127.0.0.1', 'git-lfs-authenticate', 'alice/secret.git', 'delete']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('Unknown LFS verb');
  }, 60_000);
});

describe('the LFS API by hand', () => {
  const object = Buffer.from('hand-made object\n');
  const oid = sha256(object);

  it('keeps a private repository to those who may read it', async () => {
    const batch = { operation: 'download', objects: [{ oid, size: object.length }] };
    const anonymous = await lfsPost('alice/secret', 'objects/batch', batch);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm=gitea-lfs');
    expect(anonymous.headers.get('content-type')).toBe(LFS_JSON);
    expect(await anonymous.json()).toEqual({ message: 'Unauthorized' });
    const stranger = await lfsPost('alice/secret', 'objects/batch', batch, basicHeader('carol'));
    expect(stranger.status).toBe(404);
    const locks = await ts.fetch(lfsPath('alice/secret', 'locks'), { headers: { accept: LFS_JSON, ...basicHeader('carol') } });
    expect(locks.status).toBe(404);
    const anonymousLocks = await ts.fetch(lfsPath('alice/big', 'locks'), { headers: { accept: LFS_JSON } });
    expect(anonymousLocks.status).toBe(401);
    expect(await anonymousLocks.json()).toEqual({ message: 'You must have pull access to list locks' });
    // A reader of a public repository may not upload to it.
    const reader = await lfsPost('alice/big', 'objects/batch', { operation: 'upload', objects: [] }, basicHeader('carol'));
    expect(reader.status).toBe(403);
  });

  it('uploads with the upload and verify actions, checking hash and size, and downloads ranges', async () => {
    const auth = tokenHeader(aliceToken);
    const res = await lfsPost('alice/secret', 'objects/batch', { operation: 'upload', transfers: ['basic'], objects: [{ oid, size: object.length }] }, auth);
    expect(res.status).toBe(200);
    const batch = (await res.json()) as { objects: { actions: { upload: { href: string; header: Record<string, string> }; verify: { href: string; header: Record<string, string> } } }[] };
    const { upload, verify } = batch.objects[0]!.actions;
    expect(upload.href).toBe(`${ts.url}alice/secret.git/info/lfs/objects/${oid}/${object.length}`);
    expect(upload.header.Authorization).toBe(`token ${aliceToken}`);
    expect(verify.header.Accept).toBe(LFS_JSON);

    const wrong = Buffer.from('hand-made object?');
    const badHash = await fetch(upload.href, { method: 'PUT', headers: upload.header, body: wrong });
    expect(badHash.status).toBe(422);
    expect(await badHash.json()).toEqual({ message: 'content hash does not match OID' });
    const badSize = await fetch(upload.href, { method: 'PUT', headers: upload.header, body: object.subarray(1) });
    expect(badSize.status).toBe(422);
    expect(await badSize.json()).toEqual({ message: 'content size does not match' });
    const notYet = await fetch(verify.href, { method: 'POST', headers: { ...verify.header, 'content-type': LFS_JSON }, body: JSON.stringify({ oid, size: object.length }) });
    expect(notYet.status).toBe(404);

    const put = await fetch(upload.href, { method: 'PUT', headers: upload.header, body: object });
    expect(put.status).toBe(200);
    const verified = await fetch(verify.href, { method: 'POST', headers: { ...verify.header, 'content-type': LFS_JSON }, body: JSON.stringify({ oid, size: object.length }) });
    expect(verified.status).toBe(200);
    // Uploaded already: no action.
    const again = await lfsPost('alice/secret', 'objects/batch', { operation: 'upload', objects: [{ oid, size: object.length }] }, auth);
    expect(((await again.json()) as { objects: unknown[] }).objects).toEqual([{ oid, size: object.length }]);

    const whole = await ts.fetch(lfsPath('alice/secret', `objects/${oid}`), { headers: auth });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(object);
    const part = await ts.fetch(lfsPath('alice/secret', `objects/${oid}/${Buffer.from('hand.txt').toString('base64url')}`), { headers: { ...auth, range: 'bytes=5-8' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 5-8/${object.length}`);
    expect(part.headers.get('content-disposition')).toBe('attachment; filename="hand.txt"');
    expect(await part.text()).toBe('made');
  });

  it("answers bad input with Forgejo's statuses, never a 500", async () => {
    const auth = tokenHeader(aliceToken);
    const post = async (body: unknown, headers: Record<string, string> = auth) => {
      const res = await lfsPost('alice/big', 'objects/batch', body, headers);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await post('{not json')).toEqual({ status: 400, body: { message: 'Bad Request' } });
    expect(await post({ operation: 'delete', objects: [] })).toEqual({ status: 400, body: { message: 'Bad Request' } });
    expect(await post({ operation: 'download', objects: {} })).toEqual({ status: 400, body: { message: 'Bad Request' } });
    expect(await post({ operation: 'download', objects: [{ oid: 5, size: 1 }] })).toEqual({ status: 400, body: { message: 'Bad Request' } });
    expect(await post({ operation: 'download', objects: [{ oid, size: 1.5 }] })).toEqual({ status: 400, body: { message: 'Bad Request' } });
    const perObject = await post({
      operation: 'upload',
      objects: [
        { oid: 'not-an-oid', size: 1 },
        { oid: oid.toUpperCase(), size: 1 },
        { oid, size: -1 },
      ],
    });
    expect(perObject.status).toBe(200);
    expect((perObject.body['objects'] as { error: unknown }[]).map((o) => o.error)).toEqual([
      { code: 422, message: 'Oid or size are invalid' },
      { code: 422, message: 'Oid or size are invalid' },
      { code: 422, message: 'Oid or size are invalid' },
    ]);
    const missing = await post({ operation: 'download', objects: [{ oid: 'a'.repeat(64), size: 3 }] });
    expect(missing.body['objects']).toEqual([{ oid: 'a'.repeat(64), size: 3, error: { code: 404, message: 'Not Found' } }]);

    const noAccept = await ts.fetch(lfsPath('alice/big', 'objects/batch'), { method: 'POST', headers: auth, body: '{}' });
    expect(noAccept.status).toBe(415);
    const badPut = await ts.fetch(lfsPath('alice/big', `objects/${oid}/-5`), { method: 'PUT', headers: auth, body: 'x' });
    expect(badPut.status).toBe(422);
    const badPutSize = await ts.fetch(lfsPath('alice/big', `objects/${oid}/many`), { method: 'PUT', headers: auth, body: 'x' });
    expect(badPutSize.status).toBe(422);
    const badGet = await ts.fetch(lfsPath('alice/big', 'objects/xyz'), { headers: auth });
    expect(badGet.status).toBe(422);
    const unknownRoute = await ts.fetch(lfsPath('alice/big', 'nothing/here'), { headers: auth });
    expect(unknownRoute.status).toBe(404);
    const badLock = await lfsPost('alice/big', 'locks', '[', auth);
    expect(badLock.status).toBe(400);
    const badUnlock = await lfsPost('alice/big', 'locks/abc/unlock', {}, auth);
    expect(badUnlock.status).toBe(404);
    const badLockId = await ts.fetch(lfsPath('alice/big', 'locks?id=x'), { headers: { accept: LFS_JSON, ...auth } });
    expect(badLockId.status).toBe(400);
    for (const query of ['id=9223372036854775807', 'id=-1', 'path=a%00b', `path=${'a'.repeat(5000)}`]) {
      const odd = await ts.fetch(lfsPath('alice/big', `locks?${query}`), { headers: { accept: LFS_JSON, ...auth } });
      expect(odd.status).toBe(200);
      expect(await odd.json()).toEqual({ locks: [] });
    }
    expect((await lfsPost('alice/big', 'locks', { path: 'a\u0000b' }, auth)).status).toBe(422);
    expect((await lfsPost('alice/big', 'locks', { path: '../..' }, auth)).status).toBe(422);
    expect((await lfsPost('alice/big', 'locks', { path: 7 }, auth)).status).toBe(400);
    const hugeSize = await ts.fetch(lfsPath('alice/big', `objects/${oid}/99999999999999999999`), { method: 'PUT', headers: auth, body: 'x' });
    expect(hugeSize.status).toBe(422);
  });

  it('answers the lock API: conflicts name the lock, pages carry a cursor', async () => {
    const auth = basicHeader('alice');
    const made = await lfsPost('alice/big', 'locks', { path: './docs/../a.psd' }, auth);
    expect(made.status).toBe(201);
    const { lock } = (await made.json()) as { lock: { id: string; path: string; owner: { name: string }; locked_at: string } };
    expect(lock).toMatchObject({ path: 'a.psd', owner: { name: 'alice' } });
    const twice = await lfsPost('alice/big', 'locks', { path: 'a.psd' }, basicHeader('bob'));
    expect(twice.status).toBe(409);
    expect(await twice.json()).toEqual({ lock, message: 'already created lock' });
    await lfsPost('alice/big', 'locks', { path: 'b.psd' }, auth);
    const page = await ts.fetch(lfsPath('alice/big', 'locks?limit=1'), { headers: { accept: LFS_JSON, ...auth } });
    const first = (await page.json()) as { locks: { path: string }[]; next_cursor?: string };
    expect(first.locks.map((l) => l.path)).toEqual(['a.psd']);
    const next = await ts.fetch(lfsPath('alice/big', `locks?limit=1&cursor=${first.next_cursor}`), { headers: { accept: LFS_JSON, ...auth } });
    expect(((await next.json()) as { locks: { path: string }[] }).locks.map((l) => l.path)).toEqual(['b.psd']);
    const verify = await lfsPost('alice/big', 'locks/verify', {}, basicHeader('bob'));
    const split = (await verify.json()) as { ours: unknown[]; theirs: { path: string }[] };
    expect(split.ours).toEqual([]);
    expect(split.theirs.map((l) => l.path)).toEqual(['a.psd', 'b.psd']);
    const notTheirs = await lfsPost('alice/big', `locks/${lock.id}/unlock`, {}, basicHeader('bob'));
    expect(notTheirs.status).toBe(403);
    const readerCannot = await lfsPost('alice/big', `locks/${lock.id}/unlock`, { force: true }, basicHeader('carol'));
    expect(readerCannot.status).toBe(403);
    const own = await lfsPost('alice/big', `locks/${lock.id}/unlock`, {}, auth);
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ lock });
  });

  it('refuses objects over LFS_MAX_FILE_SIZE', async () => {
    ts.host.settings.server.LFS_MAX_FILE_SIZE = 10;
    try {
      const res = await lfsPost('alice/big', 'objects/batch', { operation: 'upload', objects: [{ oid: 'c'.repeat(64), size: 11 }] }, tokenHeader(aliceToken));
      expect(((await res.json()) as { objects: unknown[] }).objects).toEqual([{ oid: 'c'.repeat(64), size: 11, error: { code: 422, message: 'Size must be less than or equal to 10' } }]);
      const put = await ts.fetch(lfsPath('alice/big', `objects/${'c'.repeat(64)}/11`), { method: 'PUT', headers: tokenHeader(aliceToken), body: 'x'.repeat(11) });
      expect(put.status).toBe(422);
    } finally {
      ts.host.settings.server.LFS_MAX_FILE_SIZE = 0;
    }
  });

  it("forgets a deleted repository's objects and locks", async () => {
    const owner = userActor(carol);
    const gone = await ts.host.repos.create(owner, { name: 'gone' });
    const data = Buffer.from('short-lived\n');
    const put = await ts.fetch(lfsPath('carol/gone', `objects/${sha256(data)}/${data.length}`), { method: 'PUT', headers: basicHeader('carol'), body: data });
    expect(put.status).toBe(200);
    expect((await lfsPost('carol/gone', 'locks', { path: 'x.bin' }, basicHeader('carol'))).status).toBe(201);
    const before = (await ts.host.service(QuotaService).usageOf(carol)).size.git.LFS;
    await ts.host.repos.delete(owner, gone);
    expect((await ts.host.service(QuotaService).usageOf(carol)).size.git.LFS).toBe(before - data.length);
  });

  it('refuses uploads over the owner quota with a 413', async () => {
    const quota = ts.host.service(QuotaService);
    await quota.createGroup(SYSTEM, { name: 'no-lfs', rules: [{ name: 'no-lfs', limit: 0, subjects: ['size:git:lfs'] }] });
    await quota.addMember(SYSTEM, 'no-lfs', alice);
    ts.host.settings.quota.ENABLED = true;
    try {
      const res = await lfsPost('alice/big', 'objects/batch', { operation: 'upload', objects: [{ oid: 'b'.repeat(64), size: 1 }] }, tokenHeader(aliceToken));
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: 'quota exceeded' });
      const put = await ts.fetch(lfsPath('alice/big', `objects/${'b'.repeat(64)}/1`), { method: 'PUT', headers: tokenHeader(aliceToken), body: 'x' });
      expect(put.status).toBe(413);
    } finally {
      ts.host.settings.quota.ENABLED = false;
    }
  });
});

describe('migrations and pull mirrors with lfs', () => {
  it("fetch the objects the history points to from the remote's LFS endpoint", async () => {
    // A history with pointers: one to an object this server holds already, one to an object only the stand-in
    // LFS server has, one to an object nobody has.
    const payload = randomBytes(200 * 1024);
    const payloadOid = sha256(payload);
    const known = Buffer.from('hand-made object\n');
    const lost = 'd'.repeat(64);
    const pointer = (oid: string, size: number) => `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`;
    await ts.host.repos.create(userActor(alice), { name: 'pointers', auto_init: true });
    const stored = await ts.fetch(lfsPath('alice/pointers', `objects/${sha256(known)}/${known.length}`), { method: 'PUT', headers: basicHeader('alice'), body: known });
    expect(stored.status).toBe(200);
    const work = freshDir('pointers');
    await gitOk(['clone', '-q', httpUrl('alice', 'alice/pointers'), work]);
    await writeFile(path.join(work, 'remote.dat'), pointer(payloadOid, payload.length));
    await writeFile(path.join(work, 'known.dat'), pointer(sha256(known), known.length));
    await writeFile(path.join(work, 'lost.dat'), pointer(lost, 5));
    await gitOk(['add', 'remote.dat', 'known.dat', 'lost.dat'], { cwd: work });
    await gitOk(['commit', '-q', '-m', 'Pointers'], { cwd: work });
    await gitOk(['push', '-q', 'origin', 'main'], { cwd: work });

    const later = randomBytes(1000);
    const laterOid = sha256(later);
    const served = new Map([
      [payloadOid, payload],
      [laterOid, later],
    ]);
    const asked: string[] = [];
    const lfs = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const base = `http://127.0.0.1:${(lfs.address() as AddressInfo).port}`;
        if (req.method === 'POST' && req.url === '/lfs/objects/batch') {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as { operation: string; objects: { oid: string; size: number }[] };
          asked.push(...body.objects.map((o) => o.oid));
          const objects = body.objects.map((o) =>
            served.has(o.oid) ? { ...o, actions: { download: { href: `${base}/dl/${o.oid}`, header: { 'X-Ticket': 'yes' } } } } : { ...o, error: { code: 404, message: 'Not Found' } },
          );
          res.writeHead(200, { 'content-type': LFS_JSON }).end(JSON.stringify({ objects }));
        } else if (req.url?.startsWith('/dl/') && served.has(req.url.slice(4)) && req.headers['x-ticket'] === 'yes') {
          res.writeHead(200).end(served.get(req.url.slice(4)));
        } else res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => lfs.listen(0, '127.0.0.1', resolve));
    try {
      const started = await ts.host.migrations.start(userActor(alice), {
        clone_addr: `${ts.url}alice/pointers.git`,
        auth_username: 'alice',
        auth_password: PASSWORD,
        repo_name: 'pointers-copy',
        lfs: true,
        lfs_endpoint: `http://127.0.0.1:${(lfs.address() as AddressInfo).port}/lfs`,
      });
      const job = await ts.host.jobs.wait(started.job.id, { timeoutMs: 30_000 });
      expect(job.error).toBe('');
      expect(job.status).toBe('done');

      // A pull mirror made with lfs fetches the objects of what each sync brings.
      const mirror = await ts.host.migrations.start(userActor(alice), {
        clone_addr: `${ts.url}alice/pointers.git`,
        auth_username: 'alice',
        auth_password: PASSWORD,
        repo_name: 'pointers-mirror',
        mirror: true,
        lfs: true,
        lfs_endpoint: `http://127.0.0.1:${(lfs.address() as AddressInfo).port}/lfs`,
      });
      expect((await ts.host.jobs.wait(mirror.job.id, { timeoutMs: 30_000 })).error).toBe('');
      await writeFile(path.join(work, 'later.dat'), pointer(laterOid, later.length));
      await gitOk(['add', 'later.dat'], { cwd: work });
      await gitOk(['commit', '-q', '-m', 'Later'], { cwd: work });
      await gitOk(['push', '-q', 'origin', 'main'], { cwd: work });
      const sync = await ts.host.jobs.enqueue('mirror.sync', { repoId: mirror.access.repo.id });
      expect((await ts.host.jobs.wait(sync.id, { timeoutMs: 30_000 })).error).toBe('');
      const synced = await ts.fetch(lfsPath('alice/pointers-mirror', `objects/${laterOid}`), { headers: basicHeader('alice') });
      expect(Buffer.from(await synced.arrayBuffer())).toEqual(later);
    } finally {
      await new Promise<void>((resolve) => lfs.close(() => resolve()));
    }
    // Only what the server lacked was asked for: the first migration asked for two objects, the mirror for the one
    // still lost (the other was stored by then), its sync for the new one and the lost one again.
    expect(asked.sort()).toEqual([lost, payloadOid, lost, lost, laterOid].sort());
    const auth = basicHeader('alice');
    const fetched = await ts.fetch(lfsPath('alice/pointers-copy', `objects/${payloadOid}`), { headers: auth });
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(payload);
    const batch = await lfsPost('alice/pointers-copy', 'objects/batch', { operation: 'download', objects: [{ oid: sha256(known), size: known.length }, { oid: lost, size: 5 }] }, auth);
    const objects = ((await batch.json()) as { objects: { error?: { code: number } }[] }).objects;
    expect(objects.map((o) => o.error?.code)).toEqual([undefined, 404]);
  }, 60_000);
});

describe('push mirrors with lfs', () => {
  it("push the repository's objects to the remote's LFS API, streamed and verified", async () => {
    // The source is private and the remote's account may not read it: the remote asks for the bytes.
    const dave = await createUser(ts.host, 'dave');
    const source = await ts.host.repos.create(userActor(alice), { name: 'lfs-src', auto_init: true, private: true });
    const data = randomBytes(300 * 1024);
    const oid = sha256(data);
    const put = await ts.fetch(lfsPath('alice/lfs-src', `objects/${oid}/${data.length}`), { method: 'PUT', headers: basicHeader('alice'), body: data });
    expect(put.status).toBe(200);
    await ts.host.repos.create(userActor(dave), { name: 'target' });
    const mirror = await ts.host.pushMirrors.add(userActor(alice), source, {
      remote_address: `${ts.url}dave/target.git`,
      remote_username: 'dave',
      remote_password: PASSWORD,
      interval: '0',
    });
    const job = await ts.host.jobs.enqueue('pushmirror.sync', { mirrorId: mirror.id });
    expect((await ts.host.jobs.wait(job.id, { timeoutMs: 30_000 })).error).toBe('');
    const [recorded] = (await ts.host.pushMirrors.list(userActor(alice), source)).items;
    expect(recorded?.last_error).toBe('');
    const object = await ts.fetch(lfsPath('dave/target', `objects/${oid}`), { headers: basicHeader('dave') });
    expect(object.status).toBe(200);
    expect(Buffer.from(await object.arrayBuffer())).toEqual(data);
  }, 60_000);
});
