/**
 * Collaborators over HTTP (`/repos/{owner}/{repo}/collaborators…`): add with a permission, change it, check,
 * list (paginated, with the count), remove, and the permission report; who may do each (anonymous, other users,
 * collaborators, repository administrators, site administrators), private repositories, bad input, blocks, and
 * what a collaboration changes for the collaborator (the repository's `permissions`, its assignees and reviewers).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { RepoCollaboratorPermissionSchema, RepositorySchema, SYSTEM, UserSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const UserListSchema = Type.Array(UserSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('collaborators', () => {
  let s: TestServer;
  let owner: Account;
  let admin: Account;
  const accounts: Record<string, Account> = {};
  const events: { type: string; collaborator: string; mode?: number; created?: boolean }[] = [];

  async function account(prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name, { admin: options.admin });
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  async function repo(name: string, isPrivate: boolean): Promise<string> {
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate }, owner.h));
    expect(res.status).toBe(201);
    return `${owner.name}/${name}`;
  }

  const call = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1/repos/${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    admin = await account('adm', { admin: true });
    for (const who of ['ping', 'pong', 'other', 'third']) accounts[who] = await account(who);
    s.host.events.on('repo.collaborator_added', ({ payload }) => {
      events.push({ type: 'added', collaborator: payload.collaborator.name, mode: payload.mode, created: payload.created });
    });
    s.host.events.on('repo.collaborator_removed', ({ payload }) => {
      events.push({ type: 'removed', collaborator: payload.collaborator.name });
    });
  });
  afterAll(async () => s?.cleanup());

  test('add, change, check, list, permission, remove: the owner manages; the list and count follow', async () => {
    const path = await repo('collab', false);
    const { ping, pong } = accounts as Record<string, Account>;
    let res = await call('GET', `${path}/collaborators`, owner);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('0');
    expect(await json(res)).toEqual([]);

    events.length = 0;
    expect((await call('PUT', `${path}/collaborators/${ping!.name}`, owner, { permission: 'admin' })).status).toBe(204);
    // No body at all: write, as Forgejo's default.
    expect((await call('PUT', `${path}/collaborators/${pong!.name}`, owner)).status).toBe(204);
    expect(events).toEqual([
      { type: 'added', collaborator: ping!.name, mode: 3, created: true },
      { type: 'added', collaborator: pong!.name, mode: 2, created: true },
    ]);

    res = await call('GET', `${path}/collaborators/${ping!.name}/permission`, owner);
    expect(res.status).toBe(200);
    const permission = await json(res);
    expect(matchesSchema(RepoCollaboratorPermissionSchema, permission), schemaErrors(RepoCollaboratorPermissionSchema, permission).join('\n')).toBe(true);
    expect(permission).toMatchObject({ permission: 'admin', role_name: 'admin', user: { login: ping!.name, id: ping!.id } });
    expect(await json(await call('GET', `${path}/collaborators/${pong!.name}/permission`, owner))).toMatchObject({ permission: 'write', role_name: 'write' });

    // PUT again: without a permission nothing changes; with one, the mode changes (one event), the same mode: none.
    events.length = 0;
    expect((await call('PUT', `${path}/collaborators/${pong!.name}`, owner, {})).status).toBe(204);
    expect((await call('PUT', `${path}/collaborators/${pong!.name}`, owner, { permission: '' })).status).toBe(204);
    expect(await json(await call('GET', `${path}/collaborators/${pong!.name}/permission`, owner))).toMatchObject({ permission: 'write' });
    expect((await call('PUT', `${path}/collaborators/${pong!.name}`, owner, { permission: 'read' })).status).toBe(204);
    expect((await call('PUT', `${path}/collaborators/${pong!.name}`, owner, { permission: 'read' })).status).toBe(204);
    expect(events).toEqual([{ type: 'added', collaborator: pong!.name, mode: 1, created: false }]);
    expect(await json(await call('GET', `${path}/collaborators/${pong!.name}/permission`, owner))).toMatchObject({ permission: 'read' });

    res = await call('GET', `${path}/collaborators`, owner);
    expect(res.headers.get('x-total-count')).toBe('2');
    const list = await json(res);
    expect(matchesSchema(UserListSchema, list), schemaErrors(UserListSchema, list).join('\n')).toBe(true);
    expect(list.map((u: { login: string }) => u.login)).toEqual([ping!.name, pong!.name]);
    // Pages: one per page, the count is the whole list's.
    res = await call('GET', `${path}/collaborators?limit=1&page=2`, owner);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect((await json(res)).map((u: { login: string }) => u.login)).toEqual([pong!.name]);

    expect((await call('GET', `${path}/collaborators/${ping!.name}`, owner)).status).toBe(204);
    await expectApiError(await call('GET', `${path}/collaborators/${accounts.other!.name}`, owner), 404, s.url);
    // A name nobody has: 422 on the collaborator routes, 404 on the permission route (as Forgejo).
    expect(await expectApiError(await call('GET', `${path}/collaborators/nobody-here`, owner), 422, s.url)).toBe('user does not exist [uid: 0, name: nobody-here]');
    await expectApiError(await call('PUT', `${path}/collaborators/nobody-here`, owner, {}), 422, s.url);
    await expectApiError(await call('DELETE', `${path}/collaborators/nobody-here`, owner), 422, s.url);
    await expectApiError(await call('GET', `${path}/collaborators/nobody-here/permission`, owner), 404, s.url);

    // Assignees: collaborators with write access, then the owner; reviewers: collaborators and watchers, by name.
    const assignees = await json(await call('GET', `${path}/assignees`, owner));
    expect(assignees.map((u: { login: string }) => u.login)).toEqual([ping!.name, owner.name]);
    const reviewers = await json(await call('GET', `${path}/reviewers`, owner));
    expect(reviewers.map((u: { login: string }) => u.login)).toEqual([ping!.name, pong!.name, owner.name].sort());

    events.length = 0;
    expect((await call('DELETE', `${path}/collaborators/${ping!.name}`, owner)).status).toBe(204);
    // Removing someone who is not a collaborator is not an error, and announces nothing.
    expect((await call('DELETE', `${path}/collaborators/${ping!.name}`, owner)).status).toBe(204);
    expect(events).toEqual([{ type: 'removed', collaborator: ping!.name }]);
    await expectApiError(await call('GET', `${path}/collaborators/${ping!.name}`, owner), 404, s.url);
    res = await call('GET', `${path}/collaborators`, owner);
    expect(res.headers.get('x-total-count')).toBe('1');
    // Not a collaborator any more, still someone who may read a public repository: permission read.
    expect(await json(await call('GET', `${path}/collaborators/${ping!.name}/permission`, owner))).toMatchObject({ permission: 'read' });
  });

  test('who may: anonymous 401, readers list and check, only repository and site administrators manage', async () => {
    const path = await repo('who', false);
    const { ping, pong, other, third } = accounts as Record<string, Account>;
    await expectApiError(await call('GET', `${path}/collaborators`), 401, s.url);
    await expectApiError(await call('GET', `${path}/collaborators/${ping!.name}`), 401, s.url);
    await expectApiError(await call('PUT', `${path}/collaborators/${ping!.name}`, undefined, {}), 401, s.url);
    await expectApiError(await call('GET', `${path}/collaborators/${ping!.name}/permission`), 401, s.url);

    // An unrelated user may read a public repository: list and check yes, manage no (403), others' permission no.
    expect((await call('GET', `${path}/collaborators`, other)).status).toBe(200);
    await expectApiError(await call('GET', `${path}/collaborators/${ping!.name}`, other), 404, s.url);
    expect(await expectApiError(await call('PUT', `${path}/collaborators/${ping!.name}`, other, {}), 403, s.url)).toBe(
      'user should be an owner or a collaborator with admin write of a repository',
    );
    await expectApiError(await call('DELETE', `${path}/collaborators/${ping!.name}`, other), 403, s.url);
    await expectApiError(await call('GET', `${path}/collaborators/${ping!.name}/permission`, other), 403, s.url);
    // Its own permission it may read.
    expect(await json(await call('GET', `${path}/collaborators/${other!.name}/permission`, other))).toMatchObject({ permission: 'read', user: { login: other!.name } });

    // A write collaborator may not manage; an admin collaborator may, and may read anyone's permission.
    expect((await call('PUT', `${path}/collaborators/${ping!.name}`, owner, { permission: 'write' })).status).toBe(204);
    expect((await call('PUT', `${path}/collaborators/${pong!.name}`, owner, { permission: 'admin' })).status).toBe(204);
    await expectApiError(await call('PUT', `${path}/collaborators/${third!.name}`, ping, {}), 403, s.url);
    await expectApiError(await call('GET', `${path}/collaborators/${pong!.name}/permission`, ping), 403, s.url);
    expect((await call('PUT', `${path}/collaborators/${third!.name}`, pong, { permission: 'read' })).status).toBe(204);
    expect(await json(await call('GET', `${path}/collaborators/${owner.name}/permission`, pong))).toMatchObject({ permission: 'owner', role_name: 'owner' });
    expect((await call('DELETE', `${path}/collaborators/${third!.name}`, pong)).status).toBe(204);
    // The site administrator: may manage, and is an owner of everything.
    expect((await call('PUT', `${path}/collaborators/${third!.name}`, admin, { permission: 'read' })).status).toBe(204);
    expect(await json(await call('GET', `${path}/collaborators/${admin.name}/permission`, pong))).toMatchObject({ permission: 'owner' });

    // The repository's `permissions` follow the collaboration for the collaborator.
    const seen = await json(await call('GET', path, ping));
    expect(matchesSchema(RepositorySchema, seen)).toBe(true);
    expect(seen.permissions).toEqual({ admin: false, push: true, pull: true });
    expect((await json(await call('GET', path, pong))).permissions).toEqual({ admin: true, push: true, pull: true });
    expect((await json(await call('GET', path, third))).permissions).toEqual({ admin: false, push: false, pull: true });
  });

  test('a private repository: 404 for those who may not see it; a collaboration opens it', async () => {
    const path = await repo('secret', true);
    const { other, ping } = accounts as Record<string, Account>;
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', `/${ping!.name}`],
      ['PUT', `/${ping!.name}`],
      ['DELETE', `/${ping!.name}`],
      ['GET', `/${other!.name}/permission`],
    ] as const) {
      await expectApiError(await call(method, `${path}/collaborators${suffix}`, other, method === 'PUT' ? {} : undefined), 404, s.url);
    }
    await expectApiError(await call('GET', path, other), 404, s.url);
    expect((await call('PUT', `${path}/collaborators/${other!.name}`, owner, { permission: 'read' })).status).toBe(204);
    expect((await json(await call('GET', path, other))).permissions).toEqual({ admin: false, push: false, pull: true });
    expect((await call('GET', `${path}/collaborators`, other)).status).toBe(200);
    expect(await json(await call('GET', `${path}/collaborators/${other!.name}/permission`, other))).toMatchObject({ permission: 'read' });
    // The owner reads the permission of someone who cannot see the repository: none.
    expect(await json(await call('GET', `${path}/collaborators/${ping!.name}/permission`, owner))).toMatchObject({ permission: 'none', role_name: 'none' });
    expect((await call('DELETE', `${path}/collaborators/${other!.name}`, owner)).status).toBe(204);
    await expectApiError(await call('GET', path, other), 404, s.url);
  });

  test('bad input: unknown permission, the owner, an organization, an inactive account, blocks', async () => {
    const path = await repo('bad', false);
    const { ping, other } = accounts as Record<string, Account>;
    for (const permission of ['owner', 'none', 'superuser', 3]) {
      await expectApiError(await call('PUT', `${path}/collaborators/${ping!.name}`, owner, { permission }), 422, s.url);
    }
    // Malformed JSON: Forgejo's binding answers 422.
    await expectApiError(await call('PUT', `${path}/collaborators/${ping!.name}`, owner, '{"permission":'), 422, s.url);
    await expectApiError(await call('PUT', `${path}/collaborators/${owner.name}`, owner, {}), 422, s.url);

    const orgName = uniq('org');
    await s.host.orgs.create(SYSTEM, await userNamed(s.host, owner.name), { username: orgName });
    await expectApiError(await call('PUT', `${path}/collaborators/${orgName}`, owner, {}), 422, s.url);

    const sleepy = await account('sleepy');
    await s.host.userAdmin.edit(SYSTEM, await userNamed(s.host, sleepy.name), { active: false });
    expect(await expectApiError(await call('PUT', `${path}/collaborators/${sleepy.name}`, owner, {}), 422, s.url)).toBe("collaborator's account is inactive");

    // A block either way refuses the collaboration (403, Forgejo's message).
    expect((await s.fetch(`/api/v1/user/block/${other!.name}`, { method: 'PUT', headers: owner.h })).status).toBe(204);
    expect(await expectApiError(await call('PUT', `${path}/collaborators/${other!.name}`, owner, {}), 403, s.url)).toBe(
      'user is blocked by the poster or repository owner',
    );
    expect((await s.fetch(`/api/v1/user/unblock/${other!.name}`, { method: 'PUT', headers: owner.h })).status).toBe(204);
    expect((await s.fetch(`/api/v1/user/block/${owner.name}`, { method: 'PUT', headers: other!.h })).status).toBe(204);
    await expectApiError(await call('PUT', `${path}/collaborators/${other!.name}`, owner, {}), 403, s.url);
    expect((await s.fetch(`/api/v1/user/unblock/${owner.name}`, { method: 'PUT', headers: other!.h })).status).toBe(204);
    expect((await call('PUT', `${path}/collaborators/${other!.name}`, owner, {})).status).toBe(204);
    expect((await call('GET', `${path}/collaborators`, owner)).headers.get('x-total-count')).toBe('1');
  });

  test('a read-only token may list but not add; collaborations go with the account and the repository', async () => {
    const path = await repo('scoped', false);
    const readOnly = tokenHeader(await createToken(s.host, owner.name, ['read:repository']));
    const { ping } = accounts as Record<string, Account>;
    expect((await s.fetch(`/api/v1/repos/${path}/collaborators`, { headers: readOnly })).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${path}/collaborators/${ping!.name}`, jsonInit('PUT', {}, readOnly)), 403, s.url);

    const gone = await account('gone');
    expect((await call('PUT', `${path}/collaborators/${gone.name}`, owner, {})).status).toBe(204);
    expect((await call('PUT', `${path}/collaborators/${ping!.name}`, owner, {})).status).toBe(204);
    await s.host.accounts.adminDeleteUser(SYSTEM, await userNamed(s.host, gone.name), { purge: false });
    const res = await call('GET', `${path}/collaborators`, owner);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect((await json(res)).map((u: { login: string }) => u.login)).toEqual([ping!.name]);
  });
});
