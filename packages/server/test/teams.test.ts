/**
 * Teams over HTTP: create (permission, units, units_map), list, search, read, edit, delete; members and
 * repositories; `/user/teams`; a repository's teams with `repo_admin_change_team_access`; transfers with
 * `team_ids`; `GET /repos/search?team_id=`; and what the caller may do to the organization's repositories after
 * each change. Unhappy paths: anonymous, non-members, members outside the team, bad input, the Owners team.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type, type TSchema } from '@sinclair/typebox';
import { RepositorySchema, TeamSchema, TeamSearchResultsSchema, UserSchema, matchesSchema, schemaErrors, userActor } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const TeamListSchema = Type.Array(TeamSchema);
const UserListSchema = Type.Array(UserSchema);
const RepoListSchema = Type.Array(RepositorySchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

function expectSchema(schema: TSchema, value: unknown): void {
  expect(matchesSchema(schema, value), schemaErrors(schema, value).join('\n')).toBe(true);
}

const ALL_UNITS = ['repo.code', 'repo.issues', 'repo.ext_issues', 'repo.wiki', 'repo.ext_wiki', 'repo.pulls', 'repo.releases', 'repo.projects', 'repo.packages', 'repo.actions'];

describe('teams', () => {
  let s: TestServer;
  let owner: Account;
  let admin: Account;
  let member: Account;
  let outsider: Account;
  let org: string;
  let orgId: number;

  async function account(prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name, { admin: options.admin });
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  const call = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  async function createOrg(by: Account, options: Record<string, unknown> = {}): Promise<{ name: string; id: number }> {
    const name = uniq('org');
    const res = await call('POST', '/orgs', by, { username: name, ...options });
    expect(res.status, await res.clone().text()).toBe(201);
    return { name, id: (await json(res)).id };
  }

  async function createTeam(orgName: string, body: Record<string, unknown>, by: Account = owner): Promise<any> {
    const res = await call('POST', `/orgs/${orgName}/teams`, by, body);
    expect(res.status, await res.clone().text()).toBe(201);
    return json(res);
  }

  async function createOrgRepo(orgName: string, name: string, isPrivate = true): Promise<string> {
    const res = await call('POST', `/orgs/${orgName}/repos`, owner, { name, private: isPrivate });
    expect(res.status, await res.clone().text()).toBe(201);
    return `${orgName}/${name}`;
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    admin = await account('adm', { admin: true });
    member = await account('mem');
    outsider = await account('out');
    ({ name: org, id: orgId } = await createOrg(owner));
  });
  afterAll(async () => s?.cleanup());

  describe('POST /orgs/{org}/teams', () => {
    test('creates a team with units at its permission; the organization is populated', async () => {
      const res = await call('POST', `/orgs/${org}/teams`, owner, {
        name: 'Writers',
        description: 'they write',
        permission: 'write',
        units: ['repo.code', 'repo.issues'],
        can_create_org_repo: true,
      });
      expect(res.status).toBe(201);
      const team = await json(res);
      expectSchema(TeamSchema, team);
      expect(team).toMatchObject({
        name: 'Writers',
        description: 'they write',
        permission: 'write',
        includes_all_repositories: false,
        can_create_org_repo: true,
        units_map: { 'repo.code': 'write', 'repo.issues': 'write' },
        organization: { id: orgId, name: org },
      });
      expect([...team.units].sort()).toEqual(['repo.code', 'repo.issues']);
    });

    test('units_map: the team takes the lowest mode given (Forgejo), units given none stay listed', async () => {
      const unitsMap = { 'repo.code': 'read', 'repo.issues': 'write', 'repo.wiki': 'none' };
      const team = await createTeam(org, { name: 'mapped', permission: 'write', units_map: unitsMap, includes_all_repositories: true });
      expect(team.permission).toBe('read');
      expect(team.units_map).toEqual(unitsMap);
      expect([...team.units].sort()).toEqual(['repo.code', 'repo.issues', 'repo.wiki']);
      expect(team.includes_all_repositories).toBe(true);
    });

    test('admin teams cover every unit at admin', async () => {
      const team = await createTeam(org, { name: 'admins', permission: 'admin', units: ['repo.code'] });
      expect(team.permission).toBe('admin');
      expect([...team.units].sort()).toEqual([...ALL_UNITS].sort());
      for (const unit of ALL_UNITS) expect(team.units_map[unit]).toBe('admin');
    });

    test('duplicate names (any case) and bad input are 422', async () => {
      await createTeam(org, { name: 'dupe', permission: 'read', units: ['repo.code'] });
      let res = await call('POST', `/orgs/${org}/teams`, owner, { name: 'DUPE', permission: 'read', units: ['repo.code'] });
      expect(await expectApiError(res, 422, s.url)).toBe(`team already exists [org_id: ${orgId}, name: dupe]`);
      for (const body of [
        { permission: 'read', units: ['repo.code'] },
        { name: '', permission: 'read', units: ['repo.code'] },
        { name: 'has space', permission: 'read', units: ['repo.code'] },
        { name: 'new', permission: 'read', units: ['repo.code'] },
        { name: 'x'.repeat(256), permission: 'read', units: ['repo.code'] },
        { name: 'badperm', permission: 'owner', units: ['repo.code'] },
        { name: 'badunit', permission: 'read', units: ['repo.nothing'] },
        { name: 'badmode', units_map: { 'repo.code': 'superuser' } },
        { name: 'badmapunit', units_map: { 'repo.nope': 'read' } },
        { name: 'nounits', permission: 'read' },
        { name: 5 },
      ]) {
        res = await call('POST', `/orgs/${org}/teams`, owner, body);
        await expectApiError(res, 422, s.url);
      }
      res = await call('POST', `/orgs/${org}/teams`, owner, { name: 'nounits2', permission: 'write' });
      expect(await expectApiError(res, 422, s.url)).toBe('units permission should not be empty');
    });

    test('who may create: owners and site administrators; members 403, others 403, private orgs 404, anonymous 401', async () => {
      const m = await account('m');
      const t = await createTeam(org, { name: uniq('t'), permission: 'read', units: ['repo.code'] });
      expect((await call('PUT', `/teams/${t.id}/members/${m.name}`, owner)).status).toBe(204);
      let res = await call('POST', `/orgs/${org}/teams`, m, { name: 'bym', permission: 'read', units: ['repo.code'] });
      expect(await expectApiError(res, 403, s.url)).toBe('Must be an organization owner');
      res = await call('POST', `/orgs/${org}/teams`, outsider, { name: 'byout', permission: 'read', units: ['repo.code'] });
      expect(await expectApiError(res, 403, s.url)).toBe('Must be an organization member');
      res = await call('POST', `/orgs/${org}/teams`, undefined, { name: 'byanon', permission: 'read', units: ['repo.code'] });
      await expectApiError(res, 401, s.url);
      const hidden = await createOrg(owner, { visibility: 'private' });
      res = await call('POST', `/orgs/${hidden.name}/teams`, outsider, { name: 'x', permission: 'read', units: ['repo.code'] });
      await expectApiError(res, 404, s.url);
      const byAdmin = await createTeam(org, { name: uniq('adm'), permission: 'read', units: ['repo.code'] }, admin);
      expect(byAdmin.organization.name).toBe(org);
    });
  });

  describe('lists and search', () => {
    let o: { name: string; id: number };
    let alpha: any;
    let beta: any;

    beforeAll(async () => {
      o = await createOrg(owner);
      alpha = await createTeam(o.name, { name: 'alpha', description: 'first of them', permission: 'read', units: ['repo.code'] });
      beta = await createTeam(o.name, { name: 'beta', description: 'second', permission: 'write', units: ['repo.code'] });
      expect((await call('PUT', `/teams/${beta.id}/members/${member.name}`, owner)).status).toBe(204);
    });

    test('GET /orgs/{org}/teams: every team for members, by name, with the count; 403 for non-members', async () => {
      let res = await call('GET', `/orgs/${o.name}/teams`, member);
      expect(res.status).toBe(200);
      const teams = await json(res);
      expectSchema(TeamListSchema, teams);
      expect(teams.map((t: any) => t.name)).toEqual(['alpha', 'beta', 'Owners']);
      expect(res.headers.get('x-total-count')).toBe('3');
      expect(teams[0].organization).toBeNull();
      const owners = teams.find((t: any) => t.name === 'Owners');
      expect(owners).toMatchObject({ permission: 'owner', includes_all_repositories: true, can_create_org_repo: true });
      expect(owners.units_map['repo.code']).toBe('owner');
      res = await call('GET', `/orgs/${o.name}/teams?limit=1&page=2`, owner);
      expect((await json(res)).map((t: any) => t.name)).toEqual(['beta']);
      expect(res.headers.get('x-total-count')).toBe('3');
      expect(res.headers.get('link')).toContain('rel="next"');
      res = await call('GET', `/orgs/${o.name}/teams`, outsider);
      expect(await expectApiError(res, 403, s.url)).toBe('Must be an organization member');
      await expectApiError(await call('GET', `/orgs/${o.name}/teams`), 401, s.url);
      expect((await call('GET', `/orgs/${o.name}/teams`, admin)).status).toBe(200);
    });

    test('GET /orgs/{org}/teams/search: own teams only unless a site administrator asks; description included by default', async () => {
      let res = await call('GET', `/orgs/${o.name}/teams/search?q=a`, member);
      expect(res.status).toBe(200);
      let body = await json(res);
      expectSchema(TeamSearchResultsSchema, body);
      expect(body.ok).toBe(true);
      expect(body.data.map((t: any) => t.name)).toEqual(['beta']);
      res = await call('GET', `/orgs/${o.name}/teams/search?q=ALP`, admin);
      body = await json(res);
      expect(body.data.map((t: any) => t.name)).toEqual(['alpha']);
      expect(res.headers.get('x-total-count')).toBe('1');
      body = await json(await call('GET', `/orgs/${o.name}/teams/search?q=first`, admin));
      expect(body.data.map((t: any) => t.name)).toEqual(['alpha']);
      body = await json(await call('GET', `/orgs/${o.name}/teams/search?q=first&include_desc=false`, admin));
      expect(body.data).toEqual([]);
      body = await json(await call('GET', `/orgs/${o.name}/teams/search?q=%25`, admin));
      expect(body.data).toEqual([]);
      body = await json(await call('GET', `/orgs/${o.name}/teams/search`, owner));
      expect(body.data.map((t: any) => t.name)).toEqual(['Owners']);
      res = await call('GET', `/orgs/${o.name}/teams/search?q=a&limit=1`, admin);
      expect((await json(res)).data).toHaveLength(1);
      expect(res.headers.get('x-total-count')).toBe('2');
      res = await call('GET', `/orgs/${o.name}/teams/search`, outsider);
      await expectApiError(res, 403, s.url);
      expect(alpha.id).toBeGreaterThan(0);
    });

    test('GET /user/teams: the caller\'s teams with their organizations', async () => {
      const res = await call('GET', '/user/teams', member);
      expect(res.status).toBe(200);
      const teams = await json(res);
      expectSchema(TeamListSchema, teams);
      expect(teams.some((t: any) => t.id === beta.id && t.organization?.name === o.name)).toBe(true);
      expect(teams.some((t: any) => t.id === alpha.id)).toBe(false);
      expect(res.headers.get('x-total-count')).toBe(String(teams.length));
      await expectApiError(await call('GET', '/user/teams'), 401, s.url);
    });
  });

  describe('/teams/{id}', () => {
    test('read: team members, owners and site administrators; other members 403; others 404; anonymous 401', async () => {
      const o = await createOrg(owner);
      const t = await createTeam(o.name, { name: 'readers', permission: 'read', units: ['repo.code'] });
      const other = await createTeam(o.name, { name: 'others', permission: 'read', units: ['repo.code'] });
      const inTeam = await account('in');
      const inOrg = await account('inorg');
      expect((await call('PUT', `/teams/${t.id}/members/${inTeam.name}`, owner)).status).toBe(204);
      expect((await call('PUT', `/teams/${other.id}/members/${inOrg.name}`, owner)).status).toBe(204);
      for (const who of [inTeam, owner, admin]) {
        const res = await call('GET', `/teams/${t.id}`, who);
        expect(res.status).toBe(200);
        const body = await json(res);
        expectSchema(TeamSchema, body);
        expect(body).toMatchObject({ id: t.id, name: 'readers', organization: { id: o.id, name: o.name } });
      }
      expect(await expectApiError(await call('GET', `/teams/${t.id}`, inOrg), 403, s.url)).toBe('Must be a team member');
      await expectApiError(await call('GET', `/teams/${t.id}`, outsider), 404, s.url);
      await expectApiError(await call('GET', `/teams/${t.id}`), 401, s.url);
      await expectApiError(await call('GET', '/teams/999999999', owner), 404, s.url);
      await expectApiError(await call('GET', '/teams/abc', owner), 404, s.url);
      await expectApiError(await call('GET', '/teams/99999999999999999999999', admin), 404, s.url);
      // Changing it: owners only; a team member learns nothing (404, as Forgejo's reqOrgOwnership on team routes).
      await expectApiError(await call('PATCH', `/teams/${t.id}`, inTeam, { description: 'x' }), 404, s.url);
      await expectApiError(await call('DELETE', `/teams/${t.id}`, inTeam), 404, s.url);
    });

    test('edit: fields as Forgejo applies them; includes_all_repositories only with a permission', async () => {
      const o = await createOrg(owner);
      const t = await createTeam(o.name, { name: 'editme', permission: 'read', units: ['repo.code'] });
      let res = await call('PATCH', `/teams/${t.id}`, owner, { name: 'edited', description: 'new words', includes_all_repositories: true });
      expect(res.status).toBe(200);
      let body = await json(res);
      expectSchema(TeamSchema, body);
      expect(body).toMatchObject({ name: 'edited', description: 'new words', includes_all_repositories: false, permission: 'read' });
      body = await json(await call('PATCH', `/teams/${t.id}`, owner, { permission: 'write', includes_all_repositories: true, units: ['repo.code', 'repo.pulls'] }));
      expect(body).toMatchObject({ name: 'edited', permission: 'write', includes_all_repositories: true, units_map: { 'repo.code': 'write', 'repo.pulls': 'write' } });
      body = await json(await call('PATCH', `/teams/${t.id}`, owner, { units_map: { 'repo.code': 'read', 'repo.issues': 'write' } }));
      expect(body).toMatchObject({ permission: 'write', units_map: { 'repo.code': 'read', 'repo.issues': 'write' } });
      body = await json(await call('PATCH', `/teams/${t.id}`, owner, { description: 'only this' }));
      expect(body).toMatchObject({ name: 'edited', description: 'only this', units_map: { 'repo.code': 'read', 'repo.issues': 'write' } });
      body = await json(await call('PATCH', `/teams/${t.id}`, owner, { permission: 'admin' }));
      expect(body.permission).toBe('admin');
      expect(Object.keys(body.units_map).sort()).toEqual([...ALL_UNITS].sort());
      await createTeam(o.name, { name: 'taken', permission: 'read', units: ['repo.code'] });
      res = await call('PATCH', `/teams/${t.id}`, owner, { name: 'TAKEN' });
      expect(await expectApiError(res, 422, s.url)).toBe(`team already exists [org_id: ${o.id}, name: taken]`);
      await expectApiError(await call('PATCH', `/teams/${t.id}`, owner, { name: 'bad name' }), 422, s.url);
      await expectApiError(await call('PATCH', `/teams/${t.id}`, owner, { permission: 'owner' }), 422, s.url);
      // Units are checked where they count: below admin.
      expect((await call('PATCH', `/teams/${t.id}`, owner, { units: ['repo.bogus'] })).status).toBe(200);
      const reader = await createTeam(o.name, { name: 'reader', permission: 'read', units: ['repo.code'] });
      await expectApiError(await call('PATCH', `/teams/${reader.id}`, owner, { units: ['repo.bogus'] }), 422, s.url);
      await expectApiError(await call('PATCH', `/teams/${reader.id}`, owner, { units_map: { 'repo.code': 'owner' } }), 422, s.url);
    });

    test('the Owners team keeps its name, permission and units, and cannot be deleted', async () => {
      const o = await createOrg(owner);
      const teams = await json(await call('GET', `/orgs/${o.name}/teams`, owner));
      const owners = teams.find((t: any) => t.name === 'Owners');
      const body = await json(await call('PATCH', `/teams/${owners.id}`, owner, { name: 'Bosses', permission: 'read', units: ['repo.code'], can_create_org_repo: false, description: 'the owners' }));
      expect(body).toMatchObject({ name: 'Owners', permission: 'owner', can_create_org_repo: true, includes_all_repositories: true, description: 'the owners' });
      expect(body.units_map['repo.issues']).toBe('owner');
      await expectApiError(await call('DELETE', `/teams/${owners.id}`, owner), 422, s.url);
      expect((await call('GET', `/teams/${owners.id}`, owner)).status).toBe(200);
    });

    test('delete: the team goes; members left in no team leave the organization', async () => {
      const o = await createOrg(owner);
      const t1 = await createTeam(o.name, { name: 'one', permission: 'read', units: ['repo.code'] });
      const t2 = await createTeam(o.name, { name: 'two', permission: 'read', units: ['repo.code'] });
      const a = await account('a');
      const b = await account('b');
      for (const [team, who] of [[t1, a], [t1, b], [t2, b]] as const) expect((await call('PUT', `/teams/${team.id}/members/${who.name}`, owner)).status).toBe(204);
      const events: string[] = [];
      const off = s.host.events.on('org.member_removed', ({ payload }) => {
        events.push(payload.user.name);
      });
      expect((await call('DELETE', `/teams/${t1.id}`, owner)).status).toBe(204);
      off();
      await expectApiError(await call('GET', `/teams/${t1.id}`, owner), 404, s.url);
      expect(events).toEqual([a.name]);
      expect((await call('GET', `/orgs/${o.name}/members/${a.name}`, owner)).status).toBe(404);
      expect((await call('GET', `/orgs/${o.name}/members/${b.name}`, owner)).status).toBe(204);
      expect((await json(await call('GET', `/orgs/${o.name}/teams`, owner))).map((t: any) => t.name)).toEqual(['Owners', 'two']);
    });
  });

  describe('members', () => {
    test('add, list, check, remove; joining makes an organization member, leaving the last team ends it', async () => {
      const o = await createOrg(owner);
      const t = await createTeam(o.name, { name: 'crew', permission: 'read', units: ['repo.code'] });
      const a = await account('a');
      expect((await call('GET', `/orgs/${o.name}/members/${a.name}`, owner)).status).toBe(404);
      expect((await call('PUT', `/teams/${t.id}/members/${a.name}`, owner)).status).toBe(204);
      expect((await call('PUT', `/teams/${t.id}/members/${a.name}`, owner)).status).toBe(204);
      expect((await call('GET', `/orgs/${o.name}/members/${a.name}`, owner)).status).toBe(204);
      let res = await call('GET', `/teams/${t.id}/members`, a);
      expect(res.status).toBe(200);
      const members = await json(res);
      expectSchema(UserListSchema, members);
      expect(members.map((u: any) => u.login)).toEqual([a.name]);
      expect(res.headers.get('x-total-count')).toBe('1');
      res = await call('GET', `/teams/${t.id}/members/${a.name}`, owner);
      expect(res.status).toBe(200);
      expect((await json(res)).login).toBe(a.name);
      await expectApiError(await call('GET', `/teams/${t.id}/members/${owner.name}`, owner), 404, s.url);
      await expectApiError(await call('GET', `/teams/${t.id}/members/nosuchuser${uniq()}`, owner), 404, s.url);
      await expectApiError(await call('PUT', `/teams/${t.id}/members/nosuchuser${uniq()}`, owner), 404, s.url);
      // Members of the team may not change it.
      await expectApiError(await call('PUT', `/teams/${t.id}/members/${outsider.name}`, a), 404, s.url);
      await expectApiError(await call('DELETE', `/teams/${t.id}/members/${a.name}`, a), 404, s.url);
      // An organization is no team member.
      await expectApiError(await call('PUT', `/teams/${t.id}/members/${org}`, owner), 422, s.url);
      // An account the organization blocked does not join (409).
      const blocked = await account('blk');
      await s.host.social.block(userActor(await userNamed(s.host, o.name)), await userNamed(s.host, blocked.name));
      await expectApiError(await call('PUT', `/teams/${t.id}/members/${blocked.name}`, owner), 409, s.url);
      expect((await call('GET', `/orgs/${o.name}/members/${blocked.name}`, owner)).status).toBe(404);
      // Removing someone who is not a member changes nothing.
      expect((await call('DELETE', `/teams/${t.id}/members/${outsider.name}`, owner)).status).toBe(204);
      expect((await call('DELETE', `/teams/${t.id}/members/${a.name}`, owner)).status).toBe(204);
      expect((await call('GET', `/orgs/${o.name}/members/${a.name}`, owner)).status).toBe(404);
      await expectApiError(await call('GET', `/teams/${t.id}`, a), 404, s.url);
    });

    test('the Owners team cannot lose its last member (422)', async () => {
      const o = await createOrg(owner);
      const owners = (await json(await call('GET', `/orgs/${o.name}/teams`, owner))).find((t: any) => t.name === 'Owners');
      let res = await call('DELETE', `/teams/${owners.id}/members/${owner.name}`, owner);
      expect(await expectApiError(res, 422, s.url)).toBe(`user is the last member of owner team [uid: ${owner.id}]`);
      const second = await account('second');
      expect((await call('PUT', `/teams/${owners.id}/members/${second.name}`, owner)).status).toBe(204);
      // The new owner owns the organization now.
      expect((await call('POST', `/orgs/${o.name}/teams`, second, { name: 'bysecond', permission: 'read', units: ['repo.code'] })).status).toBe(201);
      res = await call('DELETE', `/teams/${owners.id}/members/${owner.name}`, second);
      expect(res.status).toBe(204);
      res = await call('DELETE', `/teams/${owners.id}/members/${second.name}`, second);
      expect(await expectApiError(res, 422, s.url)).toBe(`user is the last member of owner team [uid: ${second.id}]`);
    });
  });

  describe('repositories', () => {
    test('add, list, check, remove; repository rights follow the team', async () => {
      const o = await createOrg(owner);
      const secret = await createOrgRepo(o.name, 'secret');
      await createOrgRepo(o.name, 'other');
      const t = await createTeam(o.name, { name: 'coders', permission: 'write', units: ['repo.code'] });
      const a = await account('a');
      expect((await call('PUT', `/teams/${t.id}/members/${a.name}`, owner)).status).toBe(204);
      await expectApiError(await call('GET', `/repos/${secret}`, a), 404, s.url);

      expect((await call('PUT', `/teams/${t.id}/repos/${o.name}/secret`, owner)).status).toBe(204);
      expect((await call('PUT', `/teams/${t.id}/repos/${o.name}/secret`, owner)).status).toBe(204);
      let res = await call('GET', `/repos/${secret}`, a);
      expect(res.status).toBe(200);
      expect((await json(res)).permissions).toEqual({ admin: false, push: true, pull: true });

      res = await call('GET', `/teams/${t.id}/repos`, a);
      expect(res.status).toBe(200);
      const repos = await json(res);
      expectSchema(RepoListSchema, repos);
      expect(repos.map((r: any) => r.full_name)).toEqual([secret]);
      expect(res.headers.get('x-total-count')).toBe('1');
      res = await call('GET', `/teams/${t.id}/repos/${o.name}/secret`, a);
      expect(res.status).toBe(200);
      const one = await json(res);
      expectSchema(RepositorySchema, one);
      expect(one.full_name).toBe(secret);
      await expectApiError(await call('GET', `/teams/${t.id}/repos/${o.name}/other`, owner), 404, s.url);
      await expectApiError(await call('GET', `/teams/${t.id}/repos/${o.name}/missing`, owner), 404, s.url);

      // A team member without admin rights on the repository may not change the team's repositories.
      res = await call('DELETE', `/teams/${t.id}/repos/${o.name}/secret`, a);
      expect(await expectApiError(res, 403, s.url)).toBe('Must have admin-level access to the repository');
      // ...nor see a repository it cannot read.
      await expectApiError(await call('PUT', `/teams/${t.id}/repos/${o.name}/other`, a), 404, s.url);

      expect((await call('DELETE', `/teams/${t.id}/repos/${o.name}/secret`, owner)).status).toBe(204);
      await expectApiError(await call('GET', `/repos/${secret}`, a), 404, s.url);
      res = await call('GET', `/teams/${t.id}/repos`, a);
      expect(await json(res)).toEqual([]);
      expect(res.headers.get('x-total-count')).toBe('0');
    });

    test('read teams read; a team covering every repository lists them all and ignores adds and removals', async () => {
      const o = await createOrg(owner);
      const r1 = await createOrgRepo(o.name, 'r1');
      const r2 = await createOrgRepo(o.name, 'r2', false);
      const t = await createTeam(o.name, { name: 'everything', permission: 'read', units: ['repo.code'], includes_all_repositories: true });
      const a = await account('a');
      expect((await call('PUT', `/teams/${t.id}/members/${a.name}`, owner)).status).toBe(204);
      expect((await json(await call('GET', `/repos/${r1}`, a))).permissions).toEqual({ admin: false, push: false, pull: true });
      let res = await call('GET', `/teams/${t.id}/repos`, a);
      expect((await json(res)).map((r: any) => r.full_name)).toEqual([r1, r2]);
      expect(res.headers.get('x-total-count')).toBe('2');
      expect((await call('DELETE', `/teams/${t.id}/repos/${o.name}/r1`, owner)).status).toBe(204);
      expect((await call('GET', `/repos/${r1}`, a)).status).toBe(200);
      expect((await call('PUT', `/teams/${t.id}/repos/${o.name}/r1`, owner)).status).toBe(204);
      // A new repository is covered at once.
      const r3 = await createOrgRepo(o.name, 'r3');
      expect((await call('GET', `/repos/${r3}`, a)).status).toBe(200);
      res = await call('GET', `/repos/search?team_id=${t.id}`, a);
      expect(res.status).toBe(200);
      expect((await json(res)).data.map((r: any) => r.full_name).sort()).toEqual([r1, r2, r3].sort());
      // No longer covering every repository: it keeps those it had (Forgejo lists them all), not later ones.
      expect((await json(await call('PATCH', `/teams/${t.id}`, owner, { permission: 'read', includes_all_repositories: false }))).includes_all_repositories).toBe(false);
      res = await call('GET', `/teams/${t.id}/repos`, a);
      expect((await json(res)).map((r: any) => r.full_name)).toEqual([r1, r2, r3]);
      const r4 = await createOrgRepo(o.name, 'r4');
      await expectApiError(await call('GET', `/repos/${r4}`, a), 404, s.url);
      expect((await call('DELETE', `/teams/${t.id}/repos/${o.name}/r1`, owner)).status).toBe(204);
      await expectApiError(await call('GET', `/repos/${r1}`, a), 404, s.url);
    });

    test('units_map: the repository permissions follow the code unit', async () => {
      const o = await createOrg(owner);
      const repo = await createOrgRepo(o.name, 'units');
      const t = await createTeam(o.name, { name: 'issues', units_map: { 'repo.code': 'read', 'repo.issues': 'write' } });
      const a = await account('a');
      expect((await call('PUT', `/teams/${t.id}/members/${a.name}`, owner)).status).toBe(204);
      expect((await call('PUT', `/teams/${t.id}/repos/${o.name}/units`, owner)).status).toBe(204);
      expect((await json(await call('GET', `/repos/${repo}`, a))).permissions).toEqual({ admin: false, push: false, pull: true });
      // Admin teams own what they cover.
      const boss = await createTeam(o.name, { name: 'boss', permission: 'admin' });
      const b = await account('b');
      expect((await call('PUT', `/teams/${boss.id}/members/${b.name}`, owner)).status).toBe(204);
      expect((await call('PUT', `/teams/${boss.id}/repos/${o.name}/units`, owner)).status).toBe(204);
      expect((await json(await call('GET', `/repos/${repo}`, b))).permissions).toEqual({ admin: true, push: true, pull: true });
      // Changing another team's repositories needs that team's membership (Forgejo's reqTeamMembership).
      expect(await expectApiError(await call('PUT', `/teams/${t.id}/repos/${o.name}/units`, b), 403, s.url)).toBe('Must be a team member');
      expect((await call('DELETE', `/teams/${boss.id}/repos/${o.name}/units`, b)).status).toBe(204);
      await expectApiError(await call('GET', `/repos/${repo}`, b), 404, s.url);
    });

    test('GET /repos/search?team_id= lists the team\'s repositories the caller may see', async () => {
      const o = await createOrg(owner);
      const listed = await createOrgRepo(o.name, 'listed');
      await createOrgRepo(o.name, 'unlisted');
      const t = await createTeam(o.name, { name: 'searchers', permission: 'read', units: ['repo.code'] });
      expect((await call('PUT', `/teams/${t.id}/repos/${o.name}/listed`, owner)).status).toBe(204);
      const res = await call('GET', `/repos/search?team_id=${t.id}`, owner);
      expect(res.status).toBe(200);
      expect((await json(res)).data.map((r: any) => r.full_name)).toEqual([listed]);
      expect(res.headers.get('x-total-count')).toBe('1');
      expect((await json(await call('GET', `/repos/search?team_id=${t.id}`, outsider))).data).toEqual([]);
    });
  });

  describe('a repository\'s teams', () => {
    test('list, check, add, remove, with Forgejo\'s statuses', async () => {
      const o = await createOrg(owner);
      const repo = await createOrgRepo(o.name, 'teamed');
      const t = await createTeam(o.name, { name: 'zeta', permission: 'read', units: ['repo.code'] });
      let res = await call('GET', `/repos/${repo}/teams`, owner);
      expect(res.status).toBe(200);
      let teams = await json(res);
      expectSchema(TeamListSchema, teams);
      expect(teams.map((x: any) => x.name)).toEqual(['Owners']);
      await expectApiError(await call('GET', `/repos/${repo}/teams/zeta`, owner), 404, s.url);
      await expectApiError(await call('GET', `/repos/${repo}/teams/nothere`, owner), 404, s.url);
      expect((await call('PUT', `/repos/${repo}/teams/zeta`, owner)).status).toBe(204);
      res = await call('PUT', `/repos/${repo}/teams/ZETA`, owner);
      expect(await expectApiError(res, 422, s.url)).toBe("team 'zeta' is already added to repo");
      await expectApiError(await call('PUT', `/repos/${repo}/teams/Owners`, owner), 422, s.url);
      res = await call('GET', `/repos/${repo}/teams/zeta`, owner);
      expect(res.status).toBe(200);
      expectSchema(TeamSchema, await json(res));
      teams = await json(await call('GET', `/repos/${repo}/teams`, owner));
      expect(teams.map((x: any) => x.name)).toEqual(['Owners', 'zeta']);
      expect((await call('GET', `/teams/${t.id}/repos/${o.name}/teamed`, owner)).status).toBe(200);
      expect((await call('DELETE', `/repos/${repo}/teams/zeta`, owner)).status).toBe(204);
      res = await call('DELETE', `/repos/${repo}/teams/zeta`, owner);
      expect(await expectApiError(res, 422, s.url)).toBe("team 'zeta' was not added to repo");
      await expectApiError(await call('DELETE', `/repos/${repo}/teams/nothere`, owner), 404, s.url);
      await expectApiError(await call('GET', `/repos/${repo}/teams`), 401, s.url);
      await expectApiError(await call('GET', `/repos/${repo}/teams`, outsider), 404, s.url);
    });

    test('a repository of an individual: 405', async () => {
      const res = await call('POST', '/user/repos', owner, { name: uniq('mine') });
      const mine = (await json(res)).full_name;
      await expectApiError(await call('GET', `/repos/${mine}/teams`, owner), 405, s.url);
      await expectApiError(await call('GET', `/repos/${mine}/teams/x`, owner), 405, s.url);
      await expectApiError(await call('PUT', `/repos/${mine}/teams/x`, owner), 405, s.url);
    });

    test('repository administrators change team access only when the organization allows it', async () => {
      const o = await createOrg(owner);
      const repo = await createOrgRepo(o.name, 'guarded');
      await createTeam(o.name, { name: 'guests', permission: 'read', units: ['repo.code'] });
      const repoAdmin = await account('ra');
      const reader = await account('rd');
      expect((await call('PUT', `/repos/${repo}/collaborators/${repoAdmin.name}`, owner, { permission: 'admin' })).status).toBe(204);
      expect((await call('PUT', `/repos/${repo}/collaborators/${reader.name}`, owner, { permission: 'read' })).status).toBe(204);
      let res = await call('PUT', `/repos/${repo}/teams/guests`, repoAdmin);
      expect(await expectApiError(res, 403, s.url)).toBe('user is nor repo admin nor owner');
      res = await call('PUT', `/repos/${repo}/teams/guests`, reader);
      expect(await expectApiError(res, 403, s.url)).toBe('user should be an owner or a collaborator with admin write of a repository');
      expect((await call('GET', `/repos/${repo}/teams`, reader)).status).toBe(200);
      expect((await call('PATCH', `/orgs/${o.name}`, owner, { repo_admin_change_team_access: true })).status).toBe(200);
      expect((await call('PUT', `/repos/${repo}/teams/guests`, repoAdmin)).status).toBe(204);
      expect((await call('DELETE', `/repos/${repo}/teams/guests`, repoAdmin)).status).toBe(204);
      expect((await call('PUT', `/repos/${repo}/teams/guests`, admin)).status).toBe(204);
    });
  });

  describe('transfers with team_ids', () => {
    test('the repository joins the recipient organization\'s teams; ids are checked', async () => {
      const o = await createOrg(owner);
      const elsewhere = await createOrg(owner);
      const t = await createTeam(o.name, { name: 'receivers', permission: 'write', units: ['repo.code'] });
      const foreign = await createTeam(elsewhere.name, { name: 'foreign', permission: 'read', units: ['repo.code'] });
      const a = await account('a');
      expect((await call('PUT', `/teams/${t.id}/members/${a.name}`, owner)).status).toBe(204);
      const name = uniq('moving');
      expect((await call('POST', '/user/repos', owner, { name, private: true })).status).toBe(201);
      let res = await call('POST', `/repos/${owner.name}/${name}/transfer`, owner, { new_owner: o.name, team_ids: [999999999] });
      expect(await expectApiError(res, 422, s.url)).toBe('team 999999999 not found');
      res = await call('POST', `/repos/${owner.name}/${name}/transfer`, owner, { new_owner: o.name, team_ids: [foreign.id] });
      expect(await expectApiError(res, 403, s.url)).toBe(`team ${foreign.id} belongs not to org ${o.id}`);
      res = await call('POST', `/repos/${owner.name}/${name}/transfer`, owner, { new_owner: o.name, team_ids: [t.id] });
      expect(res.status, await res.clone().text()).toBe(202);
      expect((await json(await call('GET', `/repos/${o.name}/${name}`, a))).permissions).toEqual({ admin: false, push: true, pull: true });
      expect((await json(await call('GET', `/repos/${o.name}/${name}/teams`, owner))).map((x: any) => x.name)).toEqual(['Owners', 'receivers']);
    });

    test('an offered transfer keeps its teams until the organization accepts it', async () => {
      const o = await createOrg(owner);
      const t = await createTeam(o.name, { name: 'later', permission: 'write', units: ['repo.code'] });
      const a = await account('a');
      expect((await call('PUT', `/teams/${t.id}/members/${a.name}`, owner)).status).toBe(204);
      // An outsider may offer its repository to the organization, not move it there.
      const outsider = await account('outsider');
      const name = uniq('offered');
      expect((await call('POST', '/user/repos', outsider, { name, private: true })).status).toBe(201);
      const res = await call('POST', `/repos/${outsider.name}/${name}/transfer`, outsider, { new_owner: o.name, team_ids: [t.id] });
      expect(res.status, await res.clone().text()).toBe(201);
      expect((await call('GET', `/repos/${o.name}/${name}`, owner)).status).toBe(404);
      expect((await call('POST', `/repos/${outsider.name}/${name}/transfer/accept`, owner)).status).toBe(202);
      expect((await json(await call('GET', `/repos/${o.name}/${name}`, a))).permissions).toEqual({ admin: false, push: true, pull: true });
      expect((await json(await call('GET', `/repos/${o.name}/${name}/teams`, owner))).map((x: any) => x.name)).toEqual(['Owners', 'later']);
    });
  });
});
