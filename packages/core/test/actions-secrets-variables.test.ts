/**
 * The actions domain below the API: what a secret is stored as (never its text, and only this purpose's key reads
 * it), the checks the service makes again for embedders, Forgejo's name rules where Go's case folding is odd, the
 * rows that go with a deleted repository, organization or account (read from the tables), and the move of secrets
 * to a new SECRET_KEY (`repohost admin regenerate secrets`).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ActionsService, AccessMode, ANONYMOUS, BadRequestError, ConflictError, ForbiddenError, NotFoundError, RepoHost, SYSTEM, UnauthorizedError, ValidationError, userActor, type Settings, type User } from '@repohost/core';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';
import { ActionsStore, type ActionsScope } from '../src/actions/store.js';
import { SECRET_PURPOSE } from '../src/actions/service.js';
import { assertSecretName, assertVariableName, isValidName, lookupName, storedName } from '../src/actions/names.js';
import { decryptSecret } from '../src/security/secrets.js';

/** The rows as stored (the service never hands a secret's value out). */
function storeOf(host: RepoHost): ActionsStore {
  return (host as unknown as { ctx: { store(c: typeof ActionsStore): ActionsStore } }).ctx.store(ActionsStore);
}

async function rowsOf(host: RepoHost, scope: ActionsScope) {
  const store = storeOf(host);
  const page = { page: 1, limit: 50 };
  return { secrets: (await store.secrets(scope, page)).items.map((x) => x.name), variables: (await store.variables(scope, page)).items.map((x) => x.name) };
}

