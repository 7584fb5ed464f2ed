/**
 * LDAP login sources over TLS, against a slapd with a self-signed certificate: StartTLS and LDAPS sign in when
 * the source skips certificate verification, and answer 503 (the directory cannot be asked safely) when it verifies
 * and the certificate is not trusted.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SYSTEM, type LdapSourceOption } from '@repohost/core';
import { SLAPD_MISSING, basic, slapdPath, startSlapd, startTestServer, type TestDirectory, type TestServer } from '@repohost/test-support';
import { expectApiError, uniq } from './helpers';

const hasSlapd = slapdPath() !== undefined;
if (!hasSlapd) console.warn(SLAPD_MISSING);

describe.skipIf(!hasSlapd)('LDAP login source over TLS (slapd)', () => {
  let directory: TestDirectory;
  let s: TestServer;

  beforeAll(async () => {
    directory = await startSlapd({ tls: true });
    await directory.add(
      [
        `dn: ou=people,${directory.baseDn}\nobjectClass: organizationalUnit\nou: people\n`,
        `dn: uid=tina,ou=people,${directory.baseDn}\nobjectClass: inetOrgPerson\nuid: tina\ncn: Tina\nsn: T\nmail: tina@directory.example\nuserPassword: tina-pass\n`,
      ].join('\n'),
    );
    s = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await s?.cleanup();
    await directory?.stop();
  });

  /** A source with these TLS settings and an account bound to it; the account's name. */
  async function accountOn(option: LdapSourceOption): Promise<string> {
    const source = await s.host.loginSources.createLdap(SYSTEM, 'bind_dn', {
      name: uniq('tls'),
      host: '127.0.0.1',
      user_search_base: `ou=people,${directory.baseDn}`,
      user_filter: '(uid=%s)',
      email_attribute: 'mail',
      ...option,
    });
    const name = uniq('tina');
    await s.host.userAdmin.create(SYSTEM, { username: name, email: `${name}@corp.example`, source_id: source.id, login_name: 'tina' });
    return name;
  }

  const me = (login: string, password: string) => s.fetch('/api/v1/user', { headers: { Authorization: basic(login, password) } });

  test('StartTLS signs in when verification is skipped; an untrusted certificate is 503', async () => {
    const skipping = await accountOn({ security_protocol: 'StartTLS', port: directory.port, skip_tls_verify: true });
    expect((await me(skipping, 'tina-pass')).status).toBe(200);
    await expectApiError(await me(skipping, 'wrong'), 401, s.url);

    const verifying = await accountOn({ security_protocol: 'starttls', port: directory.port });
    expect(await expectApiError(await me(verifying, 'tina-pass'), 503, s.url)).toContain('StartTLS failed');
  });

  test('LDAPS signs in when verification is skipped; an untrusted certificate is 503', async () => {
    const skipping = await accountOn({ security_protocol: 'LDAPS', port: directory.ldapsPort, skip_tls_verify: true });
    expect((await me(skipping, 'tina-pass')).status).toBe(200);

    const verifying = await accountOn({ security_protocol: 'LDAPS', port: directory.ldapsPort });
    const message = await expectApiError(await me(verifying, 'tina-pass'), 503, s.url);
    expect(message).toMatch(/certificate/i);
  });
});
