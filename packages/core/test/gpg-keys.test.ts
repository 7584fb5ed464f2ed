/**
 * GPG keys in core: keys made by the real `gpg` (a certify-only primary key with signing, encryption and
 * authentication subkeys, two user ids, lifetimes) read as gpg lists them (`--with-colons`), and the service:
 * adding with and without a signed token, verified addresses, verification, duplicates, deletion, finding a key by
 * the id a signature names, and cleanup with the account.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  GPGKeySchema,
  NotFoundError,
  SYSTEM,
  ValidationError,
  matchesSchema,
  normalizeKeyId,
  schemaErrors,
  toApiGPGKey,
  userActor,
} from '@repohost/core';
// Not exported by the package: openpgp.js loads on first use, so the index does not import it.
import { readArmoredPublicKeys } from '../src/gpg/openpgp.js';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

const run = promisify(execFile);

/** One gpg home for the file: keys are made once and reused. */
let gnupgHome: string;

async function gpg(args: string[], input?: string): Promise<string> {
  const child = run('gpg', ['--batch', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], {
    env: { ...process.env, GNUPGHOME: gnupgHome },
    maxBuffer: 16 << 20,
  });
  if (input !== undefined) child.child.stdin?.end(input);
  return (await child).stdout;
}

interface ColonKey {
  keyId: string;
  created: number;
  expires: number;
  /** The key's own capability letters (lower case): e s c a. */
  caps: string;
}

/** What `gpg --with-colons` says of a key: its primary key, subkeys and user ids. */
async function listed(fingerprint: string): Promise<{ primary: ColonKey; subkeys: ColonKey[]; uids: string[] }> {
  const out = await gpg(['--with-colons', '--fixed-list-mode', '--list-keys', fingerprint]);
  const keys: ColonKey[] = [];
  const uids: string[] = [];
  for (const line of out.split('\n')) {
    const f = line.split(':');
    if (f[0] === 'pub' || f[0] === 'sub') {
      keys.push({ keyId: f[4]!, created: Number(f[5]), expires: Number(f[6] || 0), caps: f[11]!.replace(/[A-Z]/g, '') });
    } else if (f[0] === 'uid') uids.push(f[9]!);
  }
  return { primary: keys[0]!, subkeys: keys.slice(1), uids };
}

/** A new key: certify-only primary, the given subkeys; returns its fingerprint. */
async function makeKey(uid: string, subkeys: [algo: string, usage: string, expire: string][], primaryExpire = '0'): Promise<string> {
  await gpg(['--quick-gen-key', uid, 'ed25519', 'cert', primaryExpire]);
  const out = await gpg(['--with-colons', '--list-keys', uid]);
  const fingerprint = out.split('\n').find((l) => l.startsWith('fpr:'))!.split(':')[9]!;
  for (const [algo, usage, expire] of subkeys) await gpg(['--quick-add-key', fingerprint, algo, usage, expire]);
  return fingerprint;
}

const exportPublic = (fingerprint: string) => gpg(['--armor', '--export', fingerprint]);
/** A detached, armored signature of `text` by the key's signing subkey, as `echo token | gpg -a --detach-sig` makes it. */
const sign = (fingerprint: string, text: string) => gpg(['--armor', '--local-user', fingerprint, '--detach-sign'], text);

let main: string;
let mainArmored: string;
let plain: string;

beforeAll(async () => {
  gnupgHome = await mkdtemp(path.join(tmpdir(), 'repohost-gpg-'));
  main = await makeKey('Alice Tester <alice@example.com>', [
    ['ed25519', 'sign', '1y'],
    ['cv25519', 'encr', '0'],
    ['rsa2048', 'auth', '2y'],
  ]);
  await gpg(['--quick-add-uid', main, 'Alice Elsewhere <alice@elsewhere.example>']);
  mainArmored = await exportPublic(main);
  plain = await makeKey('Plain Key <plain@example.com>', [['ed25519', 'sign', '0']], '3y');
}, 60_000);

