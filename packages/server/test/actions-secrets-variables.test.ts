/**
 * Actions secrets and variables through the API, at the three levels Forgejo has them: `/repos/{owner}/{repo}/actions`
 * (the repository's owners: Forgejo's reqOwner), `/orgs/{org}/actions` (the organization's owners) and
 * `/user/actions` (the signed-in user). Statuses, bodies and headers as a client sees them; Forgejo's name rules and
 * value bounds; 401/403/404 and token scopes; a secret's value never in any answer; concurrent creates of one name
 * end in one creation, never a 500. What is stored, and what goes with a deleted repository, organization or account,
 * is read from the tables in core's `actions-secrets-variables.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ActionVariableSchema, SecretSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, jsonInit, tokenHeader, type TestServer, startTestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';

let s: TestServer;
let alice: Account;
let bob: Account;
let admin: Account;

/** Everything every answer of this file carried, to prove no secret value ever left the server. */
const seen: string[] = [];

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const res = await s.fetch(path, init);
  const text = await res.clone().text();
  seen.push(`${res.status} ${JSON.stringify([...res.headers])} ${text}`);
  return res;
}

function put(path: string, body: unknown, who: Account | Record<string, string>): Promise<Response> {
  return call(path, jsonInit('PUT', body, 'h' in who ? (who.h as Record<string, string>) : who));
}

function post(path: string, body: unknown, who: Account | Record<string, string>): Promise<Response> {
  return call(path, jsonInit('POST', body, 'h' in who ? (who.h as Record<string, string>) : who));
}

function get(path: string, who?: Account | Record<string, string>): Promise<Response> {
  return call(path, { headers: who === undefined ? {} : 'h' in who ? (who.h as Record<string, string>) : who });
}

function del(path: string, who?: Account | Record<string, string>): Promise<Response> {
  return call(path, { method: 'DELETE', headers: who === undefined ? {} : 'h' in who ? (who.h as Record<string, string>) : who });
}

