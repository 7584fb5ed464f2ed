/**
 * SSH keys over HTTP: `/user/keys`, `/users/{username}/keys` and a repository's deploy keys
 * (`/repos/{owner}/{repo}/keys`). Keys come from the real `ssh-keygen` (FIDO keys are built from their wire
 * format, which ssh-keygen reads without a device); fingerprints are compared with `ssh-keygen -lf`.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DeployKeySchema, PublicKeySchema, SYSTEM, matchesSchema, schemaErrors, userActor } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const run = promisify(execFile);

let scratch: string;
let counter = 0;

interface Key {
  /** The `.pub` line, comment included. */
  line: string;
  /** `ssh-keygen -lf`'s fingerprint. */
  fingerprint: string;
}

async function fingerprintOfLine(line: string): Promise<string> {
  const file = path.join(scratch, `line-${++counter}.pub`);
  await writeFile(file, `${line}\n`);
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', file]);
  return stdout.split(' ')[1]!;
}

async function keygen(type: string, bits?: number): Promise<Key> {
  const file = path.join(scratch, `key-${++counter}`);
  await run('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', `k${counter}@example.com`, '-f', file]);
  const line = (await readFile(`${file}.pub`, 'utf8')).trim();
  return { line, fingerprint: await fingerprintOfLine(line) };
}

