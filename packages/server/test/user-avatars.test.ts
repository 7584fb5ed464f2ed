/**
 * Avatars over HTTP: the generated identicon every `avatar_url` names by default (a real, deterministic PNG),
 * uploads through `POST /user/avatar` checked as Forgejo checks them (format, bytes, dimensions; bad base64 is
 * 400), stored content-addressed and served with long cache headers, and `DELETE /user/avatar` going back.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { identiconPng, imageInfo } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ picture: { AVATAR_MAX_FILE_SIZE: 4096, AVATAR_MAX_WIDTH: 300, AVATAR_MAX_HEIGHT: 200 } });
});
afterAll(async () => {
  await s?.cleanup();
});

async function person(): Promise<{ name: string; token: string }> {
  const name = uniq('av');
  await createUser(s.host, name);
  return { name, token: await createToken(s.host, name) };
}

async function avatarUrl(token: string): Promise<string> {
  return (await json(await s.fetch('/api/v1/user', { headers: tokenHeader(token) }))).avatar_url;
}

const upload = (token: string, image: unknown) => s.fetch('/api/v1/user/avatar', jsonInit('POST', { image }, tokenHeader(token)));

/** A header-only image of each format, with the given size (what the checks read). */
function pngOf(width: number, height: number): Buffer {
  const png = Buffer.from(identiconPng('00112233445566778899aabbccddeeff'));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}
function gifOf(width: number, height: number): Buffer {
  const gif = Buffer.alloc(20);
  gif.write('GIF89a', 0, 'latin1');
  gif.writeUInt16LE(width, 6);
  gif.writeUInt16LE(height, 8);
  return gif;
}
function jpegOf(width: number, height: number): Buffer {
  // SOI, an APP0 segment, then SOF0 with the dimensions.
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}
function webpOf(width: number, height: number): Buffer {
  const webp = Buffer.alloc(40);
  webp.write('RIFF', 0, 'latin1');
  webp.writeUInt32LE(32, 4);
  webp.write('WEBPVP8X', 8, 'latin1');
  webp.writeUInt32LE(10, 16);
  webp.writeUIntLE(width - 1, 24, 3);
  webp.writeUIntLE(height - 1, 27, 3);
  return webp;
}

