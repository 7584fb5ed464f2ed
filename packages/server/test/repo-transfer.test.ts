/**
 * Repository transfers over HTTP, as Forgejo does them: a site administrator (or a transfer to oneself) moves the
 * repository at once (202), an owner offers it to another user (201, `repo_transfer` shown) who accepts (202) or
 * rejects (200) it; the git storage moves with the owner. Unhappy paths: unknown recipients, name clashes,
 * teams for users, a transfer already pending, callers who may not.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RepositorySchema, SYSTEM, matchesSchema, schemaErrors, type AnyDomainEvent } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

function expectRepository(body: unknown): void {
  expect(matchesSchema(RepositorySchema, body), schemaErrors(RepositorySchema, body).join('\n')).toBe(true);
}

interface Account {
  name: string;
  h: Record<string, string>;
}

async function account(s: TestServer, prefix = 't', options: { admin?: boolean; visibility?: 'public' | 'limited' | 'private' } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name, options);
  return { name, h: tokenHeader(await createToken(s.host, name)) };
}

async function createRepo(s: TestServer, who: Account, body: Record<string, unknown>): Promise<any> {
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', body, who.h));
  expect(res.status).toBe(201);
  return json(res);
}

function post(s: TestServer, who: Account | undefined, path: string, body?: unknown): Promise<Response> {
  return s.fetch(`/api/v1/repos/${path}`, body === undefined ? { method: 'POST', headers: who?.h } : jsonInit('POST', body, who?.h));
}

const storageKey = (owner: string, name: string) => ({ owner: owner.toLowerCase(), name: name.toLowerCase() });
const repoCount = async (s: TestServer, name: string) => (await userNamed(s.host, name)).num_repos;

describe('repository transfers', () => {
  let s: TestServer;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let admin: Account;
  const events: AnyDomainEvent[] = [];
  beforeAll(async () => {
    s = await startTestServer();
    alice = await account(s, 'alice');
    bob = await account(s, 'bob');
    carol = await account(s, 'carol');
    admin = await account(s, 'admin', { admin: true });
    s.host.events.on('*', (e) => {
      events.push(e);
    });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('a site administrator moves a repository at once: 202, new owner, storage moved, counts follow', async () => {
    const created = await createRepo(s, alice, { name: 'moved', auto_init: true });
    const [aliceBefore, bobBefore] = [await repoCount(s, alice.name), await repoCount(s, bob.name)];
    const res = await post(s, admin, `${alice.name}/moved/transfer`, { new_owner: bob.name.toUpperCase() });
    expect(res.status).toBe(202);
    const repo = await json(res);
    expectRepository(repo);
    expect(repo).toMatchObject({ id: created.id, full_name: `${bob.name}/moved`, repo_transfer: null, empty: false, permissions: { admin: true, push: true, pull: true } });
    expect(repo.owner.login).toBe(bob.name);
    expect(await s.host.git.exists(storageKey(alice.name, 'moved'))).toBe(false);
    expect(await s.host.git.exists(storageKey(bob.name, 'moved'))).toBe(true);
    expect((await s.host.git.readRefs(storageKey(bob.name, 'moved'), ['refs/heads/main'])).has('refs/heads/main')).toBe(true);
    // The old owner's path redirects to the new one (Forgejo's repo_redirect); the repository is public.
    const old = await s.fetch(`/api/v1/repos/${alice.name}/moved`, { headers: alice.h, redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(`/api/v1/repos/${bob.name}/moved`);
    const got = await json(await s.fetch(`/api/v1/repos/${bob.name}/moved`, { headers: bob.h }));
    expect(got).toMatchObject({ id: created.id, permissions: { admin: true, push: true, pull: true } });
    expect(await repoCount(s, alice.name)).toBe(aliceBefore - 1);
    expect(await repoCount(s, bob.name)).toBe(bobBefore + 1);
    expect(await s.host.repoStorage.pending()).toEqual([]);
    await s.host.events.idle();
    expect(events.some((e) => e.type === 'repo.transferred' && e.payload.repo.id === created.id && e.payload.previousOwner.name === alice.name)).toBe(true);
  });

  test('an owner offers a repository: 201 with repo_transfer; the recipient accepts: 202 and it moves', async () => {
    const created = await createRepo(s, alice, { name: 'offered', auto_init: true });
    const res = await post(s, alice, `${alice.name}/offered/transfer`, { new_owner: bob.name });
    expect(res.status).toBe(201);
    const pending = await json(res);
    expectRepository(pending);
    expect(pending.full_name).toBe(`${alice.name}/offered`);
    expect(pending.repo_transfer).toMatchObject({ doer: { login: alice.name }, recipient: { login: bob.name }, teams: [] });
    // The accounts are shown as to anyone: no private email.
    expect(pending.repo_transfer.doer.email).toContain('noreply');
    expect(await s.host.git.exists(storageKey(alice.name, 'offered'))).toBe(true);

    // Shown on reads and in lists while pending.
    const got = await json(await s.fetch(`/api/v1/repos/${alice.name}/offered`, { headers: carol.h }));
    expect(got.repo_transfer.recipient.login).toBe(bob.name);
    const mine = await json(await s.fetch('/api/v1/user/repos?limit=50', { headers: alice.h }));
    expect(mine.find((r: { id: number }) => r.id === created.id).repo_transfer.recipient.login).toBe(bob.name);
    expect(mine.filter((r: { repo_transfer: unknown }) => r.repo_transfer !== null)).toHaveLength(1);

    // A second transfer while one is pending: 409.
    await expectApiError(await post(s, alice, `${alice.name}/offered/transfer`, { new_owner: carol.name }), 409, s.url);
    // Only the recipient answers.
    await expectApiError(await post(s, carol, `${alice.name}/offered/transfer/accept`), 403, s.url);
    await expectApiError(await post(s, alice, `${alice.name}/offered/transfer/accept`), 403, s.url);
    await expectApiError(await post(s, admin, `${alice.name}/offered/transfer/reject`), 403, s.url);
    await expectApiError(await post(s, undefined, `${alice.name}/offered/transfer/accept`), 401, s.url);

    const accepted = await post(s, bob, `${alice.name}/offered/transfer/accept`);
    expect(accepted.status).toBe(202);
    const repo = await json(accepted);
    expectRepository(repo);
    expect(repo).toMatchObject({ id: created.id, full_name: `${bob.name}/offered`, repo_transfer: null, permissions: { admin: true, push: true, pull: true } });
    expect(await s.host.git.exists(storageKey(bob.name, 'offered'))).toBe(true);
    expect(await s.host.git.exists(storageKey(alice.name, 'offered'))).toBe(false);
    // Nothing pending any more.
    await expectApiError(await post(s, bob, `${bob.name}/offered/transfer/accept`), 404, s.url);
  });

  test('the recipient rejects: 200, the repository stays, ready for another transfer', async () => {
    await createRepo(s, alice, { name: 'declined' });
    expect((await post(s, alice, `${alice.name}/declined/transfer`, { new_owner: bob.name })).status).toBe(201);
    const res = await post(s, bob, `${alice.name}/declined/transfer/reject`);
    expect(res.status).toBe(200);
    const repo = await json(res);
    expectRepository(repo);
    expect(repo).toMatchObject({ full_name: `${alice.name}/declined`, repo_transfer: null });
    await expectApiError(await post(s, bob, `${alice.name}/declined/transfer/accept`), 404, s.url);
    expect(await s.host.git.exists(storageKey(alice.name, 'declined'))).toBe(true);
    await s.host.events.idle();
    expect(events.some((e) => e.type === 'repo.transfer_rejected' && e.payload.repo.name === 'declined')).toBe(true);
    // Ready again: can be offered anew.
    expect((await post(s, alice, `${alice.name}/declined/transfer`, { new_owner: carol.name })).status).toBe(201);
  });

  test('an offer to an account that is then deleted ends with it: the repository can be offered again', async () => {
    await createRepo(s, alice, { name: 'orphaned' });
    const dave = await account(s, 'dave');
    expect((await post(s, alice, `${alice.name}/orphaned/transfer`, { new_owner: dave.name })).status).toBe(201);
    await s.host.accounts.deleteUser(SYSTEM, await userNamed(s.host, dave.name));
    const got = await json(await s.fetch(`/api/v1/repos/${alice.name}/orphaned`, { headers: alice.h }));
    expect(got.repo_transfer).toBeNull();
    expect((await post(s, alice, `${alice.name}/orphaned/transfer`, { new_owner: carol.name })).status).toBe(201);
  });

  test('a private repository: the recipient may answer its offer, others still get 404', async () => {
    await createRepo(s, alice, { name: 'secret', private: true });
    expect((await post(s, alice, `${alice.name}/secret/transfer`, { new_owner: bob.name })).status).toBe(201);
    await expectApiError(await post(s, carol, `${alice.name}/secret/transfer/accept`), 404, s.url);
    const res = await post(s, bob, `${alice.name}/secret/transfer/accept`);
    expect(res.status).toBe(202);
    expect(await json(res)).toMatchObject({ full_name: `${bob.name}/secret`, private: true, permissions: { admin: true, push: true, pull: true } });
  });

  test('transferring to oneself is immediate; a name the recipient already has is 422', async () => {
    await createRepo(s, alice, { name: 'clash' });
    await createRepo(s, bob, { name: 'CLASH' });
    for (const who of [admin, alice]) {
      const message = await expectApiError(await post(s, who, `${alice.name}/clash/transfer`, { new_owner: bob.name }), 422, s.url);
      expect(message).toContain('already exists');
    }
    // Stray storage at the recipient blocks an immediate move too.
    await createRepo(s, alice, { name: 'strayed' });
    await s.host.git.create(storageKey(carol.name, 'strayed'), { objectFormat: 'sha1', defaultBranch: 'main' });
    await expectApiError(await post(s, admin, `${alice.name}/strayed/transfer`, { new_owner: carol.name }), 422, s.url);
    expect(await s.host.git.exists(storageKey(alice.name, 'strayed'))).toBe(true);
    // The current owner already has it.
    await expectApiError(await post(s, alice, `${alice.name}/clash/transfer`, { new_owner: alice.name }), 422, s.url);
    const got = await json(await s.fetch(`/api/v1/repos/${alice.name}/clash`, { headers: alice.h }));
    expect(got).toMatchObject({ full_name: `${alice.name}/clash`, repo_transfer: null });

    // An admin moving their own repository to themselves from someone else's: immediate.
    await createRepo(s, carol, { name: 'tome' });
    const res = await post(s, admin, `${carol.name}/tome/transfer`, { new_owner: admin.name });
    expect(res.status).toBe(202);
    expect((await json(res)).full_name).toBe(`${admin.name}/tome`);
  });

  test('bad requests: unknown recipient 404, teams for a user 422, missing new_owner 422, non-owner 403, unseen 404, anonymous 401', async () => {
    await createRepo(s, alice, { name: 'guarded' });
    await createRepo(s, alice, { name: 'hidden', private: true });
    const message = await expectApiError(await post(s, alice, `${alice.name}/guarded/transfer`, { new_owner: 'nobody-here' }), 404, s.url);
    expect(message).toBe('The new owner does not exist or cannot be found');
    expect(await expectApiError(await post(s, alice, `${alice.name}/guarded/transfer`, { new_owner: bob.name, team_ids: [1] }), 422, s.url)).toBe(
      'Teams can only be added to organization-owned repositories',
    );
    await expectApiError(await post(s, alice, `${alice.name}/guarded/transfer`, {}), 422, s.url);
    await expectApiError(await post(s, alice, `${alice.name}/guarded/transfer`, { new_owner: 7 }), 422, s.url);
    await expectApiError(await post(s, bob, `${alice.name}/guarded/transfer`, { new_owner: bob.name }), 403, s.url);
    await expectApiError(await post(s, bob, `${alice.name}/guarded/transfer`, {}), 403, s.url);
    await expectApiError(await post(s, bob, `${alice.name}/hidden/transfer`, { new_owner: bob.name }), 404, s.url);
    await expectApiError(await post(s, undefined, `${alice.name}/guarded/transfer`, { new_owner: bob.name }), 401, s.url);
    await expectApiError(await post(s, bob, `${alice.name}/guarded/transfer/reject`), 404, s.url);
    const readOnly = tokenHeader(await createToken(s.host, alice.name, ['read:repository']));
    await expectApiError(await post(s, { name: alice.name, h: readOnly }, `${alice.name}/guarded/transfer`, { new_owner: bob.name }), 403, s.url);
    const repo = await s.host.repos.resolve(SYSTEM, alice.name, 'guarded');
    expect(repo.repo.status).toBe(0);
  });
});
