/**
 * Repository avatars: `POST /repos/{owner}/{repo}/avatar` (a base64 image, checked as user avatars are) and
 * `DELETE`, for the repository's administrators; the Repository's `avatar_url` then names `/repo-avatars/<name>`,
 * which serves the bytes, and the file goes when the avatar is replaced or removed, or the repository deleted.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { identiconPng } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, checkRepo, expectApiError, json, uniq, type Account } from './helpers';

function pngOf(seed: string, width = 64, height = 64): Buffer {
  const png = Buffer.from(identiconPng(createHash('md5').update(seed).digest('hex')));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

describe('repository avatars', () => {
  let s: TestServer;
  let owner: Account;
  let folder: string;

  const upload = (full: string, image: unknown, h: Record<string, string>) => s.fetch(`/api/v1/repos/${full}/avatar`, jsonInit('POST', { image }, h));
  const avatarUrl = async (full: string, h: Record<string, string>): Promise<string> => checkRepo(await json(await s.fetch(`/api/v1/repos/${full}`, { headers: h }))).avatar_url;

  async function repoOf(body: Record<string, unknown> = {}): Promise<string> {
    const name = uniq('repo');
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, owner.h));
    expect(res.status).toBe(201);
    return `${owner.name}/${name}`;
  }

  beforeAll(async () => {
    s = await startTestServer({ picture: { AVATAR_MAX_FILE_SIZE: 4096, AVATAR_MAX_WIDTH: 300, AVATAR_MAX_HEIGHT: 200 } });
    owner = await account(s, 'ra');
    folder = path.join(s.host.settings.server.APP_DATA_PATH, 'repo-avatars');
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('upload: 204, avatar_url names the image, served with its type; replacing it drops the old file', async () => {
    const full = await repoOf();
    expect(await avatarUrl(full, owner.h)).toBe('');
    const first = pngOf('first');
    const res = await upload(full, first.toString('base64'), owner.h);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');

    const url = await avatarUrl(full, owner.h);
    expect(url).toMatch(new RegExp(`^${s.url}repo-avatars/[0-9a-f]{64}$`));
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(first)).toBe(true);
    const firstName = url.split('/').pop()!;
    expect(existsSync(path.join(folder, firstName))).toBe(true);

    // The same image again changes nothing; another one replaces it and the first file goes.
    expect((await upload(full, first.toString('base64'), owner.h)).status).toBe(204);
    expect(await avatarUrl(full, owner.h)).toBe(url);
    const second = pngOf('second');
    expect((await upload(full, second.toString('base64'), owner.h)).status).toBe(204);
    const replaced = await avatarUrl(full, owner.h);
    expect(replaced).not.toBe(url);
    expect(Buffer.from(await (await fetch(replaced)).arrayBuffer()).equals(second)).toBe(true);
    expect(existsSync(path.join(folder, firstName))).toBe(false);
    expect((await fetch(url)).status).toBe(404);

    // Another repository with the same image has a file of its own.
    const other = await repoOf();
    expect((await upload(other, second.toString('base64'), owner.h)).status).toBe(204);
    expect(await avatarUrl(other, owner.h)).not.toBe(replaced);

    // DELETE: back to no avatar, the file gone; deleting again is still a 204.
    expect((await s.fetch(`/api/v1/repos/${full}/avatar`, { method: 'DELETE', headers: owner.h })).status).toBe(204);
    expect(await avatarUrl(full, owner.h)).toBe('');
    expect((await fetch(replaced)).status).toBe(404);
    expect((await s.fetch(`/api/v1/repos/${full}/avatar`, { method: 'DELETE', headers: owner.h })).status).toBe(204);
  });

  test('a deleted repository takes its avatar file with it', async () => {
    const full = await repoOf();
    expect((await upload(full, pngOf('gone').toString('base64'), owner.h)).status).toBe(204);
    const name = (await avatarUrl(full, owner.h)).split('/').pop()!;
    expect(existsSync(path.join(folder, name))).toBe(true);
    expect((await s.fetch(`/api/v1/repos/${full}`, { method: 'DELETE', headers: owner.h })).status).toBe(204);
    await expect.poll(() => existsSync(path.join(folder, name))).toBe(false);
  });

  test('bad input: no image 422, bad base64 400, not an image or too large 422; nothing changes', async () => {
    const full = await repoOf();
    expect((await upload(full, undefined, owner.h)).status).toBe(422);
    expect((await upload(full, '', owner.h)).status).toBe(422);
    expect(await expectApiError(await upload(full, '%%%not base64', owner.h), 400, s.url)).toBe('illegal base64 data in image');
    expect(await expectApiError(await upload(full, Buffer.from('plain text').toString('base64'), owner.h), 422, s.url)).toMatch(/unsupported avatar image type/);
    expect(await expectApiError(await upload(full, pngOf('wide', 301, 10).toString('base64'), owner.h), 422, s.url)).toMatch(/image width is too large/);
    expect(await expectApiError(await upload(full, Buffer.concat([pngOf('big'), Buffer.alloc(5000)]).toString('base64'), owner.h), 422, s.url)).toMatch(/image is too large/);
    expect(await avatarUrl(full, owner.h)).toBe('');
  });

  test('administrators only: anonymous and writers 403, a private repository 404 to strangers, site admins allowed', async () => {
    const full = await repoOf();
    const image = pngOf('perm').toString('base64');
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/avatar`, jsonInit('POST', { image })), 403, s.url);
    const writer = await account(s, 'rw');
    expect((await s.fetch(`/api/v1/repos/${full}/collaborators/${writer.name}`, jsonInit('PUT', { permission: 'write' }, owner.h))).status).toBe(204);
    await expectApiError(await upload(full, image, writer.h), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/avatar`, { method: 'DELETE', headers: writer.h }), 403, s.url);

    const hidden = await repoOf({ private: true });
    const stranger = await account(s, 'rs');
    await expectApiError(await upload(hidden, image, stranger.h), 404, s.url);
    await expectApiError(await upload(`${owner.name}/${uniq('missing')}`, image, owner.h), 404, s.url);

    const admin = await account(s, 'rx', { admin: true });
    expect((await upload(hidden, image, admin.h)).status).toBe(204);
    expect(await avatarUrl(hidden, owner.h)).not.toBe('');
    expect(await avatarUrl(full, owner.h)).toBe('');
  });

  test('/repo-avatars/ serves only uploaded names', async () => {
    expect((await s.fetch(`/repo-avatars/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await s.fetch('/repo-avatars/..%2Fforgejo.db')).status).toBe(404);
  });
});
