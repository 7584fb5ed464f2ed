/**
 * GPG keys over HTTP: `/user/gpg_keys`, `/users/{username}/gpg_keys`, `/user/gpg_key_token` and
 * `/user/gpg_key_verify`, with keys and signatures made by the real `gpg`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GPGKeySchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const run = promisify(execFile);
let gnupgHome: string;

async function gpg(args: string[], input?: string): Promise<string> {
  const child = run('gpg', ['--batch', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], { env: { ...process.env, GNUPGHOME: gnupgHome } });
  if (input !== undefined) child.child.stdin?.end(input);
  return (await child).stdout;
}

/** A certify-only primary key with a signing and an encryption subkey; returns its fingerprint and armored export. */
async function makeKey(email: string): Promise<{ fingerprint: string; armored: string; keyId: string; subkeyIds: string[] }> {
  const uid = `Tester <${email}>`;
  await gpg(['--quick-gen-key', uid, 'ed25519', 'cert', '0']);
  const fingerprint = (await gpg(['--with-colons', '--list-keys', `=${uid}`])).split('\n').find((l) => l.startsWith('fpr:'))!.split(':')[9]!;
  await gpg(['--quick-add-key', fingerprint, 'ed25519', 'sign', '0']);
  await gpg(['--quick-add-key', fingerprint, 'cv25519', 'encr', '0']);
  const lines = (await gpg(['--with-colons', '--list-keys', fingerprint])).split('\n');
  const ids = lines.filter((l) => l.startsWith('pub:') || l.startsWith('sub:')).map((l) => l.split(':')[4]!);
  return { fingerprint, armored: await gpg(['--armor', '--export', fingerprint]), keyId: ids[0]!, subkeyIds: ids.slice(1) };
}

const sign = (fingerprint: string, text: string) => gpg(['--armor', '--local-user', fingerprint, '--detach-sign'], text);

beforeAll(async () => {
  gnupgHome = await mkdtemp(path.join(tmpdir(), 'repohost-gpg-api-'));
});
afterAll(async () => {
  if (gnupgHome) await rm(gnupgHome, { recursive: true, force: true });
});

