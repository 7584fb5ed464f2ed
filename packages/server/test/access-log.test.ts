/**
 * The access log (`[log] ENABLE_ACCESS_LOG`): one line per request (API, git over HTTP, pages, errors), in Forgejo's
 * default line or as JSON, with the user and the client's address as the trusted proxy reports it, written to
 * `ROOT_PATH/access.log`.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadSettings } from '@repohost/core';
import { startServer } from '@repohost/server';
import { basic, createToken, createUser, jsonInit, openTestHost, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { LineWriter } from '../src/access-log';
import { uniq } from './helpers';

/** The log's lines once it holds at least `count` of them (lines are written after each response ends). */
async function linesOf(file: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const lines = text.split('\n').filter(Boolean);
    if (lines.length >= count || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Forgejo's default line: `client - user [time] "METHOD uri PROTO" status bytes "referer" "agent"`. */
const TEXT_LINE = /^(\S+) - (\S+) \[(\d{2})\/(\w{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-]\d{4})\] "(\S+) (\S+) (HTTP\/1\.1)" (\d{3}) (\d+) "(.*)" "(.*)"$/;

describe('the text line', () => {
  let s: TestServer;
  let logRoot: string;
  beforeAll(async () => {
    logRoot = await mkdtemp(path.join(tmpdir(), 'repohost-log-'));
    s = await startTestServer({ log: { ENABLE_ACCESS_LOG: true, ROOT_PATH: logRoot } });
  });
  afterAll(async () => {
    await s?.cleanup();
    await rm(logRoot, { recursive: true, force: true });
  });

  test('one line per request: client as forwarded, user, request, status, body bytes, referer and agent', async () => {
    const file = path.join(logRoot, 'access.log');
    const name = uniq('alice');
    await createUser(s.host, name);
    const token = await createToken(s.host, name);

    const anonymous = await s.fetch('/api/v1/version', { headers: { 'X-Forwarded-For': '203.0.113.7', 'User-Agent': 'probe/1.0 "quoted"', Referer: 'https://example.com/x' } });
    const anonymousBody = Buffer.from(await anonymous.arrayBuffer());
    const signed = await s.fetch(`/api/v1/user?token=${token}`, { headers: { 'X-Forwarded-For': '198.51.100.8' } });
    const signedBody = Buffer.from(await signed.arrayBuffer());
    expect(signed.status).toBe(200);
    const missing = await s.fetch('/api/v1/repos/nobody/nothing', { headers: tokenHeader(token) });
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    const git = await s.fetch(`/${name}/nothing.git/info/refs?service=git-upload-pack`, { headers: { Authorization: basic(name, 'wrong') } });
    await git.arrayBuffer();
    const page = await s.fetch('/user/settings/security/two_factor');
    expect(page.status).toBe(200);
    const pageBytes = (await page.arrayBuffer()).byteLength;
    const pkg = await s.fetch(`/api/packages/${name}/generic/tool/1.0.0/tool.tar.gz`, { headers: tokenHeader(token) });
    expect(pkg.status).toBe(404);
    await pkg.arrayBuffer();

    const lines = await linesOf(file, 6);
    expect(lines).toHaveLength(6);
    const parsed = lines.map((line) => {
      const match = TEXT_LINE.exec(line);
      expect(match, line).not.toBeNull();
      return match!;
    });
    // Each line is written when its response has ended: found by request, whatever their order.
    const byTarget = (prefix: string) => parsed.find((match) => match[11]!.startsWith(prefix));
    const [first, second, third, fourth] = ['/api/v1/version', '/api/v1/user?', '/api/v1/repos/', `/${name}/`].map(byTarget);
    expect(first![1]).toBe('203.0.113.7');
    expect(first![2]).toBe('-');
    expect(first!.slice(10, 14)).toEqual(['GET', '/api/v1/version', 'HTTP/1.1', '200']);
    expect(Number(first![14])).toBe(anonymousBody.length);
    expect(first![15]).toBe('https://example.com/x');
    // A quote in a value cannot close the field.
    expect(first![16]).toBe('probe/1.0 \\x22quoted\\x22');
    // The time is the request's, in the server's zone, as Go's layout writes it.
    const month = String(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].indexOf(first![4]!) + 1).padStart(2, '0');
    const when = new Date(`${first![5]}-${month}-${first![3]}T${first![6]}:${first![7]}:${first![8]}${first![9]!.slice(0, 3)}:${first![9]!.slice(3)}`);
    expect(Math.abs(when.getTime() - Date.now())).toBeLessThan(120_000);

    expect(second![1]).toBe('198.51.100.8');
    expect(second![2]).toBe(name);
    // The token in the query is not written down.
    expect(second![11]).toBe('/api/v1/user?token=REDACTED');
    expect(lines.join('\n')).not.toContain(token);
    expect(Number(second![14])).toBe(signedBody.length);

    // Without forwarding headers the client is the peer.
    expect(third![1]).toBe('127.0.0.1');
    expect(third![2]).toBe(name);
    expect(third![13]).toBe('404');
    expect(fourth![11]).toBe(`/${name}/nothing.git/info/refs?service=git-upload-pack`);
    expect(fourth![13]).toBe('401');
    expect(fourth![2]).toBe('-');
    const pageLine = byTarget('/user/settings/')!;
    expect(pageLine.slice(10, 14)).toEqual(['GET', '/user/settings/security/two_factor', 'HTTP/1.1', '200']);
    expect(Number(pageLine[14])).toBe(pageBytes);
    const pkgLine = byTarget('/api/packages/')!;
    expect(pkgLine[2]).toBe(name);
    expect(pkgLine[13]).toBe('404');
  });
});

describe('the JSON line', () => {
  let s: TestServer;
  let logRoot: string;
  beforeAll(async () => {
    logRoot = await mkdtemp(path.join(tmpdir(), 'repohost-log-'));
    s = await startTestServer({ log: { ENABLE_ACCESS_LOG: true, ROOT_PATH: logRoot, ACCESS_LOG_FORMAT: 'json' } });
  });
  afterAll(async () => {
    await s?.cleanup();
    await rm(logRoot, { recursive: true, force: true });
  });

  test('one object per line with the route template, path, status, duration, bytes, user, client and agent', async () => {
    const name = uniq('bob');
    await createUser(s.host, name);
    const h = tokenHeader(await createToken(s.host, name));
    const repo = uniq('r');
    const created = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, { ...h, 'X-Forwarded-For': '192.0.2.33', 'User-Agent': 'client/2' }));
    expect(created.status).toBe(201);
    const createdBytes = (await created.arrayBuffer()).byteLength;
    const read = await s.fetch(`/api/v1/repos/${name}/${repo}?page=1`, { headers: { 'X-Forwarded-For': '192.0.2.34' } });
    expect(read.status).toBe(200);
    await read.arrayBuffer();
    // A path h3 refuses before any route runs is logged too.
    const malformed = await s.fetch('/api/v1/repos/%E0%A4%A/x', { method: 'DELETE' });
    expect(malformed.status).toBe(400);
    await malformed.arrayBuffer();

    const lines = (await linesOf(path.join(logRoot, 'access.log'), 3)).map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    const post = lines.find((line) => line.method === 'POST');
    const get = lines.find((line) => line.method === 'GET');
    expect(lines.find((line) => line.method === 'DELETE')).toMatchObject({ route: 'unmatched', path: '/api/v1/repos/%E0%A4%A/x', status: 400, user: null, client: '127.0.0.1' });
    expect(post).toMatchObject({ method: 'POST', route: '/api/v1/user/repos', path: '/api/v1/user/repos', status: 201, bytes: createdBytes, user: name, client: '192.0.2.33', user_agent: 'client/2' });
    expect(get).toMatchObject({ method: 'GET', route: '/api/v1/repos/:owner/:repo', path: `/api/v1/repos/${name}/${repo}`, status: 200, user: null, client: '192.0.2.34' });
    for (const line of lines) {
      expect(typeof line.duration_ms).toBe('number');
      expect(line.duration_ms).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(Date.parse(line.time))).toBe(false);
    }
  });
});