afterAll(async () => {
  if (gnupgHome) await rm(gnupgHome, { recursive: true, force: true });
});

describe('reading gpg-made keys', () => {
  it('gives the ids, times and capabilities gpg --with-colons lists, for the primary key and each subkey', async () => {
    const [parsed] = await readArmoredPublicKeys(mainArmored);
    const colons = await listed(main);
    expect(parsed!.keyId).toBe(colons.primary.keyId);
    expect(parsed!.createdUnix).toBe(colons.primary.created);
    expect(parsed!.expiresUnix).toBe(colons.primary.expires);
    const caps = (k: { canSign: boolean; canEncryptComms: boolean; canEncryptStorage: boolean; canCertify: boolean }) =>
      [k.canEncryptComms || k.canEncryptStorage ? 'e' : '', k.canSign ? 's' : '', k.canCertify ? 'c' : ''].join('');
    const gpgCaps = (k: ColonKey) => ['e', 's', 'c'].filter((c) => k.caps.includes(c)).join('');
    expect(caps(parsed!)).toBe(gpgCaps(colons.primary));
    expect(parsed!).toMatchObject({ canCertify: true, canSign: false, canEncryptComms: false, canEncryptStorage: false });
    expect(parsed!.subkeys.map((s) => s.keyId)).toEqual(colons.subkeys.map((s) => s.keyId));
    for (const [i, sub] of parsed!.subkeys.entries()) {
      expect(sub.createdUnix).toBe(colons.subkeys[i]!.created);
      // A subkey without a lifetime of its own expires with the primary key (never, here).
      expect(sub.expiresUnix).toBe(colons.subkeys[i]!.expires);
      expect(caps(sub)).toBe(gpgCaps(colons.subkeys[i]!));
    }
    // gpg's `encr` sets both encryption flags.
    expect(parsed!.subkeys[1]).toMatchObject({ canEncryptComms: true, canEncryptStorage: true, canSign: false });
    expect(parsed!.emails).toEqual(['alice@example.com', 'alice@elsewhere.example']);
    expect([...colons.uids].sort()).toEqual(['Alice Elsewhere <alice@elsewhere.example>', 'Alice Tester <alice@example.com>']);
    // The stored packet is the key's public-key packet, as gpg exports it (new-format header, same body).
    const exported = (await run('gpg', ['--export', main], { env: { ...process.env, GNUPGHOME: gnupgHome }, encoding: 'buffer' })).stdout;
    const body = Buffer.from(parsed!.content, 'base64').subarray(2);
    expect(exported.includes(body)).toBe(true);
  });

  it('reads a primary key\'s lifetime, and a subkey without one expiring with it', async () => {
    const [parsed] = await readArmoredPublicKeys(await exportPublic(plain));
    const colons = await listed(plain);
    expect(parsed!.expiresUnix).toBe(colons.primary.expires);
    expect(parsed!.expiresUnix).toBeGreaterThan(parsed!.createdUnix);
    expect(parsed!.subkeys[0]!.expiresUnix).toBe(parsed!.expiresUnix);
  });

  it('refuses garbage, private keys and what is not a public key block, with a reason', async () => {
    const secret = await gpg(['--armor', '--export-secret-keys', plain]);
    await expect(readArmoredPublicKeys(secret)).rejects.toThrow(/private key/);
    await expect(readArmoredPublicKeys('hello')).rejects.toThrow(/not an armored OpenPGP public key/);
    const lines = mainArmored.trim().split('\n');
    const truncated = [...lines.slice(0, 5), ...lines.slice(-2)].join('\n');
    await expect(readArmoredPublicKeys(truncated)).rejects.toThrow(/failed to read the key|no validly self-signed/);
    await expect(readArmoredPublicKeys('-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----\n')).rejects.toThrow(/failed to read the key/);
    const signature = await sign(plain, 'x');
    await expect(readArmoredPublicKeys(signature)).rejects.toThrow(/not an armored OpenPGP public key/);
  });

  it('normalizes key ids and fingerprints to the stored 16 upper-case digits', () => {
    expect(normalizeKeyId('abcdef0123456789')).toBe('ABCDEF0123456789');
    expect(normalizeKeyId('0x1234')).toBe('0000000000001234');
    expect(normalizeKeyId(main)).toBe(main.slice(-16));
    expect(normalizeKeyId('not hex')).toBeUndefined();
    expect(normalizeKeyId('')).toBeUndefined();
  });
});

