/**
 * The request path survives any input: bodies are limited while they stream in, numbers in the query and the
 * body are int64 with bounds, HEAD answers on every GET route, malformed percent-encoding is a 400, and every
 * API answer carries Forgejo's protective headers. Never a 500.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';
import { Type } from '@sinclair/typebox';
import { RepositorySchema, SYSTEM, ValidationError, matchesSchema, schemaErrors, userActor, type RepoHost } from '@repohost/core';
import { ApiRouter } from '@repohost/server';
import { PASSWORD, basic, createToken, createUser, jsonInit, openTestHost, startTestServer, tokenHeader, type TestHost, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const NOSNIFF = 'nosniff';
const CACHE_CONTROL = 'max-age=0, private, must-revalidate, no-transform';
/** Forgejo's and Gitea's `[cors] X_FRAME_OPTIONS` default, on every API answer. */
const FRAME_OPTIONS = 'SAMEORIGIN';

interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Map<string, string>;
  /** Every byte after the header block, as it came off the wire. */
  body: Buffer;
}

/**
 * One request over a fresh TCP connection, written byte for byte (so a malformed path reaches the server as it
 * is), and the raw answer: what a HEAD answer carries after its headers is visible here, not hidden by a client.
 */
async function raw(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  const head = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const all = Buffer.concat(chunks);
  const end = all.indexOf('\r\n\r\n');
  const lines = all.subarray(0, end).toString('latin1').split('\r\n');
  const parsed = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    parsed.set(name, parsed.has(name) ? `${parsed.get(name)}, ${value}` : value);
  }
  return { status: Number(lines[0]!.split(' ')[1]), headers: parsed, body: all.subarray(end + 4) };
}

function rawJson(res: RawResponse): any {
  return JSON.parse(res.body.toString('utf8'));
}

/** Headers a GET and its HEAD must share: all but the clock. */
function comparable(headers: Map<string, string>): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => name !== 'date').sort(([a], [b]) => a.localeCompare(b)));
}

function expectProtectiveHeaders(res: { headers: Map<string, string> } | Response, label: string): void {
  const get = (name: string) => (res.headers instanceof Map ? res.headers.get(name) : (res as Response).headers.get(name));
  expect(get('x-content-type-options'), label).toBe(NOSNIFF);
  expect(get('cache-control'), label).toBe(CACHE_CONTROL);
  expect(get('x-frame-options'), label).toBe(FRAME_OPTIONS);
}

/**
 * A probe API on the real router, for what no route declares yet: a per-route body limit, an integer body
 * field, boolean and integer query parameters.
 */
function registerProbeRoutes(app: H3, host: RepoHost): void {
  const router = new ApiRouter(app, host);
  router.add({
    method: 'POST',
    path: '/probe/small',
    operationId: 'probeSmall',
    summary: 'a route with a 1 KiB body limit',
    tag: 'test',
    maxBodyBytes: 1024,
    body: Type.Object({ text: Type.String() }),
    reply: { status: 200, description: 'echo', schema: Type.Object({ text: Type.String() }) },
    handler: async ({ body }) => ({ text: body.text }),
  });
  router.add({
    method: 'POST',
    path: '/probe/count',
    operationId: 'probeCount',
    summary: 'integer body fields',
    tag: 'test',
    body: Type.Object({ count: Type.Optional(Type.Integer()), counts: Type.Optional(Type.Array(Type.Integer())) }),
    reply: { status: 200, description: 'echo', schema: Type.Object({ count: Type.Optional(Type.Integer()), counts: Type.Optional(Type.Array(Type.Integer())) }) },
    handler: async ({ body }) => body,
  });
  router.add({
    method: 'GET',
    path: '/probe/query',
    operationId: 'probeQuery',
    summary: 'boolean, integer and string query parameters',
    tag: 'test',
    query: Type.Object({ flag: Type.Optional(Type.Boolean()), n: Type.Optional(Type.Integer()), s: Type.Optional(Type.String()) }),
    reply: { status: 200, description: 'echo', schema: Type.Object({ flag: Type.Optional(Type.Boolean()), n: Type.Optional(Type.Integer()), s: Type.Optional(Type.String()) }) },
    handler: async ({ query }) => query,
  });
  router.add({
    method: 'GET',
    path: '/probe/param/{value}',
    operationId: 'probeParam',
    summary: 'a decoded path parameter',
    tag: 'test',
    reply: { status: 200, description: 'echo', schema: Type.Object({ value: Type.String() }) },
    handler: async ({ params }) => ({ value: params.value }),
  });
}

