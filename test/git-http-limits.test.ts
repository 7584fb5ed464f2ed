/**
 * Git smart HTTP under hostile or careless clients: stalled bodies, idle connections, a full pool of git processes,
 * clients that hang up, and gzip bodies that inflate far past what a fetch needs. Real git, a real server on
 * loopback, raw sockets where a well-behaved client would not do what is tested.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@repohost/server';
import { createToken, createUser, jsonInit, openTestHost, startTestServer, tokenHeader, type TestHost, type TestServer } from '@repohost/test-support';

/** The server under test: one git service at a time, a 1 s queue, and a 32 KiB cap on fetch requests. */
let ts: TestServer;
let port: number;
let token: string;
let head: string;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;

const FETCH_CAP = 32 * 1024;
const UPLOAD_PACK = '/alice/limits.git/git-upload-pack';

function git(args: string[], cwd = scratch): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${String(stderr)}`));
      else resolve(String(stdout));
    });
  });
}

function cloneUrl(repo: string): string {
  return `http://alice:${token}@127.0.0.1:${port}/${repo}`;
}

function pkt(payload: string): string {
  return (Buffer.byteLength(payload) + 4).toString(16).padStart(4, '0') + payload;
}

/** Pids of the git processes (and setpriv, before it execs git) this test process has started, at any depth. */
function gitProcesses(): number[] {
  const parents = new Map<number, { ppid: number; comm: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid …": comm may hold spaces or parentheses, so split at the last ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const [state, ppid] = stat.slice(close + 2).split(' ');
    if (state === 'Z') continue; // exited, not yet reaped: holds no resources
    parents.set(Number(entry), { ppid: Number(ppid), comm });
  }
  const found: number[] = [];
  const ours = new Set([process.pid]);
  // Parents come before children in pid order almost always; repeat until nothing new turns up.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, info] of parents) {
      if (ours.has(pid) || !ours.has(info.ppid)) continue;
      ours.add(pid);
      grew = true;
      if (info.comm === 'git' || info.comm.startsWith('git-') || info.comm === 'setpriv') found.push(pid);
    }
  }
  return found;
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return condition();
}

interface RawRequest {
  socket: Socket;
  /** Everything the server has sent so far. */
  received(): Buffer;
  /** Settles when the server (or we) closed the connection. */
  closed: Promise<void>;
}

/** Opens a connection and sends `head` (request line and headers) and `body` bytes, and nothing more. */
function rawRequest(serverPort: number, head: string, body: Buffer | string = ''): Promise<RawRequest> {
  return new Promise((resolve, reject) => {
    const socket = connect(serverPort, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write(head);
      if (body.length > 0) socket.write(body);
      resolve({ socket, received: () => Buffer.concat(chunks), closed });
    });
    socket.once('error', reject);
  });
}

/** Headers of an anonymous upload-pack POST that announces `length` bytes of body. */
function uploadPackHead(length: number, hostPort = port): string {
  return [
    `POST ${UPLOAD_PACK} HTTP/1.1`,
    `Host: 127.0.0.1:${hostPort}`,
    'Content-Type: application/x-git-upload-pack-request',
    `Content-Length: ${length}`,
    '',
    '',
  ].join('\r\n');
}

/** A complete v2 ls-refs request: small, and answered with the repository's refs. */
function lsRefs(): Promise<Response> {
  return ts.fetch(UPLOAD_PACK, {
    method: 'POST',
    headers: { 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' },
    body: pkt('command=ls-refs\n') + '0001' + pkt('ref-prefix refs/heads/\n') + '0000',
  });
}

/**
 * A protocol v2 fetch of main by a client that has it: git answers it (with an empty pack), so it needs a slot.
 * The body is read, so git has exited and freed its slot when this resolves.
 */
async function fetchPack(): Promise<{ status: number; body: string }> {
  const res = await ts.fetch(UPLOAD_PACK, {
    method: 'POST',
    headers: { 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' },
    body: pkt('command=fetch\n') + '0001' + pkt(`want ${head}\n`) + pkt(`have ${head}\n`) + pkt('done\n') + '0000',
  });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()).toString('latin1') };
}

