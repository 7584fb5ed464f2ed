/**
 * SSH public keys in core: reading keys as users paste them (checked against `ssh-keygen`, the reference), the
 * size policy, and the keys service (add, list, get, delete, find for authentication).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ANONYMOUS,
  ForbiddenError,
  KeyParseError,
  NotFoundError,
  PublicKeySchema,
  SYSTEM,
  ValidationError,
  checkKeySize,
  matchesSchema,
  parsePublicKey,
  toApiPublicKey,
  userActor,
  type RepoHost,
  type User,
} from '@repohost/core';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

const run = promisify(execFile);

let scratch: string;
let counter = 0;

interface GeneratedKey {
  /** The `.pub` line, with its comment. */
  line: string;
  /** What `ssh-keygen -l` prints as the fingerprint. */
  fingerprint: string;
  file: string;
}

/** A fresh key pair from ssh-keygen. */
async function keygen(type: string, bits?: number, comment = 'tester@example.com'): Promise<GeneratedKey> {
  const file = path.join(scratch, `key-${++counter}`);
  await run('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', comment, '-f', file]);
  const line = (await readFile(`${file}.pub`, 'utf8')).trim();
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`]);
  return { line, fingerprint: stdout.split(' ')[1]!, file };
}

/** The key line converted by ssh-keygen to another format (RFC4716, PKCS8, PEM). */
async function exported(key: GeneratedKey, format: 'RFC4716' | 'PKCS8' | 'PEM'): Promise<string> {
  return (await run('ssh-keygen', ['-e', '-m', format, '-f', `${key.file}.pub`])).stdout;
}

function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof KeyParseError) return error.message;
    throw error;
  }
  throw new Error('expected a KeyParseError');
}

let ed25519: GeneratedKey;
let ecdsa256: GeneratedKey;
let rsa3072: GeneratedKey;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-keys-'));
  [ed25519, ecdsa256, rsa3072] = await Promise.all([keygen('ed25519'), keygen('ecdsa', 256), keygen('rsa', 3072)]);
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('reading public keys', () => {
  it('reads OpenSSH lines of every allowed type, drops the comment, and fingerprints as ssh-keygen does', async () => {
    const more = await Promise.all([keygen('ecdsa', 384), keygen('ecdsa', 521)]);
    const cases: [GeneratedKey, string, string, number][] = [
      [ed25519, 'ssh-ed25519', 'ed25519', 256],
      [ecdsa256, 'ecdsa-sha2-nistp256', 'ecdsa', 256],
      [more[0]!, 'ecdsa-sha2-nistp384', 'ecdsa', 384],
      [more[1]!, 'ecdsa-sha2-nistp521', 'ecdsa', 521],
      [rsa3072, 'ssh-rsa', 'rsa', 3072],
    ];
    for (const [key, type, family, bits] of cases) {
      const parsed = parsePublicKey(key.line);
      const [lineType, base64] = key.line.split(' ');
      expect(parsed).toMatchObject({ type, family, bits, content: `${lineType} ${base64}`, fingerprint: key.fingerprint });
      expect(() => checkKeySize(parsed)).not.toThrow();
      // Surrounding whitespace, a missing comment, CRLF: the same key.
      expect(parsePublicKey(`\n  ${lineType} ${base64}\r\n`).content).toBe(parsed.content);
      // The bare base64 names its own type.
      expect(parsePublicKey(base64!).content).toBe(parsed.content);
    }
  });

  it('reads RFC 4716 and PEM exports of the same key to the same normal form', async () => {
    for (const key of [ed25519, ecdsa256, rsa3072]) {
      expect(parsePublicKey(await exported(key, 'RFC4716')).fingerprint).toBe(key.fingerprint);
    }
    for (const key of [ecdsa256, rsa3072]) expect(parsePublicKey(await exported(key, 'PKCS8')).fingerprint).toBe(key.fingerprint);
    // PKCS#1 "RSA PUBLIC KEY".
    expect(parsePublicKey(await exported(rsa3072, 'PEM')).content).toBe(parsePublicKey(rsa3072.line).content);
  });

  it('refuses what is not one well-formed public key', async () => {
    const [type, base64] = ed25519.line.split(' ') as [string, string];
    const blob = Buffer.from(base64, 'base64');
    expect(reasonOf(() => parsePublicKey(''))).toBe('empty key');
    expect(reasonOf(() => parsePublicKey('   \n'))).toBe('empty key');
    expect(reasonOf(() => parsePublicKey('ssh-ed25519 not*base64'))).toMatch(/not base64/);
    expect(reasonOf(() => parsePublicKey(`ssh-rsa ${base64}`))).toBe(`key type and content do not match: ssh-rsa - ${type}`);
    expect(reasonOf(() => parsePublicKey(`${type} ${blob.subarray(0, blob.length - 1).toString('base64')}`))).toMatch(/truncated/);
    expect(reasonOf(() => parsePublicKey(`${type} ${Buffer.concat([blob, Buffer.from([0])]).toString('base64')}`))).toMatch(/trailing data/);
    expect(reasonOf(() => parsePublicKey('x'.repeat(20_000)))).toBe('the key is too long');
    // A private key pasted by mistake is refused, and not echoed back.
    const privateKey = await readFile(rsa3072.file, 'utf8');
    expect(reasonOf(() => parsePublicKey(privateKey))).toMatch(/private key/);
    // An ECDSA point that is not on its curve.
    const [ecType, ecBase64] = ecdsa256.line.split(' ') as [string, string];
    const point = Buffer.from(ecBase64, 'base64');
    point[point.length - 1] = point[point.length - 1]! ^ 0x01;
    expect(reasonOf(() => parsePublicKey(`${ecType} ${point.toString('base64')}`))).toMatch(/not a valid public key/);
  });

  it('marks algorithms it does not know as unverifiable', () => {
    const name = Buffer.from('ssh-unknown@example.com');
    const blob = Buffer.concat([Buffer.from([0, 0, 0, name.length]), name, Buffer.from([0, 0, 0, 1, 7])]);
    try {
      parsePublicKey(`ssh-unknown@example.com ${blob.toString('base64')}`);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(KeyParseError);
      expect((error as KeyParseError).unverifiable).toBe(true);
    }
  });

  it('applies Forgejo\'s minimum sizes: RSA below 3071 bits and DSA are refused', async () => {
    const [rsa2048, dsa] = await Promise.all([keygen('rsa', 2048), keygen('dsa')]);
    const small = parsePublicKey(rsa2048.line);
    expect(small.bits).toBe(2048);
    expect(reasonOf(() => checkKeySize(small))).toBe('key length is not enough: got 2048, needs 3071');
    const parsedDsa = parsePublicKey(dsa.line);
    expect(parsedDsa.fingerprint).toBe(dsa.fingerprint);
    expect(reasonOf(() => checkKeySize(parsedDsa))).toBe('key type is not allowed: dsa');
  });
});

describe('the keys service', () => {
  let t: TestHost;
  let host: RepoHost;
  let alice: User;
  let bob: User;

  beforeEach(async () => {
    t = await openTestHost();
    host = t.host;
    alice = await createUser(host, 'alice');
    bob = await createUser(host, 'bob');
  });
  afterEach(async () => t.cleanup());

  async function rejection(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  it('adds a key in normal form, lists it, and gets it; the API view matches the schema', async () => {
    const key = await host.keys.add(userActor(alice), alice, { title: 'laptop', key: ed25519.line });
    expect(key).toMatchObject({ owner_id: alice.id, name: 'laptop', fingerprint: ed25519.fingerprint, content: ed25519.line.split(' ').slice(0, 2).join(' '), mode: 2, type: 1, verified: 0 });

    const second = await host.keys.add(userActor(alice), alice, { title: 'desktop', key: ecdsa256.line });
    const page = await host.keys.list(ANONYMOUS, alice);
    expect(page.total).toBe(2);
    expect(page.items.map((k) => k.id)).toEqual([key.id, second.id]);
    expect((await host.keys.list(ANONYMOUS, alice, { fingerprint: ecdsa256.fingerprint })).items.map((k) => k.id)).toEqual([second.id]);
    expect((await host.keys.list(ANONYMOUS, alice, { limit: 1, page: 2 })).items.map((k) => k.id)).toEqual([second.id]);
    expect((await host.keys.list(ANONYMOUS, bob)).total).toBe(0);
    expect((await host.keys.get(ANONYMOUS, alice, key.id)).id).toBe(key.id);

    const own = toApiPublicKey(key, alice, { viewer: userActor(alice), settings: host.settings });
    expect(matchesSchema(PublicKeySchema, own)).toBe(true);
    expect(own).toMatchObject({ id: key.id, title: 'laptop', key: key.content, fingerprint: ed25519.fingerprint, key_type: 'user', read_only: false, verified: false });
    expect(own.url).toBe(`${host.settings.server.ROOT_URL}api/v1/user/keys/${key.id}`);
    expect(own.user?.login).toBe('alice');
    // Others see the public key, not its private details.
    const seenByBob = toApiPublicKey(key, alice, { viewer: userActor(bob), settings: host.settings });
    expect(matchesSchema(PublicKeySchema, seenByBob)).toBe(true);
    expect(seenByBob.key_type).toBeUndefined();
    expect(seenByBob.user).toBeUndefined();
  });

  it('refuses duplicates, bad titles and bad keys with Forgejo\'s messages', async () => {
    await host.keys.add(userActor(alice), alice, { title: 'laptop', key: ed25519.line });
    // The same key, with another comment, for anyone: one key is one account.
    const [type, base64] = ed25519.line.split(' ');
    for (const [actor, owner] of [[userActor(alice), alice], [userActor(bob), bob]] as const) {
      const duplicate = await rejection(host.keys.add(actor, owner, { title: 'again', key: `${type} ${base64} other comment` }));
      expect(duplicate).toBeInstanceOf(ValidationError);
      expect((duplicate as Error).message).toBe('Key content has been used as non-deploy key');
    }
    const title = await rejection(host.keys.add(userActor(alice), alice, { title: 'laptop', key: ecdsa256.line }));
    expect((title as Error).message).toBe('Key title has been used');
    // Titles are per owner.
    await host.keys.add(userActor(bob), bob, { title: 'laptop', key: ecdsa256.line });

    const empty = await rejection(host.keys.add(userActor(alice), alice, { title: '', key: rsa3072.line }));
    expect(empty).toBeInstanceOf(ValidationError);
    expect((empty as ValidationError).field).toBe('title');
    const long = await rejection(host.keys.add(userActor(alice), alice, { title: 't'.repeat(51), key: rsa3072.line }));
    expect((long as ValidationError).field).toBe('title');
    const noKey = await rejection(host.keys.add(userActor(alice), alice, { title: 'x', key: '  ' }));
    expect((noKey as ValidationError).field).toBe('key');
    const garbage = await rejection(host.keys.add(userActor(alice), alice, { title: 'x', key: 'ssh-ed25519 AAAA' }));
    expect(garbage).toBeInstanceOf(ValidationError);
    expect((garbage as Error).message).toMatch(/^Invalid key content: /);
    const small = await keygen('rsa', 2048);
    const weak = await rejection(host.keys.add(userActor(alice), alice, { title: 'x', key: small.line }));
    expect((weak as Error).message).toBe('Invalid key content: key length is not enough: got 2048, needs 3071');
    const name = Buffer.from('ssh-unknown@example.com');
    const unknown = Buffer.concat([Buffer.from([0, 0, 0, name.length]), name]).toString('base64');
    expect(((await rejection(host.keys.add(userActor(alice), alice, { title: 'x', key: unknown }))) as Error).message).toBe('Unable to verify key content');
    // Input from embedders is checked against the schema too.
    expect(await rejection(host.keys.add(userActor(alice), alice, { title: 'x' } as never))).toBeInstanceOf(ValidationError);
    expect((await host.keys.list(ANONYMOUS, alice)).total).toBe(1);
  });

  it('lets only the owner or a site administrator add and delete keys; a key of another is not found', async () => {
    expect(await rejection(host.keys.add(userActor(bob), alice, { title: 'sneaky', key: ed25519.line }))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(host.keys.add(ANONYMOUS, alice, { title: 'sneaky', key: ed25519.line }))).toBeInstanceOf(ForbiddenError);
    const key = await host.keys.add(SYSTEM, alice, { title: 'by admin', key: ed25519.line });

    expect(await rejection(host.keys.get(ANONYMOUS, bob, key.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(host.keys.get(ANONYMOUS, alice, 999_999))).toBeInstanceOf(NotFoundError);
    expect(await rejection(host.keys.delete(userActor(bob), alice, key.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(host.keys.delete(userActor(bob), bob, key.id))).toBeInstanceOf(NotFoundError);
    await host.keys.delete(userActor(alice), alice, key.id);
    expect(await rejection(host.keys.delete(userActor(alice), alice, key.id))).toBeInstanceOf(NotFoundError);
    expect((await host.keys.list(ANONYMOUS, alice)).total).toBe(0);
    // Once deleted, the key may be added again, by anyone.
    await host.keys.add(userActor(bob), bob, { title: 'mine now', key: ed25519.line });
  });

  it('finds a key by content (any form) or fingerprint, and authenticates its owner while they may sign in', async () => {
    const key = await host.keys.add(userActor(alice), alice, { title: 'laptop', key: rsa3072.line });
    expect((await host.keys.findByContent(rsa3072.line.split(' ').slice(0, 2).join(' ')))?.id).toBe(key.id);
    expect((await host.keys.findByContent(await exported(rsa3072, 'RFC4716')))?.id).toBe(key.id);
    expect((await host.keys.findByFingerprint(rsa3072.fingerprint))?.id).toBe(key.id);
    expect(await host.keys.findByContent(ed25519.line)).toBeUndefined();
    expect(await host.keys.findByContent('not a key')).toBeUndefined();

    const byContent = await host.keys.authenticate({ content: rsa3072.line });
    expect(byContent?.user.id).toBe(alice.id);
    expect((await host.keys.authenticate({ id: key.id }))?.key.id).toBe(key.id);
    expect(await host.keys.authenticate({ id: key.id + 1000 })).toBeNull();
    expect(await host.keys.authenticate({ content: ed25519.line })).toBeNull();

    // Deleting the account deletes its keys.
    await host.accounts.deleteUser(SYSTEM, alice);
    expect(await host.keys.authenticate({ id: key.id })).toBeNull();
    expect(await host.keys.findByFingerprint(rsa3072.fingerprint)).toBeUndefined();
  });

  it('follows [server] DISABLE_SSH and MINIMUM_KEY_SIZE_CHECK', async () => {
    const small = await keygen('rsa', 2048);
    const relaxed = await openTestHost({ server: { MINIMUM_KEY_SIZE_CHECK: false } });
    const disabled = await openTestHost({ server: { DISABLE_SSH: true } });
    try {
      const carol = await createUser(relaxed.host, 'carol');
      expect((await relaxed.host.keys.add(userActor(carol), carol, { title: 'old', key: small.line })).fingerprint).toBe(small.fingerprint);
      const dave = await createUser(disabled.host, 'dave');
      const refused = await rejection(disabled.host.keys.add(userActor(dave), dave, { title: 'k', key: ed25519.line }));
      expect((refused as Error).message).toBe('SSH is disabled');
    } finally {
      await relaxed.cleanup();
      await disabled.cleanup();
    }
  });
});
