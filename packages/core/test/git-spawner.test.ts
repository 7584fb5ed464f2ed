/**
 * The spawner's helper (`git/native-spawner.ts`): processes it starts behave as Node's own children (input,
 * output, errors, exit codes, kills, a program that does not exist, many at once, large streams both ways), a
 * start costs the event loop about the same however large the server has grown, and when the helper dies its
 * processes' callers hear so and later starts go directly until it is back.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { gitSpawner, type GitProcess } from '../src/git/native-spawner.js';

const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C', GIT_CONFIG_NOSYSTEM: '1' };

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

function finish(child: GitProcess, input?: Buffer | string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
    if (input !== undefined) child.stdin.end(input);
  });
}

/** A process the helper started (the spawner answers with one once its helper is up). */
async function helperSpawn(file: string, args: string[]): Promise<GitProcess> {
  expect(await gitSpawner.ready()).toBe(true);
  const child = gitSpawner.spawn(file, args, env);
  expect(child.constructor.name).toBe('HelperProcess');
  return child;
}

/** Both ends of a loopback TCP connection, and what the client end receives until the connection ends. */
async function connection(): Promise<{ server: net.Socket; client: net.Socket; received: Promise<Buffer> }> {
  const listener = net.createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<net.Socket>((resolve) => listener.once('connection', resolve));
  const client = net.connect((listener.address() as AddressInfo).port, '127.0.0.1');
  const server = await accepted;
  listener.close();
  const received = new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.on('end', () => resolve(Buffer.concat(chunks)));
  });
  return { server, client, received };
}

/** git given `server` as its stdout: it writes there itself, and its stdout stream has nothing; then our end closes. */
async function writesToSocket(start: (stdout: net.Socket) => GitProcess): Promise<{ constructor: string; outcome: Outcome; received: string }> {
  const { server, client, received } = await connection();
  const child = start(server);
  const outcome = await finish(child, 'hello\n');
  server.end();
  const text = (await received).toString();
  client.destroy();
  return { constructor: child.constructor.name, outcome, received: text };
}

const HELLO_ID = 'ce013625030ba8dba906f756967f9e9ca394464a\n';

describe('processes the helper starts', () => {
  test('take input, give output, errors and exit codes as a child process does', async () => {
    const hashed = await finish(await helperSpawn('git', ['hash-object', '--stdin']), 'hello\n');
    expect(hashed).toEqual({ code: 0, signal: null, stdout: Buffer.from(HELLO_ID), stderr: '' });

    const failed = await finish(await helperSpawn('git', ['--git-dir', '/nonexistent/repo.git', 'rev-parse', 'HEAD']));
    expect(failed.code).toBe(128);
    expect(failed.stderr).toContain('not a git repository');
    expect(failed.stdout.length).toBe(0);

    const child = await helperSpawn('git', ['version']);
    // 'spawn' once started, before its exit, as a child process says it (the backend counts processes by it).
    const events: string[] = [];
    child.once('spawn', () => events.push('spawn'));
    child.once('exit', () => events.push('exit'));
    child.once('close', () => events.push('close'));
    const outcome = await finish(child);
    expect(events).toEqual(['spawn', 'exit', 'close']);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout.toString()).toMatch(/^git version /);
    expect(child.pid).toBeGreaterThan(0);
    expect(child.exitCode).toBe(0);
  });

  test('given a socket for its stdout, write to it themselves (the socket goes to the helper with the request)', async () => {
    expect(await gitSpawner.ready()).toBe(true);
    const written = await writesToSocket((socket) => gitSpawner.spawn('git', ['hash-object', '--stdin'], env, socket));
    expect(written).toEqual({ constructor: 'HelperProcess', outcome: { code: 0, signal: null, stdout: Buffer.alloc(0), stderr: '' }, received: HELLO_ID });
  });

  test('a program that does not exist fails with ENOENT, and a kill ends a process with its signal', async () => {
    const missing = await helperSpawn('/nonexistent/program', []);
    let spawned = false;
    missing.once('spawn', () => (spawned = true));
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => missing.on('error', resolve));
    expect(error.code).toBe('ENOENT');
    expect(spawned).toBe(false);

    const sleeper = await helperSpawn('sleep', ['30']);
    const ended = finish(sleeper);
    // Asked before the helper has even started it: the kill waits for the start.
    expect(sleeper.kill('SIGKILL')).toBe(true);
    expect(await ended).toMatchObject({ code: null, signal: 'SIGKILL' });
    expect(sleeper.kill('SIGKILL')).toBe(false);

    // A process that ends without reading its input: a later write fails instead of waiting, as on a pipe.
    const quitter = await helperSpawn('true', []);
    expect((await finish(quitter)).code).toBe(0);
    const writeError = await new Promise<Error | null | undefined>((resolve) => quitter.stdin.write(Buffer.alloc(1024 * 1024), resolve));
    expect(writeError).toBeInstanceOf(Error);
  });

  test('many at once each get their own streams, and 24 MiB passes each way with backpressure', async () => {
    const inputs = Array.from({ length: 40 }, (_, i) => `blob number ${i} ${randomBytes(8).toString('hex')}\n`);
    const hashes = await Promise.all(inputs.map(async (input) => (await finish(await helperSpawn('git', ['hash-object', '--stdin']), input)).stdout.toString().trim()));
    const expected = inputs.map((input) => createHash('sha1').update(`blob ${Buffer.byteLength(input)}\0${input}`).digest('hex'));
    expect(hashes).toEqual(expected);

    // cat echoes its input: what comes back is what went in, the reader pausing now and then.
    const big = randomBytes(24 * 1024 * 1024);
    const cat = await helperSpawn('cat', []);
    const echoed = new Promise<Buffer>((resolve) => {
      const out: Buffer[] = [];
      cat.stdout.on('data', (chunk: Buffer) => {
        out.push(chunk);
        if (out.length % 50 === 0) {
          cat.stdout.pause();
          setTimeout(() => cat.stdout.resume(), 5);
        }
      });
      cat.on('close', () => resolve(Buffer.concat(out)));
    });
    cat.stdin.end(big);
    const back = await echoed;
    expect(back.length).toBe(big.length);
    expect(back.equals(big)).toBe(true);
  });
});