describe('/user/gpg_keys', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  async function account(options: { visibility?: 'public' | 'limited' | 'private' } = {}): Promise<{ name: string; auth: Record<string, string> }> {
    const name = uniq('g');
    await createUser(s.host, name, options);
    return { name, auth: tokenHeader(await createToken(s.host, name)) };
  }
  const add = (auth: Record<string, string>, body: unknown) => s.fetch('/api/v1/user/gpg_keys', jsonInit('POST', body, auth));

  test('adds a key carrying the account\'s address (201, unverified), lists, gets and deletes it', async () => {
    const alice = await account();
    const key = await makeKey(`${alice.name}@example.com`);
    const res = await add(alice.auth, { armored_public_key: key.armored });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(matchesSchema(GPGKeySchema, body), schemaErrors(GPGKeySchema, body).join('\n')).toBe(true);
    expect(body).toMatchObject({ key_id: key.keyId, primary_key_id: '', verified: false, can_certify: true, can_sign: false });
    expect(body.emails).toEqual([{ email: `${alice.name}@example.com`, verified: true }]);
    expect(body.subkeys.map((k: { key_id: string }) => k.key_id)).toEqual(key.subkeyIds);
    expect(body.subkeys[0]).toMatchObject({ primary_key_id: key.keyId, can_sign: true, can_encrypt_comms: false });
    expect(body.subkeys[1]).toMatchObject({ can_sign: false, can_encrypt_comms: true, can_encrypt_storage: true });

    for (const url of ['/api/v1/user/gpg_keys', `/api/v1/users/${alice.name}/gpg_keys`]) {
      const list = await s.fetch(url, { headers: alice.auth });
      expect(list.status).toBe(200);
      expect(list.headers.get('x-total-count')).toBe('1');
      const [listed] = await json<Record<string, unknown>[]>(list);
      expect(listed).toEqual(body);
    }
    // Anyone may list a visible user's keys.
    expect((await json<unknown[]>(await s.fetch(`/api/v1/users/${alice.name}/gpg_keys`))).length).toBe(1);
    const one = await s.fetch(`/api/v1/user/gpg_keys/${body.id}`, { headers: alice.auth });
    expect(await json(one)).toEqual(body);

    // Another user can neither read nor delete it by id.
    const bob = await account();
    await expectApiError(await s.fetch(`/api/v1/user/gpg_keys/${body.id}`, { headers: bob.auth }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/user/gpg_keys/${body.id}`, { method: 'DELETE', headers: bob.auth }), 404, s.url);
    // The same key again, by anyone: 422, checked before the addresses (bob has none of the key's) as Forgejo does,
    // and after a valid signature of bob's token.
    expect(await expectApiError(await add(alice.auth, { armored_public_key: key.armored }), 422, s.url)).toBe('A key with the same id already exists');
    expect(await expectApiError(await add(bob.auth, { armored_public_key: key.armored }), 422, s.url)).toBe('A key with the same id already exists');
    const bobToken = await (await s.fetch('/api/v1/user/gpg_key_token', { headers: bob.auth })).text();
    const signed = await add(bob.auth, { armored_public_key: key.armored, armored_signature: await sign(key.fingerprint, `${bobToken}\n`) });
    expect(await expectApiError(signed, 422, s.url)).toBe('A key with the same id already exists');
    expect(await json(await s.fetch('/api/v1/user/gpg_keys', { headers: bob.auth }))).toEqual([]);

    expect((await s.fetch(`/api/v1/user/gpg_keys/${body.id}`, { method: 'DELETE', headers: alice.auth })).status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/user/gpg_keys/${body.id}`, { headers: alice.auth }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/user/gpg_keys/${body.id}`, { method: 'DELETE', headers: alice.auth }), 404, s.url);
    expect(await json(await s.fetch('/api/v1/user/gpg_keys', { headers: alice.auth }))).toEqual([]);
  });

  test('a key without the account\'s address: 404 naming the token; signed token: 201 verified; then verify another', async () => {
    const carol = await account();
    const key = await makeKey(`someone-${carol.name}@elsewhere.example`);
    const message = await expectApiError(await add(carol.auth, { armored_public_key: key.armored }), 404, s.url);
    const tokenRes = await s.fetch('/api/v1/user/gpg_key_token', { headers: carol.auth });
    expect(tokenRes.status).toBe(200);
    expect(tokenRes.headers.get('content-type')).toMatch(/^text\/plain/);
    const token = await tokenRes.text();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(message).toBe(`None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${token}`);

    // A signature of something else: 422.
    const wrong = await add(carol.auth, { armored_public_key: key.armored, armored_signature: await sign(key.fingerprint, 'nope') });
    expect(await expectApiError(wrong, 422, s.url)).toMatch(/^The provided GPG key, signature and token do not match/);
    // The token signed, as `echo token | gpg -a --detach-sig` does.
    const res = await add(carol.auth, { armored_public_key: key.armored, armored_signature: await sign(key.fingerprint, `${token}\n`) });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.verified).toBe(true);
    expect(body.emails).toEqual([{ email: `someone-${carol.name}@elsewhere.example`, verified: false }]);

    // A second key, added unverified, then verified through /user/gpg_key_verify (201).
    const second = await makeKey(`${carol.name}@example.com`);
    const added = await json(await add(carol.auth, { armored_public_key: second.armored }));
    expect(added.verified).toBe(false);
    const verify = (body: unknown) => s.fetch('/api/v1/user/gpg_key_verify', jsonInit('POST', body, carol.auth));
    expect(await expectApiError(await verify({ key_id: second.keyId, armored_signature: await sign(second.fingerprint, 'x') }), 422, s.url)).toMatch(
      /token do not match/,
    );
    expect(await expectApiError(await verify({ key_id: second.keyId }), 422, s.url)).toMatch(/token do not match/);
    await expectApiError(await verify({ key_id: 'FFFFFFFFFFFFFFFF', armored_signature: 'x' }), 404, s.url);
    await expectApiError(await verify({ key_id: '', armored_signature: 'x' }), 404, s.url);
    expect(await expectApiError(await verify({ armored_signature: 'x' }), 422, s.url)).toBe('[key_id]: Required');
    const ok = await verify({ key_id: second.keyId, armored_signature: await sign(second.fingerprint, await (await s.fetch('/api/v1/user/gpg_key_token', { headers: carol.auth })).text()) });
    const verified = await json(ok);
    expect(ok.status, JSON.stringify(verified)).toBe(201);
    expect(matchesSchema(GPGKeySchema, verified)).toBe(true);
    expect(verified).toMatchObject({ id: added.id, key_id: second.keyId, verified: true });
    expect(verified.subkeys.every((k: { verified: boolean }) => k.verified)).toBe(true);
  });

  test('garbage, private keys and empty input: 422 with a reason; anonymous: 401; a hidden user\'s keys: 404', async () => {
    const dave = await account();
    const key = await makeKey(`${dave.name}@example.com`);
    const secret = await gpg(['--armor', '--export-secret-keys', key.fingerprint]);
    expect(await expectApiError(await add(dave.auth, { armored_public_key: secret }), 422, s.url)).toMatch(/private key/);
    expect(await expectApiError(await add(dave.auth, { armored_public_key: 'garbage' }), 422, s.url)).toMatch(/^failed to parse gpg key/);
    expect(await expectApiError(await add(dave.auth, { armored_public_key: '' }), 422, s.url)).toBe('[armored_public_key]: Required');
    expect(await expectApiError(await add(dave.auth, {}), 422, s.url)).toBe('[armored_public_key]: Required');
    expect(await json(await s.fetch('/api/v1/user/gpg_keys', { headers: dave.auth }))).toEqual([]);

    for (const [method, url] of [
      ['GET', '/api/v1/user/gpg_keys'],
      ['POST', '/api/v1/user/gpg_keys'],
      ['GET', '/api/v1/user/gpg_keys/1'],
      ['DELETE', '/api/v1/user/gpg_keys/1'],
      ['GET', '/api/v1/user/gpg_key_token'],
      ['POST', '/api/v1/user/gpg_key_verify'],
    ] as const) {
      await expectApiError(await s.fetch(url, method === 'POST' ? jsonInit('POST', {}) : { method }), 401, s.url);
    }
    const hidden = await account({ visibility: 'private' });
    await expectApiError(await s.fetch(`/api/v1/users/${hidden.name}/gpg_keys`, { headers: dave.auth }), 404, s.url);
    expect((await s.fetch(`/api/v1/users/${hidden.name}/gpg_keys`, { headers: hidden.auth })).status).toBe(200);
    for (const id of ['abc', '0', '99999999']) await expectApiError(await s.fetch(`/api/v1/user/gpg_keys/${id}`, { headers: dave.auth }), 404, s.url);
    // Writing needs write:user.
    const readOnly = tokenHeader(await createToken(s.host, dave.name, ['read:user']));
    expect((await s.fetch('/api/v1/user/gpg_keys', { headers: readOnly })).status).toBe(200);
    await expectApiError(await add(readOnly, { armored_public_key: key.armored }), 403, s.url);
  });
});
