/**
 * Package registries benchmark (run by `npm run bench`): req/s of the npm metadata document
 * `GET /api/packages/{owner}/npm/{name}` of a package with 20 versions (published one by one through the registry's
 * PUT, with the document the npm client sends), anonymous and with a token, and of generic file downloads
 * `GET /api/packages/{owner}/generic/{name}/{version}/{file}` of a 64 KiB and a 1 MiB file (also as MiB/s: every
 * answer is read to its end by the load generator). `GET /api/v1/version` from the same run is printed for scale.
 * Public owner, SQLite and package blobs on local disk; the server runs in this process, load comes from
 * bench/loadgen.mjs in its own (BENCH_CONNECTIONS keep-alive connections, default 32; BENCH_WARMUP_MS warm-up,
 * default 1000; BENCH_DURATION_MS measured, default 3000; BENCH_NPM_VERSIONS, default 20). No network is used.
 *
 *   node bench/packages.mjs
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { RepoHost, SYSTEM, loadSettings } from '@repohost/core';
import { startServer } from '@repohost/server';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const VERSIONS = Number(process.env.BENCH_NPM_VERSIONS ?? 20);
const LOADGEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'loadgen.mjs');
const KiB = 1024;
const MiB = 1024 * KiB;

/** req/s and latencies of GET `url` with `headers`, measured by loadgen in a child process. */
function measure(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(LOADGEN, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (message) => (message.ok ? resolve(message.result) : reject(new Error(message.error))));
    child.once('error', reject);
    child.send({ url, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: DURATION_MS, headers });
  });
}

/** Deterministic bytes (sha256 in counter mode over `seed`), so runs compare and nothing compresses them away. */
function bytes(seed, size) {
  const out = Buffer.alloc(size);
  for (let offset = 0, n = 0; offset < size; offset += 32, n++) createHash('sha256').update(`${seed}-${n}`).digest().copy(out, offset);
  return out;
}

/** The body `npm publish` sends for `version` of `name`: one version, its dist and the tarball attached in base64. */
function publishDocument(registry, name, version) {
  const tarball = gzipSync(Buffer.concat([Buffer.from(JSON.stringify({ name, version })), bytes(`${name}@${version}`, 4 * KiB)]));
  const file = `${name}-${version}.tgz`;
  return {
    _id: name,
    name,
    description: `The ${name} package, for the benchmark`,
    'dist-tags': { latest: version },
    versions: {
      [version]: {
        name,
        version,
        description: `The ${name} package, for the benchmark`,
        main: 'index.js',
        license: 'MIT',
        keywords: ['bench', 'repohost'],
        author: { name: 'Bench', email: 'bench@example.com' },
        dependencies: { 'left-pad': '^1.3.0', lodash: '^4.17.21' },
        readme: `# ${name}\n\nVersion ${version}.\n`,
        _id: `${name}@${version}`,
        dist: {
          integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
          shasum: createHash('sha1').update(tarball).digest('hex'),
          tarball: `${registry}${name}/-/${file}`,
        },
      },
    },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length } },
  };
}

/** Fails unless `response` has `status`; returns it. */
async function expectStatus(response, status, what) {
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return response;
}

export async function runPackagesBench(log = console.log) {
  const folder = await mkdtemp(path.join(tmpdir(), 'repohost-bench-packages-'));
  const settings = loadSettings({ workPath: folder, overrides: { server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 }, database: { PATH: path.join(folder, 'bench.db') } } });
  const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
  const running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
  const results = {};
  try {
    const user = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'bench-password-123', admin: false });
    const { value: token } = await host.tokens.create(SYSTEM, user, { name: 'bench', scopes: ['write:package'] });
    const auth = { authorization: `token ${token}` };
    const registry = `${settings.server.ROOT_URL}api/packages/bench/npm/`;
    const generic = `${settings.server.ROOT_URL}api/packages/bench/generic/blobs/1.0.0`;

    const started = performance.now();
    for (let i = 0; i < VERSIONS; i++) {
      const body = JSON.stringify(publishDocument(registry, 'bench-lib', `1.${i}.0`));
      await expectStatus(await fetch(`${registry}bench-lib`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body }), 201, `npm publish 1.${i}.0`);
    }
    const files = { 'small.bin': bytes('small', 64 * KiB), 'large.bin': bytes('large', MiB) };
    for (const [name, data] of Object.entries(files)) {
      await expectStatus(await fetch(`${generic}/${name}`, { method: 'PUT', headers: auth, body: data }), 201, `generic upload of ${name}`);
    }
    log(`packages: ${VERSIONS} npm versions published and 2 generic files uploaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const documentUrl = `${registry}bench-lib`;
    const doc = await (await expectStatus(await fetch(documentUrl), 200, 'the npm document')).json();
    if (Object.keys(doc.versions).length !== VERSIONS) throw new Error(`the npm document lists ${Object.keys(doc.versions).length} versions, not ${VERSIONS}`);
    const docBytes = Buffer.byteLength(JSON.stringify(doc));
    for (const [name, data] of Object.entries(files)) {
      const got = Buffer.from(await (await expectStatus(await fetch(`${generic}/${name}`), 200, `download of ${name}`)).arrayBuffer());
      if (!got.equals(data)) throw new Error(`download of ${name} does not match its upload`);
    }

    const cases = [
      ['GET /api/v1/version (for scale)', `${settings.server.ROOT_URL}api/v1/version`, {}, undefined],
      [`GET /api/packages/{owner}/npm/{name} (${VERSIONS} versions, ${(docBytes / KiB).toFixed(1)} KiB), anonymous`, documentUrl, {}, undefined],
      [`GET /api/packages/{owner}/npm/{name} (${VERSIONS} versions), with a token`, documentUrl, auth, undefined],
      ['GET /api/packages/{owner}/generic/{name}/{version}/{file} (64 KiB)', `${generic}/small.bin`, {}, files['small.bin'].length],
      ['GET /api/packages/{owner}/generic/{name}/{version}/{file} (1 MiB)', `${generic}/large.bin`, {}, files['large.bin'].length],
    ];
    log(`load: ${CONNECTIONS} keep-alive connections, closed loop, ${WARMUP_MS / 1000} s warm-up + ${DURATION_MS / 1000} s measured, generator in its own process`);
    for (const [label, url, headers, size] of cases) {
      const result = await measure(url, headers);
      results[label] = result.rps;
      const throughput = size === undefined ? '' : `, ${((result.rps * size) / MiB).toFixed(1)} MiB/s`;
      log(`${label}: ${result.rps.toFixed(0)} req/s${throughput}, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms (${CONNECTIONS} connections, ${result.errors} errors)`);
      if (result.errors > 0) throw new Error(`${label}: ${result.errors} answers were not 200 (${JSON.stringify(result.statuses)})`);
    }
  } finally {
    await running.close();
    await host.close();
    await rm(folder, { recursive: true, force: true });
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runPackagesBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
