/**
 * Organizations over HTTP: creating (as a user and as a site administrator), reading, editing, renaming and
 * deleting them, their repositories, members and public members, the lists of organizations, avatars, and who
 * may see and do what (anonymous, another user, a member, an owner, a site administrator).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  OrganizationPermissionsSchema,
  OrganizationSchema,
  RepositorySchema,
  SYSTEM,
  UserSchema,
  matchesSchema,
  schemaErrors,
  type RepoHost,
  type User,
} from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import type { TSchema } from '@sinclair/typebox';
import { expectApiError, json, uniq } from './helpers';

/** A 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function expectSchema(schema: TSchema, value: unknown): void {
  expect(matchesSchema(schema, value), schemaErrors(schema, value).join('\n')).toBe(true);
}

/**
 * Puts `user` in a new team of `org` (mode `authorize`), the way the teams API will: a fixture until that API
 * exists, through the organizations store.
 */
async function joinTeam(host: RepoHost, org: User, user: User, options: { permission?: 'read' | 'write' | 'admin'; canCreateOrgRepo?: boolean } = {}): Promise<void> {
  const team = await host.teams.create(SYSTEM, org, {
    name: uniq('team'),
    permission: options.permission ?? 'read',
    units: ['repo.code'],
    can_create_org_repo: options.canCreateOrgRepo ?? false,
  });
  await host.teams.addMember(SYSTEM, { team, org }, user);
}

