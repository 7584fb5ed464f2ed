/**
 * A 200 MiB generic package file through the built server, as `curl -T` and `curl -O` move it: uploaded as a stream
 * and downloaded as a stream, while the server process's resident memory (VmRSS) is sampled every 100 ms. Neither
 * direction may hold the file in memory: the peak stays far below the file's size. The bytes come back with the
 * upload's sha256 and the stored blob has the file's size.
 */
import { createHash, type Hash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoHost, SYSTEM, loadSettings } from '@repohost/core';
import { testDatabaseEnv } from '@repohost/test-support';
import { NodeProcess, freePort } from './support/cluster.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;
const FILE_MIB = 200;
const CHUNK = MiB;
/**
 * Growth of the server's RSS allowed during a transfer. Measured: 31-32 MiB for the upload (stream buffers, the
 * hashes, GC slack), about 1 MiB for the download over what the upload left resident. A server that holds the
 * whole file grows by at least its 200 MiB (seen: 239 MiB collecting the upload's chunks, 368 MiB concatenating
 * the download's), so 80 MiB leaves room for GC noise and still catches that.
 */
const GROWTH_BOUND = 80 * MiB;

/** The server process's resident set size and its high-water mark (VmHWM), in bytes, from /proc. */
async function memory(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => {
    const kib = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
    if (!kib) throw new Error(`no ${name} for ${pid}`);
    return Number(kib) * 1024;
  };
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

const rss = async (pid: number) => (await memory(pid)).rss;

/**
 * The server's peak RSS while `work` runs: the highest VmRSS sampled every 100 ms and, because a fast transfer
 * (the download takes about half a second) leaves few samples, the kernel's own high-water mark, reset first
 * through clear_refs (allowed on a child of ours; when it is not, the samples alone count).
 */
async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number; samples: number; exact: boolean; ms: number }> {
  const exact = await writeFile(`/proc/${pid}/clear_refs`, '5').then(
    () => true,
    () => false,
  );
  let peak = await rss(pid);
  let samples = 1;
  const timer = setInterval(() => {
    rss(pid).then(
      (value) => {
        samples++;
        if (value > peak) peak = value;
      },
      () => {},
    );
  }, 100);
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    const after = await memory(pid);
    peak = Math.max(peak, after.rss, exact ? after.hwm : 0);
    return { result, peak, samples, exact, ms };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The file's chunks, made on the fly: chunk i is a fixed pseudo-random MiB (sha256 in counter mode over a seed) with
 * i in its first 4 bytes, so no two chunks are equal and nothing but one chunk exists at a time. Each yielded
 * chunk is a fresh Buffer, because the socket may still hold the previous one.
 */
function* fileChunks(): Generator<Buffer> {
  const base = Buffer.alloc(CHUNK);
  for (let offset = 0, n = 0; offset < CHUNK; offset += 32, n++) createHash('sha256').update(`seed-${n}`).digest().copy(base, offset);
  for (let i = 0; i < FILE_MIB; i++) {
    const chunk = Buffer.from(base);
    chunk.writeUInt32BE(i, 0);
    yield chunk;
  }
}

/** PUT of the generated file, written with backpressure; the status and the sha256 of what was sent. */
function upload(url: string, token: string): Promise<{ status: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const req = http.request(url, { method: 'PUT', headers: { authorization: `token ${token}`, 'content-type': 'application/octet-stream' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sha256: hash.digest('hex') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const chunks = fileChunks();
    const pump = () => {
      for (;;) {
        const next = chunks.next();
        if (next.done) return void req.end();
        hash.update(next.value);
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

/** GET of `url`, hashed as it arrives; the status, the byte count and the sha256. */
function download(url: string, token: string): Promise<{ status: number; size: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `token ${token}` } }, (res) => {
        const hash: Hash = createHash('sha256');
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          hash.update(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, size, sha256: hash.digest('hex') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The path of the file named `name` under `dir`, if any. */
async function findFile(dir: string, name: string): Promise<string | undefined> {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name === name) return path.join(entry.parentPath, entry.name);
  }
  return undefined;
}

describe('a 200 MiB generic package file through the built server', () => {
  let workPath: string;
  let cleanupDb: () => Promise<void>;
  let server: NodeProcess;
  let token: string;

  beforeAll(async () => {
    // The test drives the built binary, as an operator runs it: its memory is what is measured.
    const { ensureBuilt } = (await import(path.join(root, 'scripts', 'build-if-stale.mjs'))) as { ensureBuilt(): Promise<void> };
    await ensureBuilt();
    workPath = await mkdtemp(path.join(tmpdir(), 'repohost-packages-large-'));
    const db = await testDatabaseEnv();
    cleanupDb = db.cleanup;
    const env = { PATH: process.env.PATH, HOME: workPath, ...db.env, FORGEJO__SERVER__HTTP_ADDR: '127.0.0.1' };
    const host = await RepoHost.open({ settings: loadSettings({ workPath, env }), noSecretKey: 'generate' });
    const alice = await host.users.create(SYSTEM, { username: 'alice', email: 'alice@example.com', password: 'a-good-password', admin: false });
    token = (await host.tokens.create(SYSTEM, alice, { name: 'large', scopes: ['write:package'] })).value;
    await host.close();
    server = new NodeProcess('server', await freePort(), workPath, env);
    await server.start();
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await cleanupDb?.();
    if (workPath) await rm(workPath, { recursive: true, force: true });
  });

  it('uploads and downloads with flat server memory, the same bytes, and the blob stored at its size', async () => {
    const pid = server.pid!;
    const files = `${server.url}api/packages/alice/generic/big/1.0.0`;
    // A small round trip first, so the baseline includes the code paths and pools a transfer warms up.
    const warm = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${files}/warm.bin`, { method: 'PUT', headers: { authorization: `token ${token}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(Buffer.alloc(256 * 1024, 7));
    });
    expect(warm).toBe(201);
    expect((await download(`${files}/warm.bin`, token)).size).toBe(256 * 1024);
    const baseline = await rss(pid);

    const up = await peakRssDuring(pid, () => upload(`${files}/big.bin`, token));
    expect(up.result.status).toBe(201);
    // The download's own baseline: memory the upload left resident (freed, not returned) must not hide its growth.
    const beforeDownload = await rss(pid);
    const down = await peakRssDuring(pid, () => download(`${files}/big.bin`, token));
    expect(down.result).toEqual({ status: 200, size: FILE_MIB * MiB, sha256: up.result.sha256 });

    const growth = { upload: Math.round((up.peak - baseline) / MiB), download: Math.round((down.peak - beforeDownload) / MiB) };
    console.log(
      `packages-large: baseline RSS ${Math.round(baseline / MiB)} MiB (${Math.round(beforeDownload / MiB)} MiB before the download); peak growth upload ${growth.upload} MiB (${Math.round(up.ms)} ms, ${up.samples} samples), ` +
        `download ${growth.download} MiB (${Math.round(down.ms)} ms, ${down.samples} samples); high-water mark ${up.exact ? 'read' : 'unavailable'}`,
    );
    expect(up.peak - baseline).toBeLessThan(GROWTH_BOUND);
    expect(down.peak - beforeDownload).toBeLessThan(GROWTH_BOUND);

    // The content-addressed blob (named by its sha256) holds exactly the file.
    const blob = await findFile(workPath, up.result.sha256);
    expect(blob).toBeDefined();
    expect((await stat(blob!)).size).toBe(FILE_MIB * MiB);
  }, 120_000);
});
