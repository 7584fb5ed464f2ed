/**
 * `repohost admin user enable-2fa` (enrol, then confirm with a code) and `reset-2fa` (removes it), and the 2FA
 * column of `list`. Codes come from a small RFC 6238 implementation here, not from the library core uses.
 */
import { describe, expect, it } from 'vitest';
import { SYSTEM } from '@repohost/core';
import { useCliWorkspace } from './cli-workspace';
import { totp } from '@repohost/test-support';

describe('repohost admin user enable-2fa / reset-2fa', () => {
  const ws = useCliWorkspace('repohost-cli-2fa-');
  const cli = ws.cli;

  async function enrolled(name: string): Promise<boolean> {
    return ws.withHost(async (host) => host.twoFactor.isEnrolled(await host.users.resolve(SYSTEM, name)));
  }

  it('enrols, confirms with a code (printing the scratch code), lists it, and reset-2fa removes it', async () => {
    expect((await cli(['admin', 'user', 'create', '--username', 'alice', '--password', 'secret-pass-1', '--email', 'alice@example.com'])).code).toBe(0);

    const started = await cli(['admin', 'user', 'enable-2fa', '--username', 'alice']);
    expect(started.err).toBe('');
    expect(started.code).toBe(0);
    const secret = /^Secret: ([A-Z2-7]+)$/m.exec(started.out)?.[1];
    expect(secret).toBeDefined();
    expect(started.out).toMatch(/^URI: otpauth:\/\/totp\/.*alice.*secret=/m);
    expect(await enrolled('alice')).toBe(false);

    const wrong = await cli(['admin', 'user', 'enable-2fa', '--username', 'alice', '--code', totp(secret!) === '000000' ? '111111' : '000000']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.err).toContain('invalid passcode');
    expect(await enrolled('alice')).toBe(false);

    const confirmed = await cli(['admin', 'user', 'enable-2fa', '--username', 'alice', '--code', totp(secret!)]);
    expect(confirmed.err).toBe('');
    expect(confirmed.code).toBe(0);
    expect(confirmed.out).toMatch(/^Scratch code .*: [A-Za-z0-9]{10}$/m);
    expect(await enrolled('alice')).toBe(true);

    const again = await cli(['admin', 'user', 'enable-2fa', '--username', 'alice']);
    expect(again.code).not.toBe(0);
    expect(again.err).toContain('already enrolled');

    const list = await cli(['admin', 'user', 'list']);
    expect(list.out.split('\n')[1]).toMatch(/\balice\b.*\bfalse\s+true$/);

    const reset = await cli(['admin', 'user', 'reset-2fa', '--username', 'alice']);
    expect(reset.code).toBe(0);
    expect(reset.out).toContain('2FA disabled for user "alice"');
    expect(await enrolled('alice')).toBe(false);
    expect((await cli(['admin', 'user', 'reset-2fa', '-u', 'alice'])).out).toContain('no two-factor authentication');
    expect((await cli(['admin', 'user', 'enable-2fa', '--username', 'nobody'])).code).not.toBe(0);
    expect((await cli(['admin', 'user', 'enable-2fa'])).code).toBe(1);
  });
});
