/**
 * The OAuth2 ID-token signing key file when several processes start at once on one data folder: a process that
 * reads the file while another is writing the new key sees no key or the whole key, never half of one, and every
 * process ends up with the same key. The first write is held halfway (the file system mocked) to make the race
 * happen every time.
 */
import { createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

// Loaded afresh under the mock below: test files share a process (vitest's isolate is off), and another file may have
// loaded the module with the real file system already.
let loadOrCreateSigningKey: typeof import('../src/oauth2/signing.js').loadOrCreateSigningKey;
beforeAll(async () => {
  vi.resetModules();
  ({ loadOrCreateSigningKey } = await import('../src/oauth2/signing.js'));
});

/** The first write under `dir` stops halfway until `resume()`. */
const held = vi.hoisted(() => {
  const state = { dir: '', stopped: false, resume: () => {}, resumed: Promise.resolve() };
  state.resumed = new Promise<void>((resolve) => (state.resume = resolve));
  return state;
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile: typeof real.writeFile = async (target, data, options) => {
    if (!held.stopped && held.dir !== '' && typeof target === 'string' && target.startsWith(held.dir)) {
      held.stopped = true;
      const text = String(data);
      const half = Math.floor(text.length / 2);
      await real.writeFile(target, text.slice(0, half), options);
      await held.resumed;
      await real.appendFile(target, text.slice(half));
      return;
    }
    return real.writeFile(target, data, options);
  };
  return { ...real, default: { ...real, writeFile }, writeFile };
});

describe('the OAuth2 signing key file', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'repohost-jwt-'));
  });
  afterEach(async () => {
    held.resume();
    held.dir = '';
    await rm(dir, { recursive: true, force: true });
  });

  it('is read whole by a process starting while another writes it; both end with one key', async () => {
    held.dir = dir;
    const file = path.join(dir, 'jwt', 'private.pem');
    const first = loadOrCreateSigningKey(file);
    // The first process is halfway through writing its new key.
    await vi.waitFor(() => expect(held.stopped).toBe(true), { timeout: 30_000 });
    const second = await loadOrCreateSigningKey(file);
    held.resume();
    const firstKey = await first;
    expect(firstKey.jwk.kid).toBe(second.jwk.kid);
    expect(firstKey.jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    // What is on disk is that key, whole; nothing else is left in the folder.
    const pem = await readFile(file, 'utf8');
    expect(createPrivateKey(pem).asymmetricKeyType).toBe('rsa');
    expect((await loadOrCreateSigningKey(file)).jwk.kid).toBe(second.jwk.kid);
    expect(await readdir(path.dirname(file))).toEqual(['private.pem']);
  });

  it('is one key for several processes starting together, and kept across starts', async () => {
    const file = path.join(dir, 'jwt', 'private.pem');
    const keys = await Promise.all(Array.from({ length: 4 }, () => loadOrCreateSigningKey(file)));
    expect(new Set(keys.map((k) => k.jwk.kid)).size).toBe(1);
    expect(await readdir(path.dirname(file))).toEqual(['private.pem']);
    expect((await loadOrCreateSigningKey(file)).jwk.kid).toBe(keys[0]!.jwk.kid);
  });

  it('refuses a key file that is not an RSA key', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { writeFile, mkdir } = await import('node:fs/promises');
    const file = path.join(dir, 'jwt', 'private.pem');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }));
    await expect(loadOrCreateSigningKey(file)).rejects.toThrow(/must be an RSA key/);
  });
});
