/**
 * `sync_external_users` against a real OpenLDAP (a private slapd): accounts the directory lists are created,
 * changed entries update their accounts (name, address, admin and restricted filters), accounts it no longer lists
 * are deactivated, a source without synchronization is left alone, and an unreachable directory is skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM, type RepoHost } from '@repohost/core';
import { SLAPD_MISSING, createUser, openTestHost, slapdPath, startSlapd, type TestDirectory, type TestHost } from '@repohost/test-support';

const hasSlapd = slapdPath() !== undefined;
if (!hasSlapd) console.warn(SLAPD_MISSING);

function person(uid: string, base: string, extra: Record<string, string> = {}): string {
  return [
    `dn: uid=${uid},ou=people,${base}`,
    'objectClass: inetOrgPerson',
    `uid: ${uid}`,
    `cn: ${uid}`,
    `sn: ${extra.sn ?? 'Tester'}`,
    `givenName: ${extra.givenName ?? uid}`,
    ...(extra.noMail ? [] : [`mail: ${extra.mail ?? `${uid}@directory.example`}`]),
    'userPassword: secret-pass',
    ...(extra.employeeType ? [`employeeType: ${extra.employeeType}`] : []),
    '',
  ].join('\n');
}

describe.skipIf(!hasSlapd)('sync_external_users (slapd)', () => {
  let directory: TestDirectory;
  let t: TestHost;
  let host: RepoHost;
  let sourceId: number;

  async function sync(): Promise<{ last_error: string; last_message: string }> {
    await host.cron.run(SYSTEM, 'sync_external_users');
    await host.cron.idle();
    const state = (await host.cron.state('sync_external_users'))!;
    return { last_error: state.last_error, last_message: state.last_message };
  }

  beforeAll(async () => {
    directory = await startSlapd();
    await directory.add(
      [
        `dn: ou=people,${directory.baseDn}\nobjectClass: organizationalUnit\nou: people\n`,
        `dn: ou=service,${directory.baseDn}\nobjectClass: organizationalUnit\nou: service\n`,
        `dn: cn=reader,ou=service,${directory.baseDn}\nobjectClass: person\ncn: reader\nsn: reader\nuserPassword: reader-pass\n`,
        person('alice', directory.baseDn, { givenName: 'Alice', sn: 'Doe' }),
        person('bob', directory.baseDn, { employeeType: 'admin' }),
        person('carol', directory.baseDn, { employeeType: 'contractor' }),
        person('nomail', directory.baseDn, { noMail: 'yes' }),
      ].join('\n'),
    );
    t = await openTestHost();
    host = t.host;
    const source = await host.loginSources.createLdap(SYSTEM, 'bind_dn', {
      name: 'corp',
      synchronize_users: true,
      security_protocol: 'unencrypted',
      host: directory.host,
      port: directory.port,
      bind_dn: `cn=reader,ou=service,${directory.baseDn}`,
      bind_password: 'reader-pass',
      user_search_base: `ou=people,${directory.baseDn}`,
      user_filter: '(&(objectClass=inetOrgPerson)(uid=%s))',
      admin_filter: '(employeeType=admin)',
      restricted_filter: '(employeeType=contractor)',
      username_attribute: 'uid',
      firstname_attribute: 'givenName',
      surname_attribute: 'sn',
      email_attribute: 'mail',
    });
    sourceId = source.id;
  }, 60_000);

  afterAll(async () => {
    await t?.cleanup();
    await directory?.stop();
  });

  it('creates, updates and deactivates accounts to match the directory', async () => {
    // A local account of the same name as nobody in the directory is left alone.
    await createUser(host, 'local');
    // The last site administrator is never demoted: another one exists.
    await createUser(host, 'root', { admin: true });
    const first = await sync();
    expect(first.last_error).toBe('');
    expect(first.last_message).toBe('corp: created 4, updated 0, deactivated 0');
    const alice = (await host.users.findByName('alice'))!;
    expect(alice).toMatchObject({ login_source: sourceId, login_name: 'alice', full_name: 'Alice Doe', email: 'alice@directory.example', is_active: 1, is_admin: 0, passwd: '' });
    expect(await host.users.findByName('bob')).toMatchObject({ is_admin: 1, is_restricted: 0 });
    expect(await host.users.findByName('carol')).toMatchObject({ is_admin: 0, is_restricted: 1 });
    // No mail attribute: an address under localhost.local, as Forgejo makes.
    expect(await host.users.findByName('nomail')).toMatchObject({ email: 'nomail@localhost.local' });

    // The directory changes: alice's name and address, bob is no longer an admin, carol leaves.
    await directory.modify(
      [
        `dn: uid=alice,ou=people,${directory.baseDn}\nchangetype: modify\nreplace: sn\nsn: Smith\n-\nreplace: mail\nmail: alice.smith@directory.example\n`,
        `dn: uid=bob,ou=people,${directory.baseDn}\nchangetype: modify\ndelete: employeeType\n`,
        `dn: uid=carol,ou=people,${directory.baseDn}\nchangetype: delete\n`,
      ].join('\n'),
    );
    const second = await sync();
    expect(second.last_message).toBe('corp: created 0, updated 2, deactivated 1');
    expect(await host.users.findByName('alice')).toMatchObject({ full_name: 'Alice Smith', email: 'alice.smith@directory.example', is_active: 1 });
    expect(await host.users.findByName('bob')).toMatchObject({ is_admin: 0 });
    expect(await host.users.findByName('carol')).toMatchObject({ is_active: 0 });
    expect(await host.users.findByName('local')).toMatchObject({ is_active: 1, login_source: 0 });

    // Back in the directory: reactivated.
    await directory.add(person('carol', directory.baseDn, { employeeType: 'contractor' }));
    expect((await sync()).last_message).toBe('corp: created 0, updated 1, deactivated 0');
    expect(await host.users.findByName('carol')).toMatchObject({ is_active: 1, is_restricted: 1 });
    // Nothing changed: nothing to do.
    expect((await sync()).last_message).toBe('corp: created 0, updated 0, deactivated 0');
  });

  it('skips an unreachable directory, and sources without synchronization', async () => {
    const other = await openTestHost();
    try {
      await other.host.loginSources.createLdap(SYSTEM, 'bind_dn', {
        name: 'gone',
        synchronize_users: true,
        security_protocol: 'unencrypted',
        host: '127.0.0.1',
        port: 1,
        user_search_base: 'ou=people,dc=example,dc=org',
        user_filter: '(uid=%s)',
        username_attribute: 'uid',
        email_attribute: 'mail',
      });
      await other.host.loginSources.createLdap(SYSTEM, 'bind_dn', {
        name: 'manual',
        synchronize_users: false,
        security_protocol: 'unencrypted',
        host: directory.host,
        port: directory.port,
        user_search_base: `ou=people,${directory.baseDn}`,
        user_filter: '(uid=%s)',
        username_attribute: 'uid',
        email_attribute: 'mail',
      });
      await other.host.cron.run(SYSTEM, 'sync_external_users');
      await other.host.cron.idle();
      const state = (await other.host.cron.state('sync_external_users'))!;
      expect(state.last_error).toBe('');
      expect(state.last_message).toMatch(/^gone: skipped \(LDAP login source "gone" \(127\.0\.0\.1:1\)/);
      expect(await other.host.users.findByName('alice')).toBeUndefined();
    } finally {
      await other.cleanup();
    }
  });
});
