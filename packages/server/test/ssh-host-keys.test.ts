/**
 * The built-in SSH server's host key generation: ssh2 writes about one ed25519 key in 256 that its own parser
 * rejects (mscdex/ssh2#1513); such a key must never be kept, or the server could not start again.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type * as Ssh2 from 'ssh2';
import { usableKeyGenerator } from '../src/ssh/server.js';

const ssh2 = createRequire(import.meta.url)('ssh2') as typeof Ssh2;

describe('host key generation', () => {
  it('generates again while a key does not parse, and gives up after its attempts', () => {
    // A key known to parse, handed out after the three broken ones: a fresh one from ssh2 could itself be one of its
    // broken keys (one in 256), and the generator would rightly try a fifth time.
    let good = ssh2.utils.generateKeyPairSync('ed25519');
    while (ssh2.utils.parseKey(good.private) instanceof Error || ssh2.utils.parseKey(good.public) instanceof Error) good = ssh2.utils.generateKeyPairSync('ed25519');
    let generated = 0;
    const flaky = {
      generateKeyPairSync: () => {
        generated++;
        return generated <= 3 ? ssh2.utils.generateKeyPairSync('ed25519') : good;
      },
      // The first three keys "fail to parse", as ssh2's broken ones do.
      parseKey: (key: string | Buffer) => (generated <= 3 ? new Error('Malformed OpenSSH public key') : ssh2.utils.parseKey(key)),
    } as unknown as Pick<typeof Ssh2.utils, 'generateKeyPairSync' | 'parseKey'>;
    const pair = usableKeyGenerator(flaky)();
    expect(generated).toBe(4);
    expect(ssh2.utils.parseKey(pair.private)).not.toBeInstanceOf(Error);

    const broken = { generateKeyPairSync: ssh2.utils.generateKeyPairSync, parseKey: () => new Error('Malformed') } as unknown as Pick<typeof Ssh2.utils, 'generateKeyPairSync' | 'parseKey'>;
    expect(() => usableKeyGenerator(broken, 3)()).toThrow(/host key that parses/);
  });

  it('every key it gives parses, private and public (1,000 keys: about four of ssh2\'s would not)', () => {
    const generate = usableKeyGenerator(ssh2.utils);
    for (let i = 0; i < 1000; i++) {
      const pair = generate();
      expect(ssh2.utils.parseKey(pair.private)).not.toBeInstanceOf(Error);
      expect(ssh2.utils.parseKey(pair.public)).not.toBeInstanceOf(Error);
    }
  });
});