describe('organizations', () => {
  let s: TestServer;
  const name: Record<string, string> = {};
  const auth: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    s = await startTestServer();
    for (const who of ['owner', 'member', 'other', 'admin', 'restricted', 'barred'] as const) {
      name[who] = uniq(who);
      await createUser(s.host, name[who], { admin: who === 'admin' });
      auth[who] = tokenHeader(await createToken(s.host, name[who]));
    }
    await s.host.userAdmin.edit(SYSTEM, await userNamed(s.host, name.restricted!), { restricted: true });
    await s.host.userAdmin.edit(SYSTEM, await userNamed(s.host, name.barred!), { allow_create_organization: false });
  });
  afterAll(async () => s?.cleanup());

  const call = (method: string, path: string, who?: string, body?: unknown) =>
    body === undefined ? s.fetch(`/api/v1${path}`, { method, headers: who ? auth[who] : {}, redirect: 'manual' }) : s.fetch(`/api/v1${path}`, { ...jsonInit(method, body, who ? auth[who] : {}), redirect: 'manual' });

  /** Creates an organization owned by `owner` (with `member` in a read team), over the API. */
  async function makeOrg(visibility: 'public' | 'limited' | 'private' = 'public', extra: Record<string, unknown> = {}): Promise<string> {
    const orgName = uniq('org');
    const res = await call('POST', '/orgs', 'owner', { username: orgName, visibility, ...extra });
    expect(res.status, await res.clone().text()).toBe(201);
    await joinTeam(s.host, await userNamed(s.host, orgName), await userNamed(s.host, name.member!));
    return orgName;
  }

  describe('POST /orgs', () => {
    test('creates the organization with the creator as its owner (201, the Organization record)', async () => {
      const orgName = uniq('Org');
      const res = await call('POST', '/orgs', 'owner', {
        username: orgName,
        full_name: 'The Org',
        email: 'org@example.com',
        description: 'd',
        website: 'https://example.com',
        location: 'here',
        visibility: 'limited',
        repo_admin_change_team_access: true,
      });
      expect(res.status).toBe(201);
      const body = await json(res);
      expectSchema(OrganizationSchema, body);
      expect(body).toMatchObject({
        name: orgName,
        username: orgName,
        full_name: 'The Org',
        email: 'org@example.com',
        description: 'd',
        website: 'https://example.com',
        location: 'here',
        visibility: 'limited',
        repo_admin_change_team_access: true,
      });
      const perms = await call('GET', `/users/${name.owner}/orgs/${orgName}/permissions`, 'owner');
      expect(perms.status).toBe(200);
      const permBody = await json(perms);
      expectSchema(OrganizationPermissionsSchema, permBody);
      expect(permBody).toEqual({ is_owner: true, is_admin: true, can_write: true, can_read: true, can_create_repository: true });
      // The Owners team's member is a (private) member.
      expect((await call('GET', `/orgs/${orgName}/members/${name.owner}`, 'owner')).status).toBe(204);
      expect((await call('GET', `/orgs/${orgName}/public_members/${name.owner}`, 'owner')).status).toBe(404);
    });

    test('defaults: public, empty fields', async () => {
      const orgName = uniq('org');
      const body = await json(await call('POST', '/orgs', 'owner', { username: orgName, visibility: '' }));
      expect(body).toMatchObject({ visibility: 'public', full_name: '', email: '', website: '', repo_admin_change_team_access: false });
    });

    test('anonymous: 401', async () => {
      await expectApiError(await call('POST', '/orgs', undefined, { username: uniq('org') }), 401, s.url);
    });

    test('who may not create organizations: 403 (restricted, not allowed by an administrator)', async () => {
      await expectApiError(await call('POST', '/orgs', 'restricted', { username: uniq('org') }), 403, s.url);
      await expectApiError(await call('POST', '/orgs', 'barred', { username: uniq('org') }), 403, s.url);
    });

    test('bad input: 422 (missing, malformed, reserved or taken name; bad visibility; bad website; too long)', async () => {
      await expectApiError(await call('POST', '/orgs', 'owner', {}), 422, s.url);
      await expectApiError(await call('POST', '/orgs', 'owner', { username: 'bad name!' }), 422, s.url);
      await expectApiError(await call('POST', '/orgs', 'owner', { username: 'api' }), 422, s.url);
      await expectApiError(await call('POST', '/orgs', 'owner', { username: name.other }), 422, s.url);
      await expectApiError(await call('POST', '/orgs', 'owner', { username: name.other!.toUpperCase() }), 422, s.url);
      await expectApiError(await call('POST', '/orgs', 'owner', { username: uniq('org'), visibility: 'secret' }), 422, s.url);
      await expectApiError(await call('POST', '/orgs', 'owner', { username: uniq('org'), website: 'ftp://x' }), 422, s.url);
      await expectApiError(await call('POST', '/orgs', 'owner', { username: uniq('org'), location: 'x'.repeat(51) }), 422, s.url);
    });

    test('the same name twice: the second is 422', async () => {
      const orgName = uniq('org');
      expect((await call('POST', '/orgs', 'owner', { username: orgName })).status).toBe(201);
      const message = await expectApiError(await call('POST', '/orgs', 'other', { username: orgName }), 422, s.url);
      expect(message).toContain('already exists');
    });
  });

  describe('token scopes', () => {
    test('read:organization reads but may not write (403); a public-only token sees public organizations only', async () => {
      const orgName = await makeOrg();
      const privateOrg = await makeOrg('private');
      const reader = tokenHeader(await createToken(s.host, name.owner!, ['read:organization']));
      expect((await s.fetch(`/api/v1/orgs/${orgName}`, { headers: reader })).status).toBe(200);
      await expectApiError(await s.fetch(`/api/v1/orgs/${orgName}`, jsonInit('PATCH', { description: 'x' }, reader)), 403, s.url);
      await expectApiError(await s.fetch('/api/v1/orgs', jsonInit('POST', { username: uniq('org') }, reader)), 403, s.url);
      const userOnly = tokenHeader(await createToken(s.host, name.owner!, ['read:user']));
      await expectApiError(await s.fetch(`/api/v1/orgs/${orgName}`, { headers: userOnly }), 403, s.url);
      const publicOnly = tokenHeader(await createToken(s.host, name.owner!, ['all', 'public-only']));
      expect((await s.fetch(`/api/v1/orgs/${orgName}`, { headers: publicOnly })).status).toBe(200);
      await expectApiError(await s.fetch(`/api/v1/orgs/${privateOrg}`, { headers: publicOnly }), 404, s.url);
      const mine = await json<{ name: string }[]>(await s.fetch('/api/v1/user/orgs?limit=50', { headers: publicOnly }));
      expect(mine.map((o) => o.name)).toContain(orgName);
      expect(mine.map((o) => o.name)).not.toContain(privateOrg);
    });

    test('POST /org/{org}/repos asks write:organization and write:repository (Forgejo); /orgs/{org}/repos the first only', async () => {
      const orgName = await makeOrg();
      const orgOnly = tokenHeader(await createToken(s.host, name.owner!, ['write:organization']));
      const message = await expectApiError(await s.fetch(`/api/v1/org/${orgName}/repos`, jsonInit('POST', { name: 'a' }, orgOnly)), 403, s.url);
      expect(message).toBe('token does not have at least one of required scope(s): [write:organization write:repository]');
      expect((await s.fetch(`/api/v1/orgs/${orgName}/repos`, jsonInit('POST', { name: 'b' }, orgOnly))).status).toBe(201);
      const both = tokenHeader(await createToken(s.host, name.owner!, ['write:organization', 'write:repository']));
      expect((await s.fetch(`/api/v1/org/${orgName}/repos`, jsonInit('POST', { name: 'a' }, both))).status).toBe(201);
    });
  });

  describe('POST /admin/users/{username}/orgs', () => {
    test('a site administrator creates an organization owned by another account', async () => {
      const orgName = uniq('org');
      const res = await call('POST', `/admin/users/${name.other}/orgs`, 'admin', { username: orgName, visibility: 'private' });
      expect(res.status).toBe(201);
      expectSchema(OrganizationSchema, await json(res));
      expect((await call('GET', `/orgs/${orgName}`, 'other')).status).toBe(200);
      expect(await json(await call('GET', `/users/${name.other}/orgs/${orgName}/permissions`, 'other'))).toMatchObject({ is_owner: true });
    });

    test('not a site administrator: 403; unknown account: 404; an account not allowed to: 403; an organization: 422', async () => {
      await expectApiError(await call('POST', `/admin/users/${name.other}/orgs`, 'other', { username: uniq('org') }), 403, s.url);
      await expectApiError(await call('POST', `/admin/users/${uniq('nobody')}/orgs`, 'admin', { username: uniq('org') }), 404, s.url);
      await expectApiError(await call('POST', `/admin/users/${name.barred}/orgs`, 'admin', { username: uniq('org') }), 403, s.url);
      const orgName = await makeOrg();
      await expectApiError(await call('POST', `/admin/users/${orgName}/orgs`, 'admin', { username: uniq('org') }), 422, s.url);
    });
  });

  describe('GET /orgs/{org}', () => {
    test('public: everyone, the email hidden from anonymous callers', async () => {
      const orgName = await makeOrg('public', { email: 'pub@example.com' });
      const anon = await call('GET', `/orgs/${orgName}`);
      expect(anon.status).toBe(200);
      const body = await json(anon);
      expectSchema(OrganizationSchema, body);
      expect(body.email).toBe('');
      expect((await json(await call('GET', `/orgs/${orgName}`, 'other'))).email).toBe('pub@example.com');
      // Case-insensitive, like every account name.
      expect((await call('GET', `/orgs/${orgName.toUpperCase()}`)).status).toBe(200);
    });

    test('limited: signed-in accounts (not restricted ones, not anonymous)', async () => {
      const orgName = await makeOrg('limited');
      await expectApiError(await call('GET', `/orgs/${orgName}`), 404, s.url);
      expect((await call('GET', `/orgs/${orgName}`, 'other')).status).toBe(200);
      await expectApiError(await call('GET', `/orgs/${orgName}`, 'restricted'), 404, s.url);
    });

    test('private: members and site administrators only; 404 for everyone else, on every route under it', async () => {
      const orgName = await makeOrg('private');
      for (const who of ['owner', 'member', 'admin']) expect((await call('GET', `/orgs/${orgName}`, who)).status, who).toBe(200);
      for (const path of ['', '/repos', '/members', '/public_members', `/members/${name.owner}`, `/public_members/${name.owner}`]) {
        await expectApiError(await call('GET', `/orgs/${orgName}${path}`), path === '/members' || path.startsWith('/members/') ? 401 : 404, s.url);
        await expectApiError(await call('GET', `/orgs/${orgName}${path}`, 'other'), 404, s.url);
      }
      await expectApiError(await call('PATCH', `/orgs/${orgName}`, 'other', { description: 'x' }), 404, s.url);
      await expectApiError(await call('DELETE', `/orgs/${orgName}`, 'other'), 404, s.url);
    });

    test('an individual account is not an organization: 404', async () => {
      await expectApiError(await call('GET', `/orgs/${name.other}`, 'admin'), 404, s.url);
      await expectApiError(await call('GET', `/orgs/${uniq('none')}`), 404, s.url);
    });
  });

  describe('PATCH /orgs/{org}', () => {
    test('owners edit; absent text fields are cleared as Forgejo reads them; email only when given', async () => {
      const orgName = await makeOrg('public', { full_name: 'Full', email: 'a@example.com', location: 'L' });
      const res = await call('PATCH', `/orgs/${orgName}`, 'owner', { description: 'new', website: 'http://example.org', visibility: 'limited', repo_admin_change_team_access: true });
      expect(res.status).toBe(200);
      const body = await json(res);
      expectSchema(OrganizationSchema, body);
      expect(body).toMatchObject({ description: 'new', website: 'http://example.org', visibility: 'limited', full_name: '', location: '', email: 'a@example.com', repo_admin_change_team_access: true });
      const cleared = await json(await call('PATCH', `/orgs/${orgName}`, 'owner', { email: '' }));
      expect(cleared).toMatchObject({ email: '', visibility: 'limited', repo_admin_change_team_access: true });
      expect((await json(await call('GET', `/orgs/${orgName}`, 'other'))).visibility).toBe('limited');
    });

    test('a site administrator may; a member or another account: 403; anonymous: 401', async () => {
      const orgName = await makeOrg();
      expect((await call('PATCH', `/orgs/${orgName}`, 'admin', { full_name: 'By admin' })).status).toBe(200);
      expect(await expectApiError(await call('PATCH', `/orgs/${orgName}`, 'member', { full_name: 'x' }), 403, s.url)).toBe('Must be an organization owner');
      await expectApiError(await call('PATCH', `/orgs/${orgName}`, 'other', { full_name: 'x' }), 403, s.url);
      await expectApiError(await call('PATCH', `/orgs/${orgName}`, undefined, { full_name: 'x' }), 401, s.url);
      // A caller who may not edit gets 403 whatever the body says.
      await expectApiError(await call('PATCH', `/orgs/${orgName}`, 'other', { visibility: 'nope' }), 403, s.url);
      expect((await json(await call('GET', `/orgs/${orgName}`))).full_name).toBe('By admin');
    });

    test('bad input: 422', async () => {
      const orgName = await makeOrg();
      await expectApiError(await call('PATCH', `/orgs/${orgName}`, 'owner', { visibility: 'nope' }), 422, s.url);
      await expectApiError(await call('PATCH', `/orgs/${orgName}`, 'owner', { website: 'not a url' }), 422, s.url);
      await expectApiError(await call('PATCH', `/orgs/${orgName}`, 'owner', { email: 'not-an-email' }), 422, s.url);
      await expectApiError(await call('PATCH', `/orgs/${orgName}`, 'owner', { full_name: 'x'.repeat(101) }), 422, s.url);
    });
  });

  // `POST /org/{org}/repos` is the deprecated spelling the Go SDK, `tea` and gitea-js use: the same operation.
  describe.each(['/orgs', '/org'])('organization repositories (created with POST %s/{org}/repos)', (base) => {
    test('owners create them (201); they list for who may see them, with counts', async () => {
      const orgName = await makeOrg();
      const created = await call('POST', `${base}/${orgName}/repos`, 'owner', { name: 'open', auto_init: true, readme: 'Default' });
      expect(created.status).toBe(201);
      const repo = await json(created);
      expectSchema(RepositorySchema, repo);
      expect(repo.owner.login).toBe(orgName);
      expect((await call('POST', `${base}/${orgName}/repos`, 'admin', { name: 'hidden', private: true })).status).toBe(201);

      const anon = await call('GET', `/orgs/${orgName}/repos`);
      expect(anon.status).toBe(200);
      const anonList = await json<{ name: string }[]>(anon);
      for (const item of anonList) expectSchema(RepositorySchema, item);
      expect(anonList.map((r) => r.name)).toEqual(['open']);
      expect(anon.headers.get('x-total-count')).toBe('1');
      expect((await json<{ name: string }[]>(await call('GET', `/orgs/${orgName}/repos`, 'other'))).map((r) => r.name)).toEqual(['open']);
      const owners = await call('GET', `/orgs/${orgName}/repos`, 'owner');
      expect((await json<{ name: string }[]>(owners)).map((r) => r.name).sort()).toEqual(['hidden', 'open']);
      expect(owners.headers.get('x-total-count')).toBe('2');
      const paged = await call('GET', `/orgs/${orgName}/repos?limit=1&page=2`, 'admin');
      expect((await json<unknown[]>(paged)).length).toBe(1);
      expect(paged.headers.get('x-total-count')).toBe('2');
    });

    test('a member of a team that may create repositories may; other members and accounts: 403', async () => {
      const orgName = await makeOrg();
      const org = await userNamed(s.host, orgName);
      const creatorName = uniq('maker');
      await createUser(s.host, creatorName);
      auth[creatorName] = tokenHeader(await createToken(s.host, creatorName));
      await joinTeam(s.host, org, await userNamed(s.host, creatorName), { permission: 'write', canCreateOrgRepo: true });
      expect((await call('POST', `${base}/${orgName}/repos`, creatorName, { name: 'made' })).status).toBe(201);
      const message = await expectApiError(await call('POST', `${base}/${orgName}/repos`, 'member', { name: 'nope' }), 403, s.url);
      expect(message).toBe(`Given user is not allowed to create repository in organization ${orgName}.`);
      await expectApiError(await call('POST', `${base}/${orgName}/repos`, 'other', { name: 'nope' }), 403, s.url);
      await expectApiError(await call('POST', `${base}/${orgName}/repos`, undefined, { name: 'nope' }), 401, s.url);
    });

    test('conflicts and bad input: 409 name taken, 422 invalid, 400 unknown readme template', async () => {
      const orgName = await makeOrg();
      expect((await call('POST', `${base}/${orgName}/repos`, 'owner', { name: 'dup' })).status).toBe(201);
      await expectApiError(await call('POST', `${base}/${orgName}/repos`, 'owner', { name: 'dup' }), 409, s.url);
      await expectApiError(await call('POST', `${base}/${orgName}/repos`, 'owner', { name: 'bad name' }), 422, s.url);
      await expectApiError(await call('POST', `${base}/${orgName}/repos`, 'owner', {}), 422, s.url);
      await expectApiError(await call('POST', `${base}/${orgName}/repos`, 'owner', { name: 'rd', auto_init: true, readme: 'NoSuchTemplate' }), 400, s.url);
    });

    test('an unknown or private organization: 404; the repository is not created', async () => {
      await expectApiError(await call('POST', `${base}/${uniq('nosuch')}/repos`, 'owner', { name: 'x' }), 404, s.url);
      const orgName = await makeOrg('private');
      await expectApiError(await call('POST', `${base}/${orgName}/repos`, 'other', { name: 'x' }), 404, s.url);
      expect((await call('GET', `/repos/${orgName}/x`, 'owner')).status).toBe(404);
    });
  });

  describe('members', () => {
    test('members see every member; others see the public ones; anonymous: 401', async () => {
      const orgName = await makeOrg();
      const asMember = await call('GET', `/orgs/${orgName}/members`, 'member');
      expect(asMember.status).toBe(200);
      const members = await json<{ login: string }[]>(asMember);
      for (const m of members) expectSchema(UserSchema, m);
      expect(members.map((m) => m.login).sort()).toEqual([name.member, name.owner].sort());
      expect(asMember.headers.get('x-total-count')).toBe('2');
      const asAdmin = await json<{ login: string }[]>(await call('GET', `/orgs/${orgName}/members`, 'admin'));
      expect(asAdmin.length).toBe(2);

      const asOther = await call('GET', `/orgs/${orgName}/members`, 'other');
      expect(await json(asOther)).toEqual([]);
      expect(asOther.headers.get('x-total-count')).toBe('0');
      await expectApiError(await call('GET', `/orgs/${orgName}/members`), 401, s.url);

      // The member shows their membership: now everyone sees them on both lists.
      expect((await call('PUT', `/orgs/${orgName}/public_members/${name.member}`, 'member')).status).toBe(204);
      expect((await json<{ login: string }[]>(await call('GET', `/orgs/${orgName}/members`, 'other'))).map((m) => m.login)).toEqual([name.member]);
      const pub = await call('GET', `/orgs/${orgName}/public_members`);
      expect((await json<{ login: string }[]>(pub)).map((m) => m.login)).toEqual([name.member]);
      expect(pub.headers.get('x-total-count')).toBe('1');
      expect((await call('GET', `/orgs/${orgName}/public_members/${name.member}`)).status).toBe(204);
      expect((await call('GET', `/orgs/${orgName}/public_members/${name.owner}`)).status).toBe(404);

      expect((await call('DELETE', `/orgs/${orgName}/public_members/${name.member}`, 'member')).status).toBe(204);
      expect((await call('GET', `/orgs/${orgName}/public_members/${name.member}`)).status).toBe(404);
      expect(await json(await call('GET', `/orgs/${orgName}/public_members`))).toEqual([]);
    });

    test('publicize/conceal: only one\'s own membership (403 otherwise); non-members: 403', async () => {
      const orgName = await makeOrg();
      expect(await expectApiError(await call('PUT', `/orgs/${orgName}/public_members/${name.member}`, 'owner'), 403, s.url)).toBe('Cannot publicize another member');
      expect(await expectApiError(await call('DELETE', `/orgs/${orgName}/public_members/${name.member}`, 'owner'), 403, s.url)).toBe('Cannot conceal another member');
      expect(await expectApiError(await call('PUT', `/orgs/${orgName}/public_members/${name.other}`, 'other'), 403, s.url)).toBe('Must be an organization member');
      await expectApiError(await call('PUT', `/orgs/${orgName}/public_members/${name.member}`), 401, s.url);
      await expectApiError(await call('PUT', `/orgs/${orgName}/public_members/${uniq('nobody')}`, 'member'), 404, s.url);
    });

    test('GET /members/{username}: 204 / 404 for members and administrators; others are sent to the public check (303)', async () => {
      const orgName = await makeOrg();
      expect((await call('GET', `/orgs/${orgName}/members/${name.member}`, 'owner')).status).toBe(204);
      expect((await call('GET', `/orgs/${orgName}/members/${name.other}`, 'owner')).status).toBe(404);
      expect((await call('GET', `/orgs/${orgName}/members/${name.member}`, 'admin')).status).toBe(204);
      // Asking about oneself, not being a member: no.
      expect((await call('GET', `/orgs/${orgName}/members/${name.other}`, 'other')).status).toBe(404);
      const redirected = await call('GET', `/orgs/${orgName}/members/${name.member}`, 'other');
      expect(redirected.status).toBe(303);
      expect(redirected.headers.get('location')).toBe(`${s.url}api/v1/orgs/${orgName}/public_members/${name.member}`);
      await expectApiError(await call('GET', `/orgs/${orgName}/members/${uniq('nobody')}`, 'owner'), 404, s.url);
    });

    test('DELETE /members/{username}: owners remove members; the last owner stays (422); others: 403', async () => {
      const orgName = await makeOrg();
      await expectApiError(await call('DELETE', `/orgs/${orgName}/members/${name.member}`, 'member'), 403, s.url);
      await expectApiError(await call('DELETE', `/orgs/${orgName}/members/${name.member}`, 'other'), 403, s.url);
      await expectApiError(await call('DELETE', `/orgs/${orgName}/members/${name.member}`), 401, s.url);
      const removed: string[] = [];
      const off = s.host.events.on('org.member_removed', (e) => {
        removed.push(`${e.payload.org.name}/${e.payload.user.name}`);
      });
      expect((await call('DELETE', `/orgs/${orgName}/members/${name.member}`, 'owner')).status).toBe(204);
      expect((await call('GET', `/orgs/${orgName}/members/${name.member}`, 'owner')).status).toBe(404);
      // Its teams went with the membership: the organization is no longer among its own.
      expect((await json<{ name: string }[]>(await call('GET', '/user/orgs?limit=50', 'member'))).map((o) => o.name)).not.toContain(orgName);
      // Not a member (any more): nothing to do.
      expect((await call('DELETE', `/orgs/${orgName}/members/${name.member}`, 'owner')).status).toBe(204);
      const message = await expectApiError(await call('DELETE', `/orgs/${orgName}/members/${name.owner}`, 'owner'), 422, s.url);
      expect(message).toContain('last member of owner team');
      await expectApiError(await call('DELETE', `/orgs/${orgName}/members/${name.owner}`, 'admin'), 422, s.url);
      expect((await call('GET', `/orgs/${orgName}/members/${name.owner}`, 'owner')).status).toBe(204);
      await s.host.events.idle();
      off();
      expect(removed).toEqual([`${orgName}/${name.member}`]);
    });
  });

  describe('lists of an account\'s organizations', () => {
    test('GET /user/orgs: all of mine; GET /users/{username}/orgs: all for myself and administrators, else public memberships of public organizations', async () => {
      const who = uniq('joiner');
      await createUser(s.host, who);
      auth[who] = tokenHeader(await createToken(s.host, who));
      const pub = uniq('a');
      const priv = uniq('b');
      const lim = uniq('c');
      for (const [orgName, visibility] of [[pub, 'public'], [priv, 'private'], [lim, 'limited']] as const) {
        expect((await call('POST', '/orgs', who, { username: orgName, visibility })).status).toBe(201);
        expect((await call('PUT', `/orgs/${orgName}/public_members/${who}`, who)).status).toBe(204);
      }
      const mine = await call('GET', '/user/orgs', who);
      expect(mine.status).toBe(200);
      const mineBody = await json<{ name: string }[]>(mine);
      for (const o of mineBody) expectSchema(OrganizationSchema, o);
      expect(mineBody.map((o) => o.name)).toEqual([pub, priv, lim]);
      expect(mine.headers.get('x-total-count')).toBe('3');
      expect((await json<{ name: string }[]>(await call('GET', `/users/${who}/orgs`, who))).map((o) => o.name)).toEqual([pub, priv, lim]);
      expect((await json<{ name: string }[]>(await call('GET', `/users/${who}/orgs`, 'admin'))).map((o) => o.name)).toEqual([pub, priv, lim]);
      const others = await call('GET', `/users/${who}/orgs`, 'other');
      expect((await json<{ name: string }[]>(others)).map((o) => o.name)).toEqual([pub]);
      expect(others.headers.get('x-total-count')).toBe('1');
      // A concealed membership disappears from others' view.
      expect((await call('DELETE', `/orgs/${pub}/public_members/${who}`, who)).status).toBe(204);
      expect(await json(await call('GET', `/users/${who}/orgs`, 'other'))).toEqual([]);
      await expectApiError(await call('GET', '/user/orgs'), 401, s.url);
      await expectApiError(await call('GET', `/users/${who}/orgs`), 401, s.url);
      await expectApiError(await call('GET', `/users/${uniq('nobody')}/orgs`, 'other'), 404, s.url);
    });

    test('GET /users/{username}/orgs/{org}/permissions: a member, a non-member, an invisible organization', async () => {
      const orgName = await makeOrg('private');
      const member = await call('GET', `/users/${name.member}/orgs/${orgName}/permissions`, 'member');
      expect(member.status).toBe(200);
      expect(await json(member)).toEqual({ is_owner: false, is_admin: false, can_write: false, can_read: true, can_create_repository: false });
      // Another account asking about a member of a private organization it cannot see: 404.
      await expectApiError(await call('GET', `/users/${name.member}/orgs/${orgName}/permissions`, 'other'), 404, s.url);
      // A site administrator asking about an account that is no member of a private organization: 404, as Forgejo.
      await expectApiError(await call('GET', `/users/${name.other}/orgs/${orgName}/permissions`, 'admin'), 404, s.url);
      const publicOrg = await makeOrg('public');
      expect(await json(await call('GET', `/users/${name.other}/orgs/${publicOrg}/permissions`, 'other'))).toEqual({
        is_owner: false,
        is_admin: false,
        can_write: false,
        can_read: false,
        can_create_repository: false,
      });
      await expectApiError(await call('GET', `/users/${name.other}/orgs/${name.owner}/permissions`, 'other'), 404, s.url);
      await expectApiError(await call('GET', `/users/${name.other}/orgs/${publicOrg}/permissions`), 401, s.url);
    });
  });

  describe('rename, avatar, delete', () => {
    test('POST /orgs/{org}/rename: owners; the repositories follow; taken or bad names 422; others 403', async () => {
      const orgName = await makeOrg();
      expect((await call('POST', `/orgs/${orgName}/repos`, 'owner', { name: 'r', auto_init: true })).status).toBe(201);
      await expectApiError(await call('POST', `/orgs/${orgName}/rename`, 'member', { new_name: uniq('x') }), 403, s.url);
      await expectApiError(await call('POST', `/orgs/${orgName}/rename`, 'owner', { new_name: name.other }), 422, s.url);
      await expectApiError(await call('POST', `/orgs/${orgName}/rename`, 'owner', { new_name: 'bad name' }), 422, s.url);
      await expectApiError(await call('POST', `/orgs/${orgName}/rename`, 'owner', {}), 422, s.url);
      const newName = uniq('renamed');
      expect((await call('POST', `/orgs/${orgName}/rename`, 'owner', { new_name: newName })).status).toBe(204);
      // The old name redirects to the new one (Forgejo's user_redirect answers 307).
      const old = await call('GET', `/orgs/${orgName}`);
      expect(old.status).toBe(307);
      expect(old.headers.get('location')).toBe(`/api/v1/orgs/${newName}`);
      expect((await json(await call('GET', `/orgs/${newName}`))).name).toBe(newName);
      const repo = await call('GET', `/repos/${newName}/r/contents/README.md`, 'owner');
      expect(repo.status).toBe(200);
    });

    test('POST/DELETE /orgs/{org}/avatar: owners change the avatar_url; members 403; bad images 422', async () => {
      const orgName = await makeOrg();
      const before = (await json(await call('GET', `/orgs/${orgName}`))).avatar_url as string;
      await expectApiError(await call('POST', `/orgs/${orgName}/avatar`, 'member', { image: PNG_1X1 }), 403, s.url);
      expect((await call('POST', `/orgs/${orgName}/avatar`, 'owner', { image: PNG_1X1 })).status).toBe(204);
      const after = (await json(await call('GET', `/orgs/${orgName}`))).avatar_url as string;
      expect(after).not.toBe(before);
      await expectApiError(await call('POST', `/orgs/${orgName}/avatar`, 'owner', { image: Buffer.from('not an image').toString('base64') }), 422, s.url);
      await expectApiError(await call('DELETE', `/orgs/${orgName}/avatar`, 'other'), 403, s.url);
      expect((await call('DELETE', `/orgs/${orgName}/avatar`, 'owner')).status).toBe(204);
      expect((await json(await call('GET', `/orgs/${orgName}`))).avatar_url).toBe(before);
    });

    test('DELETE /orgs/{org}: refused while it owns repositories (422); then gone with its memberships', async () => {
      const orgName = await makeOrg();
      const events: string[] = [];
      const off = s.host.events.on('org.deleted', (e) => {
        events.push(e.payload.org.name);
      });
      expect((await call('POST', `/orgs/${orgName}/repos`, 'owner', { name: 'keep' })).status).toBe(201);
      await expectApiError(await call('DELETE', `/orgs/${orgName}`, 'member'), 403, s.url);
      const message = await expectApiError(await call('DELETE', `/orgs/${orgName}`, 'owner'), 422, s.url);
      expect(message).toContain('still has ownership of repositories');
      expect((await call('DELETE', `/repos/${orgName}/keep`, 'owner')).status).toBe(204);
      expect((await call('DELETE', `/orgs/${orgName}`, 'owner')).status).toBe(204);
      await expectApiError(await call('GET', `/orgs/${orgName}`, 'admin'), 404, s.url);
      expect((await json<{ name: string }[]>(await call('GET', '/user/orgs', 'member'))).map((o) => o.name)).not.toContain(orgName);
      await s.host.events.idle();
      off();
      expect(events).toEqual([orgName]);
      // The name is free again.
      expect((await call('POST', '/orgs', 'other', { username: orgName })).status).toBe(201);
    });

    test('deleting an account still in organizations is refused (422) until it leaves them', async () => {
      const who = uniq('leaver');
      await createUser(s.host, who);
      auth[who] = tokenHeader(await createToken(s.host, who));
      const orgName = uniq('org');
      expect((await call('POST', '/orgs', who, { username: orgName })).status).toBe(201);
      const message = await expectApiError(await call('DELETE', `/admin/users/${who}`, 'admin'), 422, s.url);
      expect(message).toContain('membership of organizations');
      expect((await call('DELETE', `/orgs/${orgName}`, who)).status).toBe(204);
      expect((await call('DELETE', `/admin/users/${who}`, 'admin')).status).toBe(204);
    });
  });
});