/** The probe API served by Node, as the real server is. */
async function startProbeServer(t: TestHost, app: H3 = new H3()): Promise<{ url: string; server: Server }> {
  registerProbeRoutes(app, t.host);
  const server = createServer(toNodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Offers `total` bytes as a chunked body (a JSON prefix, then spaces), writing on as long as the server takes
 * them, and samples this process's RSS meanwhile. Settles with the answer once it is read.
 */
function offerChunkedBody(
  base: string,
  path: string,
  headers: Record<string, string>,
  total: number,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string; sent: number; peakRssGrowth: number }> {
  const url = new URL(base);
  const before = process.memoryUsage.rss();
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request({
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path,
      headers: { ...headers, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!answered && sent < total) {
        const piece = sent === 0 ? Buffer.concat([Buffer.from('{"name":"big","description":"'), chunk]) : chunk;
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        clearInterval(sample);
        peak = Math.max(peak, process.memoryUsage.rss());
        req.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body, sent, peakRssGrowth: peak - before });
      });
      res.on('error', reject);
    });
    // Writes fail once the server drops the connection after its answer: expected, the answer is what counts.
    req.on('error', (error) => {
      if (!answered) {
        clearInterval(sample);
        reject(error);
      }
    });
    pump();
  });
}

describe('JSON bodies are limited while they stream in', () => {
  let s: TestServer;
  let token: string;
  let probe: { url: string; server: Server };

  beforeAll(async () => {
    s = await startTestServer();
    const owner = uniq('body');
    await createUser(s.host, owner);
    token = await createToken(s.host, owner);
    probe = await startProbeServer(s);
  });
  afterAll(async () => {
    if (probe) await closeServer(probe.server);
    await s?.cleanup();
  });

  test('a 300 MB chunked body gets 413 in the API format after the limit, without the server holding it', async () => {
    const total = 300 * 1024 * 1024;
    const started = Date.now();
    const res = await offerChunkedBody(s.url, '/api/v1/user/repos', { authorization: `token ${token}` }, total);
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe(NOSNIFF);
    expect(res.headers['cache-control']).toBe(CACHE_CONTROL);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toEqual({ message: 'request body too large', url: `${s.url}api/swagger` });
    // The answer came while the body was still being offered: the server stopped reading near the limit.
    expect(res.sent).toBeLessThan(total);
    expect(res.peakRssGrowth).toBeLessThan(100 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(20_000);
    // Nothing was created, and the server still answers.
    const list = await s.fetch('/api/v1/user/repos', { headers: tokenHeader(token) });
    expect(await json(list)).toEqual([]);
  });

  test('a declared Content-Length over the limit is refused before a byte of the body is sent', async () => {
    const url = new URL(s.url);
    const res = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/api/v1/user/repos',
        headers: { authorization: `token ${token}`, 'content-type': 'application/json', 'content-length': String(11 * 1024 * 1024) },
      });
      req.on('response', (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => {
          req.destroy();
          resolve({ status: r.statusCode!, headers: r.headers, body });
        });
      });
      req.on('error', reject);
      // Headers only: the answer must not wait for a body.
      req.flushHeaders();
    });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['x-content-type-options']).toBe(NOSNIFF);
    expect(JSON.parse(res.body)).toEqual({ message: 'request body too large', url: `${s.url}api/swagger` });
  });

  test('a route sets its own limit; a body within it is read whole, UTF-8 split across chunks included', async () => {
    const text = 'ü'.repeat(400); // 800 bytes after the 9 of `{"text":"`
    const body = Buffer.from(JSON.stringify({ text }));
    const url = new URL(probe.url);
    const post = (chunks: Buffer[]) =>
      new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, method: 'POST', path: '/api/v1/probe/small', headers: { 'content-type': 'application/json' } });
        req.on('response', (r) => {
          let data = '';
          r.on('data', (c) => (data += c));
          r.on('end', () => resolve({ status: r.statusCode!, body: data, headers: r.headers }));
        });
        req.on('error', reject);
        for (const chunk of chunks) req.write(chunk);
        req.end();
      });
    // Both boundaries fall inside a two-byte character.
    const split = [body.subarray(0, 10), body.subarray(10, 302), body.subarray(302)];
    const ok = await post(split);
    expect(ok.status, ok.body).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ text });
    const over = await post([body, Buffer.alloc(1024 - body.length + 1, 0x20)]);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).message).toBe('request body too large');
    // In-process (app.fetch, a web Request) the same limit holds.
    const app = new H3();
    registerProbeRoutes(app, s.host);
    const inProcess = await app.fetch(new Request('http://forge.test/api/v1/probe/small', { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(2000) }) }));
    expect(inProcess.status).toBe(413);
  });

  test('an empty body is {} and invalid JSON is 422, as before', async () => {
    const empty = await s.fetch('/api/v1/user/repos', { method: 'POST', headers: { ...tokenHeader(token), 'content-type': 'application/json' } });
    expect(await expectApiError(empty, 422, s.url)).toContain('[name]');
    expectProtectiveHeaders(empty, 'empty');
    const invalid = await s.fetch('/api/v1/user/repos', jsonInit('POST', '{"name":', tokenHeader(token)));
    expect(await expectApiError(invalid, 422, s.url)).toMatch(/invalid JSON body/);
    // The message says where, never what: a malformed body may carry a secret.
    for (const [body, where] of [['{"data":"s3cret-value" x}', ' at character 23'], ['s3cret-value', '']]) {
      const answer = await s.fetch('/api/v1/user/repos', jsonInit('POST', body, tokenHeader(token)));
      const message = await expectApiError(answer, 422, s.url);
      expect(message).toBe(`invalid JSON body${where}`);
      expect(message).not.toContain('s3cret');
    }
  });
});