/** A bodiless success: the status, nothing in the body, no content type. */
async function expectEmpty(res: Response, status: 201 | 204): Promise<void> {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(await res.text()).toBe('');
  expect(res.headers.get('content-type')).toBeNull();
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

async function createRepo(who: Account, body: Record<string, unknown> = {}, org?: string): Promise<string> {
  const name = uniq('r');
  const res = await s.fetch(org ? `/api/v1/orgs/${org}/repos` : '/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return `${org ?? who.name}/${name}`;
}

async function createOrg(who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('org');
  const res = await s.fetch('/api/v1/orgs', jsonInit('POST', { username: name, ...body }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return name;
}

async function addCollaborator(full: string, owner: Account, who: Account, permission: string): Promise<void> {
  const res = await s.fetch(`/api/v1/repos/${full}/collaborators/${who.name}`, jsonInit('PUT', { permission }, owner.h));
  expect(res.status, await res.clone().text()).toBe(204);
}

async function addTeamMember(org: string, owner: Account, who: Account, permission: string): Promise<void> {
  const team = await s.fetch(`/api/v1/orgs/${org}/teams`, jsonInit('POST', { name: uniq('t'), permission, units: ['repo.code', 'repo.actions'] }, owner.h));
  expect(team.status, await team.clone().text()).toBe(201);
  const { id } = await json<{ id: number }>(team);
  const res = await s.fetch(`/api/v1/teams/${id}/members/${who.name}`, { method: 'PUT', headers: owner.h });
  expect(res.status, await res.clone().text()).toBe(204);
}

interface Variable {
  owner_id: number;
  repo_id: number;
  name: string;
  data: string;
}

async function variables(res: Response): Promise<Variable[]> {
  const body = await json<Variable[]>(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  for (const item of body) expect(matchesSchema(ActionVariableSchema, item), schemaErrors(ActionVariableSchema, item).join('\n')).toBe(true);
  return body;
}

async function secrets(res: Response): Promise<{ name: string; created_at: string }[]> {
  const body = await json<{ name: string; created_at: string }[]>(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  for (const item of body) {
    expect(matchesSchema(SecretSchema, item), schemaErrors(SecretSchema, item).join('\n')).toBe(true);
    expect(Object.keys(item).sort()).toEqual(['created_at', 'name']);
  }
  return body;
}

/** The secret values this file sends; none may come back. */
const VALUES = ['s3cr3t-alpha-value', 'line one\r\nline two', 's3cr3t-beta-value', 'org-s3cr3t-value', 'user-s3cr3t-value'];

beforeAll(async () => {
  s = await startTestServer();
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  admin = await account(s, 'admin', { admin: true });
});
afterAll(async () => {
  // Whatever was answered, no secret value was in it (nor in a header).
  for (const value of VALUES) for (const answer of seen) expect(answer).not.toContain(value);
  for (const answer of seen) expect(answer).not.toContain('line two');
  await s?.cleanup();
});

describe('repository secrets', () => {
  let full: string;
  let base: string;
  beforeAll(async () => {
    full = await createRepo(alice);
    base = `/api/v1/repos/${full}/actions/secrets`;
  });

  test('PUT creates (201) then updates (204); list shows names and creation times only; DELETE 204, then 404', async () => {
    const before = Math.floor(Date.now() / 1000);
    await expectEmpty(await put(`${base}/deploy_key`, { data: VALUES[0] }, alice), 201);
    // The same name in another case is the same secret.
    await expectEmpty(await put(`${base}/DEPLOY_KEY`, { data: VALUES[1] }, alice), 204);
    await expectEmpty(await put(`${base}/Another_One`, { Data: VALUES[2], unknown: true }, alice), 201);

    const res = await get(base, alice);
    expect(res.headers.get('x-total-count')).toBe('2');
    const listed = await secrets(res);
    // Forgejo's order: by name.
    expect(listed.map((x) => x.name)).toEqual(['ANOTHER_ONE', 'DEPLOY_KEY']);
    const created = Date.parse(listed[1]!.created_at) / 1000;
    expect(created).toBeGreaterThanOrEqual(before - 1);
    expect(created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);

    await expectEmpty(await del(`${base}/deploy_Key`, alice), 204);
    expect(await expectApiError(await del(`${base}/DEPLOY_KEY`, alice), 404, s.url)).toBe('secret was not found [name: ]');
    expect((await secrets(await get(base, alice))).map((x) => x.name)).toEqual(['ANOTHER_ONE']);
    await expectEmpty(await del(`${base}/another_one`, alice), 204);
    expect(await secrets(await get(base, alice))).toEqual([]);
  });

  test('pages with X-Total-Count and Link', async () => {
    const paged = await createRepo(alice);
    const path = `/api/v1/repos/${paged}/actions/secrets`;
    for (const name of ['C_THIRD', 'A_FIRST', 'B_SECOND']) await expectEmpty(await put(`${path}/${name}`, { data: 'x' }, alice), 201);
    const first = await get(`${path}?limit=2`, alice);
    expect(first.headers.get('x-total-count')).toBe('3');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect((await secrets(first)).map((x) => x.name)).toEqual(['A_FIRST', 'B_SECOND']);
    const second = await get(`${path}?limit=2&page=2`, alice);
    expect(second.headers.get('x-total-count')).toBe('3');
    expect(second.headers.get('link')).toContain('rel="prev"');
    expect((await secrets(second)).map((x) => x.name)).toEqual(['C_THIRD']);
  });

  test("Forgejo's name rules: letters, digits and _, no leading digit, no FORGEJO_/GITEA_/GITHUB_ prefix (400)", async () => {
    for (const name of ['1ABC', 'github_token', 'GITEA_X', 'Forgejo_Y', 'A-B', 'caf%C3%A9', 'x'.repeat(256), 'GITHUB_']) {
      expect(await expectApiError(await put(`${base}/${name}`, { data: 'v' }, alice), 400, s.url), name).toBe('invalid secret name');
    }
    // Without the underscore the prefixes are names like any other; `CI` is a secret's name, and `_` may lead.
    for (const name of ['GITHUB', 'giteax', 'FORGEJO1', 'CI', '_1', 'x'.repeat(255)]) {
      await expectEmpty(await put(`${base}/${name}`, { data: 'v' }, alice), 201);
    }
    const names = (await secrets(await get(`${base}?limit=50`, alice))).map((x) => x.name);
    // By name, as the database collates (where `_` goes differs between collations).
    expect([...names].sort()).toEqual(['CI', 'FORGEJO1', 'GITEAX', 'GITHUB', 'X'.repeat(255), '_1']);
    for (const name of names) await expectEmpty(await del(`${base}/${name}`, alice), 204);
  });

  test('data is required (422), bounded to 65535 characters (422), and sent as Go reads JSON', async () => {
    expect(await expectApiError(await put(`${base}/EMPTY`, {}, alice), 422, s.url)).toContain('data');
    expect(await expectApiError(await put(`${base}/EMPTY`, { data: '' }, alice), 422, s.url)).toContain('data');
    expect(await expectApiError(await put(`${base}/EMPTY`, { data: null }, alice), 422, s.url)).toContain('data');
    expect(await expectApiError(await put(`${base}/EMPTY`, { data: 5 }, alice), 422, s.url)).toContain('data');
    expect((await put(`${base}/EMPTY`, 'not json', alice)).status).toBe(422);
    // A name refused and a missing value: the value is read first, as Forgejo binds the body before the handler.
    expect((await put(`${base}/1BAD`, {}, alice)).status).toBe(422);
    expect(await expectApiError(await put(`${base}/BIG`, { data: 'x'.repeat(65536) }, alice), 422, s.url)).toContain('MaxSize(65535)');
    // Characters, not UTF-16 units: 65535 astral characters fit.
    await expectEmpty(await put(`${base}/BIG`, { data: '😀'.repeat(65535) }, alice), 201);
    expect(await secrets(await get(base, alice))).toEqual([expect.objectContaining({ name: 'BIG' })]);
    await expectEmpty(await del(`${base}/BIG`, alice), 204);
  });
});

describe('repository variables', () => {
  let full: string;
  let repoId: number;
  let base: string;
  beforeAll(async () => {
    full = await createRepo(alice);
    repoId = (await json<{ id: number }>(await s.fetch(`/api/v1/repos/${full}`, { headers: alice.h }))).id;
    base = `/api/v1/repos/${full}/actions/variables`;
  });

  test('create (201), read, list, update, rename, delete', async () => {
    await expectEmpty(await post(`${base}/my_var`, { value: 'first\r\nsecond\rthird\n' }, alice), 201);
    const read = await get(`${base}/MY_VAR`, alice);
    expect(read.status).toBe(200);
    const variable = await json<Variable>(read);
    expect(matchesSchema(ActionVariableSchema, variable)).toBe(true);
    // Upper-case name, CRLF made LF, other line breaks kept; a repository's variable has owner_id 0.
    expect(variable).toEqual({ owner_id: 0, repo_id: repoId, name: 'MY_VAR', data: 'first\nsecond\rthird\n' });
    expect(await variables(await get(base, alice))).toEqual([variable]);

    await expectEmpty(await put(`${base}/my_var`, { value: 'changed' }, alice), 204);
    expect(await json<Variable>(await get(`${base}/my_var`, alice))).toMatchObject({ name: 'MY_VAR', data: 'changed' });

    // A new name in the body renames it (upper-cased); an empty one keeps it.
    await expectEmpty(await put(`${base}/MY_VAR`, { name: '', value: 'kept name' }, alice), 204);
    await expectEmpty(await put(`${base}/MY_VAR`, { name: 'renamed_var', value: 'moved' }, alice), 204);
    expect(await expectApiError(await get(`${base}/MY_VAR`, alice), 404, s.url)).toBe('variable not found');
    expect(await json<Variable>(await get(`${base}/RENAMED_VAR`, alice))).toEqual({ owner_id: 0, repo_id: repoId, name: 'RENAMED_VAR', data: 'moved' });

    await expectEmpty(await del(`${base}/Renamed_Var`, alice), 204);
    expect(await expectApiError(await del(`${base}/RENAMED_VAR`, alice), 404, s.url)).toBe('variable not found');
    expect(await variables(await get(base, alice))).toEqual([]);
  });

  test('a name taken is 409 (in any case); a rename onto another variable is 409; a missing one is 404', async () => {
    await expectEmpty(await post(`${base}/TAKEN`, { value: 'a' }, alice), 201);
    await expectEmpty(await post(`${base}/OTHER`, { value: 'b' }, alice), 201);
    expect(await expectApiError(await post(`${base}/taken`, { value: 'c' }, alice), 409, s.url)).toBe('variable name taken already exists');
    expect(await expectApiError(await put(`${base}/OTHER`, { name: 'taken', value: 'd' }, alice), 409, s.url)).toContain('already exists');
    expect(await json<Variable>(await get(`${base}/OTHER`, alice))).toMatchObject({ data: 'b' });
    expect(await expectApiError(await put(`${base}/MISSING`, { value: 'x' }, alice), 404, s.url)).toBe('variable not found');
    expect(await expectApiError(await get(`${base}/MISSING`, alice), 404, s.url)).toBe('variable not found');
    // Names no variable can have are simply not found.
    expect((await get(`${base}/1bad`, alice)).status).toBe(404);
    expect((await del(`${base}/github_x`, alice)).status).toBe(404);
    const listed = await get(`${base}?limit=1`, alice);
    expect(listed.headers.get('x-total-count')).toBe('2');
    expect(listed.headers.get('link')).toContain('rel="next"');
    // The order they were created in.
    expect((await variables(listed)).map((v) => v.name)).toEqual(['TAKEN']);
    expect((await variables(await get(`${base}?limit=1&page=2`, alice))).map((v) => v.name)).toEqual(['OTHER']);
  });

  test("the secrets' name rules, and not CI (400); value required (422) and bounded (422)", async () => {
    for (const name of ['1ABC', 'GITHUB_X', 'gitea_', 'FORGEJO_TOKEN', 'A.B', 'x'.repeat(256)]) {
      expect(await expectApiError(await post(`${base}/${name}`, { value: 'v' }, alice), 400, s.url), name).toBe('invalid secret name');
    }
    expect(await expectApiError(await post(`${base}/ci`, { value: 'v' }, alice), 400, s.url)).toBe('env name cannot be ci');
    await expectEmpty(await post(`${base}/CI_X`, { value: 'v' }, alice), 201);
    expect(await expectApiError(await put(`${base}/CI_X`, { name: 'Ci', value: 'v' }, alice), 400, s.url)).toBe('env name cannot be ci');
    expect(await expectApiError(await put(`${base}/CI_X`, { name: '9lives', value: 'v' }, alice), 400, s.url)).toBe('invalid secret name');
    expect(await expectApiError(await post(`${base}/EMPTY_VALUE`, { value: '' }, alice), 422, s.url)).toContain('value');
    expect(await expectApiError(await post(`${base}/EMPTY_VALUE`, {}, alice), 422, s.url)).toContain('value');
    expect(await expectApiError(await put(`${base}/CI_X`, { name: 'NEW' }, alice), 422, s.url)).toContain('value');
    expect(await expectApiError(await post(`${base}/HUGE`, { value: 'y'.repeat(65536) }, alice), 422, s.url)).toContain('MaxSize(65535)');
    expect(await expectApiError(await put(`${base}/CI_X`, { value: 'y'.repeat(65536) }, alice), 422, s.url)).toContain('MaxSize(65535)');
    await expectEmpty(await post(`${base}/HUGE`, { value: 'y'.repeat(65535) }, alice), 201);
    expect((await json<Variable>(await get(`${base}/HUGE`, alice))).data).toHaveLength(65535);
    expect(await json<Variable>(await get(`${base}/CI_X`, alice))).toMatchObject({ name: 'CI_X', data: 'v' });
  });

  test('concurrent creates of one name: one 201, the others 409, never a 500', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post(`${base}/RACE`, { value: `v${i}` }, alice)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const secretsBase = `/api/v1/repos/${full}/actions/secrets`;
    const puts = await Promise.all(Array.from({ length: 8 }, (_, i) => put(`${secretsBase}/RACE`, { data: `v${i}` }, alice)));
    expect(puts.map((r) => r.status).sort()).toEqual([201, 204, 204, 204, 204, 204, 204, 204]);
    expect((await secrets(await get(secretsBase, alice))).map((x) => x.name)).toEqual(['RACE']);
  });
});

describe('who may manage a repository\'s secrets and variables (Forgejo\'s reqToken, reqOwner)', () => {
  let full: string;
  let privateFull: string;
  let orgRepo: string;
  let org: string;
  beforeAll(async () => {
    full = await createRepo(alice);
    privateFull = await createRepo(alice, { private: true });
    await expectEmpty(await put(`/api/v1/repos/${full}/actions/secrets/KEY`, { data: 'v' }, alice), 201);
    org = await createOrg(alice);
    orgRepo = await createRepo(alice, {}, org);
  });

  test('anonymous: 401; a private repository another cannot see: 404', async () => {
    expect((await get(`/api/v1/repos/${full}/actions/secrets`)).status).toBe(401);
    expect((await put(`/api/v1/repos/${full}/actions/secrets/KEY`, { data: 'x' }, {})).status).toBe(401);
    expect((await get(`/api/v1/repos/${full}/actions/variables/X`)).status).toBe(401);
    await expectApiError(await get(`/api/v1/repos/${privateFull}/actions/secrets`, bob), 404, s.url);
    await expectApiError(await put(`/api/v1/repos/${privateFull}/actions/secrets/KEY`, { data: 'x' }, bob), 404, s.url);
    await expectApiError(await post(`/api/v1/repos/${privateFull}/actions/variables/X`, { value: 'x' }, bob), 404, s.url);
  });

  test('a reader, a writer, even an administrator collaborator: 403 (only owners); site administrators may', async () => {
    for (const permission of ['read', 'write', 'admin']) {
      const collaborator = await account(s, `c${permission}`);
      await addCollaborator(full, alice, collaborator, permission);
      expect(await expectApiError(await get(`/api/v1/repos/${full}/actions/secrets`, collaborator), 403, s.url)).toContain('owner');
      expect((await put(`/api/v1/repos/${full}/actions/secrets/KEY`, { data: 'x' }, collaborator)).status).toBe(403);
      expect((await del(`/api/v1/repos/${full}/actions/secrets/KEY`, collaborator)).status).toBe(403);
      expect((await get(`/api/v1/repos/${full}/actions/variables`, collaborator)).status).toBe(403);
      expect((await post(`/api/v1/repos/${full}/actions/variables/V`, { value: 'x' }, collaborator)).status).toBe(403);
    }
    expect((await get(`/api/v1/repos/${full}/actions/secrets`, bob)).status).toBe(403);
    expect((await secrets(await get(`/api/v1/repos/${full}/actions/secrets`, admin))).map((x) => x.name)).toEqual(['KEY']);
    await expectEmpty(await post(`/api/v1/repos/${privateFull}/actions/variables/BY_ADMIN`, { value: 'a' }, admin), 201);
    expect((await variables(await get(`/api/v1/repos/${privateFull}/actions/variables`, alice))).map((v) => v.name)).toEqual(['BY_ADMIN']);
  });

  test("an organization's repository: its owners may; a member with write, or admin, may not", async () => {
    const writer = await account(s, 'w');
    await addTeamMember(org, alice, writer, 'admin');
    expect((await get(`/api/v1/repos/${orgRepo}/actions/variables`, writer)).status).toBe(403);
    const owner = await account(s, 'o');
    const owners = await json<{ id: number }[]>(await s.fetch(`/api/v1/orgs/${org}/teams`, { headers: alice.h }));
    const ownersTeam = owners.find((t) => (t as unknown as { name: string }).name === 'Owners')!;
    expect((await s.fetch(`/api/v1/teams/${ownersTeam.id}/members/${owner.name}`, { method: 'PUT', headers: alice.h })).status).toBe(204);
    await expectEmpty(await post(`/api/v1/repos/${orgRepo}/actions/variables/FROM_OWNER`, { value: 'o' }, owner), 201);
    expect((await variables(await get(`/api/v1/repos/${orgRepo}/actions/variables`, alice))).map((v) => v.name)).toEqual(['FROM_OWNER']);
  });

  test('token scopes: repository, read for GETs, write for changes', async () => {
    const readOnly = tokenHeader(await createToken(s.host, alice.name, ['read:repository']));
    expect((await secrets(await get(`/api/v1/repos/${full}/actions/secrets`, readOnly))).map((x) => x.name)).toEqual(['KEY']);
    const refused = await put(`/api/v1/repos/${full}/actions/secrets/KEY`, { data: 'x' }, readOnly);
    expect(await expectApiError(refused, 403, s.url)).toContain('write:repository');
    expect((await post(`/api/v1/repos/${full}/actions/variables/NOPE`, { value: 'x' }, readOnly)).status).toBe(403);
    const userOnly = tokenHeader(await createToken(s.host, alice.name, ['write:user', 'write:organization']));
    expect(await expectApiError(await get(`/api/v1/repos/${full}/actions/secrets`, userOnly), 403, s.url)).toContain('read:repository');
    const writer = tokenHeader(await createToken(s.host, alice.name, ['write:repository']));
    await expectEmpty(await put(`/api/v1/repos/${full}/actions/secrets/KEY`, { data: 'x' }, writer), 204);
  });

  test('a repository whose Actions unit is off: 404', async () => {
    const off = await createRepo(alice);
    await expectEmpty(await post(`/api/v1/repos/${off}/actions/variables/V`, { value: 'x' }, alice), 201);
    const edited = await s.fetch(`/api/v1/repos/${off}`, jsonInit('PATCH', { has_actions: false }, alice.h));
    expect(edited.status, await edited.clone().text()).toBe(200);
    await expectApiError(await get(`/api/v1/repos/${off}/actions/variables`, alice), 404, s.url);
    await expectApiError(await put(`/api/v1/repos/${off}/actions/secrets/S`, { data: 'x' }, alice), 404, s.url);
    await expectApiError(await get(`/api/v1/repos/${off}/actions/variables/V`, admin), 404, s.url);
    expect((await s.fetch(`/api/v1/repos/${off}`, jsonInit('PATCH', { has_actions: true }, alice.h))).status).toBe(200);
    expect((await variables(await get(`/api/v1/repos/${off}/actions/variables`, alice))).map((v) => v.name)).toEqual(['V']);
  });
});

describe('organization secrets and variables (reqOrgOwnership)', () => {
  let org: string;
  let orgId: number;
  let privateOrg: string;
  beforeAll(async () => {
    org = await createOrg(alice);
    orgId = (await json<{ id: number }>(await s.fetch(`/api/v1/orgs/${org}`, { headers: alice.h }))).id;
    privateOrg = await createOrg(alice, { visibility: 'private' });
  });

  test('secrets and variables of the organization, apart from its repositories\'', async () => {
    const repo = await createRepo(alice, {}, org);
    await expectEmpty(await put(`/api/v1/repos/${repo}/actions/secrets/REPO_ONLY`, { data: 'r' }, alice), 201);
    await expectEmpty(await post(`/api/v1/repos/${repo}/actions/variables/REPO_ONLY`, { value: 'r' }, alice), 201);

    await expectEmpty(await put(`/api/v1/orgs/${org}/actions/secrets/org_key`, { data: VALUES[3] }, alice), 201);
    await expectEmpty(await put(`/api/v1/orgs/${org}/actions/secrets/ORG_KEY`, { data: VALUES[3] }, alice), 204);
    expect((await secrets(await get(`/api/v1/orgs/${org}/actions/secrets`, alice))).map((x) => x.name)).toEqual(['ORG_KEY']);

    await expectEmpty(await post(`/api/v1/orgs/${org}/actions/variables/org_var`, { value: 'shared' }, alice), 201);
    expect(await variables(await get(`/api/v1/orgs/${org}/actions/variables`, alice))).toEqual([{ owner_id: orgId, repo_id: 0, name: 'ORG_VAR', data: 'shared' }]);
    expect(await json<Variable>(await get(`/api/v1/orgs/${org}/actions/variables/Org_Var`, alice))).toEqual({ owner_id: orgId, repo_id: 0, name: 'ORG_VAR', data: 'shared' });
    expect((await post(`/api/v1/orgs/${org}/actions/variables/ORG_VAR`, { value: 'again' }, alice)).status).toBe(409);
    await expectEmpty(await put(`/api/v1/orgs/${org}/actions/variables/ORG_VAR`, { value: 'updated' }, alice), 204);
    expect((await json<Variable>(await get(`/api/v1/orgs/${org}/actions/variables/ORG_VAR`, alice))).data).toBe('updated');
    expect((await put(`/api/v1/orgs/${org}/actions/variables/NOT_THERE`, { value: 'x' }, alice)).status).toBe(404);
    // The repository's own rows stay the repository's.
    expect((await variables(await get(`/api/v1/repos/${repo}/actions/variables`, alice))).map((v) => v.name)).toEqual(['REPO_ONLY']);
    await expectEmpty(await del(`/api/v1/orgs/${org}/actions/variables/ORG_VAR`, alice), 204);
    await expectEmpty(await del(`/api/v1/orgs/${org}/actions/secrets/ORG_KEY`, alice), 204);
    expect((await del(`/api/v1/orgs/${org}/actions/secrets/ORG_KEY`, alice)).status).toBe(404);
  });

  test('anonymous 401; a member who is no owner 403; another user 403; a private organization unseen 404; site administrators may', async () => {
    expect((await get(`/api/v1/orgs/${org}/actions/secrets`)).status).toBe(401);
    const member = await account(s, 'm');
    await addTeamMember(org, alice, member, 'admin');
    expect(await expectApiError(await get(`/api/v1/orgs/${org}/actions/variables`, member), 403, s.url)).toBeTruthy();
    expect((await put(`/api/v1/orgs/${org}/actions/secrets/X`, { data: 'x' }, member)).status).toBe(403);
    expect((await get(`/api/v1/orgs/${org}/actions/secrets`, bob)).status).toBe(403);
    await expectApiError(await get(`/api/v1/orgs/${privateOrg}/actions/secrets`, bob), 404, s.url);
    await expectApiError(await post(`/api/v1/orgs/${privateOrg}/actions/variables/X`, { value: 'x' }, bob), 404, s.url);
    await expectEmpty(await post(`/api/v1/orgs/${privateOrg}/actions/variables/BY_ADMIN`, { value: 'x' }, admin), 201);
    expect((await variables(await get(`/api/v1/orgs/${privateOrg}/actions/variables`, alice))).map((v) => v.name)).toEqual(['BY_ADMIN']);
  });

  test('token scopes: organization', async () => {
    const repoOnly = tokenHeader(await createToken(s.host, alice.name, ['write:repository', 'write:user']));
    expect(await expectApiError(await get(`/api/v1/orgs/${org}/actions/secrets`, repoOnly), 403, s.url)).toContain('read:organization');
    const readOnly = tokenHeader(await createToken(s.host, alice.name, ['read:organization']));
    expect((await get(`/api/v1/orgs/${org}/actions/variables`, readOnly)).status).toBe(200);
    expect(await expectApiError(await post(`/api/v1/orgs/${org}/actions/variables/X`, { value: 'x' }, readOnly), 403, s.url)).toContain('write:organization');
  });
});

describe("the signed-in user's secrets and variables", () => {
  test("each user's own: create, list, read, update, delete; another's are not seen", async () => {
    const carol = await account(s, 'carol');
    const dave = await account(s, 'dave');
    const carolId = (await json<{ id: number }>(await s.fetch('/api/v1/user', { headers: carol.h }))).id;
    await expectEmpty(await put('/api/v1/user/actions/secrets/my_token', { data: VALUES[4] }, carol), 201);
    await expectEmpty(await put('/api/v1/user/actions/secrets/MY_TOKEN', { data: VALUES[4] }, carol), 204);
    expect((await secrets(await get('/api/v1/user/actions/secrets', carol))).map((x) => x.name)).toEqual(['MY_TOKEN']);
    expect(await secrets(await get('/api/v1/user/actions/secrets', dave))).toEqual([]);
    expect((await del('/api/v1/user/actions/secrets/MY_TOKEN', dave)).status).toBe(404);

    await expectEmpty(await post('/api/v1/user/actions/variables/mine', { value: 'c' }, carol), 201);
    // Another user may have the same name.
    await expectEmpty(await post('/api/v1/user/actions/variables/MINE', { value: 'd' }, dave), 201);
    expect(await variables(await get('/api/v1/user/actions/variables', carol))).toEqual([{ owner_id: carolId, repo_id: 0, name: 'MINE', data: 'c' }]);
    expect((await json<Variable>(await get('/api/v1/user/actions/variables/mine', dave))).data).toBe('d');
    await expectEmpty(await put('/api/v1/user/actions/variables/MINE', { name: 'ours', value: 'c2' }, carol), 204);
    expect(await json<Variable>(await get('/api/v1/user/actions/variables/OURS', carol))).toEqual({ owner_id: carolId, repo_id: 0, name: 'OURS', data: 'c2' });
    expect((await post('/api/v1/user/actions/variables/ours', { value: 'again' }, carol)).status).toBe(409);
    await expectEmpty(await del('/api/v1/user/actions/variables/OURS', carol), 204);
    expect((await del('/api/v1/user/actions/variables/OURS', carol)).status).toBe(404);
    await expectEmpty(await del('/api/v1/user/actions/secrets/my_token', carol), 204);
  });

  test('anonymous 401; a token without the user scope 403', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/user/actions/secrets'],
      ['PUT', '/api/v1/user/actions/secrets/X'],
      ['GET', '/api/v1/user/actions/variables'],
      ['POST', '/api/v1/user/actions/variables/X'],
      ['DELETE', '/api/v1/user/actions/variables/X'],
    ] as const) {
      const res = await call(path, method === 'GET' || method === 'DELETE' ? { method } : jsonInit(method, { data: 'x', value: 'x' }));
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    const repoOnly = tokenHeader(await createToken(s.host, bob.name, ['write:repository']));
    expect(await expectApiError(await get('/api/v1/user/actions/variables', repoOnly), 403, s.url)).toContain('read:user');
    const readUser = tokenHeader(await createToken(s.host, bob.name, ['read:user']));
    expect((await get('/api/v1/user/actions/secrets', readUser)).status).toBe(200);
    expect(await expectApiError(await put('/api/v1/user/actions/secrets/X', { data: 'x' }, readUser), 403, s.url)).toContain('write:user');
  });
});
