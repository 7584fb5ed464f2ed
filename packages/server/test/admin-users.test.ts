/**
 * `/admin/users…`: site administrators create, list, edit, rename and delete accounts and manage their tokens and
 * keys, with Forgejo's statuses and messages; the last working administrator is never demoted, deactivated or
 * removed; a rename takes the account's repositories (storage and clone URLs) with it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AccessTokenSchema, PublicKeySchema, RepositorySchema, SYSTEM, UserSchema, matchesSchema, type ApiUser } from '@repohost/core';
import { PASSWORD, basic, createToken, createUser, jsonInit, openTestHost, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const run = promisify(execFile);

describe('/admin/users', () => {
  let s: TestServer;
  let adminName: string;
  let admin: Record<string, string>;
  let plainName: string;
  let plain: Record<string, string>;

  const api = (pathname: string, init?: RequestInit) => s.fetch(`/api/v1${pathname}`, init);
  const post = (pathname: string, body: unknown, headers = admin) => api(pathname, jsonInit('POST', body, headers));
  const patch = (pathname: string, body: unknown, headers = admin) => api(pathname, jsonInit('PATCH', body, headers));
  const row = async (name: string) => (await s.host.users.findByName(name))!;

  /** What the Go SDK sends for `AdminCreateUser` (visibility null, zero source, empty login name). */
  const sdkBody = (name: string, extra: Record<string, unknown> = {}) => ({
    source_id: 0,
    login_name: '',
    username: name,
    full_name: '',
    email: `${name}@example.com`,
    password: `${name}!1234`,
    must_change_password: false,
    send_notify: false,
    visibility: null,
    ...extra,
  });

  beforeAll(async () => {
    s = await startTestServer();
    adminName = uniq('adm');
    await createUser(s.host, adminName, { admin: true });
    admin = tokenHeader(await createToken(s.host, adminName));
    plainName = uniq('usr');
    await createUser(s.host, plainName);
    plain = tokenHeader(await createToken(s.host, plainName));
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  describe('POST /admin/users', () => {
    test('creates what the Go SDK sends: 201 User, signed in with its password', async () => {
      const name = uniq('sdk');
      const res = await post('/admin/users', sdkBody(name));
      expect(res.status).toBe(201);
      const user = await json<ApiUser>(res);
      expect(matchesSchema(UserSchema, user)).toBe(true);
      expect(user).toMatchObject({ login: name, email: `${name}@example.com`, is_admin: false, active: true, visibility: 'public', source_id: 0 });
      expect((await row(name)).must_change_password).toBe(0);
      const me = await api('/user', { headers: { Authorization: basic(name, `${name}!1234`) } });
      expect(me.status).toBe(200);
      expect((await json<ApiUser>(me)).login).toBe(name);
    });

    test('must_change_password defaults to true; created_at back-dates; visibility and restricted are set; admin is not an API field', async () => {
      const name = uniq('opt');
      const res = await post('/admin/users', {
        username: name,
        email: `${name}@example.com`,
        password: 'long-enough-pw',
        created_at: '2001-02-03T04:05:06Z',
        visibility: 'private',
        restricted: true,
        admin: true,
      });
      expect(res.status).toBe(201);
      const user = await json<ApiUser>(res);
      expect(user).toMatchObject({ visibility: 'private', restricted: true, is_admin: false, created: '2001-02-03T04:05:06Z' });
      expect((await row(name)).must_change_password).toBe(1);
    });

    test('refuses bad input with Forgejo statuses: 400 for the password, 422 for names, emails and login sources', async () => {
      const name = uniq('bad');
      expect(await expectApiError(await post('/admin/users', { username: name, email: `${name}@example.com` }), 400, s.url)).toBe('PasswordIsRequired');
      await expectApiError(await post('/admin/users', { username: name, email: `${name}@example.com`, password: 'short' }), 400, s.url);
      expect(await expectApiError(await post('/admin/users', sdkBody(name, { source_id: 7, password: '' })), 422, s.url)).toContain('login source does not exist');
      await expectApiError(await post('/admin/users', sdkBody(adminName.toUpperCase(), { email: 'fresh@example.com' })), 422, s.url);
      expect(await expectApiError(await post('/admin/users', sdkBody(name, { email: `${adminName}@example.com` })), 422, s.url)).toContain('e-mail already in use');
      expect(await expectApiError(await post('/admin/users', sdkBody('api')), 422, s.url)).toContain('reserved');
      await expectApiError(await post('/admin/users', sdkBody('a..b')), 422, s.url);
      await expectApiError(await post('/admin/users', sdkBody(name, { email: 'not-an-email' })), 422, s.url);
      await expectApiError(await post('/admin/users', sdkBody(name, { visibility: 'secret' })), 422, s.url);
      await expectApiError(await post('/admin/users', sdkBody(name, { created_at: 'yesterday' })), 422, s.url);
      await expectApiError(await post('/admin/users', '{"username":'), 422, s.url);
      expect(await s.host.users.findByName(name)).toBeUndefined();
    });

    test('only site administrators with the admin scope', async () => {
      const name = uniq('no');
      await expectApiError(await post('/admin/users', sdkBody(name), plain), 403, s.url);
      await expectApiError(await s.fetch('/api/v1/admin/users', jsonInit('POST', sdkBody(name))), 401, s.url);
      const readOnly = tokenHeader(await createToken(s.host, adminName, ['read:admin']));
      await expectApiError(await post('/admin/users', sdkBody(name), readOnly), 403, s.url);
      expect(await s.host.users.findByName(name)).toBeUndefined();
    });
  });

  describe('GET /admin/users', () => {
    test('lists every individual account (private ones too), alphabetically by default, paged with X-Total-Count', async () => {
      const hidden = uniq('zz');
      await createUser(s.host, hidden, { visibility: 'private' });
      const res = await api('/admin/users?limit=50', { headers: admin });
      expect(res.status).toBe(200);
      const users = await json<ApiUser[]>(res);
      expect(users.every((u) => matchesSchema(UserSchema, u))).toBe(true);
      expect(Number(res.headers.get('x-total-count'))).toBe(users.length);
      expect(users.map((u) => u.login)).toContain(hidden);
      expect(users.map((u) => u.login)).toEqual([...users.map((u) => u.login)].sort());
      // Administrators see the private fields.
      expect(users.find((u) => u.login === hidden)).toMatchObject({ email: `${hidden}@example.com`, active: true });

      const page = await api('/admin/users?limit=1&page=2', { headers: admin });
      expect(await json<ApiUser[]>(page)).toEqual([users[1]]);
      expect(page.headers.get('link')).toContain('rel="next"');
    });

    test('sorts and filters as Forgejo: newest, reversealphabetically, login_name, source_id, is_2fa_enabled', async () => {
      const all = await json<ApiUser[]>(await api('/admin/users?limit=50&sort=oldest', { headers: admin }));
      const newest = await json<ApiUser[]>(await api('/admin/users?limit=50&sort=newest', { headers: admin }));
      expect(newest.map((u) => u.id)).toEqual([...all.map((u) => u.id)].reverse());
      const reverse = await json<ApiUser[]>(await api('/admin/users?limit=50&sort=reversealphabetically', { headers: admin }));
      expect(reverse.map((u) => u.login)).toEqual([...reverse.map((u) => u.login)].sort().reverse());
      // An unknown order is alphabetical, not an error.
      expect((await api('/admin/users?sort=sideways', { headers: admin })).status).toBe(200);

      const byLogin = await json<ApiUser[]>(await api(`/admin/users?login_name=${adminName}`, { headers: admin }));
      expect(byLogin.map((u) => u.login)).toEqual([adminName]);
      expect(await json(await api('/admin/users?source_id=3', { headers: admin }))).toEqual([]);
      expect((await json<ApiUser[]>(await api('/admin/users?source_id=0&limit=50', { headers: admin }))).length).toBe(all.length);
      expect(await json(await api('/admin/users?is_2fa_enabled=true', { headers: admin }))).toEqual([]);
      expect((await json<ApiUser[]>(await api('/admin/users?is_2fa_enabled=false&limit=50', { headers: admin }))).length).toBe(all.length);
    });

    test('is for site administrators only', async () => {
      await expectApiError(await api('/admin/users', { headers: plain }), 403, s.url);
      await expectApiError(await api('/admin/users'), 401, s.url);
    });
  });

  describe('PATCH /admin/users/{username}', () => {
    test('changes every field given and leaves the others', async () => {
      const name = uniq('ed');
      await createUser(s.host, name);
      const res = await patch(`/admin/users/${name}`, {
        full_name: 'Edited Name',
        website: 'https://example.org/me',
        location: 'Here',
        description: 'about me',
        pronouns: 'they/them',
        restricted: true,
        visibility: 'limited',
        hide_email: true,
        must_change_password: true,
        allow_git_hook: true,
        allow_import_local: true,
        allow_create_organization: false,
        max_repo_creation: 3,
      });
      expect(res.status).toBe(200);
      const user = await json<ApiUser>(res);
      expect(matchesSchema(UserSchema, user)).toBe(true);
      expect(user).toMatchObject({
        login: name,
        full_name: 'Edited Name',
        website: 'https://example.org/me',
        location: 'Here',
        description: 'about me',
        pronouns: 'they/them',
        restricted: true,
        visibility: 'limited',
        email: `${name}@example.com`,
        active: true,
        is_admin: false,
      });
      const stored = await row(name);
      expect(stored).toMatchObject({ keep_email_private: 1, must_change_password: 1 });
      expect(await s.host.userAdmin.limitsOf(SYSTEM, stored)).toEqual({ maxRepoCreation: 3, allowCreateOrganization: false });

      // An empty body changes nothing.
      const again = await patch(`/admin/users/${name}`, {});
      expect(await json<ApiUser>(again)).toMatchObject({ full_name: 'Edited Name', visibility: 'limited' });
    });

    test('sets a new password (an empty one changes nothing) and sign-in switches', async () => {
      const name = uniq('pw');
      await createUser(s.host, name);
      expect((await patch(`/admin/users/${name}`, { password: '' })).status).toBe(200);
      expect((await api('/user', { headers: { Authorization: basic(name, PASSWORD) } })).status).toBe(200);
      expect(await expectApiError(await patch(`/admin/users/${name}`, { password: 'short' }), 400, s.url)).toBe('password must be at least 8 characters');
      expect((await patch(`/admin/users/${name}`, { password: 'a-brand-new-one' })).status).toBe(200);
      expect((await api('/user', { headers: { Authorization: basic(name, PASSWORD) } })).status).toBe(401);
      expect((await api('/user', { headers: { Authorization: basic(name, 'a-brand-new-one') } })).status).toBe(200);
    });

    test('active and prohibit_login decide whether the account may sign in', async () => {
      const name = uniq('act');
      await createUser(s.host, name);
      const token = tokenHeader(await createToken(s.host, name));
      expect(await json<ApiUser>(await patch(`/admin/users/${name}`, { active: false }))).toMatchObject({ active: false });
      expect((await api('/user', { headers: token })).status).toBe(401);
      expect(await json<ApiUser>(await patch(`/admin/users/${name}`, { active: true, prohibit_login: true }))).toMatchObject({ active: true, prohibit_login: true });
      expect((await api('/user', { headers: token })).status).toBe(401);
      await patch(`/admin/users/${name}`, { prohibit_login: false });
      expect((await api('/user', { headers: token })).status).toBe(200);
    });

    test('a new email becomes the primary address; an address of another account or a malformed one is 400', async () => {
      const name = uniq('em');
      await createUser(s.host, name);
      const res = await patch(`/admin/users/${name}`, { email: `New.${name}@example.net` });
      expect(res.status).toBe(200);
      expect((await json<ApiUser>(res)).email).toBe(`New.${name}@example.net`);
      const addresses = await s.host.userEmails.list(SYSTEM, await row(name));
      expect(addresses.map((a) => [a.email, a.is_primary])).toEqual(
        expect.arrayContaining([
          [`${name}@example.com`, 0],
          [`New.${name}@example.net`, 1],
        ]),
      );
      // Back to the old address, which the account still has.
      expect((await json<ApiUser>(await patch(`/admin/users/${name}`, { email: `${name}@example.com` }))).email).toBe(`${name}@example.com`);

      expect(await expectApiError(await patch(`/admin/users/${name}`, { email: `${plainName}@example.com` }), 400, s.url)).toContain('e-mail already in use');
      expect(await expectApiError(await patch(`/admin/users/${name}`, { email: 'no at sign' }), 400, s.url)).toContain('e-mail invalid');
      expect((await row(name)).email).toBe(`${name}@example.com`);
    });

    test('source_id and login_name go together; an unknown source is 422; bad fields are 422', async () => {
      const name = uniq('src');
      await createUser(s.host, name);
      expect(await expectApiError(await patch(`/admin/users/${name}`, { login_name: 'x' }), 422, s.url)).toBe('source_id and login_name must be specified together');
      await expectApiError(await patch(`/admin/users/${name}`, { source_id: 0 }), 422, s.url);
      await expectApiError(await patch(`/admin/users/${name}`, { source_id: 4, login_name: 'x' }), 422, s.url);
      const ok = await patch(`/admin/users/${name}`, { source_id: 0, login_name: 'ext-login' });
      expect(await json<ApiUser>(ok)).toMatchObject({ source_id: 0, login_name: 'ext-login' });
      await expectApiError(await patch(`/admin/users/${name}`, { website: 'not a url' }), 422, s.url);
      await expectApiError(await patch(`/admin/users/${name}`, { visibility: 'everyone' }), 422, s.url);
      await expectApiError(await patch(`/admin/users/${name}`, { location: 'x'.repeat(51) }), 422, s.url);
      await expectApiError(await patch(`/admin/users/${name}`, { max_repo_creation: 'many' }), 422, s.url);
      await expectApiError(await patch(`/admin/users/nobody-${name}`, { full_name: 'x' }), 404, s.url);
      await expectApiError(await patch(`/admin/users/${name}`, { full_name: 'x' }, plain), 403, s.url);
    });

    test('max_repo_creation limits the account; -1 returns it to the site default (unlimited here)', async () => {
      const name = uniq('lim');
      await createUser(s.host, name);
      const h = tokenHeader(await createToken(s.host, name));
      await patch(`/admin/users/${name}`, { max_repo_creation: 1 });
      expect((await post('/user/repos', { name: 'one' }, h)).status).toBe(201);
      expect(await expectApiError(await post('/user/repos', { name: 'two' }, h), 403, s.url)).toBe('user has reached maximum limit of repositories [limit: 1]');
      // Administrators creating on the account's behalf are not limited, as in Forgejo.
      expect((await post(`/admin/users/${name}/repos`, { name: 'by-admin' })).status).toBe(201);
      await patch(`/admin/users/${name}`, { max_repo_creation: -1 });
      expect((await post('/user/repos', { name: 'two' }, h)).status).toBe(201);
    });

    test('the last working site administrator cannot be demoted, deactivated or barred; with another one it can', async () => {
      const t = await startTestServer();
      try {
        const root = uniq('root');
        await createUser(t.host, root, { admin: true });
        const rootH = tokenHeader(await createToken(t.host, root));
        const edit = (name: string, body: unknown) => t.fetch(`/api/v1/admin/users/${name}`, jsonInit('PATCH', body, rootH));
        for (const body of [{ admin: false }, { active: false }, { prohibit_login: true }]) {
          expect(await expectApiError(await edit(root, body), 400, t.url)).toMatch(/^can not delete the last admin user \[uid: \d+\]$/);
        }
        expect((await t.host.users.findByName(root))!).toMatchObject({ is_admin: 1, is_active: 1, prohibit_login: 0 });
        // An inactive administrator does not count as another one.
        const dormant = uniq('dorm');
        await createUser(t.host, dormant, { admin: true });
        expect((await edit(dormant, { active: false })).status).toBe(200);
        await expectApiError(await edit(root, { admin: false }), 400, t.url);
        expect((await edit(dormant, { active: true })).status).toBe(200);
        expect(await json<ApiUser>(await edit(root, { admin: false }))).toMatchObject({ is_admin: false });
        // The token now belongs to a non-administrator.
        await expectApiError(await edit(dormant, { admin: false }), 403, t.url);
      } finally {
        await t.cleanup();
      }
    });
  });

  describe('DELETE /admin/users/{username}', () => {
    test('refuses oneself and an owner of repositories (422); purge takes the repositories and their storage', async () => {
      const name = uniq('del');
      await createUser(s.host, name);
      const h = tokenHeader(await createToken(s.host, name));
      expect((await post('/user/repos', { name: 'keep', auto_init: true }, h)).status).toBe(201);

      expect(await expectApiError(await api(`/admin/users/${adminName}`, { method: 'DELETE', headers: admin }), 422, s.url)).toBe('you cannot delete yourself');
      const owned = await expectApiError(await api(`/admin/users/${name}`, { method: 'DELETE', headers: admin }), 422, s.url);
      expect(owned).toMatch(/^user still has ownership of repositories \[uid: \d+\]$/);
      expect(await s.host.git.exists({ owner: name, name: 'keep' })).toBe(true);
      await expectApiError(await api(`/admin/users/${name}?purge=true`, { method: 'DELETE', headers: plain }), 403, s.url);

      expect((await api(`/admin/users/${name}?purge=true`, { method: 'DELETE', headers: admin })).status).toBe(204);
      expect(await s.host.users.findByName(name)).toBeUndefined();
      expect(await s.host.git.exists({ owner: name, name: 'keep' })).toBe(false);
      expect((await api('/user', { headers: h })).status).toBe(401);
      await expectApiError(await api(`/admin/users/${name}`, { method: 'DELETE', headers: admin }), 404, s.url);
    });

    test('purge deletes the organizations the account is the last owner of, with their repositories (rule 4)', async () => {
      const name = uniq('sole');
      const coName = uniq('co');
      const memberName = uniq('mem');
      for (const n of [name, coName, memberName]) await createUser(s.host, n);
      const h = tokenHeader(await createToken(s.host, name));
      const co = tokenHeader(await createToken(s.host, coName));
      const makeOrg = async (headers: Record<string, string>) => {
        const org = uniq('org');
        expect((await post('/orgs', { username: org }, headers)).status).toBe(201);
        expect((await post(`/orgs/${org}/repos`, { name: 'r', auto_init: true }, headers)).status).toBe(201);
        return org;
      };
      const addToTeam = async (org: string, team: string, who: string, headers: Record<string, string>) => {
        let teamId = (await json<{ id: number; name: string }[]>(await api(`/orgs/${org}/teams`, { headers }))).find((t) => t.name === team)?.id;
        if (teamId === undefined) {
          const created = await post(`/orgs/${org}/teams`, { name: team, permission: 'read', units: ['repo.code'] }, headers);
          teamId = (await json<{ id: number }>(created)).id;
        }
        expect((await api(`/teams/${teamId}/members/${who}`, { method: 'PUT', headers })).status).toBe(204);
      };
      // Its own organization, with a member who is no owner: that does not save it.
      const sole = await makeOrg(h);
      await addToTeam(sole, 'readers', memberName, h);
      // One it owns with another owner, and one of another owner where it is a member: both stay.
      const shared = await makeOrg(h);
      await addToTeam(shared, 'Owners', coName, h);
      const other = await makeOrg(co);
      await addToTeam(other, 'readers', name, co);

      const refused = await expectApiError(await api(`/admin/users/${name}`, { method: 'DELETE', headers: admin }), 422, s.url);
      expect(refused).toMatch(/^user still has membership of organizations \[uid: \d+\]$/);
      expect((await api(`/orgs/${sole}`, { headers: admin })).status).toBe(200);

      expect((await api(`/admin/users/${name}?purge=true`, { method: 'DELETE', headers: admin })).status).toBe(204);
      await expectApiError(await api(`/orgs/${sole}`, { headers: admin }), 404, s.url);
      await expectApiError(await api(`/repos/${sole}/r`, { headers: admin }), 404, s.url);
      expect(await s.host.git.exists({ owner: sole, name: 'r' })).toBe(false);
      expect(await s.host.users.findByName(sole)).toBeUndefined();
      // The member of the deleted organization lost it; the remaining organizations keep their repositories.
      expect(await json<unknown[]>(await api(`/users/${memberName}/orgs`, { headers: admin }))).toEqual([]);
      for (const org of [shared, other]) {
        expect((await api(`/repos/${org}/r`, { headers: admin })).status).toBe(200);
        expect(await s.host.git.exists({ owner: org, name: 'r' })).toBe(true);
        const members = await json<{ login: string }[]>(await api(`/orgs/${org}/members`, { headers: admin }));
        expect(members.map((m) => m.login)).not.toContain(name);
      }
      expect((await json<{ login: string }[]>(await api(`/orgs/${shared}/members`, { headers: admin }))).map((m) => m.login)).toEqual([coName]);
    });

    test('purge of the last site administrator is refused before any organization goes', async () => {
      const lone = await openTestHost();
      try {
        const root = await createUser(lone.host, uniq('root'), { admin: true });
        const org = await lone.host.orgs.create(SYSTEM, root, { username: uniq('org') });
        await expect(lone.host.accounts.deleteUser(SYSTEM, root, { purge: true })).rejects.toThrow(/last admin/);
        expect(await lone.host.users.findByName(org.name)).toBeDefined();
      } finally {
        await lone.cleanup();
      }
    });

    test('deletes an account without repositories', async () => {
      const name = uniq('gone');
      await createUser(s.host, name);
      expect((await api(`/admin/users/${name}`, { method: 'DELETE', headers: admin })).status).toBe(204);
      await expectApiError(await api(`/users/${name}`), 404, s.url);
    });
  });

  describe('POST /admin/users/{username}/rename', () => {
    test('repositories, their storage and clone URLs follow the new name; the old name redirects', async () => {
      const name = uniq('old');
      const next = uniq('new');
      await createUser(s.host, name);
      const h = tokenHeader(await createToken(s.host, name));
      expect((await post('/user/repos', { name: 'proj', auto_init: true }, h)).status).toBe(201);
      expect((await post('/user/repos', { name: 'other', private: true }, h)).status).toBe(201);

      const res = await post(`/admin/users/${name}/rename`, { new_username: next });
      expect(res.status).toBe(204);
      // The old name redirects to the new one (Forgejo's user_redirect answers 307), until an account takes it.
      const oldUser = await s.fetch(`/api/v1/users/${name}`, { redirect: 'manual' });
      expect(oldUser.status).toBe(307);
      expect(oldUser.headers.get('location')).toBe(`/api/v1/users/${next}`);
      expect((await json<ApiUser>(await api(`/users/${next}`))).login).toBe(next);
      const repo = await json(await api(`/repos/${next}/proj`));
      expect(matchesSchema(RepositorySchema, repo)).toBe(true);
      expect(repo).toMatchObject({ full_name: `${next}/proj`, clone_url: `${s.url}${next}/proj.git`, owner: { login: next } });
      expect((await s.fetch(`/api/v1/repos/${name}/proj`, { redirect: 'manual' })).headers.get('location')).toBe(`/api/v1/repos/${next}/proj`);
      expect(await s.host.git.exists({ owner: next, name: 'proj' })).toBe(true);
      expect(await s.host.git.exists({ owner: next, name: 'other' })).toBe(true);
      expect(await s.host.git.exists({ owner: name, name: 'proj' })).toBe(false);
      expect(await s.host.repoStorage.pending()).toEqual([]);

      // The clone URL the API now gives works, with the same token.
      const work = await mkdtemp(path.join(tmpdir(), 'rename-clone-'));
      try {
        const token = h.Authorization!.slice('token '.length);
        const url = new URL(`${next}/proj.git`, s.url);
        url.username = next;
        url.password = token;
        await run('git', ['clone', '--quiet', url.href, path.join(work, 'c')]);
        expect(await readFile(path.join(work, 'c', 'README.md'), 'utf8')).toContain('proj');
      } finally {
        await rm(work, { recursive: true, force: true });
      }

      // The old name can be taken by a new account.
      expect((await post('/admin/users', sdkBody(name, { email: `again.${name}@example.com` }))).status).toBe(201);
      const taken = await s.fetch(`/api/v1/users/${name}`, { redirect: 'manual' });
      expect(taken.status).toBe(200);
      expect((await json<ApiUser>(taken)).login).toBe(name);
    });

    test('another case of the same name changes only the name; the same name changes nothing', async () => {
      const name = uniq('case');
      await createUser(s.host, name);
      const h = tokenHeader(await createToken(s.host, name));
      await post('/user/repos', { name: 'r' }, h);
      expect((await post(`/admin/users/${name}/rename`, { new_username: name })).status).toBe(204);
      expect((await post(`/admin/users/${name}/rename`, { new_username: name.toUpperCase() })).status).toBe(204);
      expect((await json<ApiUser>(await api(`/users/${name}`))).login).toBe(name.toUpperCase());
      expect(await s.host.git.exists({ owner: name, name: 'r' })).toBe(true);
    });

    test('refuses taken, reserved and malformed names with 422, and callers who are not administrators', async () => {
      const name = uniq('ren');
      await createUser(s.host, name);
      expect(await expectApiError(await post(`/admin/users/${name}/rename`, { new_username: plainName.toUpperCase() }), 422, s.url)).toBe('The username is already taken.');
      expect(await expectApiError(await post(`/admin/users/${name}/rename`, { new_username: 'admin' }), 422, s.url)).toBe('The username "admin" is reserved.');
      expect(await expectApiError(await post(`/admin/users/${name}/rename`, { new_username: 'x.keys' }), 422, s.url)).toBe('The pattern "x.keys" is not allowed in a username.');
      expect(await expectApiError(await post(`/admin/users/${name}/rename`, { new_username: 'bad name' }), 422, s.url)).toBe('User name "bad name" contains invalid characters.');
      await expectApiError(await post(`/admin/users/${name}/rename`, { new_username: '' }), 422, s.url);
      await expectApiError(await post(`/admin/users/${name}/rename`, { new_username: 'x'.repeat(41) }), 422, s.url);
      await expectApiError(await post(`/admin/users/${name}/rename`, {}), 422, s.url);
      await expectApiError(await post(`/admin/users/${name}/rename`, { new_username: uniq('x') }, plain), 403, s.url);
      await expectApiError(await post(`/admin/users/nobody-${name}/rename`, { new_username: uniq('x') }), 404, s.url);
      expect((await row(name)).name).toBe(name);
    });

    test('refuses a name whose storage place already holds files that no account claims', async () => {
      const name = uniq('blk');
      const target = uniq('tgt');
      await createUser(s.host, name);
      await s.host.git.create({ owner: target, name: 'stray' }, { objectFormat: 'sha1', defaultBranch: 'main' });
      expect(await expectApiError(await post(`/admin/users/${name}/rename`, { new_username: target }), 422, s.url)).toContain('already exist');
      expect((await row(name)).name).toBe(name);
      expect(await s.host.repoStorage.pending()).toEqual([]);
    });
  });

  describe('tokens and keys of other accounts', () => {
    test('/admin/users/{username}/tokens lists, creates and deletes without the password', async () => {
      const name = uniq('tok');
      await createUser(s.host, name);
      const created = await post(`/admin/users/${name}/tokens`, { name: 'by-admin', scopes: ['read:user'] });
      expect(created.status).toBe(201);
      const token = await json(created);
      expect(matchesSchema(AccessTokenSchema, token)).toBe(true);
      expect((await api('/user', { headers: tokenHeader(token.sha1) })).status).toBe(200);

      const list = await api(`/admin/users/${name}/tokens`, { headers: admin });
      expect(list.headers.get('x-total-count')).toBe('1');
      expect(await json(list)).toEqual([expect.objectContaining({ id: token.id, name: 'by-admin', sha1: '' })]);
      await expectApiError(await post(`/admin/users/${name}/tokens`, { name: 'by-admin', scopes: ['read:user'] }), 400, s.url);
      await expectApiError(await api(`/admin/users/${name}/tokens`, { headers: plain }), 403, s.url);
      expect((await api(`/admin/users/${name}/tokens/${token.id}`, { method: 'DELETE', headers: admin })).status).toBe(204);
      await expectApiError(await api(`/admin/users/${name}/tokens/${token.id}`, { method: 'DELETE', headers: admin }), 404, s.url);
      expect((await api('/user', { headers: tokenHeader(token.sha1) })).status).toBe(401);
    });

    test('/users/{username}/tokens works for site administrators on other accounts, not for other users', async () => {
      const name = uniq('utk');
      await createUser(s.host, name);
      expect(await json(await api(`/users/${name}/tokens`, { headers: admin }))).toEqual([]);
      const byAdmin = { Authorization: basic(adminName, PASSWORD) };
      const created = await post(`/users/${name}/tokens`, { name: 'admin-made', scopes: ['all'] }, byAdmin);
      expect(created.status).toBe(201);
      const token = await json(created);
      expect((await json(await api(`/users/${name}/tokens`, { headers: admin }))).map((t: { name: string }) => t.name)).toEqual(['admin-made']);
      await expectApiError(await api(`/users/${name}/tokens`, { headers: plain }), 403, s.url);
      await expectApiError(await post(`/users/${name}/tokens`, { name: 'x', scopes: ['all'] }, { Authorization: basic(plainName, PASSWORD) }), 403, s.url);
      expect((await api(`/users/${name}/tokens/admin-made`, { method: 'DELETE', headers: byAdmin })).status).toBe(204);
      expect((await api('/user', { headers: tokenHeader(token.sha1) })).status).toBe(401);
    });

    test('/admin/users/{username}/keys adds and removes an SSH key for the account', async () => {
      const name = uniq('key');
      await createUser(s.host, name);
      const dir = await mkdtemp(path.join(tmpdir(), 'admin-key-'));
      try {
        await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'admin-added', '-f', path.join(dir, 'k')]);
        const pub = (await readFile(path.join(dir, 'k.pub'), 'utf8')).trim();
        const fingerprint = (await run('ssh-keygen', ['-lf', path.join(dir, 'k.pub')])).stdout.split(' ')[1];
        const res = await post(`/admin/users/${name}/keys`, { title: 'laptop', key: pub });
        expect(res.status).toBe(201);
        const key = await json(res);
        expect(matchesSchema(PublicKeySchema, key)).toBe(true);
        expect(key).toMatchObject({ title: 'laptop', fingerprint, user: { login: name } });
        expect((await json(await api(`/users/${name}/keys`))).map((k: { id: number }) => k.id)).toEqual([key.id]);
        await expectApiError(await post(`/admin/users/${name}/keys`, { title: 'again', key: pub }), 422, s.url);
        await expectApiError(await post(`/admin/users/${name}/keys`, { title: 'junk', key: 'ssh-ed25519 AAAA' }), 422, s.url);
        await expectApiError(await post(`/admin/users/${name}/keys`, { title: 'x', key: pub }, plain), 403, s.url);

        await expectApiError(await api(`/admin/users/${plainName}/keys/${key.id}`, { method: 'DELETE', headers: admin }), 404, s.url);
        await expectApiError(await api(`/admin/users/${name}/keys/abc`, { method: 'DELETE', headers: admin }), 404, s.url);
        expect((await api(`/admin/users/${name}/keys/${key.id}`, { method: 'DELETE', headers: admin })).status).toBe(204);
        expect(await json(await api(`/users/${name}/keys`))).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