function sshString(value: Buffer | string): Buffer {
  const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** FIDO keys need a device to generate: build their public blob (type, key, application) from a fresh key pair. */
async function fidoKey(type: 'sk-ssh-ed25519@openssh.com' | 'sk-ecdsa-sha2-nistp256@openssh.com'): Promise<Key> {
  let blob: Buffer;
  if (type === 'sk-ssh-ed25519@openssh.com') {
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    blob = Buffer.concat([sshString(type), sshString(Buffer.from(jwk.x!, 'base64url')), sshString('ssh:')]);
  } else {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
    blob = Buffer.concat([sshString(type), sshString('nistp256'), sshString(point), sshString('ssh:')]);
  }
  const line = `${type} ${blob.toString('base64')} yubikey@example.com`;
  return { line, fingerprint: await fingerprintOfLine(line) };
}

/** `type base64`: the key as stored and returned. */
const normal = (key: Key) => key.line.split(' ').slice(0, 2).join(' ');

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-keys-api-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('/user/keys and /users/{username}/keys', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  async function account(options: { admin?: boolean; visibility?: 'public' | 'limited' | 'private' } = {}): Promise<{ name: string; auth: Record<string, string> }> {
    const name = uniq('k');
    await createUser(s.host, name, options);
    return { name, auth: tokenHeader(await createToken(s.host, name)) };
  }
  const post = (auth: Record<string, string>, body: unknown) => s.fetch('/api/v1/user/keys', jsonInit('POST', body, auth));

  test('every key type Forgejo accepts: 201, fingerprint as ssh-keygen prints it, the comment dropped, private details for the owner', async () => {
    const alice = await account();
    const keys = await Promise.all([
      keygen('ed25519'),
      keygen('ecdsa', 256),
      keygen('ecdsa', 384),
      keygen('ecdsa', 521),
      keygen('rsa', 3072),
      fidoKey('sk-ssh-ed25519@openssh.com'),
      fidoKey('sk-ecdsa-sha2-nistp256@openssh.com'),
    ]);
    const ids: number[] = [];
    for (const [i, key] of keys.entries()) {
      const res = await post(alice.auth, { title: `key ${i}`, key: `${key.line}\n` });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(matchesSchema(PublicKeySchema, body), schemaErrors(PublicKeySchema, body).join('\n')).toBe(true);
      expect(body.fingerprint).toBe(key.fingerprint);
      expect(body.key).toBe(normal(key));
      expect(body.title).toBe(`key ${i}`);
      expect(body.url).toBe(`${s.url}api/v1/user/keys/${body.id}`);
      expect(body.key_type).toBe('user');
      expect(body.read_only).toBe(false);
      expect(body.user.login).toBe(alice.name);
      ids.push(body.id);
    }

    // Listed oldest first, paginated, with the total.
    const page = await s.fetch('/api/v1/user/keys?limit=3&page=2', { headers: alice.auth });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total-count')).toBe(String(keys.length));
    expect((await json<{ id: number }[]>(page)).map((k) => k.id)).toEqual(ids.slice(3, 6));

    // One of them by id.
    const one = await s.fetch(`/api/v1/user/keys/${ids[5]}`, { headers: alice.auth });
    expect(one.status).toBe(200);
    expect((await json(one)).fingerprint).toBe(keys[5]!.fingerprint);

    // By fingerprint, on both lists.
    const byFingerprint = await s.fetch(`/api/v1/user/keys?fingerprint=${encodeURIComponent(keys[1]!.fingerprint)}`, { headers: alice.auth });
    expect((await json<{ id: number }[]>(byFingerprint)).map((k) => k.id)).toEqual([ids[1]]);
    const theirs = await s.fetch(`/api/v1/users/${alice.name}/keys?fingerprint=${encodeURIComponent(keys[2]!.fingerprint)}`);
    expect((await json<{ id: number }[]>(theirs)).map((k) => k.id)).toEqual([ids[2]]);
  });

  test('refuses a key registered anywhere, authorized_keys options, garbage, weak keys and bad titles with 422', async () => {
    const alice = await account();
    const bob = await account();
    const key = await keygen('ed25519');
    expect((await post(alice.auth, { title: 'laptop', key: key.line })).status).toBe(201);
    // The same key again, by its owner or anyone else, in any form.
    expect(await expectApiError(await post(alice.auth, { title: 'again', key: normal(key) }), 422, s.url)).toBe('Key content has been used as non-deploy key');
    expect(await expectApiError(await post(bob.auth, { title: 'mine', key: key.line }), 422, s.url)).toBe('Key content has been used as non-deploy key');
    // The same title twice.
    const other = await keygen('ed25519');
    expect(await expectApiError(await post(alice.auth, { title: 'laptop', key: other.line }), 422, s.url)).toBe('Key title has been used');

    for (const options of ['command="echo hi"', 'no-pty', 'from="10.0.0.0/8",no-agent-forwarding', 'restrict,command="git-shell"']) {
      const message = await expectApiError(await post(bob.auth, { title: 'opts', key: `${options} ${other.line}` }), 422, s.url);
      expect(message).toMatch(/^Invalid key content: authorized_keys options are not allowed/);
    }
    const [type, base64] = other.line.split(' ') as [string, string];
    const bad: [unknown, RegExp][] = [
      ['not a key at all', /^Invalid key content/],
      [`${type} ${base64.slice(0, -8)}`, /^Invalid key content/],
      [`ssh-rsa ${base64}`, /^Invalid key content: key type and content do not match/],
      [(await keygen('rsa', 2048)).line, /^Invalid key content: key length is not enough/],
    ];
    for (const [text, expected] of bad) expect(await expectApiError(await post(bob.auth, { title: 'bad', key: text }), 422, s.url)).toMatch(expected);
    expect(await expectApiError(await post(bob.auth, { title: '', key: other.line }), 422, s.url)).toBe('[title]: Required');
    expect(await expectApiError(await post(bob.auth, { title: 'x'.repeat(51), key: other.line }), 422, s.url)).toBe('[title]: MaxSize(50)');
    expect(await expectApiError(await post(bob.auth, { title: 'no key' }), 422, s.url)).toBe('[key]: Required');
    // Nothing of the refused ones was stored.
    expect((await s.host.keys.list(SYSTEM, await userNamed(s.host, bob.name))).total).toBe(0);
  });

  test('anonymous callers need a token; others see public keys without private details, and not at all for a hidden user', async () => {
    const alice = await account();
    const bob = await account();
    const hidden = await account({ visibility: 'private' });
    const key = await keygen('ed25519');
    const created = await json(await post(alice.auth, { title: 'laptop', key: key.line }));
    await post(hidden.auth, { title: 'secret', key: (await keygen('ed25519')).line });

    await expectApiError(await s.fetch('/api/v1/user/keys'), 401, s.url);
    await expectApiError(await post({}, { title: 't', key: key.line }), 401, s.url);

    for (const auth of [{}, bob.auth]) {
      const res = await s.fetch(`/api/v1/users/${alice.name}/keys`, { headers: auth });
      expect(res.status).toBe(200);
      const [listed] = await json<Record<string, unknown>[]>(res);
      expect(matchesSchema(PublicKeySchema, listed)).toBe(true);
      expect(listed).toMatchObject({ id: created.id, fingerprint: key.fingerprint, key: normal(key) });
      expect(listed).not.toHaveProperty('key_type');
      expect(listed).not.toHaveProperty('read_only');
      expect(listed).not.toHaveProperty('user');
    }
    // A private user's keys: 404 for others, listed for themself.
    await expectApiError(await s.fetch(`/api/v1/users/${hidden.name}/keys`, { headers: bob.auth }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/users/${hidden.name}/keys`), 404, s.url);
    expect((await json<unknown[]>(await s.fetch(`/api/v1/users/${hidden.name}/keys`, { headers: hidden.auth }))).length).toBe(1);
    await expectApiError(await s.fetch('/api/v1/users/nobody-like-this/keys'), 404, s.url);

    // Another user's key by id is not found, neither to read nor to delete; the fingerprint search stays in one's own keys.
    await expectApiError(await s.fetch(`/api/v1/user/keys/${created.id}`, { headers: bob.auth }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/user/keys/${created.id}`, { method: 'DELETE', headers: bob.auth }), 404, s.url);
    expect(await json(await s.fetch(`/api/v1/user/keys?fingerprint=${encodeURIComponent(key.fingerprint)}`, { headers: bob.auth }))).toEqual([]);
    for (const id of ['999999', 'abc', '-1']) await expectApiError(await s.fetch(`/api/v1/user/keys/${id}`, { headers: alice.auth }), 404, s.url);
    // A token without the user scope.
    const readRepo = tokenHeader(await createToken(s.host, alice.name, ['read:repository']));
    await expectApiError(await s.fetch('/api/v1/user/keys', { headers: readRepo }), 403, s.url);
    const readUser = tokenHeader(await createToken(s.host, alice.name, ['read:user']));
    expect((await s.fetch('/api/v1/user/keys', { headers: readUser })).status).toBe(200);
    await expectApiError(await post(readUser, { title: 'ro', key: (await keygen('ed25519')).line }), 403, s.url);
  });

  test('the owner deletes a key (204, then 404); a site administrator reads, finds and deletes anyone\'s', async () => {
    const alice = await account();
    const admin = await account({ admin: true });
    const first = await json(await post(alice.auth, { title: 'one', key: (await keygen('ed25519')).line }));
    const second = await keygen('ed25519');
    const secondId = (await json(await post(alice.auth, { title: 'two', key: second.line }))).id;

    expect((await s.fetch(`/api/v1/user/keys/${first.id}`, { method: 'DELETE', headers: alice.auth })).status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/user/keys/${first.id}`, { headers: alice.auth }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/user/keys/${first.id}`, { method: 'DELETE', headers: alice.auth }), 404, s.url);

    const seen = await json(await s.fetch(`/api/v1/user/keys/${secondId}`, { headers: admin.auth }));
    expect(seen).toMatchObject({ id: secondId, key_type: 'user', read_only: false });
    expect(seen.user.login).toBe(alice.name);
    const found = await json<{ id: number }[]>(await s.fetch(`/api/v1/user/keys?fingerprint=${encodeURIComponent(second.fingerprint)}`, { headers: admin.auth }));
    expect(found.map((k) => k.id)).toEqual([secondId]);
    expect((await s.fetch(`/api/v1/user/keys/${secondId}`, { method: 'DELETE', headers: admin.auth })).status).toBe(204);
    expect((await s.host.keys.list(SYSTEM, await userNamed(s.host, alice.name))).total).toBe(0);
    // The key may be added again once deleted.
    expect((await post(alice.auth, { title: 'two', key: second.line })).status).toBe(201);
  });
});

