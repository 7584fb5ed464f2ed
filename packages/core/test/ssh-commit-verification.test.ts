/**
 * SSH signatures: the sshsig format checked with node:crypto against signatures the real `ssh-keygen -Y sign`
 * makes (ed25519, RSA, ECDSA) and security-key signatures built here that `ssh-keygen -Y verify` accepts; proving
 * a key's possession with a signed token; and commits signed by the real `git` (gpg.format=ssh) verified against
 * the committer's verified SSH keys as Forgejo does.
 */
import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM, ValidationError, userActor, type User } from '@repohost/core';
import { keyBlobOf, parseSshSignature, verifySshSignature } from '../src/keys/sshsig.js';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

let t: TestHost;
let scratch: string;
let env: NodeJS.ProcessEnv;
let counter = 0;

function run(command: string, args: string[], options: { cwd?: string; input?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { cwd: options.cwd ?? scratch, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')}: ${stderr}`));
      else resolve(String(stdout));
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}

interface KeyPair {
  file: string;
  publicLine: string;
  fingerprint: string;
}

async function keyPair(type: string, bits?: number): Promise<KeyPair> {
  const file = path.join(scratch, `key${++counter}`);
  await run('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', `k${counter}`, '-f', file]);
  const publicLine = (await readFile(`${file}.pub`, 'utf8')).trim();
  const fingerprint = (await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`])).split(' ')[1]!;
  return { file, publicLine, fingerprint };
}

/** `ssh-keygen -Y sign` of `message` (read from stdin) in `namespace`. */
function sign(key: KeyPair, namespace: string, message: string): Promise<string> {
  return run('ssh-keygen', ['-q', '-Y', 'sign', '-n', namespace, '-f', key.file], { input: message });
}

function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function mpint(magnitude: Buffer): Buffer {
  let value = magnitude;
  while (value.length > 1 && value[0] === 0) value = value.subarray(1);
  return sshString((value[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

/**
 * An SSH signature by a security-key type, built as OpenSSH and an authenticator build it (PROTOCOL.sshsig and
 * PROTOCOL.u2f): the key is made here, so no device is needed. `application` is the key's application and the one
 * signed with, unless the signature is meant to be for another (`signedApplication`).
 */
function securityKeySignature(type: 'sk-ssh-ed25519@openssh.com' | 'sk-ecdsa-sha2-nistp256@openssh.com', namespace: string, message: Buffer, signedApplication: string): { blob: Buffer; armored: string } {
  const application = 'ssh:';
  const sha = (algorithm: string, value: Buffer | string) => createHash(algorithm).update(value).digest();
  const toSign = Buffer.concat([Buffer.from('SSHSIG'), sshString(namespace), sshString(''), sshString('sha512'), sshString(sha('sha512', message))]);
  const flags = Buffer.from([1]);
  const counter = Buffer.from([0, 0, 0, 7]);
  const signedByDevice = Buffer.concat([sha('sha256', signedApplication), flags, counter, sha('sha256', toSign)]);
  let blob: Buffer;
  let signature: Buffer;
  if (type === 'sk-ssh-ed25519@openssh.com') {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const x = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
    blob = Buffer.concat([sshString(type), sshString(x), sshString(application)]);
    signature = Buffer.concat([sshString(type), sshString(cryptoSign(null, signedByDevice, privateKey)), flags, counter]);
  } else {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
    blob = Buffer.concat([sshString(type), sshString('nistp256'), sshString(point), sshString(application)]);
    const rs = cryptoSign('sha256', signedByDevice, { key: privateKey, dsaEncoding: 'ieee-p1363' });
    signature = Buffer.concat([sshString(type), sshString(Buffer.concat([mpint(rs.subarray(0, 32)), mpint(rs.subarray(32))])), flags, counter]);
  }
  const version = Buffer.from([0, 0, 0, 1]);
  const whole = Buffer.concat([Buffer.from('SSHSIG'), version, sshString(blob), sshString(namespace), sshString(''), sshString('sha512'), sshString(signature)]);
  const lines = whole.toString('base64').match(/.{1,70}/g)!.join('\n');
  return { blob, armored: `-----BEGIN SSH SIGNATURE-----\n${lines}\n-----END SSH SIGNATURE-----\n` };
}

beforeAll(async () => {
  t = await openTestHost();
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-sshsig-'));
  env = { PATH: process.env.PATH, HOME: scratch, LANG: 'C', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  await writeFile(path.join(scratch, '.gitconfig'), '[user]\n\tname = Tester\n\temail = tester@example.com\n');
});
afterAll(async () => {
  await t?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('sshsig', () => {
  it.each([
    ['ed25519', undefined],
    ['rsa', 3072],
    ['ecdsa', 256],
    ['ecdsa', 384],
    ['ecdsa', 521],
  ] as const)('checks %s (%s) signatures made by ssh-keygen', async (type, bits) => {
    const key = await keyPair(type, bits);
    const other = await keyPair('ed25519');
    const blob = keyBlobOf(key.publicLine.split(' ').slice(0, 2).join(' '))!;
    const message = 'tree 0123\n\nhello\n';
    const armored = await sign(key, 'git', message);
    expect(parseSshSignature(armored)).toMatchObject({ namespace: 'git', hashAlgorithm: 'sha512' });
    expect(verifySshSignature(Buffer.from(message), armored, blob, 'git')).toBe(true);
    // Another message, namespace or key does not verify.
    expect(verifySshSignature(Buffer.from(`${message}x`), armored, blob, 'git')).toBe(false);
    expect(verifySshSignature(Buffer.from(message), armored, blob, 'file')).toBe(false);
    expect(verifySshSignature(Buffer.from(message), armored, keyBlobOf(other.publicLine)!, 'git')).toBe(false);
    // A signature whose signature bytes were altered does not verify.
    const decoded = Buffer.from(armored.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
    decoded.writeUInt8(decoded.readUInt8(decoded.length - 5) ^ 1, decoded.length - 5);
    const altered = `-----BEGIN SSH SIGNATURE-----\n${decoded.toString('base64')}\n-----END SSH SIGNATURE-----\n`;
    expect(verifySshSignature(Buffer.from(message), altered, blob, 'git')).toBe(false);
  }, 30_000);

  it.each(['sk-ssh-ed25519@openssh.com', 'sk-ecdsa-sha2-nistp256@openssh.com'] as const)(
    'checks %s signatures (made here as a security key makes them, and accepted by ssh-keygen -Y verify)',
    async (type) => {
      const message = 'tree 0123\n\nsigned by a security key\n';
      const { blob, armored } = securityKeySignature(type, 'git', Buffer.from(message), 'ssh:');
      // The same signature is good for OpenSSH itself.
      const dir = await mkdtemp(path.join(scratch, 'sk-'));
      await writeFile(path.join(dir, 'allowed'), `signer ${type} ${blob.toString('base64')}\n`);
      await writeFile(path.join(dir, 'sig'), armored);
      await run('ssh-keygen', ['-Y', 'verify', '-f', path.join(dir, 'allowed'), '-I', 'signer', '-n', 'git', '-s', path.join(dir, 'sig')], { input: message });
      expect(verifySshSignature(Buffer.from(message), armored, blob, 'git')).toBe(true);
      expect(verifySshSignature(Buffer.from(`${message}x`), armored, blob, 'git')).toBe(false);
      // Signed for another application than the key names: not this key's signature.
      const other = securityKeySignature(type, 'git', Buffer.from(message), 'ssh:other');
      expect(verifySshSignature(Buffer.from(message), other.armored, blob, 'git')).toBe(false);
    },
  );

  it('reads nothing from malformed input, and never throws', () => {
    const blob = Buffer.from('AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl', 'base64');
    for (const armored of [
      '',
      'junk',
      '-----BEGIN SSH SIGNATURE-----\n-----END SSH SIGNATURE-----',
      '-----BEGIN SSH SIGNATURE-----\n!!!!\n-----END SSH SIGNATURE-----',
      `-----BEGIN SSH SIGNATURE-----\n${Buffer.from('SSHSIG\0\0\0\x01\xff\xff\xff\xff').toString('base64')}\n-----END SSH SIGNATURE-----`,
      `-----BEGIN SSH SIGNATURE-----\n${'A'.repeat(100_000)}\n-----END SSH SIGNATURE-----`,
    ]) {
      expect(parseSshSignature(armored)).toBeUndefined();
      expect(verifySshSignature(Buffer.from('x'), armored, blob, 'git')).toBe(false);
    }
    expect(keyBlobOf('ssh-ed25519')).toBeUndefined();
  });
});

describe('SSH-signed commits', () => {
  let alice: User;
  let bob: User;
  let key: KeyPair;
  let keyId: number;

  beforeAll(async () => {
    alice = await createUser(t.host, 'salice');
    bob = await createUser(t.host, 'sbob');
    key = await keyPair('ed25519');
    keyId = (await t.host.keys.add(userActor(alice), alice, { title: 'signing', key: key.publicLine })).id;
  });

  it('a key is verified by an SSH signature of the token in namespace "gitea"; anything else is refused', async () => {
    const wrongNamespace = await sign(key, 'git', t.host.keys.verificationToken(alice));
    await expect(t.host.keys.verify(userActor(alice), alice, keyId, wrongNamespace)).rejects.toBeInstanceOf(ValidationError);
    const otherKey = await sign(await keyPair('ed25519'), 'gitea', t.host.keys.verificationToken(alice));
    await expect(t.host.keys.verify(userActor(alice), alice, keyId, otherKey)).rejects.toBeInstanceOf(ValidationError);
    await expect(t.host.keys.verify(userActor(alice), alice, keyId, 'not a signature')).rejects.toBeInstanceOf(ValidationError);
    // Someone else may not verify alice's key, nor alice a key that is not hers.
    await expect(t.host.keys.verify(userActor(bob), alice, keyId, 'x')).rejects.toThrow();
    await expect(t.host.keys.verify(userActor(bob), bob, keyId, 'x')).rejects.toThrow(/does not exist/);
    expect((await t.host.keys.get(userActor(alice), alice, keyId)).verified).toBe(0);
  });

  it.each(['sha1', 'sha256'] as const)('%s: verified by the committer’s verified key; unverified keys, other committers and tampering are not', async (format) => {
    const name = `ssh-${format}`;
    const access = await t.host.repos.create(userActor(alice), { name, auto_init: true, object_format_name: format });
    const bare = path.join(t.host.settings.repository.ROOT, alice.lower_name, `${name}.git`);
    const work = path.join(scratch, `work-${format}`);
    await run('git', ['clone', '-q', bare, work]);
    const commit = async (file: string, email: string) => {
      await writeFile(path.join(work, file), `${file}\n`);
      await run('git', ['add', '-A'], { cwd: work });
      await run('git', ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${key.file}`, '-c', `user.email=${email}`, 'commit', '-q', '-S', '-m', file], { cwd: work });
      return (await run('git', ['rev-parse', 'HEAD'], { cwd: work })).trim();
    };
    const byAlice = await commit('a.txt', alice.email);
    const byBob = await commit('b.txt', bob.email);
    const byStranger = await commit('c.txt', 'nobody@example.com');
    const raw = await run('git', ['cat-file', 'commit', byAlice], { cwd: work });
    const tampered = (await run('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: work, input: raw.replace('\na.txt\n', '\ntampered\n') })).trim();
    await run('git', ['tag', '-a', '-m', 'release', 'v1', byAlice], { cwd: work });
    await run('git', ['branch', 'tampered', tampered], { cwd: work });
    await run('git', ['push', '-q', 'origin', 'HEAD:main', 'tampered', 'v1'], { cwd: work });

    if (format === 'sha1') {
      // The key is not verified yet: no key vouches for the signature.
      const before = (await t.host.commits.get(SYSTEM, access, byAlice)).verification!;
      expect(before).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
      expect(before.signature).toMatch(/^-----BEGIN SSH SIGNATURE-----\n/);
      expect(before.payload).not.toContain('gpgsig');
      const signature = await sign(key, 'gitea', t.host.keys.verificationToken(alice));
      expect((await t.host.keys.verify(userActor(alice), alice, keyId, signature)).verified).toBe(1);
    }

    const verified = (await t.host.commits.get(SYSTEM, access, byAlice)).verification!;
    expect(verified).toMatchObject({ verified: true, reason: `${alice.name} / ${key.fingerprint}`, signerEmail: alice.email });
    expect(verified.signer?.id).toBe(alice.id);
    // Signed with alice's key, committed as bob or as nobody: bob has no key that made it, nobody has no account.
    expect((await t.host.commits.get(SYSTEM, access, byBob)).verification).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    expect((await t.host.commits.get(SYSTEM, access, byStranger)).verification).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    expect((await t.host.commits.get(SYSTEM, access, 'tampered')).verification).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });

    // A page of commits: one verification per commit, from one lookup per committer.
    const page = await t.host.commits.list(SYSTEM, access, {}, { limit: 10 });
    expect(page.items.map((v) => v.verification?.verified)).toEqual([false, false, true, false]);

    // An annotated tag shows its commit's verification, as Forgejo does.
    const tagId = (await run('git', ['rev-parse', 'v1'], { cwd: work })).trim();
    const tag = await t.host.gitData.annotatedTag(SYSTEM, access, tagId);
    expect(tag.verification).toMatchObject({ verified: true, reason: `${alice.name} / ${key.fingerprint}`, signer: { name: alice.name, email: alice.email } });
  }, 60_000);

  it('the committer address must be an activated address of the account', async () => {
    const carol = await createUser(t.host, 'scarol');
    const carolKey = await keyPair('ed25519');
    const id = (await t.host.keys.add(userActor(carol), carol, { title: 'k', key: carolKey.publicLine })).id;
    await t.host.keys.verify(userActor(carol), carol, id, await sign(carolKey, 'gitea', t.host.keys.verificationToken(carol)));
    await t.host.userEmails.add(userActor(carol), carol, { emails: ['carol-second@example.com'] });
    const access = await t.host.repos.create(userActor(carol), { name: 'ssh-emails', auto_init: true });
    const bare = path.join(t.host.settings.repository.ROOT, carol.lower_name, 'ssh-emails.git');
    const work = path.join(scratch, 'work-emails');
    await run('git', ['clone', '-q', bare, work]);
    const commit = async (email: string) => {
      await writeFile(path.join(work, `${email}.txt`), 'x\n');
      await run('git', ['add', '-A'], { cwd: work });
      await run('git', ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${carolKey.file}`, '-c', `user.email=${email}`, 'commit', '-q', '-S', '-m', email], { cwd: work });
      return (await run('git', ['rev-parse', 'HEAD'], { cwd: work })).trim();
    };
    const noReply = `${carol.lower_name}@noreply.${t.host.settings.server.DOMAIN}`;
    const viaSecond = await commit('carol-second@example.com');
    const viaNoReply = await commit(noReply);
    await run('git', ['push', '-q', 'origin', 'HEAD:main'], { cwd: work });
    const second = (await t.host.commits.get(SYSTEM, access, viaSecond)).verification!;
    const activated = (await t.host.userEmails.list(userActor(carol), carol)).find((e) => e.lower_email === 'carol-second@example.com')?.is_activated === 1;
    // An address added without activation vouches for nothing; the no-reply address is always the account's.
    expect(second.verified).toBe(activated);
    expect((await t.host.commits.get(SYSTEM, access, viaNoReply)).verification).toMatchObject({ verified: true, signerEmail: noReply });
  }, 60_000);
});
