/**
 * The multipart reader behind uploads (busboy under a thin adapter): the same file whatever the chunking of the
 * body, the wanted field among others, RFC 2231 names, 400s for what is not such a form or is cut short, the body
 * read no further than needed, and a client that stops sending ended by the server's idle timeout.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { readMultipartFile } from '../src/api/multipart.js';
import { json, uniq } from './helpers';

const CT = 'multipart/form-data; boundary=b0undary';

function body(parts: string[]): string {
  return parts.map((p) => `--b0undary\r\n${p}\r\n`).join('') + '--b0undary--\r\n';
}

function filePart(content: string, name = 'attachment', filename = 'a.txt'): string {
  return `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\n\r\n${content}`;
}

async function* chunked(text: string | Buffer, size: number): AsyncIterable<Uint8Array> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

/** A body that counts what was read from it and whether it was cancelled; `fail` makes its read fail there. */
function tracked(bytes: Buffer, size: number, fail?: number) {
  const state = { read: 0, cancelled: false };
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      return {
        async next() {
          if (fail !== undefined && state.read >= fail) throw new Error('socket hang up');
          if (state.read >= bytes.length) return { done: true, value: undefined };
          const chunk = bytes.subarray(state.read, state.read + size);
          state.read += chunk.length;
          return { done: false, value: chunk };
        },
        async return() {
          state.cancelled = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { iterable, state };
}

const refuse = async (text: string | Buffer, type: string | null = CT, size = 3) => {
  let error: unknown;
  try {
    await collect((await readMultipartFile(chunked(text, size), type, 'attachment')).stream);
  } catch (e) {
    error = e;
  }
  expect(error).toMatchObject({ kind: 'bad_request' });
  return (error as Error).message;
};

describe('readMultipartFile', () => {
  // `\r\n--b0undar` (short of the boundary) and `--b0undary` not at a line's start are content.
  const content = Buffer.concat([Buffer.from('start\r\n--b0undar'), Buffer.alloc(3000, 0xab), Buffer.from('\r\n x--b0undary end')]);
  const raw = Buffer.concat([
    Buffer.from(body(['Content-Disposition: form-data; name="a"\r\n\r\nfirst']).replace('--b0undary--\r\n', '')),
    Buffer.from('--b0undary\r\nContent-Disposition: form-data; name="attachment"; filename="dir/x.bin"\r\nContent-Type: application/x-thing\r\n\r\n'),
    content,
    Buffer.from('\r\n--b0undary--\r\n'),
  ]);

  test.each([1, 2, 7, 64, 4096, 1 << 20])('the same bytes in chunks of %i', async (size) => {
    const file = await readMultipartFile(chunked(raw, size), CT, 'attachment');
    expect(file.filename).toBe('x.bin');
    expect(file.contentType).toBe('application/x-thing');
    expect((await collect(file.stream)).equals(content)).toBe(true);
  });

  test('an extended file name wins over the plain one; quoted names unescape; UTF-8 names stay UTF-8', async () => {
    const one = await readMultipartFile(chunked(body([`Content-Disposition: form-data; name="attachment"; filename="plain.txt"; filename*=UTF-8''%E2%82%AC.txt\r\n\r\nx`]), 5), CT, 'attachment');
    expect(one.filename).toBe('€.txt');
    const two = await readMultipartFile(chunked(body(['Content-Disposition: form-data; name="attachment"; filename="a \\"b\\".txt"\r\n\r\nx']), 5), CT, 'attachment');
    expect(two.filename).toBe('a "b".txt');
    const three = await readMultipartFile(chunked(Buffer.from(body([filePart('x', 'attachment', 'café\\x.txt')]), 'utf8'), 5), CT, 'attachment');
    // Go's filepath.Base on Linux: a backslash is part of the name.
    expect(three.filename).toBe('café\\x.txt');
  });

  test('the file field twice: the first is the file, the second is read past', async () => {
    const file = await readMultipartFile(chunked(body([filePart('first', 'attachment', 'one.txt'), filePart('second', 'attachment', 'two.txt')]), 4), CT, 'attachment');
    expect(file.filename).toBe('one.txt');
    expect((await collect(file.stream)).toString()).toBe('first');
  });

  test('other fields and files before the wanted one are dropped', async () => {
    const big = 'f'.repeat(200_000);
    const file = await readMultipartFile(
      chunked(body(['Content-Disposition: form-data; name="note"\r\n\r\n' + big, filePart(big, 'other', 'other.bin'), filePart('wanted')]), 1000),
      CT,
      'attachment',
    );
    expect((await collect(file.stream)).toString()).toBe('wanted');
  });

  test('not a form, no boundary, no such field, a field without a file name: 400', async () => {
    expect(await refuse('{}', 'application/json')).toBe("request Content-Type isn't multipart/form-data");
    expect(await refuse('a=b', 'application/x-www-form-urlencoded')).toBe("request Content-Type isn't multipart/form-data");
    expect(await refuse(body([filePart('x')]), null)).toBe("request Content-Type isn't multipart/form-data");
    expect(await refuse(body([filePart('x')]), 'multipart/form-data')).toBe('multipart: boundary not found');
    expect(await refuse(body([filePart('x')]), 'multipart/form-data; charset=utf-8')).toBe('multipart: boundary not found');
    expect(await refuse(body([filePart('x', 'other')]))).toBe('http: no such file');
    expect(await refuse(body(['Content-Disposition: form-data; name="attachment"\r\n\r\nx']))).toBe('http: no such file');
    expect(await refuse(body([filePart('x', 'attachment', '')]))).toBe('http: no such file');
    expect(await refuse('--b0undary--\r\n')).toBe('http: no such file');
  });

  test('a truncated body: before any part, in the part headers, in the file, after the file: 400', async () => {
    expect(await refuse('')).toBe('multipart: unexpected end of form');
    expect(await refuse('--b0undary\r\nContent-Disposition: form-data; name="attachment"; filename="a"')).toMatch(/^multipart: (malformed part header|unexpected end of form)$/);
    expect(await refuse('--b0undary\r\n' + filePart('no end'))).toMatch(/^multipart: unexpected end of (form|file)$/);
    // The file's bytes came whole, but the form never ended: refused all the same.
    expect(await refuse('--b0undary\r\n' + filePart('whole') + '\r\n--b0undary\r\nContent-Disposition: form-data; name="after"\r\n\r\nx')).toBe(
      'multipart: unexpected end of form',
    );
  });

  test('a huge part header, too many parts, too much before the file: 400', async () => {
    const huge = `Content-Disposition: form-data; name="attachment"; filename="a.txt"\r\nX-Padding: ${'p'.repeat(17 * 1024)}\r\n\r\nx`;
    expect(await refuse(body([huge]), CT, 4096)).toBe('multipart: malformed part header');
    const fields = Array.from({ length: 1001 }, (_, i) => `Content-Disposition: form-data; name="f${i}"\r\n\r\nv`);
    expect(await refuse(body([...fields, filePart('x')]), CT, 4096)).toBe('multipart: too many parts before the file');
    const skipped = 'Content-Disposition: form-data; name="note"\r\n\r\n' + 'n'.repeat(11 * 1024 * 1024);
    expect(await refuse(body([skipped, filePart('x')]), CT, 64 * 1024)).toBe('multipart: form too large before the file');
  });

  test('a body whose read fails (the client went away) fails the file with a 400; the body is never cancelled', async () => {
    const bytes = Buffer.from('--b0undary\r\n' + filePart('y'.repeat(10_000)) + '\r\n--b0undary--\r\n');
    const { iterable, state } = tracked(bytes, 100, 5_000);
    const file = await readMultipartFile(iterable, CT, 'attachment');
    await expect(collect(file.stream)).rejects.toMatchObject({ kind: 'bad_request', message: 'request body incomplete' });
    expect(state.cancelled).toBe(false);
    const before = tracked(bytes, 10, 30);
    await expect(readMultipartFile(before.iterable, CT, 'attachment')).rejects.toMatchObject({ message: 'request body incomplete' });
  });

  test('a reader that stops early leaves the rest of the body unread, and not cancelled', async () => {
    const bytes = Buffer.from('--b0undary\r\n' + filePart('z'.repeat(4 * 1024 * 1024)) + '\r\n--b0undary--\r\n');
    const { iterable, state } = tracked(bytes, 1024);
    const file = await readMultipartFile(iterable, CT, 'attachment');
    let taken = 0;
    for await (const chunk of file.stream) {
      taken += chunk.byteLength;
      if (taken > 64 * 1024) break;
    }
    await new Promise((r) => setTimeout(r, 50));
    // busboy holds the body back while the file is not read: a few buffers' worth past what was taken, no more.
    expect(state.read).toBeLessThan(512 * 1024);
    expect(state.cancelled).toBe(false);
  });
});

describe('over HTTP', () => {
  let s: TestServer;
  let h: Record<string, string>;
  let full: string;

  beforeAll(async () => {
    s = await startTestServer({ repohost: { HTTP_IDLE_TIMEOUT: 1 } });
    const name = uniq('mp');
    await createUser(s.host, name);
    h = tokenHeader(await createToken(s.host, name));
    const repo = uniq('repo');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, h))).status).toBe(201);
    const issue = await json(await s.fetch(`/api/v1/repos/${name}/${repo}/issues`, jsonInit('POST', { title: 'files' }, h)));
    full = `${name}/${repo}/issues/${issue.number}`;
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('a client that stops sending mid-file is cut off by the idle timeout, leaving nothing behind', async () => {
    const url = new URL(`api/v1/repos/${full}/assets`, s.url);
    const started = Date.now();
    const ended = await new Promise<string>((resolve) => {
      const req = request(url, { method: 'POST', headers: { ...h, 'content-type': 'multipart/form-data; boundary=B', 'content-length': '100000' } });
      req.on('response', (res) => resolve(`status ${res.statusCode}`));
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.on('close', () => resolve('closed'));
      req.write('--B\r\nContent-Disposition: form-data; name="attachment"; filename="stall.txt"\r\n\r\n' + 'x'.repeat(5000));
    });
    // The server closed the connection (no answer is owed to a client that went quiet), after about a second.
    expect(ended).toMatch(/^(ECONNRESET|socket hang up|closed)$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await new Promise((r) => setTimeout(r, 200));
    const leftovers = await readdir(path.join(s.host.settings.server.APP_DATA_PATH, 'attachments', '.tmp')).catch(() => []);
    expect(leftovers).toEqual([]);
    expect(await json(await s.fetch(`/api/v1/repos/${full}/assets`, { headers: h }))).toEqual([]);
  }, 15_000);

  test('a file field twice over HTTP: the first one is stored', async () => {
    const raw = '--B\r\n' + filePart('one', 'attachment', 'one.txt').replace(/\r\n\r\n/, '\r\nContent-Type: text/plain\r\n\r\n') + '\r\n--B\r\n' + filePart('two', 'attachment', 'two.txt') + '\r\n--B--\r\n';
    const res = await s.fetch(`/api/v1/repos/${full}/assets`, { method: 'POST', headers: { ...h, 'content-type': 'multipart/form-data; boundary=B' }, body: raw });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(created).toMatchObject({ name: 'one.txt', size: 3 });
    expect(await (await fetch(created.browser_download_url)).text()).toBe('one');
  });
});