describe('/repos/{owner}/{repo}/keys (deploy keys)', () => {
  let s: TestServer;
  let owner: string;
  let ownerAuth: Record<string, string>;
  let otherAuth: Record<string, string>;
  let adminAuth: Record<string, string>;
  beforeAll(async () => {
    s = await startTestServer();
    owner = uniq('d');
    const other = uniq('o');
    const admin = uniq('a');
    const user = await createUser(s.host, owner);
    await createUser(s.host, other);
    await createUser(s.host, admin, { admin: true });
    ownerAuth = tokenHeader(await createToken(s.host, owner));
    otherAuth = tokenHeader(await createToken(s.host, other));
    adminAuth = tokenHeader(await createToken(s.host, admin));
    for (const name of ['pub', 'pub2', 'priv']) await s.host.repos.create(userActor(user), { name, private: name === 'priv' });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  const keysUrl = (repo: string) => `/api/v1/repos/${owner}/${repo}/keys`;
  const add = (repo: string, body: unknown, auth = ownerAuth) => s.fetch(keysUrl(repo), jsonInit('POST', body, auth));

  test('adds read-only and read-write keys (201), lists and gets them with the repository for its owner, deletes them', async () => {
    const readOnly = await keygen('ed25519');
    const readWrite = await keygen('ecdsa', 256);
    const res = await add('pub', { title: 'ci', key: readOnly.line, read_only: true });
    const created = await json(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    expect(matchesSchema(DeployKeySchema, created), schemaErrors(DeployKeySchema, created).join('\n')).toBe(true);
    expect(created).toMatchObject({ title: 'ci', key: normal(readOnly), fingerprint: readOnly.fingerprint, read_only: true });
    expect(created.url).toBe(`${s.url}api/v1/repos/${owner}/pub/keys/${created.id}`);
    expect(created.key_id).toBeGreaterThan(0);
    expect(created).not.toHaveProperty('repository');
    // Absent read_only: read-write, as Go's zero value.
    const rw = await json(await add('pub', { title: 'deploy', key: readWrite.line }));
    expect(rw.read_only).toBe(false);

    const list = await s.fetch(keysUrl('pub'), { headers: ownerAuth });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    const listed = await json<Record<string, any>[]>(list);
    expect(listed.map((k) => k.id)).toEqual([created.id, rw.id]);
    for (const item of listed) expect(matchesSchema(DeployKeySchema, item), schemaErrors(DeployKeySchema, item).join('\n')).toBe(true);
    expect(listed[0]!.repository.full_name).toBe(`${owner}/pub`);
    // The repository's permissions are the key's mode.
    expect(listed[0]!.repository.permissions).toMatchObject({ admin: false, push: false, pull: true });
    expect(listed[1]!.repository.permissions).toMatchObject({ push: true, pull: true });

    const filtered = await json<{ id: number }[]>(await s.fetch(`${keysUrl('pub')}?fingerprint=${encodeURIComponent(readWrite.fingerprint)}`, { headers: ownerAuth }));
    expect(filtered.map((k) => k.id)).toEqual([rw.id]);
    const byKeyId = await json<{ id: number }[]>(await s.fetch(`${keysUrl('pub')}?key_id=${created.key_id}`, { headers: ownerAuth }));
    expect(byKeyId.map((k) => k.id)).toEqual([created.id]);

    const one = await s.fetch(`${keysUrl('pub')}/${created.id}`, { headers: ownerAuth });
    expect(one.status).toBe(200);
    expect(await json(one)).toMatchObject({ id: created.id, read_only: true, repository: { name: 'pub' } });
    // Another repository's key id is not found here.
    await expectApiError(await s.fetch(`${keysUrl('pub2')}/${created.id}`, { headers: ownerAuth }), 404, s.url);
    await expectApiError(await s.fetch(`${keysUrl('pub2')}/${created.id}`, { method: 'DELETE', headers: ownerAuth }), 404, s.url);

    expect((await s.fetch(`${keysUrl('pub')}/${created.id}`, { method: 'DELETE', headers: ownerAuth })).status).toBe(204);
    await expectApiError(await s.fetch(`${keysUrl('pub')}/${created.id}`, { headers: ownerAuth }), 404, s.url);
    await expectApiError(await s.fetch(`${keysUrl('pub')}/${created.id}`, { method: 'DELETE', headers: ownerAuth }), 404, s.url);
    // Its key is gone with its last use: it may now be a user key.
    expect(await s.host.keys.findByFingerprint(readOnly.fingerprint)).toBeUndefined();
    expect((await s.fetch('/api/v1/user/keys', jsonInit('POST', { title: 'mine', key: readOnly.line }, otherAuth))).status).toBe(201);
  });

  test('one key deploys several repositories, each with its own title and mode, but is never also a user key', async () => {
    const key = await keygen('ed25519');
    const first = await json(await add('pub', { title: 'shared', key: key.line, read_only: true }));
    const second = await json(await add('pub2', { title: 'shared elsewhere', key: key.line, read_only: false }));
    expect(second.key_id).toBe(first.key_id);
    expect(second.read_only).toBe(false);
    expect(await expectApiError(await add('pub', { title: 'again', key: key.line }), 422, s.url)).toBe('This key has already been added to this repository');
    const other = await keygen('ed25519');
    expect(await expectApiError(await add('pub', { title: 'shared', key: other.line }), 422, s.url)).toBe('A key with the same name already exists');
    // A deploy key cannot become a user key, nor a user key a deploy key.
    expect(await expectApiError(await s.fetch('/api/v1/user/keys', jsonInit('POST', { title: 'mine', key: key.line }, otherAuth)), 422, s.url)).toBe(
      'Key content has been used as non-deploy key',
    );
    const userKey = await keygen('ed25519');
    expect((await s.fetch('/api/v1/user/keys', jsonInit('POST', { title: 'mine2', key: userKey.line }, otherAuth))).status).toBe(201);
    expect(await expectApiError(await add('pub', { title: 'taken', key: userKey.line }), 422, s.url)).toBe('Key content has been used as non-deploy key');
    // Bad input.
    expect(await expectApiError(await add('pub', { title: '', key: other.line }), 422, s.url)).toBe('[title]: Required');
    expect(await expectApiError(await add('pub', { title: 'x', key: 'garbage' }), 422, s.url)).toMatch(/^Invalid key content/);
    expect(await expectApiError(await add('pub', { title: 'x', key: `no-pty ${other.line}` }), 422, s.url)).toMatch(/authorized_keys options are not allowed/);

    // Removing it from one repository keeps it on the other.
    expect((await s.fetch(`${keysUrl('pub')}/${first.id}`, { method: 'DELETE', headers: ownerAuth })).status).toBe(204);
    expect((await s.host.keys.findByFingerprint(key.fingerprint))?.id).toBe(first.key_id);
    expect((await s.fetch(`${keysUrl('pub2')}/${second.id}`, { headers: ownerAuth })).status).toBe(200);
    // Deleting that repository takes the key with it.
    expect((await s.fetch(`/api/v1/repos/${owner}/pub2`, { method: 'DELETE', headers: ownerAuth })).status).toBe(204);
    expect(await s.host.keys.findByFingerprint(key.fingerprint)).toBeUndefined();
    await s.host.repos.create(userActor(await userNamed(s.host, owner)), { name: 'pub2' });
  });

  test('administrators of the repository only: 401 anonymous, 403 for a reader, 404 where the repository is hidden; site admins may', async () => {
    const key = await keygen('ed25519');
    for (const [method, suffix] of [['GET', ''], ['POST', ''], ['GET', '/1'], ['DELETE', '/1']] as const) {
      const init = method === 'POST' ? jsonInit('POST', { title: 't', key: key.line }) : { method };
      await expectApiError(await s.fetch(`${keysUrl('pub')}${suffix}`, init), 401, s.url);
      await expectApiError(await s.fetch(`${keysUrl('pub')}${suffix}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...otherAuth } }), 403, s.url);
      await expectApiError(await s.fetch(`${keysUrl('priv')}${suffix}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...otherAuth } }), 404, s.url);
      await expectApiError(await s.fetch(`${keysUrl('priv')}${suffix}`, init), 404, s.url);
    }
    await expectApiError(await s.fetch(`/api/v1/repos/${owner}/missing/keys`, { headers: ownerAuth }), 404, s.url);
    const created = await json(await add('priv', { title: 'by admin', key: key.line }, adminAuth));
    expect(created.read_only).toBe(false);
    const seen = await json(await s.fetch(`${keysUrl('priv')}/${created.id}`, { headers: adminAuth }));
    expect(seen.repository.full_name).toBe(`${owner}/priv`);
    // A token without the repository scope.
    const userOnly = tokenHeader(await createToken(s.host, owner, ['read:user']));
    await expectApiError(await s.fetch(keysUrl('priv'), { headers: userOnly }), 403, s.url);
    expect((await s.fetch(`${keysUrl('priv')}/${created.id}`, { method: 'DELETE', headers: adminAuth })).status).toBe(204);
  });
});
