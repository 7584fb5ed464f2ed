/**
 * `repohost admin auth …` with Gitea's verbs and flags: add-ldap / add-ldap-simple (required flags, security
 * protocol names, filters checked when saved), update-ldap / update-ldap-simple (only what is given changes; the
 * other type is refused), list (Gitea's columns), delete (refused while accounts use the source). Against a real
 * slapd: a simple-auth source signs accounts in through the library and creates them on first sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '@repohost/core';
import { SLAPD_MISSING, slapdPath, startSlapd, type TestDirectory } from '@repohost/test-support';
import { useCliWorkspace } from './cli-workspace';


const hasSlapd = slapdPath() !== undefined;
if (!hasSlapd) console.warn(SLAPD_MISSING);

const BIND_DN_FLAGS = [
  '--name', 'corp',
  '--security-protocol', 'Unencrypted',
  '--host', '127.0.0.1',
  '--port', '389',
  '--user-search-base', 'ou=people,dc=example,dc=org',
  '--user-filter', '(uid=%s)',
  '--email-attribute', 'mail',
];

describe('repohost admin auth', () => {
  const ws = useCliWorkspace('repohost-cli-auth-');
  const cli = ws.cli;

  const withHost = ws.withHost;

  it('prints its help; an unknown verb is an error', async () => {
    const help = await cli(['admin', 'auth']);
    expect(help.code).toBe(1);
    expect(help.out).toContain('add-ldap-simple');
    const unknown = await cli(['admin', 'auth', 'add-smtp']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('unknown command "admin auth add-smtp"');
  });

  it('add-ldap: saves the source (active, bind password hidden), list shows it as Gitea lays it out', async () => {
    const added = await cli(['admin', 'auth', 'add-ldap', ...BIND_DN_FLAGS, '--bind-dn', 'cn=reader,dc=example,dc=org', '--bind-password', 'reader-secret', '--admin-filter', '(employeeType=admin)', '--synchronize-users', '--page-size', '50']);
    expect(added.err).toBe('');
    expect(added).toMatchObject({ code: 0, out: '' });
    const list = await cli(['admin', 'auth', 'list']);
    expect(list.code).toBe(0);
    expect(list.out).toBe('ID\tName\tType\t\t\tEnabled\n1\tcorp\tLDAP (via BindDN)\ttrue\n');

    const source = await withHost((host) => host.loginSources.get(SYSTEM, 1));
    expect(source).toMatchObject({ name: 'corp', type: 2, isActive: true, isSyncEnabled: true });
    expect(source.config).toMatchObject({ Host: '127.0.0.1', Port: 389, SecurityProtocol: 0, BindDN: 'cn=reader,dc=example,dc=org', AdminFilter: '(employeeType=admin)', SearchPageSize: 50, hasBindPassword: true });
    expect(JSON.stringify(source)).not.toContain('reader-secret');

    const again = await cli(['admin', 'auth', 'add-ldap', ...BIND_DN_FLAGS]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('login source already exists [name: corp]');
  });

  it('add-ldap and add-ldap-simple refuse missing flags, unknown protocols, bad numbers and filters', async () => {
    const without = (flag: string) => {
      const args = [...BIND_DN_FLAGS];
      args.splice(args.indexOf(flag), 2);
      return args;
    };
    for (const flag of ['--name', '--security-protocol', '--host', '--port', '--user-search-base', '--user-filter', '--email-attribute']) {
      const run = await cli(['admin', 'auth', 'add-ldap', ...without(flag)]);
      expect(run.code, flag).toBe(1);
      expect(run.err).toContain(`${flag.slice(2)} is not set`);
    }
    const blank = await cli(['admin', 'auth', 'add-ldap', ...BIND_DN_FLAGS.map((v) => (v === 'corp' ? ' ' : v))]);
    expect(blank.err).toContain('name is required');
    const simpleWithoutDn = await cli(['admin', 'auth', 'add-ldap-simple', ...without('--user-search-base')]);
    expect(simpleWithoutDn.err).toContain('user-dn is not set');

    const protocol = await cli(['admin', 'auth', 'add-ldap', ...BIND_DN_FLAGS.map((v) => (v === 'Unencrypted' ? 'SSL' : v))]);
    expect(protocol.code).toBe(1);
    expect(protocol.err).toContain('Unknown security protocol name: SSL');
    const port = await cli(['admin', 'auth', 'add-ldap', ...BIND_DN_FLAGS.map((v) => (v === '389' ? 'ldap' : v))]);
    expect(port.code).toBe(1);
    expect(port.err).toContain('--port');
    const range = await cli(['admin', 'auth', 'add-ldap', ...BIND_DN_FLAGS.map((v) => (v === '389' ? '70000' : v))]);
    expect(range.err).toContain('[port]: must be between 1 and 65535');
    const filter = await cli(['admin', 'auth', 'add-ldap', ...BIND_DN_FLAGS, '--admin-filter', '(employeeType=admin']);
    expect(filter.code).toBe(1);
    expect(filter.err).toContain('[admin_filter]: is not a valid LDAP filter');
    const dn = await cli(['admin', 'auth', 'add-ldap-simple', ...without('--user-search-base'), '--user-dn', 'uid=alice,dc=example,dc=org']);
    expect(dn.err).toContain('[user_dn]: must contain %s');
    const unknownFlag = await cli(['admin', 'auth', 'add-ldap-simple', ...BIND_DN_FLAGS, '--user-dn', 'uid=%s,dc=example,dc=org', '--bind-dn', 'cn=x']);
    expect(unknownFlag.code).toBe(1);
    expect(unknownFlag.err).toContain('bind-dn');
    expect((await cli(['admin', 'auth', 'list'])).out).toBe('ID\tName\tType\tEnabled\n');
  });

  it('update-ldap changes only what is given; the other type and unknown ids are refused', async () => {
    expect((await cli(['admin', 'auth', 'add-ldap', ...BIND_DN_FLAGS])).code).toBe(0);
    const simpleArgs = [...BIND_DN_FLAGS.map((v) => (v === 'corp' ? 'simple' : v)), '--user-dn', 'uid=%s,ou=people,dc=example,dc=org'];
    expect((await cli(['admin', 'auth', 'add-ldap-simple', ...simpleArgs])).code).toBe(0);

    const updated = await cli(['admin', 'auth', 'update-ldap', '--id', '1', '--host', 'ldap.example.org', '--security-protocol', 'starttls', '--not-active', '--skip-tls-verify']);
    expect(updated.err).toBe('');
    expect(updated.code).toBe(0);
    const source = await withHost((host) => host.loginSources.get(SYSTEM, 1));
    expect(source).toMatchObject({ name: 'corp', isActive: false });
    expect(source.config).toMatchObject({ Host: 'ldap.example.org', Port: 389, SecurityProtocol: 2, SkipVerify: true, Filter: '(uid=%s)', AttributeMail: 'mail' });

    const noId = await cli(['admin', 'auth', 'update-ldap', '--host', 'x']);
    expect(noId.err).toContain('id is not set');
    const missing = await cli(['admin', 'auth', 'update-ldap', '--id', '99', '--host', 'x']);
    expect(missing.err).toContain('login source does not exist [id: 99]');
    const wrongType = await cli(['admin', 'auth', 'update-ldap', '--id', '2', '--host', 'x']);
    expect(wrongType.code).toBe(1);
    expect(wrongType.err).toContain('Invalid authentication type. expected: LDAP (via BindDN), actual: LDAP (simple auth)');
    const clash = await cli(['admin', 'auth', 'update-ldap-simple', '--id', '2', '--name', 'corp']);
    expect(clash.err).toContain('login source already exists [name: corp]');
    expect((await cli(['admin', 'auth', 'update-ldap-simple', '--id', '2', '--user-dn', 'cn=%s,dc=example,dc=org'])).code).toBe(0);
    expect((await withHost((host) => host.loginSources.get(SYSTEM, 2))).config.UserDN).toBe('cn=%s,dc=example,dc=org');
    expect((await cli(['admin', 'auth', 'list'])).out).toBe('ID\tName\tType\t\t\tEnabled\n1\tcorp\tLDAP (via BindDN)\tfalse\n2\tsimple\tLDAP (simple auth)\ttrue\n');
  });

  it('delete: refused while an account uses the source, then removes it', async () => {
    expect((await cli(['admin', 'auth', 'add-ldap', ...BIND_DN_FLAGS])).code).toBe(0);
    await withHost((host) => host.userAdmin.create(SYSTEM, { username: 'alice', email: 'alice@example.org', source_id: 1, login_name: 'alice' }));
    const refused = await cli(['admin', 'auth', 'delete', '--id', '1']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('login source is still used by some users [id: 1]');
    const password = await cli(['admin', 'user', 'change-password', '--username', 'alice', '--password', 'local-password-1']);
    expect(password.code).toBe(1);
    expect(password.err).toContain('external login source');
    expect((await cli(['admin', 'user', 'delete', '--username', 'alice'])).code).toBe(0);
    const deleted = await cli(['admin', 'auth', 'delete', '--id', '1']);
    expect(deleted.err).toBe('');
    expect(deleted.code).toBe(0);
    expect((await cli(['admin', 'auth', 'list'])).out).toBe('ID\tName\tType\tEnabled\n');
    expect((await cli(['admin', 'auth', 'delete', '--id', '1'])).err).toContain('login source does not exist [id: 1]');
    expect((await cli(['admin', 'auth', 'delete'])).err).toContain('id is not set');
  });

  describe.skipIf(!hasSlapd)('with slapd', () => {
    let directory: TestDirectory;
    beforeAll(async () => {
      directory = await startSlapd();
      await directory.add(
        [
          `dn: ou=people,${directory.baseDn}\nobjectClass: organizationalUnit\nou: people\n`,
          `dn: uid=alice,ou=people,${directory.baseDn}\nobjectClass: inetOrgPerson\nuid: alice\ncn: Alice Doe\ngivenName: Alice\nsn: Doe\nmail: alice@directory.example\nuserPassword: alice-pass\n`,
          `dn: uid=mallory,ou=people,${directory.baseDn}\nobjectClass: inetOrgPerson\nuid: mallory\ncn: Mallory\nsn: M\nmail: mallory@directory.example\nemployeeType: banned\nuserPassword: mallory-pass\n`,
        ].join('\n'),
      );
    }, 30_000);
    afterAll(async () => directory?.stop());

    it('add-ldap-simple: binds with the DN template, creates the account on first sign-in, keeps the filter', async () => {
      const added = await cli([
        'admin', 'auth', 'add-ldap-simple',
        '--name', 'simple',
        '--security-protocol', 'unencrypted',
        '--host', directory.host,
        '--port', String(directory.port),
        '--user-dn', `uid=%s,ou=people,${directory.baseDn}`,
        '--user-filter', '(&(objectClass=inetOrgPerson)(uid=%s)(!(employeeType=banned)))',
        '--username-attribute', 'uid',
        '--firstname-attribute', 'givenName',
        '--surname-attribute', 'sn',
        '--email-attribute', 'mail',
      ]);
      expect(added.err).toBe('');
      expect(added.code).toBe(0);
      await withHost(async (host) => {
        expect(await host.users.authenticate('alice', 'wrong')).toBeNull();
        expect(await host.users.findByName('alice')).toBeUndefined();
        const alice = await host.users.authenticate('alice', 'alice-pass');
        expect(alice).toMatchObject({ name: 'alice', full_name: 'Alice Doe', email: 'alice@directory.example', login_source: 1, login_name: 'alice', passwd: '' });
        expect((await host.users.authenticate('alice', 'alice-pass'))?.id).toBe(alice!.id);
        // The right password, but the user filter leaves the entry out.
        expect(await host.users.authenticate('mallory', 'mallory-pass')).toBeNull();
        expect(await host.users.findByName('mallory')).toBeUndefined();
        // A name that would change the DN's meaning never reaches the directory.
        expect(await host.users.authenticate('alice,ou=people', 'alice-pass')).toBeNull();
      });
      const listed = await cli(['admin', 'user', 'list']);
      expect(listed.out).toMatch(/\nalice|\s+alice\s+/);
    });
  });
});