describe('the generated avatar', () => {
  test('avatar_url names the MD5 of the email, and is a valid, deterministic 256×256 PNG', async () => {
    const { name, token } = await person();
    const url = await avatarUrl(token);
    const hash = createHash('md5').update(`${name}@example.com`).digest('hex');
    expect(url).toBe(`${s.url}avatars/${hash}`);
    const res = await fetch(`${url}?size=64`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toContain('immutable');
    const png = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(png.length);
    expect(imageInfo(png)).toEqual({ format: 'png', width: 256, height: 256 });
    // Chunks: IHDR, PLTE, IDAT (which inflates to one filter byte and 32 bytes per row), IEND.
    const idatLength = png.readUInt32BE(8 + 25 + 18);
    expect(png.toString('latin1', 8 + 25 + 18 + 4, 8 + 25 + 18 + 8)).toBe('IDAT');
    expect(inflateSync(png.subarray(8 + 25 + 18 + 8, 8 + 25 + 18 + 8 + idatLength)).length).toBe(256 * 33);
    expect(png.subarray(-12).toString('latin1', 4, 8)).toBe('IEND');
    // Same hash, same bytes; another hash, other bytes.
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(png)).toBe(true);
    expect(identiconPng(hash).equals(png)).toBe(true);
    expect(identiconPng('ffeeddccbbaa99887766554433221100').equals(png)).toBe(false);
    // Revalidation.
    const again = await fetch(url, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  test('unknown avatar names are 404', async () => {
    expect((await s.fetch(`/avatars/${'a'.repeat(64)}`)).status).toBe(404);
    expect((await s.fetch('/avatars/not-a-hash')).status).toBe(404);
    expect((await s.fetch('/avatars/../etc/passwd')).status).toBe(404);
  });
});

describe('POST and DELETE /user/avatar', () => {
  test('an upload is stored by content hash, served as it was sent, and removed by DELETE', async () => {
    const { token } = await person();
    const before = await avatarUrl(token);
    const image = pngOf(120, 100);
    const res = await upload(token, image.toString('base64'));
    expect(res.status, await res.clone().text()).toBe(204);
    const hash = createHash('sha256').update(image).digest('hex');
    const url = await avatarUrl(token);
    expect(url).toBe(`${s.url}avatars/${hash}`);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    const file = path.join(s.host.userAvatars.folder, hash);
    expect(existsSync(file)).toBe(true);
    // HEAD answers like GET without the body.
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(image.length));

    expect((await s.fetch('/api/v1/user/avatar', { method: 'DELETE', headers: tokenHeader(token) })).status).toBe(204);
    expect(await avatarUrl(token)).toBe(before);
    expect(existsSync(file)).toBe(false);
    expect((await fetch(url)).status).toBe(404);
  });

  test('the same image of two accounts stays until neither shows it', async () => {
    const a = await person();
    const b = await person();
    const image = gifOf(10, 10).toString('base64');
    expect((await upload(a.token, image)).status).toBe(204);
    expect((await upload(b.token, image)).status).toBe(204);
    const url = await avatarUrl(a.token);
    expect(await avatarUrl(b.token)).toBe(url);
    expect((await s.fetch('/api/v1/user/avatar', { method: 'DELETE', headers: tokenHeader(a.token) })).status).toBe(204);
    expect((await fetch(url)).status).toBe(200);
    // Replacing the avatar drops the old file when unused.
    expect((await upload(b.token, webpOf(16, 16).toString('base64'))).status).toBe(204);
    expect((await fetch(url)).status).toBe(404);
    const webp = await fetch(await avatarUrl(b.token));
    expect(webp.headers.get('content-type')).toBe('image/webp');
  });

  test('PNG, JPEG, GIF and WebP within the limits are accepted', async () => {
    const { token } = await person();
    for (const [image, type] of [
      [pngOf(300, 200), 'image/png'],
      [jpegOf(64, 48), 'image/jpeg'],
      [gifOf(1, 1), 'image/gif'],
      [webpOf(300, 1), 'image/webp'],
    ] as const) {
      expect((await upload(token, image.toString('base64'))).status, type).toBe(204);
      expect((await fetch(await avatarUrl(token))).headers.get('content-type')).toBe(type);
    }
  });

  test('refusals: bad base64 400; missing, not an image, too many bytes or pixels 422; the avatar stays', async () => {
    const { token } = await person();
    const before = await avatarUrl(token);
    await expectApiError(await upload(token, 'not base64!'), 400, s.url);
    await expectApiError(await upload(token, 'QUJD='), 400, s.url);
    await expectApiError(await upload(token, `data:image/png;base64,${pngOf(1, 1).toString('base64')}`), 400, s.url);
    await expectApiError(await upload(token, ''), 422, s.url);
    await expectApiError(await upload(token, undefined), 422, s.url);
    await expectApiError(await upload(token, 42), 422, s.url);
    expect(await expectApiError(await upload(token, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')), 422, s.url)).toMatch(/unsupported/);
    expect(await expectApiError(await upload(token, pngOf(301, 10).toString('base64')), 422, s.url)).toMatch(/width is too large: 301 > 300/);
    expect(await expectApiError(await upload(token, jpegOf(10, 201).toString('base64')), 422, s.url)).toMatch(/height is too large/);
    expect(await expectApiError(await upload(token, Buffer.concat([pngOf(10, 10), Buffer.alloc(5000)]).toString('base64')), 422, s.url)).toMatch(/too large/);
    expect(await expectApiError(await upload(token, pngOf(0, 10).toString('base64')), 422, s.url)).toMatch(/unsupported/);
    expect(await avatarUrl(token)).toBe(before);
  });

  test('anonymous 401; a read-only token 403', async () => {
    const image = pngOf(1, 1).toString('base64');
    await expectApiError(await s.fetch('/api/v1/user/avatar', jsonInit('POST', { image })), 401, s.url);
    await expectApiError(await s.fetch('/api/v1/user/avatar', { method: 'DELETE' }), 401, s.url);
    const { name } = await person();
    const readOnly = await createToken(s.host, name, ['read:user']);
    await expectApiError(await upload(readOnly, image), 403, s.url);
  });
});