describe('configuration', () => {
  test('a template other than Forgejo\'s default line, an unknown mode or format is refused at start', () => {
    expect(() => loadSettings({ overrides: { log: { ACCESS_LOG_TEMPLATE: '{{.Ctx.RemoteHost}}' } } })).toThrow(ConfigError);
    expect(() => loadSettings({ overrides: { log: { ACCESS: 'syslog' } } })).toThrow(ConfigError);
    expect(() => loadSettings({ overrides: { log: { ACCESS_LOG_FORMAT: 'xml' } } })).toThrow(ConfigError);
    expect(loadSettings({ workPath: '/srv/forge', overrides: {} }).log.ROOT_PATH).toBe('/srv/forge/log');
  });

  test('a log folder that cannot be made fails the start, saying why', async () => {
    const t = await openTestHost();
    try {
      // A file where the folder should be.
      const blocked = path.join(t.workPath, 'blocked');
      await writeFile(blocked, 'x');
      t.host.settings.log.ENABLE_ACCESS_LOG = true;
      t.host.settings.log.ROOT_PATH = path.join(blocked, 'log');
      await expect(startServer(t.host, { port: 0, hostname: '127.0.0.1' })).rejects.toThrow(/ENOTDIR|EEXIST/);
    } finally {
      await t.cleanup();
    }
  });
});

describe('the writer', () => {
  test('writes whole lines in order to a descriptor, and drops (and counts) what exceeds its queue', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'repohost-writer-'));
    const file = path.join(folder, 'out.log');
    const fd = openSync(file, 'w');
    try {
      const writer = new LineWriter({ fd });
      const line = `${'x'.repeat(1000)}\n`;
      // 6,000 lines of 1 kB written at once: the queue holds 4 MiB, the rest is dropped, nothing blocks.
      for (let i = 0; i < 6000; i++) writer.write(`${String(i).padStart(5, '0')}${line}`);
      expect(writer.dropped).toBeGreaterThan(0);
      await writer.close();
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      expect(lines.length + writer.dropped).toBe(6000);
      // The first lines went out whole and in order.
      lines.forEach((text, i) => expect(text.slice(0, 5)).toBe(String(i).padStart(5, '0')));
      expect(lines.every((text) => text.length === 1005)).toBe(true);
    } finally {
      closeSync(fd);
      await rm(folder, { recursive: true, force: true });
    }
  });
});
