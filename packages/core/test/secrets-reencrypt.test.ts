/**
 * `host.secretsAtRest.reencrypt`: an installation that ran with the empty SECRET_KEY gets a key, and every secret it
 * stored (TOTP, LDAP bind password, webhook header, pull and push mirror credentials, migration credentials) moves
 * to it: read back equal under the new key, and no longer readable under the empty one.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { JobsStore } from '../src/jobs/store.js';
import { ActionsService, FederationService, RepoHost, RunnersService, SYSTEM, userActor, type Settings, type User } from '@repohost/core';
import { LoginSourcesStore } from '@repohost/core/internal';
import { createUser, openTestHost, totp, type TestHost } from '@repohost/test-support';
import { decryptHeader } from '../src/webhooks/secrets.js';
import { decryptRemoteCredentials } from '../src/remote/remote.js';
import { decryptSecret } from '../src/security/secrets.js';
import { BIND_PASSWORD_PURPOSE, parseConfig } from '../src/loginsources/service.js';

const step = () => Math.floor(Date.now() / 30_000);

/** The raw rows, to see what is stored (the services never hand out a bind password or a job's payload). */
function storeOf<T>(host: RepoHost, cls: new (...args: never[]) => T): T {
  return (host as unknown as { ctx: { store(c: new (...a: never[]) => T): T } }).ctx.store(cls);
}

/** A host on the same database and storage as `settings`, with `secretKey`. */
function reopen(settings: Settings, secretKey: string): Promise<RepoHost> {
  const copy = structuredClone(settings);
  copy.security.SECRET_KEY = secretKey;
  return RepoHost.open({ settings: copy, reconcile: false, noSecretKey: secretKey === '' ? 'allow-empty' : 'refuse' });
}

interface Seeded {
  alice: User;
  totpSecret: string;
  repoName: string;
  hookId: number;
  pushMirror: string;
  mirrorRepoId: number;
  jobId: number;
  sourceId: number;
  runnerToken: string;
}