describe('numbers in the query and the body are int64 with bounds', () => {
  let s: TestServer;
  let owner: string;
  let probe: { url: string; server: Server };

  beforeAll(async () => {
    s = await startTestServer();
    owner = uniq('num');
    const user = await createUser(s.host, owner);
    for (const name of ['r1', 'r2', 'r3']) await s.host.repos.create(userActor(user), { name });
    probe = await startProbeServer(s);
  });
  afterAll(async () => {
    if (probe) await closeServer(probe.server);
    await s?.cleanup();
  });

  const names = async (res: Response) => {
    const body = await json(res);
    for (const repo of body) expect(matchesSchema(RepositorySchema, repo), schemaErrors(RepositorySchema, repo).join('\n')).toBe(true);
    return body.map((r: { name: string }) => r.name);
  };

  test('a page past int64 is absent (page 1); past the safe integers it is an empty page with the right headers', async () => {
    const all = await names(await s.fetch(`/api/v1/users/${owner}/repos`));
    expect(all).toHaveLength(3);
    const overflow = await s.fetch(`/api/v1/users/${owner}/repos?page=9999999999999999999999`);
    expect(overflow.status).toBe(200);
    expect(overflow.headers.get('x-total-count')).toBe('3');
    expect(await names(overflow)).toEqual(all);

    for (const page of ['9223372036854775807', '9007199254740993', '90071992547409910']) {
      const res = await s.fetch(`/api/v1/users/${owner}/repos?page=${page}&limit=1`);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('x-total-count'), page).toBe('3');
      expectProtectiveHeaders(res, page);
      const link = res.headers.get('link') ?? '';
      expect(link, page).toContain('rel="first"');
      expect(link, page).toContain('rel="prev"');
      expect(link, page).not.toContain('rel="next"');
      expect(await names(res), page).toEqual([]);
    }
    const minInt64 = await s.fetch(`/api/v1/users/${owner}/repos?page=-9223372036854775808&limit=-9223372036854775809`);
    expect(await names(minInt64)).toEqual(all);
  });

  test('limit and page read as Go reads them: a sign is allowed, an overflow or anything else is absent', async () => {
    const all = await names(await s.fetch(`/api/v1/users/${owner}/repos`));
    expect(await names(await s.fetch(`/api/v1/users/${owner}/repos?limit=1&page=%2B2`))).toEqual([all[1]]);
    expect(await names(await s.fetch(`/api/v1/users/${owner}/repos?limit=9223372036854775808`))).toEqual(all);
    expect(await names(await s.fetch(`/api/v1/users/${owner}/repos?limit=9223372036854775807&page=1`))).toEqual(all);
    for (const bad of ['1e3', '0x10', '1.5', '', '%00', '%E0%A4%A', '２']) {
      const res = await s.fetch(`/api/v1/users/${owner}/repos?limit=1&page=${bad}`);
      expect(res.status, bad).toBe(200);
      expect(await names(res), bad).toEqual([all[0]]);
    }
  });

  test('an integer body field past the safe integers is a 422 naming the field, in any position', async () => {
    const post = (body: string) => fetch(new URL('api/v1/probe/count', probe.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for (const [body, field] of [
      ['{"count": 9223372036854775807}', 'count'],
      ['{"count": 9007199254740992}', 'count'],
      ['{"count": -9223372036854775809}', 'count'],
      ['{"counts": [1, 2, 100000000000000000000]}', 'counts.2'],
    ] as const) {
      const res = await post(body);
      expect(await expectApiError(res, 422, s.url), body).toContain(`[${field}]`);
    }
    const ok = await post('{"count": 9007199254740991, "counts": [-9007199254740991]}');
    expect(ok.status).toBe(200);
    expect(await json(ok)).toEqual({ count: 9007199254740991, counts: [-9007199254740991] });
    // Core input from embedders and the CLI goes through the same decoding.
    const refused = await s.host.users.create(SYSTEM, { username: uniq('big'), email: `${uniq('e')}@example.com`, password: PASSWORD, source_id: 2 ** 63 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).field).toBe('source_id');
  });

  test('boolean query parameters take Go\'s spellings, anything else is absent; a NUL in a string parameter is 422', async () => {
    const get = async (query: string) => {
      const res = await fetch(new URL(`api/v1/probe/query?${query}`, probe.url));
      return { status: res.status, body: await json(res) };
    };
    expect(await get('flag=T')).toEqual({ status: 200, body: { flag: true } });
    expect(await get('flag=False')).toEqual({ status: 200, body: { flag: false } });
    expect(await get('flag=1&n=-3')).toEqual({ status: 200, body: { flag: true, n: -3 } });
    for (const odd of ['maybe', '', '%00', 'yes', 'TrUe', '%E0%A4%A']) expect(await get(`flag=${odd}`), odd).toEqual({ status: 200, body: {} });
    const nul = await fetch(new URL('api/v1/probe/query?s=a%00b', probe.url));
    expect(await expectApiError(nul, 422, s.url)).toContain('[s]');
  });
});

describe('a NUL or a number out of range never reaches the database as a 500', () => {
  let s: TestServer;
  let admin: string;
  let adminToken: string;

  beforeAll(async () => {
    s = await startTestServer();
    admin = uniq('nul');
    await createUser(s.host, admin, { admin: true });
    adminToken = await createToken(s.host, admin);
  });
  afterAll(async () => s?.cleanup());

  test('query strings and path parameters with NUL or huge numbers on existing routes', async () => {
    const cases: [string, number][] = [
      ['/api/v1/admin/unadopted?pattern=a%00b', 422],
      ['/api/v1/admin/unadopted?page=99999999999999999999&limit=1', 200],
      ['/api/v1/admin/unadopted?page=9223372036854775807', 200],
      ['/api/v1/user/repos?order_by=%00', 422],
      ['/api/v1/user/repos?page=9223372036854775807&limit=9223372036854775807', 200],
      [`/api/v1/users/${admin}/tokens?page=9223372036854775807`, 200],
      ['/api/v1/users/a%00b', 404],
      ['/api/v1/repos/a%00b/c%00d', 404],
      ['/api/v1/user?sudo=a%00b', 404],
    ];
    for (const [path, status] of cases) {
      const res = await s.fetch(path, { headers: tokenHeader(adminToken) });
      const body = await json(res);
      expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(status);
      expectProtectiveHeaders(res, path);
    }
  });
});

describe('HEAD answers on every GET route, as the GET would, without a body', () => {
  let s: TestServer;
  let owner: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    s = await startTestServer();
    owner = uniq('head');
    await createUser(s.host, owner);
    auth = { Authorization: basic(owner, PASSWORD) };
    const created = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'repo', auto_init: true }, auth));
    expect(created.status).toBe(201);
    await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'other' }, auth));
  });
  afterAll(async () => s?.cleanup());

  test('every API GET route registered through the router answers HEAD (router.routes is the list)', async () => {
    const gets = s.routes.filter((r) => r.spec.method === 'GET');
    expect(gets.length).toBeGreaterThan(5);
    // The owner's token where a token is enough: a password is hashed on every request, which over hundreds of
    // routes costs most of a minute on a busy machine; routes that take only basic authentication get the password.
    const token = tokenHeader(await createToken(s.host, owner));
    for (const { path, spec } of gets) {
      const concrete = `/api/v1${path.replace(/\{(\w+)\}/g, (_, name: string) => (({ username: owner, owner, repo: 'repo' }) as Record<string, string>)[name] ?? 'x')}`;
      const credentials = spec.auth === 'basic' ? auth : token;
      const get = await raw(s.url, 'GET', concrete, credentials);
      const head = await raw(s.url, 'HEAD', concrete, credentials);
      expect(head.status, concrete).toBe(get.status);
      expect(comparable(head.headers), concrete).toEqual(comparable(get.headers));
      expect(head.body.length, concrete).toBe(0);
    }
  });

  test('status, headers and Content-Length match GET: lists, errors, swagger, git info/refs, unknown paths', async () => {
    const paths: [string, Record<string, string>][] = [
      ['/api/v1/version', {}],
      [`/api/v1/users/${owner}/repos?limit=1`, {}],
      ['/api/v1/user/repos?limit=1&page=2', auth],
      [`/api/v1/repos/${owner}/repo`, auth],
      ['/api/v1/user', {}],
      ['/api/v1/users/nobody-here', {}],
      ['/api/v1/user/repos?order_by=nonsense', auth],
      ['/swagger.v1.json', {}],
      [`/${owner}/repo.git/info/refs?service=git-upload-pack`, auth],
      [`/${owner}/repo.git/info/refs?service=git-upload-pack`, {}],
      [`/${owner}/repo.git/info/refs`, auth],
      ['/api/v1/no/such/route', {}],
      // A path some other method takes (POST): HEAD is GET's 404, not a HEAD of the POST.
      ['/api/v1/user/repos/none', {}],
      ['/no/such/page', {}],
    ];
    for (const [path, headers] of paths) {
      const get = await raw(s.url, 'GET', path, headers);
      const head = await raw(s.url, 'HEAD', path, headers);
      expect(head.status, path).toBe(get.status);
      expect(comparable(head.headers), path).toEqual(comparable(get.headers));
      expect(head.body.length, path).toBe(0);
      expect(get.headers.get('content-length'), path).toBe(String(get.body.length));
    }
    const head404 = await raw(s.url, 'HEAD', '/api/v1/no/such/route');
    expect(head404.status).toBe(404);
    expect(head404.headers.get('content-type')).toMatch(/^application\/json/);
    expectProtectiveHeaders(head404, 'HEAD 404');
    const refs = await raw(s.url, 'HEAD', `/${owner}/repo.git/info/refs?service=git-upload-pack`, auth);
    expect(refs.status).toBe(200);
    expect(refs.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(Number(refs.headers.get('content-length'))).toBeGreaterThan(0);
  });

});

