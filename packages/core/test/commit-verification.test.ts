/**
 * Commit signature verification over real git and gpg: commits signed by `git commit -S` with a key made by gpg
 * in a scratch GNUPGHOME, checked against the keys accounts registered, in sha1 and sha256 repositories.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM, userActor, type User } from '@repohost/core';
import { extractSignature } from '../src/commits/verification.js';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

let t: TestHost;
let scratch: string;
let env: NodeJS.ProcessEnv;
let alice: User;
let fingerprint: string;
let keyIds: string[];
let armored: string;

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

beforeAll(async () => {
  t = await openTestHost();
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-verify-'));
  const gnupg = path.join(scratch, 'gnupg');
  await run('mkdir', ['-m', '700', gnupg]);
  env = { PATH: process.env.PATH, HOME: scratch, GNUPGHOME: gnupg, LANG: 'C', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  await writeFile(path.join(scratch, '.gitconfig'), '[user]\n\tname = Alice\n\temail = alice@example.com\n');
  alice = await createUser(t.host, 'alice');
  const gpg = ['--batch', '--pinentry-mode', 'loopback', '--passphrase', ''];
  await run('gpg', [...gpg, '--quick-gen-key', `Alice <${alice.email}>`, 'ed25519', 'sign,cert', 'never']);
  const colons = await run('gpg', ['--with-colons', '--list-keys']);
  fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(colons)![1]!;
  await run('gpg', [...gpg, '--quick-add-key', fingerprint, 'ed25519', 'sign', 'never']);
  keyIds = [...(await run('gpg', ['--with-colons', '--list-keys'])).matchAll(/^(?:pub|sub):[^:]*:[^:]*:[^:]*:([0-9A-F]{16}):/gm)].map((m) => m[1]!);
  expect(keyIds).toHaveLength(2);
  armored = await run('gpg', ['--armor', '--export', fingerprint]);
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.each(['sha1', 'sha256'] as const)('%s repositories', (format) => {
  it('reports unsigned, unknown-key, verified and tampered commits as Forgejo does', async () => {
    const name = `v-${format}`;
    const access = await t.host.repos.create(userActor(alice), { name, auto_init: true, object_format_name: format });
    const bare = path.join(t.host.settings.repository.ROOT, alice.lower_name, `${name}.git`);
    const work = path.join(scratch, `work-${format}`);
    await run('git', ['clone', '-q', bare, work]);
    await writeFile(path.join(work, 'signed.txt'), 'signed\n');
    await run('git', ['add', '-A'], { cwd: work });
    await run('git', ['-c', 'gpg.program=gpg', '-c', `user.signingkey=${fingerprint}`, 'commit', '-q', '-S', '-m', 'signed change'], { cwd: work });
    const signedId = (await run('git', ['rev-parse', 'HEAD'], { cwd: work })).trim();
    // The same commit with another message and the old signature: a signature that does not match.
    const raw = await run('git', ['cat-file', 'commit', signedId], { cwd: work });
    const forgedId = (await run('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: work, input: raw.replace('signed change', 'forged change') })).trim();
    await run('git', ['branch', 'forged', forgedId], { cwd: work });
    await run('git', ['push', '-q', 'origin', 'HEAD:main', 'forged'], { cwd: work });

    const unsigned = await t.host.commits.get(SYSTEM, access, `${signedId}~1`);
    expect(unsigned.verification).toEqual({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' });

    // The key is registered during the first (sha1) run.
    const unknown = (await t.host.commits.get(SYSTEM, access, 'main')).verification!;
    if (format === 'sha1') {
      expect(unknown.verified).toBe(false);
      expect(unknown.reason).toBe('gpg.error.no_gpg_keys_found');
    }
    expect(unknown.signature).toMatch(/^-----BEGIN PGP SIGNATURE-----\n[\s\S]*-----END PGP SIGNATURE-----\n$/);
    expect(unknown.payload).toMatch(/^tree [0-9a-f]+\nparent /);
    expect(unknown.payload).not.toContain('gpgsig');
    expect(unknown.payload.endsWith('\nsigned change\n')).toBe(true);

    if (format === 'sha1') await t.host.gpgKeys.add(userActor(alice), alice, { armored_public_key: armored });
    const verified = (await t.host.commits.get(SYSTEM, access, 'main')).verification!;
    expect(verified.verified).toBe(true);
    const [, signerName, keyId] = /^(.+) \/ ([0-9A-F]{16})$/.exec(verified.reason) ?? [];
    expect(signerName).toBe('alice');
    expect(keyIds).toContain(keyId);
    expect(verified.signer?.id).toBe(alice.id);

    const forged = (await t.host.commits.get(SYSTEM, access, 'forged')).verification!;
    expect(forged.verified).toBe(false);
    expect(forged.reason).toBe('gpg.error.probable_bad_signature');

    // A page verifies every commit: one signed, two not.
    const page = await t.host.commits.list(SYSTEM, access, {}, { limit: 10 });
    expect(page.items.map((v) => v.verification?.verified)).toEqual([true, false]);
  }, 60_000);
});

describe('a registered key that may no longer vouch', () => {
  it('is a probable bad signature once its address is no longer the owner’s, as Forgejo words it', async () => {
    // Runs after the sha1 and sha256 cases: alice's key is registered and her commits verify.
    const access = await t.host.repos.resolve(userActor(alice), alice.name, 'v-sha1');
    expect((await t.host.commits.get(SYSTEM, access, 'main')).verification!.verified).toBe(true);
    const renamed = await t.host.userAdmin.edit(SYSTEM, alice, { email: 'alice-new@example.com' });
    await t.host.userEmails.delete(userActor(renamed), renamed, { emails: [alice.email] });
    const after = (await t.host.commits.get(SYSTEM, access, 'main')).verification!;
    expect(after).toMatchObject({ verified: false, reason: 'gpg.error.probable_bad_signature' });
  }, 30_000);
});

describe('extractSignature', () => {
  it('cuts the signature header and its continuation lines out of the payload, and leaves unsigned commits alone', () => {
    const raw = Buffer.from('tree abc\nauthor A <a@b> 1 +0000\ncommitter A <a@b> 1 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n xyz\n -----END PGP SIGNATURE-----\n\nmessage\n');
    const signed = extractSignature(raw)!;
    expect(signed.signature).toBe('-----BEGIN PGP SIGNATURE-----\n\nxyz\n-----END PGP SIGNATURE-----\n');
    expect(signed.payload.toString()).toBe('tree abc\nauthor A <a@b> 1 +0000\ncommitter A <a@b> 1 +0000\n\nmessage\n');
    expect(extractSignature(Buffer.from('tree abc\n\nmessage gpgsig x\n'))).toBeUndefined();
  });
});