describe('actions secrets and variables in core', () => {
  let t: TestHost;
  let alice: User;
  let actions: ActionsService;

  beforeEach(async () => {
    t = await openTestHost();
    alice = await createUser(t.host, 'alice');
    actions = t.host.service(ActionsService);
  });
  afterEach(async () => {
    await t?.cleanup();
  });

  test('a secret is stored encrypted under its own purpose, line endings made LF; an update writes a new ciphertext', async () => {
    const access = await t.host.repos.create(userActor(alice), { name: 'demo' });
    const owner = { kind: 'repo' as const, access };
    expect(await actions.putSecret(userActor(alice), owner, 'deploy', { data: 'plain-text-value\r\nsecond line' })).toEqual({ created: true });
    const scope = { ownerId: 0, repoId: access.repo.id };
    const row = (await storeOf(t.host).findSecret(scope, 'DEPLOY'))!;
    expect(row).toMatchObject({ owner_id: 0, repo_id: access.repo.id, name: 'DEPLOY' });
    expect(row.data).not.toContain('plain-text-value');
    expect(Buffer.from(row.data, 'base64').toString('latin1')).not.toContain('plain-text-value');
    const key = t.host.settings.security.SECRET_KEY;
    expect(decryptSecret(key, SECRET_PURPOSE, row.data)).toBe('plain-text-value\nsecond line');
    // Another purpose's key, or another SECRET_KEY, reads nothing.
    expect(decryptSecret(key, 'two-factor totp secret', row.data)).toBeUndefined();
    expect(decryptSecret(`${key}x`, SECRET_PURPOSE, row.data)).toBeUndefined();

    expect(await actions.putSecret(userActor(alice), owner, 'DEPLOY', { data: 'plain-text-value' })).toEqual({ created: false });
    const updated = (await storeOf(t.host).findSecret(scope, 'DEPLOY'))!;
    expect(updated.id).toBe(row.id);
    expect(updated.data).not.toBe(row.data);
    expect(decryptSecret(key, SECRET_PURPOSE, updated.data)).toBe('plain-text-value');
    // What the service lists carries no value at all.
    const listed = await actions.listSecrets(userActor(alice), owner, { page: 1, limit: 10 });
    expect(listed).toEqual({ total: 1, items: [{ id: row.id, name: 'DEPLOY', created_unix: row.created_unix }] });
  });

  test('the service checks the caller again (embedders): owners of a repository, the account itself, organization owners', async () => {
    const bob = await createUser(t.host, 'bob');
    const access = await t.host.repos.create(userActor(alice), { name: 'demo' });
    // A repository administrator who is no owner, as Forgejo's reqOwner refuses one.
    const asAdmin = { kind: 'repo' as const, access: { ...access, mode: AccessMode.Admin } };
    await expect(actions.listVariables(userActor(bob), asAdmin, { page: 1, limit: 10 })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(actions.createVariable(ANONYMOUS, { kind: 'repo', access }, 'X', { value: 'v' })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(actions.putSecret(userActor(bob), { kind: 'user', user: alice }, 'X', { data: 'v' })).rejects.toBeInstanceOf(ForbiddenError);
    // The system may do anything; input from an embedder is checked as the router checks it.
    await actions.createVariable(SYSTEM, { kind: 'user', user: alice }, 'from_system', { value: 'v' });
    await expect(actions.createVariable(SYSTEM, { kind: 'user', user: alice }, 'EMPTY', { value: '' })).rejects.toBeInstanceOf(ValidationError);
    await expect(actions.createVariable(SYSTEM, { kind: 'user', user: alice }, 'from_system', { value: 'v' })).rejects.toBeInstanceOf(ConflictError);
    expect((await actions.getVariable(userActor(alice), { kind: 'user', user: alice }, 'From_System')).name).toBe('FROM_SYSTEM');

    const org = await t.host.orgs.create(userActor(alice), alice, { username: 'acme' });
    await expect(actions.listSecrets(userActor(bob), { kind: 'org', org }, { page: 1, limit: 10 })).rejects.toBeInstanceOf(ForbiddenError);
    await actions.putSecret(userActor(alice), { kind: 'org', org }, 'ORG_SECRET', { data: 'v' });
    expect(await rowsOf(t.host, { ownerId: org.id, repoId: 0 })).toEqual({ secrets: ['ORG_SECRET'], variables: [] });

    // With the Actions unit off, the repository's secrets are not found, whoever asks.
    const off = { kind: 'repo' as const, access: { ...access, repo: { ...access.repo, units: JSON.stringify({ code: {} }) } } };
    await expect(actions.listSecrets(SYSTEM, off, { page: 1, limit: 10 })).rejects.toBeInstanceOf(NotFoundError);
  });

  test("a deleted repository's, organization's or account's rows go with it; nobody else's do", async () => {
    const bob = await createUser(t.host, 'bob');
    const kept = await t.host.repos.create(userActor(alice), { name: 'kept' });
    const gone = await t.host.repos.create(userActor(alice), { name: 'gone' });
    const org = await t.host.orgs.create(userActor(alice), alice, { username: 'acme' });
    const keptScope = { ownerId: 0, repoId: kept.repo.id };
    const goneScope = { ownerId: 0, repoId: gone.repo.id };
    for (const owner of [{ kind: 'repo' as const, access: kept }, { kind: 'repo' as const, access: gone }, { kind: 'org' as const, org }, { kind: 'user' as const, user: alice }]) {
      await actions.putSecret(SYSTEM, owner, 'S', { data: 'v' });
      await actions.createVariable(SYSTEM, owner, 'V', { value: 'v' });
    }
    await actions.putSecret(SYSTEM, { kind: 'user', user: bob }, 'S', { data: 'v' });
    await actions.createVariable(SYSTEM, { kind: 'user', user: bob }, 'V', { value: 'v' });
    const both = { secrets: ['S'], variables: ['V'] };
    const none = { secrets: [], variables: [] };

    await t.host.repos.delete(userActor(alice), gone);
    expect(await rowsOf(t.host, goneScope)).toEqual(none);
    expect(await rowsOf(t.host, keptScope)).toEqual(both);
    expect(await rowsOf(t.host, { ownerId: alice.id, repoId: 0 })).toEqual(both);

    await t.host.orgLifecycle.delete(userActor(alice), org);
    expect(await rowsOf(t.host, { ownerId: org.id, repoId: 0 })).toEqual(none);
    expect(await rowsOf(t.host, { ownerId: alice.id, repoId: 0 })).toEqual(both);

    await t.host.accounts.deleteUser(SYSTEM, bob);
    expect(await rowsOf(t.host, { ownerId: bob.id, repoId: 0 })).toEqual(none);
    // Purging an account takes its repositories' rows too.
    await t.host.accounts.deleteUser(SYSTEM, alice, { purge: true });
    expect(await rowsOf(t.host, { ownerId: alice.id, repoId: 0 })).toEqual(none);
    expect(await rowsOf(t.host, keptScope)).toEqual(none);
  });
});

describe("Forgejo's names, as Go reads them", () => {
  test('letters, digits and _; no leading digit; no FORGEJO_, GITEA_ or GITHUB_ prefix, in any case', () => {
    // Forgejo's own table (services/secrets/validation_test.go), in both cases.
    const cases: [string, boolean][] = [
      ['FORGEJO_', false], ['FORGEJO_123', false], ['FORGEJO_ABC', false], ['GITEA_', false], ['GITEA_123', false], ['GITEA_ABC', false],
      ['GITHUB_', false], ['GITHUB_123', false], ['GITHUB_ABC', false], ['123_TEST', false],
      ['CI', true], ['_CI', true], ['CI_', true], ['CI123', true], ['CIABC', true], ['FORGEJO', true], ['FORGEJO123', true],
      ['FORGEJOABC', true], ['GITEA', true], ['GITEA123', true], ['GITEAABC', true], ['GITHUB', true], ['GITHUB123', true],
      ['GITHUBABC', true], ['_123_TEST', true],
    ];
    for (const [name, valid] of cases) {
      expect(isValidName(name), name).toBe(valid);
      expect(isValidName(name.toLowerCase()), name.toLowerCase()).toBe(valid);
    }
    for (const name of ['', 'A-B', 'A B', 'É', 'claß', 'ıd', 'a\0b', 'x'.repeat(256)]) expect(isValidName(name), name).toBe(false);
    expect(isValidName('x'.repeat(255))).toBe(true);
    expect(() => assertSecretName('1a')).toThrow(BadRequestError);
    expect(() => assertSecretName('1a')).toThrow('invalid secret name');
    expect(() => assertVariableName('cI')).toThrow('env name cannot be ci');
    expect(() => assertVariableName('CI_1')).not.toThrow();
  });

  test("Go's (?i) folds ſ and K (Kelvin) into the letters, and strings.ToUpper maps one character to one", () => {
    // Checked against Go 1.26: regexp `(?i)^[A-Z_][A-Z0-9_]*$` and strings.ToUpper.
    expect(isValidName('ſecret')).toBe(true);
    expect(storedName('ſecret')).toBe('SECRET');
    expect(isValidName('\u212Aey')).toBe(true);
    expect(storedName('\u212Aey')).toBe('\u212AEY');
    expect(storedName('claß')).toBe('CLAß');
    expect(storedName('ıd')).toBe('ID');
    // A lookup finds what Go's upper-casing finds, and asks nothing for what no stored name can be.
    expect(lookupName('ıd')).toBe('ID');
    expect(lookupName('my_var')).toBe('MY_VAR');
    expect(lookupName('claß')).toBeUndefined();
    expect(lookupName('a\0b')).toBeUndefined();
    expect(lookupName('x'.repeat(256))).toBeUndefined();
  });
});

describe('re-encrypting actions secrets', () => {
  let t: TestHost;
  const hosts: RepoHost[] = [];
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close();
    await t?.cleanup();
  });

  function reopen(settings: Settings, secretKey: string): Promise<RepoHost> {
    const copy = structuredClone(settings);
    copy.security.SECRET_KEY = secretKey;
    return RepoHost.open({ settings: copy, reconcile: false });
  }

  test('moves every secret to the new key; a second run finds them current; values under neither key are named', async () => {
    t = await openTestHost({ database: { PATH: 'actions-rekey.db' } });
    const oldKey = t.host.settings.security.SECRET_KEY;
    const alice = await createUser(t.host, 'alice');
    const access = await t.host.repos.create(userActor(alice), { name: 'demo' });
    const service = t.host.service(ActionsService);
    await service.putSecret(userActor(alice), { kind: 'repo', access }, 'REPO_SECRET', { data: 'repo value' });
    await service.putSecret(userActor(alice), { kind: 'user', user: alice }, 'USER_SECRET', { data: 'user value' });
    await t.host.close();

    const newKey = `new-${randomBytes(16).toString('hex')}`;
    const host = await reopen(t.host.settings, newKey);
    hosts.push(host);
    const report = await host.secretsAtRest.reencrypt({ oldKey });
    expect(report.kinds.find((k) => k.kind === 'actions secrets')).toEqual({ kind: 'actions secrets', moved: 2, current: 0, failed: [] });
    const store = storeOf(host);
    const repoRow = (await store.findSecret({ ownerId: 0, repoId: access.repo.id }, 'REPO_SECRET'))!;
    const userRow = (await store.findSecret({ ownerId: alice.id, repoId: 0 }, 'USER_SECRET'))!;
    expect(decryptSecret(newKey, SECRET_PURPOSE, repoRow.data)).toBe('repo value');
    expect(decryptSecret(newKey, SECRET_PURPOSE, userRow.data)).toBe('user value');
    expect(decryptSecret(oldKey, SECRET_PURPOSE, repoRow.data)).toBeUndefined();

    const again = await host.secretsAtRest.reencrypt({ oldKey });
    expect(again.kinds.find((k) => k.kind === 'actions secrets')).toEqual({ kind: 'actions secrets', moved: 0, current: 2, failed: [] });

    // A value written under a third key is left as it is, and named.
    await store.setSecretData(userRow.id, (await reopenAndEncrypt(t.host.settings, 'third-key', alice)));
    const third = await host.secretsAtRest.reencrypt({ oldKey });
    expect(third.kinds.find((k) => k.kind === 'actions secrets')).toEqual({ kind: 'actions secrets', moved: 0, current: 1, failed: [`actions secret ${userRow.id}`] });
  });

  /** A ciphertext of `value` under `key`, as a host with that key stores it (read back from its row). */
  async function reopenAndEncrypt(settings: Settings, key: string, alice: User): Promise<string> {
    const other = await reopen(settings, key);
    hosts.push(other);
    await other.service(ActionsService).putSecret(userActor(alice), { kind: 'user', user: alice }, 'THIRD', { data: 'third value' });
    const row = (await storeOf(other).findSecret({ ownerId: alice.id, repoId: 0 }, 'THIRD'))!;
    await storeOf(other).deleteSecret({ ownerId: alice.id, repoId: 0 }, 'THIRD');
    return row.data;
  }
});