describe('malformed percent-encoding in the path is a 400 in the API format', () => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.cleanup());

  test('API paths, git paths, with GET, HEAD and POST', async () => {
    for (const path of [
      '/api/v1/users/%E0%A4%A',
      '/api/v1/repos/a/%ZZ',
      '/api/v1/users/%C0%AF',
      '/api/v1/users/%',
      '/api/v1/user/repos%FF',
      '/%ZZ/repo.git/info/refs?service=git-upload-pack',
      '/owner/%E0%A4%A/info/refs?service=git-upload-pack',
      '/%ZZ/repo/git-upload-pack',
    ]) {
      for (const method of ['GET', 'POST', 'HEAD']) {
        const res = await raw(s.url, method, path, { 'content-length': '0' });
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(res.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
        if (method === 'HEAD') {
          expect(res.body.length).toBe(0);
          continue;
        }
        const body = rawJson(res);
        expect(body, `${method} ${path}`).toEqual({ message: expect.any(String), url: `${s.url}api/swagger` });
        if (path.startsWith('/api/')) expectProtectiveHeaders(res, `${method} ${path}`);
      }
    }
    // Well-formed escapes still decode: %2F is a slash in a name, so no such user.
    const slash = await raw(s.url, 'GET', '/api/v1/users/a%2Fb');
    expect(slash.status).toBe(404);
    expect(rawJson(slash).url).toBe(`${s.url}api/swagger`);
  });

  test('the router decodes path parameters itself, safely, even where h3 lets a malformed path through', async () => {
    const t = await openTestHost();
    const probe = await startProbeServer(t, new H3({ allowMalformedURL: true }));
    try {
      const bad = await raw(probe.url, 'GET', '/api/v1/probe/param/%E0%A4%A');
      expect(bad.status).toBe(400);
      expect(rawJson(bad).message).toMatch(/invalid URL escape/);
      const good = await raw(probe.url, 'GET', '/api/v1/probe/param/%C3%BC%2F%20x');
      expect(good.status).toBe(200);
      expect(rawJson(good)).toEqual({ value: 'ü/ x' });
    } finally {
      await closeServer(probe.server);
      await t.cleanup();
    }
  });
});

