/**
 * The instance's signing keys (`[repository.signing]`): `/signing-key.gpg`, `/repos/{owner}/{repo}/signing-key.gpg`
 * and `/signing-key.ssh`, unconfigured (the default), with a GPG key from a keyring of the test's own, and with an
 * SSH public key file.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, expectApiError, uniq, type Account } from './helpers';

async function repoOf(s: TestServer, who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('repo');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status).toBe(201);
  return `${who.name}/${name}`;
}

async function expectText(res: Response, body: string): Promise<void> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(await res.text()).toBe(body);
}

const folder = mkdtempSync(path.join(tmpdir(), 'repohost-signing-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('no signing key (the default)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('the GPG key is an empty text, the SSH key a 404; a repository the caller may not see is a 404', async () => {
    await expectText(await s.fetch('/api/v1/signing-key.gpg'), '');
    await expectApiError(await s.fetch('/api/v1/signing-key.ssh'), 404, s.url);
    const owner = await account(s, 'so');
    const open = await repoOf(s, owner);
    await expectText(await s.fetch(`/api/v1/repos/${open}/signing-key.gpg`), '');
    const hidden = await repoOf(s, owner, { private: true });
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden}/signing-key.gpg`), 404, s.url);
    await expectText(await s.fetch(`/api/v1/repos/${hidden}/signing-key.gpg`, { headers: owner.h }), '');
    await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/${uniq('missing')}/signing-key.gpg`, { headers: owner.h }), 404, s.url);
  });
});

describe('a GPG signing key', () => {
  let s: TestServer;
  let exported: string;
  const previousHome = process.env.GNUPGHOME;

  beforeAll(async () => {
    const home = path.join(folder, 'gnupg');
    execFileSync('mkdir', ['-m', '700', home]);
    process.env.GNUPGHOME = home;
    execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', 'RepoHost Signer <signer@example.com>', 'ed25519', 'sign', 'never'], { stdio: 'ignore' });
    const listing = execFileSync('gpg', ['--batch', '--with-colons', '--list-keys'], { encoding: 'utf8' });
    const fingerprint = listing.split('\n').find((line) => line.startsWith('fpr:'))!.split(':')[9]!;
    exported = execFileSync('gpg', ['--batch', '--export', '-a', fingerprint], { encoding: 'utf8' });
    s = await startTestServer({ 'repository.signing': { SIGNING_KEY: fingerprint, SIGNING_NAME: 'RepoHost Signer', SIGNING_EMAIL: 'signer@example.com' } });
  });
  afterAll(async () => {
    await s?.cleanup();
    if (previousHome === undefined) delete process.env.GNUPGHOME;
    else process.env.GNUPGHOME = previousHome;
  });

  test('both GPG routes publish the armored public key; the SSH one stays a 404', async () => {
    expect(exported).toMatch(/^-----BEGIN PGP PUBLIC KEY BLOCK-----/);
    const res = await s.fetch('/api/v1/signing-key.gpg');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(exported)));
    await expectText(res, exported);
    const owner = await account(s, 'so');
    await expectText(await s.fetch(`/api/v1/repos/${await repoOf(s, owner)}/signing-key.gpg`), exported);
    await expectApiError(await s.fetch('/api/v1/signing-key.ssh'), 404, s.url);
  });
});

describe('an SSH signing key', () => {
  let s: TestServer;
  let publicKey: string;

  beforeAll(async () => {
    const key = path.join(folder, 'signing');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'signer@example.com', '-f', key]);
    publicKey = readFileSync(`${key}.pub`, 'utf8');
    s = await startTestServer({ 'repository.signing': { FORMAT: 'ssh', SIGNING_KEY: `${key}.pub` } });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('the SSH route publishes the key in authorized-keys form (no comment); the GPG ones are empty', async () => {
    const [type, blob] = publicKey.trim().split(' ');
    await expectText(await s.fetch('/api/v1/signing-key.ssh'), `${type} ${blob}\n`);
    await expectText(await s.fetch('/api/v1/signing-key.gpg'), '');
  });
});