describe('GET /orgs and GET /admin/orgs: what each caller may see, and counts of only that', () => {
  let s: TestServer;
  const tokens: Record<string, Record<string, string>> = {};
  const orgs = { pub: uniq('p'), lim: uniq('l'), priv: uniq('q'), other: uniq('z') };

  beforeAll(async () => {
    s = await startTestServer();
    for (const who of ['owner', 'member', 'stranger', 'restricted', 'boss']) {
      await createUser(s.host, who, { admin: who === 'boss' });
      tokens[who] = tokenHeader(await createToken(s.host, who));
    }
    await s.host.userAdmin.edit(SYSTEM, await userNamed(s.host, 'restricted'), { restricted: true });
    const owner = await userNamed(s.host, 'owner');
    const ownerActor = { kind: 'user', user: owner, publicOnly: false } as const;
    await s.host.orgs.create(ownerActor, owner, { username: orgs.pub, visibility: 'public' });
    await s.host.orgs.create(ownerActor, owner, { username: orgs.lim, visibility: 'limited' });
    await s.host.orgs.create(ownerActor, owner, { username: orgs.priv, visibility: 'private' });
    await s.host.orgs.create(ownerActor, owner, { username: orgs.other, visibility: 'private' });
    await joinTeam(s.host, await userNamed(s.host, orgs.priv), await userNamed(s.host, 'member'));
    await joinTeam(s.host, await userNamed(s.host, orgs.priv), await userNamed(s.host, 'restricted'));
  });
  afterAll(async () => s?.cleanup());

  async function names(path: string, who?: string): Promise<{ names: string[]; total: string | null }> {
    const res = await s.fetch(`/api/v1${path}`, { headers: who ? tokens[who] : {} });
    expect(res.status, path).toBe(200);
    const body = await json<{ name: string }[]>(res);
    for (const o of body) expectSchema(OrganizationSchema, o);
    return { names: body.map((o) => o.name), total: res.headers.get('x-total-count') };
  }

  const sorted = (...list: string[]) => [...list].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

  test('anonymous: public only', async () => {
    expect(await names('/orgs')).toEqual({ names: [orgs.pub], total: '1' });
  });

  test('signed in: public and limited', async () => {
    expect(await names('/orgs', 'stranger')).toEqual({ names: sorted(orgs.pub, orgs.lim), total: '2' });
  });

  test('a member: also the private organization it belongs to', async () => {
    expect(await names('/orgs', 'member')).toEqual({ names: sorted(orgs.pub, orgs.lim, orgs.priv), total: '3' });
    expect(await names('/orgs', 'owner')).toEqual({ names: sorted(orgs.pub, orgs.lim, orgs.priv, orgs.other), total: '4' });
  });

  test('restricted: public ones and its own', async () => {
    expect(await names('/orgs', 'restricted')).toEqual({ names: sorted(orgs.pub, orgs.priv), total: '2' });
  });

  test('site administrators: all, on /orgs and /admin/orgs; paging keeps the count', async () => {
    const all = sorted(orgs.pub, orgs.lim, orgs.priv, orgs.other);
    expect(await names('/orgs', 'boss')).toEqual({ names: all, total: '4' });
    expect(await names('/admin/orgs', 'boss')).toEqual({ names: all, total: '4' });
    expect(await names('/admin/orgs?limit=2&page=2', 'boss')).toEqual({ names: all.slice(2), total: '4' });
  });

  test('/admin/orgs: 403 for others, 401 anonymous', async () => {
    await expectApiError(await s.fetch('/api/v1/admin/orgs', { headers: tokens.stranger }), 403, s.url);
    await expectApiError(await s.fetch('/api/v1/admin/orgs'), 401, s.url);
  });
});

describe('[admin] DISABLE_REGULAR_ORG_CREATION', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ admin: { DISABLE_REGULAR_ORG_CREATION: true } });
    await createUser(s.host, 'regular');
    await createUser(s.host, 'boss', { admin: true });
  });
  afterAll(async () => s?.cleanup());

  test('regular accounts: 403; site administrators still may', async () => {
    const regular = tokenHeader(await createToken(s.host, 'regular'));
    const boss = tokenHeader(await createToken(s.host, 'boss'));
    await expectApiError(await s.fetch('/api/v1/orgs', jsonInit('POST', { username: 'nope' }, regular)), 403, s.url);
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: 'yes' }, boss))).status).toBe(201);
  });
});