describe('every API answer carries Forgejo\'s protective headers', () => {
  let s: TestServer;
  let owner: string;
  let token: string;

  beforeAll(async () => {
    s = await startTestServer();
    owner = uniq('hdr');
    await createUser(s.host, owner);
    token = await createToken(s.host, owner);
  });
  afterAll(async () => s?.cleanup());

  test('success, list, 201, 204 and errors, including unknown /api paths with any method', async () => {
    const h = tokenHeader(token);
    const answers: [string, Response, number][] = [
      ['version', await s.fetch('/api/v1/version'), 200],
      ['list', await s.fetch(`/api/v1/users/${owner}/repos`), 200],
      ['created', await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'gone' }, h)), 201],
      ['no content', await s.fetch(`/api/v1/repos/${owner}/gone`, { method: 'DELETE', headers: h }), 204],
      ['unauthorized', await s.fetch('/api/v1/user'), 401],
      ['not found', await s.fetch('/api/v1/users/nobody-at-all'), 404],
      ['validation', await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: '' }, h)), 422],
      ['unknown GET', await s.fetch('/api/v1/nothing/here'), 404],
      ['unknown POST', await s.fetch('/api/v1/nothing/here', { method: 'POST' }), 404],
      ['unknown PATCH', await s.fetch('/api/v1/version', { method: 'PATCH' }), 404],
    ];
    for (const [label, res, status] of answers) {
      expect(res.status, label).toBe(status);
      expectProtectiveHeaders(res, label);
      await res.arrayBuffer();
    }
  });

  test('X-Frame-Options: SAMEORIGIN, once, on JSON, errors and answers a handler builds (raw file, media, HTML, archive)', async () => {
    const h = tokenHeader(token);
    const name = uniq('frames');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true }, h))).status).toBe(201);
    const answers: [string, string, RequestInit, number][] = [
      ['json', `/api/v1/repos/${owner}/${name}`, {}, 200],
      ['error', `/api/v1/repos/${owner}/${name}/contents/missing.txt`, {}, 404],
      ['raw file', `/api/v1/repos/${owner}/${name}/raw/README.md`, {}, 200],
      ['raw HEAD', `/api/v1/repos/${owner}/${name}/raw/README.md`, { method: 'HEAD' }, 200],
      ['media file', `/api/v1/repos/${owner}/${name}/media/README.md`, {}, 200],
      ['raw missing', `/api/v1/repos/${owner}/${name}/raw/none.md`, {}, 404],
      ['html', '/api/v1/markdown/raw', { method: 'POST', body: '# hi', headers: { 'content-type': 'text/plain' } }, 200],
      ['archive', `/api/v1/repos/${owner}/${name}/archive/main.tar.gz`, {}, 200],
    ];
    for (const [label, path, init, status] of answers) {
      const res = await s.fetch(path, init);
      expect(res.status, label).toBe(status);
      expect(res.headers.get('x-frame-options'), label).toBe(FRAME_OPTIONS);
      await res.arrayBuffer();
    }
    // Sent once, not once per layer that knows about it.
    const wire = await raw(s.url, 'GET', `/api/v1/repos/${owner}/${name}/raw/README.md`);
    expect(wire.status).toBe(200);
    expect(wire.headers.get('x-frame-options')).toBe(FRAME_OPTIONS);
  });
});