describe('the GPG keys service', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await openTestHost();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('adds a key carrying a verified address, unverified, with its subkeys; lists, gets, finds it by any key id', async () => {
    const alice = await createUser(t.host, 'alice');
    const added = await t.host.gpgKeys.add(userActor(alice), alice, { armored_public_key: mainArmored });
    const colons = await listed(main);
    expect(added.key.key_id).toBe(colons.primary.keyId);
    expect(added.key.verified).toBe(0);
    expect(added.subkeys.map((s) => s.key_id)).toEqual(colons.subkeys.map((s) => s.keyId));
    const api = toApiGPGKey(added, await t.host.gpgKeys.verifiedEmailsOf(alice));
    expect(matchesSchema(GPGKeySchema, api), schemaErrors(GPGKeySchema, api).join('\n')).toBe(true);
    expect(api.emails).toEqual([
      { email: 'alice@example.com', verified: true },
      { email: 'alice@elsewhere.example', verified: false },
    ]);
    expect(api.subkeys.map((s) => s.primary_key_id)).toEqual([api.key_id, api.key_id, api.key_id]);
    expect(api.expires_at).toBe('0001-01-01T00:00:00Z');
    expect(api.subkeys[0]!.expires_at).toBe(new Date(colons.subkeys[0]!.expires * 1000).toISOString().replace('.000', ''));

    const list = await t.host.gpgKeys.list(SYSTEM, alice);
    expect(list.total).toBe(1);
    expect(list.items[0]!.subkeys).toHaveLength(3);
    expect((await t.host.gpgKeys.get(userActor(alice), alice, added.key.id)).key.key_id).toBe(api.key_id);

    // Found by the signing subkey's id (what a commit signature names), with the whole key to check against.
    const found = await t.host.gpgKeys.findByKeyId(colons.subkeys[0]!.keyId);
    expect(found?.key.key_id).toBe(colons.subkeys[0]!.keyId);
    expect(found?.primary.key_id).toBe(colons.primary.keyId);
    expect((await readArmoredPublicKeys(found!.armored))[0]!.subkeys).toHaveLength(3);
    expect(await t.host.gpgKeys.findByKeyId(main)).toMatchObject({ key: { key_id: colons.primary.keyId } });
    expect(await t.host.gpgKeys.findByKeyId('0123456789ABCDEF')).toBeUndefined();

    // The same key (or any key with one of its ids) again: refused, for anyone.
    const bob = await createUser(t.host, 'bob');
    await expect(t.host.gpgKeys.add(userActor(alice), alice, { armored_public_key: mainArmored })).rejects.toThrow('A key with the same id already exists');
    const token = t.host.gpgKeys.verificationToken(bob);
    await expect(t.host.gpgKeys.add(userActor(bob), bob, { armored_public_key: mainArmored, armored_signature: await sign(main, token) })).rejects.toThrow(
      'A key with the same id already exists',
    );
  });

  it('without a signature, refuses a key none of whose addresses is verified for the account; with one, adds it verified', async () => {
    const carol = await createUser(t.host, 'carol');
    const armored = await exportPublic(plain);
    const refused = t.host.gpgKeys.add(userActor(carol), carol, { armored_public_key: armored });
    await expect(refused).rejects.toBeInstanceOf(NotFoundError);
    await expect(refused).rejects.toThrow(/None of the emails attached to the GPG key could be found/);

    // A signature of someone else's token, or of another text, is refused.
    const wrong = await sign(plain, 'not the token');
    await expect(t.host.gpgKeys.add(userActor(carol), carol, { armored_public_key: armored, armored_signature: wrong })).rejects.toThrow(
      /signature and token do not match/,
    );
    const signed = await sign(plain, `${t.host.gpgKeys.verificationToken(carol)}\n`);
    const added = await t.host.gpgKeys.add(userActor(carol), carol, { armored_public_key: armored, armored_signature: signed });
    expect(added.key.verified).toBe(1);
    expect(added.subkeys.every((s) => s.verified === 1)).toBe(true);
    const api = toApiGPGKey(added, await t.host.gpgKeys.verifiedEmailsOf(carol));
    expect(api.emails).toEqual([{ email: 'plain@example.com', verified: false }]);
    expect(api.verified).toBe(true);
  });

  it('verifies an added key with a signed token (by its signing subkey), refusing other signatures and keys', async () => {
    const dave = await createUser(t.host, 'dave');
    const key = await makeKey('Dave <dave@example.com>', [['ed25519', 'sign', '0']]);
    const added = await t.host.gpgKeys.add(userActor(dave), dave, { armored_public_key: await exportPublic(key) });
    expect(added.key.verified).toBe(0);
    const keyId = added.key.key_id;
    await expect(t.host.gpgKeys.verify(userActor(dave), dave, { key_id: keyId, armored_signature: await sign(key, 'wrong') })).rejects.toBeInstanceOf(ValidationError);
    await expect(t.host.gpgKeys.verify(userActor(dave), dave, { key_id: keyId })).rejects.toThrow(/signature and token do not match/);
    // Signed by another key: refused.
    await expect(
      t.host.gpgKeys.verify(userActor(dave), dave, { key_id: keyId, armored_signature: await sign(plain, t.host.gpgKeys.verificationToken(dave)) }),
    ).rejects.toThrow(/signature and token do not match/);
    // Another account's key, or none: not found.
    const erin = await createUser(t.host, 'erin');
    await expect(t.host.gpgKeys.verify(userActor(erin), erin, { key_id: keyId, armored_signature: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(t.host.gpgKeys.verify(userActor(dave), dave, { key_id: 'zz', armored_signature: 'x' })).rejects.toBeInstanceOf(NotFoundError);

    const verified = await t.host.gpgKeys.verify(userActor(dave), dave, {
      key_id: keyId.toLowerCase(),
      armored_signature: await sign(key, t.host.gpgKeys.verificationToken(dave)),
    });
    expect(verified.key.verified).toBe(1);
    expect(verified.subkeys[0]!.verified).toBe(1);
  });

  it('deletes a key with its subkeys, by its owner only; an account\'s keys go with it', async () => {
    const frank = await createUser(t.host, 'frank');
    const key = await makeKey('Frank <frank@example.com>', [['ed25519', 'sign', '0']]);
    const added = await t.host.gpgKeys.add(userActor(frank), frank, { armored_public_key: await exportPublic(key) });
    const stranger = await createUser(t.host, 'stranger');
    await expect(t.host.gpgKeys.delete(userActor(stranger), frank, added.key.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(t.host.gpgKeys.delete(userActor(stranger), stranger, added.key.id)).rejects.toBeInstanceOf(NotFoundError);
    await t.host.gpgKeys.delete(userActor(frank), frank, added.key.id);
    expect((await t.host.gpgKeys.list(SYSTEM, frank)).total).toBe(0);
    expect(await t.host.gpgKeys.findByKeyId(added.subkeys[0]!.key_id)).toBeUndefined();

    // Added again, then the account is deleted: the key goes with it, and may be added by someone else.
    const again = await t.host.gpgKeys.add(userActor(frank), frank, { armored_public_key: await exportPublic(key) });
    await t.host.accounts.deleteUser(SYSTEM, frank);
    expect(await t.host.gpgKeys.findByKeyId(again.key.key_id)).toBeUndefined();
    const signed = await sign(key, t.host.gpgKeys.verificationToken(stranger));
    expect((await t.host.gpgKeys.add(userActor(stranger), stranger, { armored_public_key: await exportPublic(key), armored_signature: signed })).key.key_id).toBe(
      again.key.key_id,
    );
  });
});
