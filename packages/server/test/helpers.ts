/**
 * Small helpers shared by the server API tests (not a test file itself).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { matchesSchema, RepositorySchema, schemaErrors, type ApiRepository } from '@repohost/core';
import { createToken, createUser, tokenHeader, type TestServer } from '@repohost/test-support';

/** A name nobody else in the run uses: `prefix` + 6 hex characters (valid as user and repository name). */
export function uniq(prefix = 'u'): string {
  return `${prefix}${randomBytes(3).toString('hex')}`;
}

/** Reads a JSON body, failing with the raw text if it is not JSON. */
export async function json<T = any>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`expected a JSON body (status ${res.status}), got: ${text.slice(0, 200)}`);
  }
}

/** Asserts the status and the Forgejo error body `{message, url}`; returns the message. */
export async function expectApiError(res: Response, status: number, baseUrl: string): Promise<string> {
  const body = await json<{ message: unknown; url: unknown }>(res);
  expect(res.status, `status (body: ${JSON.stringify(body)})`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof body.message).toBe('string');
  expect(body.url).toBe(`${baseUrl}api/swagger`);
  return body.message as string;
}

/** A signed-up account of a test server with a token, and the headers that carry it. */
export interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

/** A new account (`prefix` + random) on `server`, with an access token. */
export async function account(server: TestServer, prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(server.host, name, options);
  const token = await createToken(server.host, name);
  return { name, token, h: tokenHeader(token) };
}

/** Asserts a Repository answer against the schema. */
export function checkRepo(value: unknown): ApiRepository {
  expect(matchesSchema(RepositorySchema, value), schemaErrors(RepositorySchema, value).join('\n')).toBe(true);
  return value as ApiRepository;
}

/**
 * A ustar archive of regular files, written here independently of the server's readers (a Debian `control.tar`, a
 * Helm chart before gzip), for the cases a real client would not make.
 */
export function ustarOf(files: Record<string, string | Buffer>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const header = Buffer.alloc(512);
    header.write(name, 0, 100, 'utf8');
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    parts.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** A zip of these files, written here independently of the server's reader; `deflate` compresses the entries (method 8), else they are stored (method 0). */
export function zipFiles(files: Record<string, string | Buffer>, deflate = false): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const stored = deflate ? deflateRawSync(data) : data;
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(deflate ? 8 : 0, 10);
    header.writeUInt32LE(crc32(data), 16);
    header.writeUInt32LE(stored.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, stored);
    central.push(header, nameBytes);
    offset += 30 + nameBytes.length + stored.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * The temporary folders a test file makes (a package's sources, a client's home…), each under the system's
 * temporary folder, all removed by `removeAll()` in the file's `afterAll`: left behind, they add up run after run.
 */
export function tempFolders(): { make(prefix: string): Promise<string>; removeAll(): Promise<void> } {
  const made: string[] = [];
  return {
    async make(prefix) {
      const folder = await mkdtemp(path.join(tmpdir(), prefix));
      made.push(folder);
      return folder;
    },
    async removeAll() {
      await Promise.all(made.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
    },
  };
}
