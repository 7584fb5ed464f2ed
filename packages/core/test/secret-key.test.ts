/**
 * `[security] SECRET_KEY` is never empty by accident: SECRET_KEY_URI (Forgejo's `file:`), the data folder's key file
 * made on a new installation, refusal otherwise; and the GPG/SSH verification token is keyed by a secret of each
 * installation.
 */
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ConfigError, RepoHost, loadSettings, secretKeyFile, type User } from '@repohost/core';
import { createUser, openTestHost, testDatabaseEnv } from '@repohost/test-support';

let work: string;
let db: Awaited<ReturnType<typeof testDatabaseEnv>>;
beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'repohost-secret-key-'));
  db = await testDatabaseEnv();
});
afterEach(async () => {
  await db.cleanup();
  await rm(work, { recursive: true, force: true });
});

const settingsOf = (text = '') => loadSettings({ workPath: work, configText: text, env: db.env });

describe('SECRET_KEY_URI', () => {
  test('reads the key from the file it names, trimmed; absolute, file:/// and relative forms', async () => {
    await writeFile(path.join(work, 'key.txt'), '  key-from-a-file \n');
    expect(settingsOf(`[security]\nSECRET_KEY_URI = file:${path.join(work, 'key.txt')}\n`).security.SECRET_KEY).toBe('key-from-a-file');
    expect(settingsOf(`[security]\nSECRET_KEY_URI = file://${path.join(work, 'key.txt')}\n`).security.SECRET_KEY).toBe('key-from-a-file');
    expect(settingsOf('[security]\nSECRET_KEY_URI = file:key.txt\n').security.SECRET_KEY).toBe('key-from-a-file');
    expect(settingsOf('[security]\nSECRET_KEY = plain\n').security.SECRET_KEY).toBe('plain');
  });

  test('a missing or empty file, another scheme, or both keys set stop start-up with a ConfigError saying why', async () => {
    const missing = path.join(work, 'nowhere', 'key');
    expect(() => settingsOf(`[security]\nSECRET_KEY_URI = file:${missing}\n`)).toThrow(ConfigError);
    expect(() => settingsOf(`[security]\nSECRET_KEY_URI = file:${missing}\n`)).toThrow(`[security] SECRET_KEY_URI: cannot read ${missing}: ENOENT`);
    await writeFile(path.join(work, 'blank'), ' \n');
    expect(() => settingsOf('[security]\nSECRET_KEY_URI = file:blank\n')).toThrow(/SECRET_KEY_URI: .*blank is empty/);
    expect(() => settingsOf('[security]\nSECRET_KEY_URI = https://vault/key\n')).toThrow(/only file:/);
    await writeFile(path.join(work, 'key.txt'), 'k');
    expect(() => settingsOf('[security]\nSECRET_KEY = a\nSECRET_KEY_URI = file:key.txt\n')).toThrow(/set one, not both/);
  });
});

describe('RepoHost.open without a key', () => {
  test('refuses by default, naming what to set', async () => {
    await expect(RepoHost.open({ settings: settingsOf() })).rejects.toThrow(ConfigError);
    await expect(RepoHost.open({ settings: settingsOf() })).rejects.toThrow(/\[security\] SECRET_KEY is empty: set it or SECRET_KEY_URI/);
  });

  test('generates the key file on a new installation (owner-only, whatever the umask), and the next start reads it', async () => {
    const umask = process.umask(0o022);
    let first: RepoHost;
    try {
      first = await RepoHost.open({ settings: settingsOf(), noSecretKey: 'generate' });
    } finally {
      process.umask(umask);
    }
    const file = secretKeyFile(first.settings);
    expect(first.generatedSecretKeyFile).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const key = first.settings.security.SECRET_KEY;
    expect(key).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect((await readFile(file, 'utf8')).trim()).toBe(key);
    await first.close();

    // Later starts find the key in the data folder, whoever opens it, and generate nothing.
    expect(settingsOf().security.SECRET_KEY).toBe(key);
    const second = await RepoHost.open({ settings: settingsOf(), noSecretKey: 'generate' });
    expect(second.generatedSecretKeyFile).toBeUndefined();
    expect(second.settings.security.SECRET_KEY).toBe(key);
    await second.close();

    // An existing installation whose key is gone is not given a new one (its secrets would be lost in silence).
    await unlink(file);
    await expect(RepoHost.open({ settings: settingsOf(), noSecretKey: 'generate' })).rejects.toThrow(/existing installation.*repohost admin regenerate secrets/);
  });

  test('in-memory forges get a random key each; an allowed empty key is used as it is, with a warning', async () => {
    const [a, b] = await Promise.all([RepoHost.inMemory(), RepoHost.inMemory()]);
    try {
      expect(a.settings.security.SECRET_KEY).toMatch(/^.{64}$/);
      expect(a.settings.security.SECRET_KEY).not.toBe(b.settings.security.SECRET_KEY);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const empty = await RepoHost.open({ settings: settingsOf(), noSecretKey: 'allow-empty' });
      expect(empty.settings.security.SECRET_KEY).toBe('');
      await empty.close();
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/SECRET_KEY is empty/));
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the verification token of GPG and SSH keys', () => {
  /** The same account (same id, name, email and creation second) on two installations, and each one's token. */
  async function tokensOf(keys: [string, string], noSecretKey?: 'allow-empty'): Promise<[string, string]> {
    const hosts = await Promise.all(keys.map((SECRET_KEY) => openTestHost({ security: { SECRET_KEY } }, noSecretKey ? { noSecretKey } : {})));
    try {
      const users: User[] = await Promise.all(hosts.map((t) => createUser(t.host, 'alice')));
      const same = { ...users[0]!, created_unix: 1_700_000_000 };
      return [hosts[0]!.host.gpgKeys.verificationToken(same), hosts[1]!.host.gpgKeys.verificationToken(same)];
    } finally {
      await Promise.all(hosts.map((t) => t.cleanup()));
    }
  }

  test('differs between installations, agrees within one key, and is unpredictable even under an empty key', async () => {
    const [a, b] = await tokensOf(['key-one', 'key-two']);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
    // Two processes of one installation (the same key) hand out and accept the same token.
    const [c, d] = await tokensOf(['key-one', 'key-one']);
    expect(c).toBe(d);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const [e, f] = await tokensOf(['', ''], 'allow-empty');
      expect(e).not.toBe(f);
    } finally {
      warn.mockRestore();
    }
  });
});