describe('the event loop', () => {
  test('a start holds it about as long with 400 MB resident as without, where a direct start grows with it', async () => {
    expect(await gitSpawner.ready()).toBe(true);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    const held = async (start: () => GitProcess) => {
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        const began = performance.now();
        const child = start();
        times.push(performance.now() - began);
        await finish(child);
      }
      return median(times);
    };
    // Memory the server holds (touched, so it is resident and fork() has its page tables to copy).
    const ballast = Array.from({ length: 400 }, () => Buffer.alloc(1024 * 1024, 1));
    const viaHelper = await held(() => gitSpawner.spawn('git', ['version'], env));
    const direct = await held(() => spawn('git', ['version'], { env, stdio: 'pipe' }));
    expect(ballast.length).toBe(400);
    // Direct: about 19 ms at this size on the machine this was written on; through the helper: about 0.2 ms.
    expect(direct).toBeGreaterThan(3 * viaHelper);
    expect(viaHelper).toBeLessThan(3);
  });
});

describe('when the helper dies', () => {
  test('its processes fail, later starts go directly, and it is started again', async () => {
    expect(await gitSpawner.ready()).toBe(true);
    const pid = gitSpawner.helperPid!;
    const sleeper = await helperSpawn('sleep', ['30']);
    const failed = new Promise<Error>((resolve) => sleeper.on('error', resolve));
    await expect.poll(() => sleeper.pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    expect((await failed).message).toBe('the git process helper exited');
    // Meanwhile git starts directly, and works.
    const direct = gitSpawner.spawn('git', ['version'], env);
    expect(direct.constructor.name).toBe('ChildProcess');
    expect((await finish(direct)).code).toBe(0);
    // A socket for stdout is the direct child's stdio.
    const written = await writesToSocket((socket) => gitSpawner.spawn('git', ['hash-object', '--stdin'], env, socket));
    expect(written).toEqual({ constructor: 'ChildProcess', outcome: { code: 0, signal: null, stdout: Buffer.alloc(0), stderr: '' }, received: HELLO_ID });
    // The helper is started again after a pause.
    await expect.poll(() => gitSpawner.ready(), { timeout: 15_000, interval: 500 }).toBe(true);
    expect(gitSpawner.helperPid).not.toBe(pid);
    expect((await finish(await helperSpawn('git', ['hash-object', '--stdin']), 'again\n')).code).toBe(0);
  }, 30_000);
});