/** What an installation without a key stored: one secret of each kind. */
async function seed(host: RepoHost): Promise<Seeded> {
  const alice = await createUser(host, 'alice', { admin: true });
  const actor = userActor(alice);
  const { secret } = await host.twoFactor.enrol(actor, alice);
  await host.twoFactor.confirm(actor, alice, totp(secret, step()));
  const access = await host.repos.create(actor, { name: 'demo', auto_init: true });
  const hook = await host.webhooks.create(actor, { kind: 'repo', access }, { type: 'gitea', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' }, authorization_header: 'Bearer hook-secret', active: true });
  const pushMirror = await host.pushMirrors.add(actor, access, { remote_address: 'http://127.0.0.1:9/target.git', remote_username: 'push-user', remote_password: 'push-secret', interval: '0' });
  await host.service(ActionsService).putSecret(actor, { kind: 'repo', access }, 'DEPLOY_TOKEN', { data: 'actions-secret' });
  const runnerToken = await host.service(RunnersService).registrationToken(actor, { kind: 'repo', access });
  // The instance actor's key pair, made on first need: its private key is stored encrypted.
  await host.service(FederationService).instanceActor();
  // A mirror migration that has not run yet (nothing serves): its job keeps the credentials; the mirror row is what
  // the job writes when it has cloned, written here the same way.
  const started = await host.migrations.start(actor, { clone_addr: 'http://127.0.0.1:9/remote.git', repo_name: 'mirrored', mirror: true, auth_username: 'pull-user', auth_password: 'pull-secret' });
  await (host as unknown as { ctx: { transaction<T>(w: (tx: never) => Promise<T>): Promise<T> } }).ctx.transaction((tx) =>
    host.mirrors.insertFor(tx, started.access.repo.id, { sanitized: 'http://127.0.0.1:9/remote.git', credentials: { username: 'pull-user', password: 'pull-secret' } }, 0),
  );
  const source = await host.loginSources.createLdap(SYSTEM, 'bind_dn', {
    name: 'directory',
    security_protocol: 'unencrypted',
    host: '127.0.0.1',
    port: 389,
    bind_dn: 'cn=reader,dc=example,dc=org',
    bind_password: 'bind-secret',
    user_search_base: 'ou=people,dc=example,dc=org',
    user_filter: '(uid=%s)',
    username_attribute: 'uid',
    email_attribute: 'mail',
  });
  return { alice, totpSecret: secret, repoName: access.repo.name, hookId: hook.id, pushMirror: pushMirror.remote_name, mirrorRepoId: started.access.repo.id, jobId: started.job.id, sourceId: source.id, runnerToken };
}

/** Every stored secret as `secretKey` reads it (undefined where it does not decrypt). */
async function readBack(host: RepoHost, s: Seeded, secretKey: string) {
  const actor = userActor(s.alice);
  const access = await host.repos.resolve(actor, 'alice', s.repoName);
  const hook = await host.webhooks.get(actor, { kind: 'repo', access }, s.hookId);
  const push = await host.pushMirrors.get(actor, access, s.pushMirror);
  const mirror = await host.mirrors.find(s.mirrorRepoId);
  const job = await storeOf(host, JobsStore).find(s.jobId);
  const source = await storeOf(host, LoginSourcesStore).byId(s.sourceId);
  return {
    hook: decryptHeader(secretKey, hook.header_authorization_encrypted),
    push: decryptRemoteCredentials(secretKey, push.credentials),
    mirror: decryptRemoteCredentials(secretKey, mirror!.remote_credentials),
    migration: decryptRemoteCredentials(secretKey, (JSON.parse(job!.payload) as { credentials: string }).credentials),
    bind: decryptSecret(secretKey, BIND_PASSWORD_PURPOSE, parseConfig(source!).BindPasswordEncrypted),
  };
}

const ORIGINAL = {
  hook: 'Bearer hook-secret',
  push: { username: 'push-user', password: 'push-secret' },
  mirror: { username: 'pull-user', password: 'pull-secret' },
  migration: { username: 'pull-user', password: 'pull-secret' },
  bind: 'bind-secret',
};
const UNREADABLE = { hook: undefined, push: undefined, mirror: undefined, migration: undefined, bind: undefined };

describe('re-encrypting stored secrets', () => {
  let t: TestHost;
  const hosts: RepoHost[] = [];
  const newKey = `new-${randomBytes(16).toString('hex')}`;

  beforeEach(async () => {
    // An installation from before keys were required: the empty key, explicitly allowed.
    t = await openTestHost(
      { database: { PATH: 'rekey.db' }, security: { SECRET_KEY: '' }, migrations: { ALLOW_LOCALNETWORKS: true }, webhook: { ALLOWED_HOST_LIST: 'loopback' }, federation: { ENABLED: true } },
      { noSecretKey: 'allow-empty' },
    );
  });
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close();
    await t?.cleanup();
  });

  test('moves every kind from the empty key to the new one, in one run; a second run finds them current', async () => {
    const seeded = await seed(t.host);
    expect(await readBack(t.host, seeded, '')).toEqual(ORIGINAL);
    await t.host.close();

    const host = await reopen(t.host.settings, newKey);
    hosts.push(host);
    // Under the new key and before the move, nothing reads: the values are still the empty key's.
    expect(await readBack(host, seeded, newKey)).toEqual(UNREADABLE);

    const dry = await host.secretsAtRest.reencrypt({ oldKey: '', dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(await readBack(host, seeded, '')).toEqual(ORIGINAL);

    const report = await host.secretsAtRest.reencrypt({ oldKey: '' });
    expect(report.kinds).toEqual([
      { kind: 'webhook authorization headers', moved: 1, current: 0, failed: [] },
      { kind: 'push mirror credentials', moved: 1, current: 0, failed: [] },
      { kind: 'actions secrets', moved: 1, current: 0, failed: [] },
      { kind: 'runner registration tokens', moved: 1, current: 0, failed: [] },
      { kind: 'federation private keys', moved: 1, current: 0, failed: [] },
      { kind: 'pull mirror credentials', moved: 1, current: 0, failed: [] },
      { kind: 'migration credentials', moved: 1, current: 0, failed: [] },
      { kind: 'LDAP bind passwords', moved: 1, current: 0, failed: [] },
      { kind: 'two-factor secrets', moved: 1, current: 0, failed: [] },
    ]);
    expect(dry.kinds).toEqual(report.kinds);
    expect(await readBack(host, seeded, newKey)).toEqual(ORIGINAL);
    expect(await readBack(host, seeded, '')).toEqual(UNREADABLE);
    // The runner registration token reads back the same under the new key (and is not replaced by a new one).
    const access = await host.repos.resolve(userActor(seeded.alice), 'alice', seeded.repoName);
    expect(await host.service(RunnersService).registrationToken(userActor(seeded.alice), { kind: 'repo', access })).toBe(seeded.runnerToken);

    // The TOTP secret, read by the service: a host still on the empty key no longer accepts codes, this one does.
    const stale = await reopen(t.host.settings, '');
    hosts.push(stale);
    expect(await stale.twoFactor.verifyTotp(seeded.alice, totp(seeded.totpSecret, step() + 1))).toBe(false);
    expect(await host.twoFactor.verifyTotp(seeded.alice, totp(seeded.totpSecret, step() + 1))).toBe(true);

    const again = await host.secretsAtRest.reencrypt({ oldKey: '' });
    expect(again.kinds.map((k) => [k.moved, k.current, k.failed.length])).toEqual(Array(9).fill([0, 1, 0]));
  });

  test('names the values under neither key and leaves them; refuses a move to the same key or to none', async () => {
    const seeded = await seed(t.host);
    await t.host.close();
    // A hook written by a host with yet another key: neither the old nor the new one reads it.
    const other = await reopen(t.host.settings, 'some-other-key');
    hosts.push(other);
    const access = await other.repos.resolve(userActor(seeded.alice), 'alice', seeded.repoName);
    const foreign = await other.webhooks.create(userActor(seeded.alice), { kind: 'repo', access }, { type: 'gitea', config: { url: 'http://127.0.0.1:9/other', content_type: 'json' }, authorization_header: 'Bearer other', active: true });
    const before = (await other.webhooks.get(userActor(seeded.alice), { kind: 'repo', access }, foreign.id)).header_authorization_encrypted;

    const host = await reopen(t.host.settings, newKey);
    hosts.push(host);
    const report = await host.secretsAtRest.reencrypt({ oldKey: '' });
    const hooks = report.kinds.find((k) => k.kind === 'webhook authorization headers');
    expect(hooks).toEqual({ kind: 'webhook authorization headers', moved: 1, current: 0, failed: [`authorization header of webhook ${foreign.id}`] });
    expect((await host.webhooks.get(userActor(seeded.alice), { kind: 'repo', access }, foreign.id)).header_authorization_encrypted).toBe(before);
    expect(decryptHeader('some-other-key', before)).toBe('Bearer other');

    await expect(host.secretsAtRest.reencrypt({ oldKey: newKey })).rejects.toThrow(/current SECRET_KEY/);
    const empty = await reopen(t.host.settings, '');
    hosts.push(empty);
    await expect(empty.secretsAtRest.reencrypt({ oldKey: 'anything' })).rejects.toThrow(/SECRET_KEY.*empty/);
  });
});