beforeAll(async () => {
  ts = await startTestServer({
    repohost: { GIT_MAX_SERVICES: 1, GIT_SERVICE_QUEUE_TIMEOUT: 1, GIT_MAX_FETCH_REQUEST_SIZE: FETCH_CAP },
    // Actions off: a push would start a workflow detection whose git readers these tests would count as the
    // requests' own processes.
    actions: { ENABLED: false },
  });
  port = Number(new URL(ts.url).port);
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-git-limits-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  await createUser(ts.host, 'alice');
  token = await createToken(ts.host, 'alice');
  const created = await ts.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'limits', auto_init: true }, tokenHeader(token)));
  expect(created.status).toBe(201);
  // A pack of several megabytes, so that a clone's answer cannot fit in the socket buffers of a client that stops reading.
  const work = path.join(scratch, 'seed');
  await git(['clone', '-q', cloneUrl('alice/limits.git'), work]);
  await writeFile(path.join(work, 'noise.bin'), randomBytes(12 * 1024 * 1024));
  await git(['add', 'noise.bin'], work);
  await git(['commit', '-q', '-m', 'Noise'], work);
  await git(['push', '-q', 'origin', 'main'], work);
  head = (await git(['rev-parse', 'HEAD'], work)).trim();
});

afterAll(async () => {
  await ts?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('git smart HTTP limits', () => {
  it('starts no git for requests that announce a body and send nothing, and keeps answering the API', async () => {
    const stalled = await Promise.all(Array.from({ length: 50 }, () => rawRequest(port, uploadPackHead(104857600))));
    try {
      // Give the server time to read the headers, authorize, and (on the old code) start git for each.
      await new Promise((r) => setTimeout(r, 500));
      expect(gitProcesses()).toEqual([]);
      const started = Date.now();
      const version = await ts.fetch('/api/v1/version', { signal: AbortSignal.timeout(5000) });
      expect(version.status).toBe(200);
      expect(((await version.json()) as { version: string }).version).toBeTruthy();
      expect(Date.now() - started).toBeLessThan(2000);
      expect(gitProcesses()).toEqual([]);
      // The connections are still open: the server is waiting for bodies, not refusing them.
      expect(stalled.every((r) => !r.socket.destroyed && r.received().length === 0)).toBe(true);
    } finally {
      for (const r of stalled) r.socket.destroy();
    }
  });

  it('answers 503 with Retry-After while the only slot is taken, and serves again once it is free', async () => {
    // A whole fetch of the 12 MiB pack, by a client that reads nothing of the answer: git fills the socket's
    // buffers and blocks, holding the slot.
    const wanted = pkt(`want ${head} ofs-delta\n`) + '0000' + pkt('done\n');
    const holder = await rawRequest(port, uploadPackHead(Buffer.byteLength(wanted)), wanted);
    holder.socket.pause();
    try {
      // upload-pack, and the pack-objects it reads from.
      expect(await waitFor(() => gitProcesses().length === 2, 5000)).toBe(true);

      const started = Date.now();
      const refused = await ts.fetch(UPLOAD_PACK, {
        method: 'POST',
        headers: { 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' },
        body: pkt('command=fetch\n') + '0001' + pkt(`want ${head}\n`) + pkt('done\n') + '0000',
      });
      expect(refused.status).toBe(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('content-type')).toContain('application/json');
      const body = (await refused.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['message', 'url']);
      expect(body.message).toMatch(/try again/);

      // info/refs runs git too, so it waits for the same slot.
      const advertisement = await ts.fetch('/alice/limits.git/info/refs?service=git-upload-pack');
      expect(advertisement.status).toBe(503);
      expect(advertisement.headers.get('retry-after')).toBeTruthy();
      await advertisement.arrayBuffer();

      // ls-refs is answered from the server's ref listing, without git: it needs no slot.
      const listed = await lsRefs();
      expect(listed.status).toBe(200);
      expect(Buffer.from(await listed.arrayBuffer()).toString('latin1')).toContain(`${head} refs/heads/main`);
      expect(gitProcesses().length).toBe(2);
    } finally {
      holder.socket.destroy();
    }
    expect(await waitFor(() => gitProcesses().length === 0, 2000)).toBe(true);
    const served = await fetchPack();
    expect(served.status).toBe(200);
    expect(served.body).toContain('packfile');
  });

  it('starts no git for a fetch whose body is still coming, and kills git and frees its slot when the client hangs up while the pack is being sent', async () => {
    // git starts once the whole request is here: part of a body holds neither a process nor the slot.
    const partial = await rawRequest(port, uploadPackHead(1000), pkt(`want ${head} ofs-delta\n`));
    await new Promise((r) => setTimeout(r, 300));
    expect(gitProcesses()).toEqual([]);
    // The slot is free: with a 1 s queue, a held slot would turn this into a 503.
    expect((await fetchPack()).status).toBe(200);
    partial.socket.destroy();
    await partial.closed;
    expect(gitProcesses()).toEqual([]);

    const body = pkt(`want ${head} ofs-delta\n`) + '0000' + pkt('done\n');
    const reading = await rawRequest(port, uploadPackHead(Buffer.byteLength(body)), body);
    // Wait for the answer to begin, then stop reading: git fills every buffer on the way and blocks.
    expect(await waitFor(() => reading.received().length > 0, 10_000)).toBe(true);
    reading.socket.pause();
    expect(reading.received().toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
    await new Promise((r) => setTimeout(r, 300));
    reading.socket.destroy();
    expect(await waitFor(() => gitProcesses().length === 0, 1500)).toBe(true);
    expect((await fetchPack()).status).toBe(200);
  });

  it('answers 413 to a fetch request that inflates past the cap, and stops git', async () => {
    // Valid want lines, and no flush: git reads on and answers nothing until the body ends.
    const wants = pkt(`want ${head}\n`).repeat(4000);
    expect(wants.length).toBeGreaterThan(FETCH_CAP * 4);
    const compressed = gzipSync(wants);
    expect(compressed.length).toBeLessThan(FETCH_CAP);
    const res = await ts.fetch(UPLOAD_PACK, {
      method: 'POST',
      headers: { ...tokenHeader(token), 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
      body: compressed,
    });
    expect(res.status).toBe(413);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['message', 'url']);
    expect(await waitFor(() => gitProcesses().length === 0, 1500)).toBe(true);

    // Uncompressed bodies are held to the same cap.
    const plain = await ts.fetch(UPLOAD_PACK, {
      method: 'POST',
      headers: { ...tokenHeader(token), 'content-type': 'application/x-git-upload-pack-request' },
      body: wants,
    });
    expect(plain.status).toBe(413);
    await plain.arrayBuffer();
    expect(await waitFor(() => gitProcesses().length === 0, 1500)).toBe(true);
    expect((await fetchPack()).status).toBe(200);
  });

  it('answers 400 to a body that claims gzip and is not', async () => {
    const res = await ts.fetch(UPLOAD_PACK, {
      method: 'POST',
      headers: { ...tokenHeader(token), 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
      body: 'this is not gzip, but long enough to be read as a header',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/gzip/);
    expect(await waitFor(() => gitProcesses().length === 0, 1500)).toBe(true);
  });

  it('clones and pushes as before with a single slot', async () => {
    const work = path.join(scratch, 'work');
    await git(['clone', '-q', cloneUrl('alice/limits.git'), work]);
    expect((await git(['rev-parse', 'HEAD'], work)).trim()).toBe(head);
    await writeFile(path.join(work, 'more.txt'), 'more\n');
    await git(['add', 'more.txt'], work);
    await git(['commit', '-q', '-m', 'More'], work);
    await git(['push', '-q', 'origin', 'main'], work);
    const pushed = (await git(['rev-parse', 'HEAD'], work)).trim();

    const again = path.join(scratch, 'again');
    await git(['-c', 'protocol.version=2', 'clone', '-q', cloneUrl('alice/limits.git'), again]);
    expect((await git(['rev-parse', 'HEAD'], again)).trim()).toBe(pushed);
    expect(await readFile(path.join(again, 'more.txt'), 'utf8')).toBe('more\n');
    expect(gitProcesses()).toEqual([]);
  });
});

describe('HTTP server timeouts (startServer)', () => {
  let th: TestHost;
  let running: RunningServer;
  let serverPort: number;
  let secret: string;

  beforeAll(async () => {
    th = await openTestHost({ repohost: { HTTP_HEADERS_TIMEOUT: 1, HTTP_IDLE_TIMEOUT: 1, GIT_RECEIVE_MAX_INPUT_SIZE: 64 * 1024 } });
    running = await startServer(th.host, { port: 0, hostname: '127.0.0.1' });
    serverPort = Number(new URL(running.url).port);
    await createUser(th.host, 'alice');
    secret = await createToken(th.host, 'alice');
    const created = await fetch(new URL('api/v1/user/repos', running.url), jsonInit('POST', { name: 'limits', auto_init: true }, tokenHeader(secret)));
    expect(created.status).toBe(201);
  });

  afterAll(async () => {
    await running?.close();
    await th?.cleanup();
  });

  it('closes a connection whose headers do not arrive in time', async () => {
    const request = await rawRequest(serverPort, `GET /api/v1/version HTTP/1.1\r\nHost: 127.0.0.1:${serverPort}\r\n`);
    const started = Date.now();
    const closed = await Promise.race([request.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    request.socket.destroy();
    expect(closed).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(request.received().toString('latin1')).toMatch(/^(HTTP\/1\.1 408 |$)/);
  });

  it('closes a connection on which nothing moves, and starts no git for it', async () => {
    const request = await rawRequest(serverPort, uploadPackHead(104857600, serverPort));
    const started = Date.now();
    const closed = await Promise.race([request.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    request.socket.destroy();
    expect(closed).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(gitProcesses()).toEqual([]);
  });

  it('lets a slow but moving request through', async () => {
    // Headers complete, then the body trickles in well within the idle timeout: nothing may be cut off.
    const body = pkt('command=ls-refs\n') + '0001' + pkt('ref-prefix refs/heads/\n') + '0000';
    const head = [
      'POST /alice/limits.git/git-upload-pack HTTP/1.1',
      `Host: 127.0.0.1:${serverPort}`,
      'Content-Type: application/x-git-upload-pack-request',
      'Git-Protocol: version=2',
      `Content-Length: ${body.length}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    const request = await rawRequest(serverPort, head);
    for (let i = 0; i < body.length; i += 12) {
      await new Promise((r) => setTimeout(r, 300));
      request.socket.write(body.slice(i, i + 12));
    }
    await request.closed;
    const answer = request.received().toString('latin1');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('refs/heads/main');
  });

  it('refuses a push whose pack is larger than receive.maxInputSize, and takes a small one', async () => {
    const url = `http://alice:${secret}@127.0.0.1:${serverPort}/alice/limits.git`;
    const work = path.join(scratch, 'capped-push');
    await git(['clone', '-q', url, work]);
    const before = (await git(['rev-parse', 'HEAD'], work)).trim();
    await writeFile(path.join(work, 'big.bin'), randomBytes(256 * 1024));
    await git(['add', 'big.bin'], work);
    await git(['commit', '-q', '-m', 'Too big'], work);
    await expect(git(['push', '-q', 'origin', 'main'], work)).rejects.toThrow(/unpack|maximum allowed size/);
    expect((await git(['ls-remote', url, 'refs/heads/main'])).split('\t')[0]).toBe(before);

    await git(['reset', '-q', '--hard', before], work);
    await writeFile(path.join(work, 'small.txt'), 'small\n');
    await git(['add', 'small.txt'], work);
    await git(['commit', '-q', '-m', 'Small'], work);
    await git(['push', '-q', 'origin', 'main'], work);
    expect((await git(['ls-remote', url, 'refs/heads/main'])).split('\t')[0]).toBe((await git(['rev-parse', 'HEAD'], work)).trim());
  });
});

describe('a fetch answered by git on the socket itself (HTTP/1 on plain TCP)', () => {
  let th: TestHost;
  let running: RunningServer;
  let serverPort: number;
  let pushed: string;
  const fetchPath = '/alice/big.git/git-upload-pack';

  /** Headers and body of an answer that ended with its connection. */
  function parse(answer: Buffer): { status: string; headers: Map<string, string>; body: Buffer } {
    const end = answer.indexOf('\r\n\r\n');
    const lines = answer.subarray(0, end).toString('latin1').split('\r\n');
    const headers = new Map(lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    return { status: lines[0]!, headers, body: answer.subarray(end + 4) };
  }

  function fetchHead(length: number): string {
    return [`POST ${fetchPath} HTTP/1.1`, `Host: 127.0.0.1:${serverPort}`, 'Content-Type: application/x-git-upload-pack-request', 'Git-Protocol: version=2', `Content-Length: ${length}`, '', ''].join('\r\n');
  }

  beforeAll(async () => {
    th = await openTestHost({ repohost: { HTTP_IDLE_TIMEOUT: 1 }, actions: { ENABLED: false } });
    running = await startServer(th.host, { port: 0, hostname: '127.0.0.1' });
    serverPort = Number(new URL(running.url).port);
    await createUser(th.host, 'alice');
    const secret = await createToken(th.host, 'alice');
    const created = await fetch(new URL('api/v1/user/repos', running.url), jsonInit('POST', { name: 'big' }, tokenHeader(secret)));
    expect(created.status).toBe(201);
    // The first describe's 12 MiB history: more than a client that stops reading can take into its buffers.
    await git(['push', '-q', `http://alice:${secret}@127.0.0.1:${serverPort}/alice/big.git`, 'main'], path.join(scratch, 'seed'));
    pushed = (await git(['rev-parse', 'main'], path.join(scratch, 'seed'))).trim();
  });

  afterAll(async () => {
    await running?.close();
    await th?.cleanup();
  });

  it('sends its headers first, then the pack as git writes it, ended by closing the connection', async () => {
    const body = pkt('command=fetch\n') + '0001' + pkt('no-progress\n') + pkt(`want ${pushed}\n`) + pkt('done\n') + '0000';
    const request = await rawRequest(serverPort, fetchHead(body.length), body);
    await request.closed;
    const answer = parse(request.received());
    expect(answer.status).toBe('HTTP/1.1 200 OK');
    expect(answer.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    expect(answer.headers.get('cache-control')).toBe('no-cache, max-age=0, must-revalidate');
    expect(answer.headers.get('connection')).toBe('close');
    // No framing of this process's own in the body: git's pkt-lines are all there is, up to the final flush.
    expect(answer.headers.has('transfer-encoding')).toBe(false);
    expect(answer.headers.has('content-length')).toBe(false);
    expect(answer.body.subarray(0, 13).toString('latin1')).toBe(pkt('packfile\n'));
    // Then side-band 1, the pack, from its signature on.
    expect(answer.body.subarray(17, 22).toString('latin1')).toBe('\u0001PACK');
    expect(answer.body.subarray(-4).toString('latin1')).toBe('0000');
    expect(answer.body.length).toBeGreaterThan(12 * 1024 * 1024);
    expect(gitProcesses()).toEqual([]);
  });

  it('stops git when the client reads nothing for HTTP_IDLE_TIMEOUT, and closes the connection', async () => {
    const body = pkt('command=fetch\n') + '0001' + pkt(`want ${pushed}\n`) + pkt('done\n') + '0000';
    const request = await rawRequest(serverPort, fetchHead(body.length), body);
    expect(await waitFor(() => request.received().length > 0, 5000)).toBe(true);
    request.socket.pause();
    const paused = Date.now();
    expect(request.received().toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // Still there while the client is merely slow: git has filled the buffers and waits.
    await new Promise((r) => setTimeout(r, 500));
    expect(gitProcesses().length).toBeGreaterThan(0);
    expect(await waitFor(() => gitProcesses().length === 0, 5000)).toBe(true);
    expect(Date.now() - paused).toBeGreaterThanOrEqual(900);
    // What was sent before is still read, and then the connection's end: the answer is cut short.
    request.socket.resume();
    await request.closed;
    expect(request.received().length).toBeLessThan(12 * 1024 * 1024);
    // The server serves the next fetch as before.
    const again = await fetch(new URL(`${fetchPath.slice(1)}`, running.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' },
      body: pkt('command=fetch\n') + '0001' + pkt(`want ${pushed}\n`) + pkt(`have ${pushed}\n`) + pkt('done\n') + '0000',
    });
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).toString('latin1')).toContain('packfile');
  });

  it('streams a fetch request over 1 MiB into git and its answer through the server, chunked, as before', async () => {
    // 22,000 haves of objects the server does not know: a long negotiation, which git still answers with the pack.
    const haves = Array.from({ length: 22_000 }, (_, i) => pkt(`have ${i.toString(16).padStart(40, '0')}\n`)).join('');
    const body = pkt('command=fetch\n') + '0001' + pkt('no-progress\n') + pkt(`want ${pushed}\n`) + haves + pkt('done\n') + '0000';
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const request = await rawRequest(serverPort, fetchHead(body.length).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'), body);
    await request.closed;
    const answer = parse(request.received());
    expect(answer.status).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.headers.get('transfer-encoding')).toBe('chunked');
    expect(answer.body.toString('latin1')).toContain(pkt('packfile\n'));
    expect(answer.body.length).toBeGreaterThan(12 * 1024 * 1024);
  });
});
