/**
 * Runners and their registration tokens through the API, at the four levels Forgejo has them:
 * `/repos/{owner}/{repo}/actions/runners` (the repository's owners), `/orgs/{org}/actions/runners` (the
 * organization's owners), `/user/actions/runners` (the signed-in user) and `/admin/actions/runners` (site
 * administrators; also the older `/admin/runners/…`). A registration token stays the same across reads until it is
 * reset, and a reset one no longer registers; runners are registered (through the API and with a registration
 * token, as the runner protocol's Register does), listed, read and deleted; what the caller may not manage is
 * 401/403/404; token scopes; and a deleted repository, organization or account takes its tokens and runners along.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ActionRunnerSchema,
  REGISTRATION_TOKEN_INVALIDATED,
  REGISTRATION_TOKEN_NOT_FOUND,
  RegisterRunnerResponseSchema,
  RegistrationTokenSchema,
  RunnersService,
  SYSTEM,
  UNREGISTERED_RUNNER,
  matchesSchema,
  schemaErrors,
  type ApiActionRunner,
  type ApiRegisterRunnerResponse,
  type User,
} from '@repohost/core';
import { createToken, jsonInit, tokenHeader, type TestServer, startTestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';

let s: TestServer;
let alice: Account;
let bob: Account;
let admin: Account;

type Who = Account | Record<string, string> | undefined;
const headersOf = (who: Who): Record<string, string> => (who === undefined ? {} : 'h' in who ? (who.h as Record<string, string>) : (who as Record<string, string>));

const get = (path: string, who?: Who) => s.fetch(path, { headers: headersOf(who) });
const post = (path: string, body: unknown, who?: Who) => s.fetch(path, jsonInit('POST', body, headersOf(who)));
const del = (path: string, who?: Who) => s.fetch(path, { method: 'DELETE', headers: headersOf(who) });

const runners = () => s.host.service(RunnersService);

async function createRepo(who: Account, body: Record<string, unknown> = {}, org?: string): Promise<{ full: string; id: number; ownerId: number }> {
  const name = uniq('r');
  const res = await s.fetch(org ? `/api/v1/orgs/${org}/repos` : '/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  const repo = await json<{ id: number; owner: { id: number } }>(res);
  return { full: `${org ?? who.name}/${name}`, id: repo.id, ownerId: repo.owner.id };
}

async function createOrg(who: Account, body: Record<string, unknown> = {}): Promise<{ name: string; id: number }> {
  const name = uniq('org');
  const res = await s.fetch('/api/v1/orgs', jsonInit('POST', { username: name, ...body }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return { name, id: (await json<{ id: number }>(res)).id };
}

async function userOf(who: Account): Promise<User> {
  const user = await s.host.users.findByName(who.name);
  expect(user).toBeDefined();
  return user!;
}

/** A registration token answer: 200, the schema, a 40-character token. */
async function tokenOf(res: Response): Promise<string> {
  const body = await json<{ token: string }>(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(matchesSchema(RegistrationTokenSchema, body), schemaErrors(RegistrationTokenSchema, body).join('\n')).toBe(true);
  expect(Object.keys(body)).toEqual(['token']);
  expect(body.token).toMatch(/^[A-Za-z0-9]{40}$/);
  return body.token;
}

async function registered(res: Response): Promise<ApiRegisterRunnerResponse> {
  const body = await json<ApiRegisterRunnerResponse>(res);
  expect(res.status, JSON.stringify(body)).toBe(201);
  expect(matchesSchema(RegisterRunnerResponseSchema, body), schemaErrors(RegisterRunnerResponseSchema, body).join('\n')).toBe(true);
  expect(body.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(body.token).toMatch(/^[0-9a-f]{40}$/);
  return body;
}

function checkRunner(value: unknown): ApiActionRunner {
  expect(matchesSchema(ActionRunnerSchema, value), schemaErrors(ActionRunnerSchema, value).join('\n')).toBe(true);
  return value as ApiActionRunner;
}

async function runnerList(res: Response): Promise<ApiActionRunner[]> {
  const body = await json<ApiActionRunner[]>(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(res.headers.get('x-total-count')).toBe(String(body.length));
  return body.map(checkRunner);
}

const ids = (list: { id: number }[]) => list.map((r) => r.id).sort((a, b) => a - b);

beforeAll(async () => {
  s = await startTestServer();
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  admin = await account(s, 'admin', { admin: true });
});
afterAll(async () => {
  await s?.cleanup();
});

describe('registration tokens', () => {
  test('each level has its own token, the same on every read', async () => {
    const repo = await createRepo(alice);
    const org = await createOrg(alice);
    const paths = [
      [`/api/v1/repos/${repo.full}/actions/runners/registration-token`, alice],
      [`/api/v1/orgs/${org.name}/actions/runners/registration-token`, alice],
      ['/api/v1/user/actions/runners/registration-token', alice],
      ['/api/v1/user/actions/runners/registration-token', bob],
      ['/api/v1/admin/actions/runners/registration-token', admin],
    ] as const;
    const tokens: string[] = [];
    for (const [path, who] of paths) {
      const first = await tokenOf(await get(path, who));
      expect(await tokenOf(await get(path, who)), path).toBe(first);
      tokens.push(first);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    // The older admin path answers the instance's token too.
    expect(await tokenOf(await get('/api/v1/admin/runners/registration-token', admin))).toBe(tokens[4]);
  });

  test('a reset gives a new token; the old one no longer registers, the new one does', async () => {
    const path = '/api/v1/user/actions/runners/registration-token';
    const carol = await account(s, 'carol');
    const before = await tokenOf(await get(path, carol));
    const reset = await runners().resetRegistrationToken(SYSTEM, { kind: 'user', user: await userOf(carol) });
    expect(reset).not.toBe(before);
    expect(await tokenOf(await get(path, carol))).toBe(reset);

    await expect(runners().registerWithToken({ token: before, name: 'late' })).rejects.toThrow(REGISTRATION_TOKEN_INVALIDATED);
    await expect(runners().registerWithToken({ token: 'not-a-token-anybody-has', name: 'x' })).rejects.toThrow(REGISTRATION_TOKEN_NOT_FOUND);
    await expect(runners().registerWithToken({ token: '', name: 'x' })).rejects.toThrow(REGISTRATION_TOKEN_NOT_FOUND);
    expect(await runnerList(await get('/api/v1/user/actions/runners', carol))).toEqual([]);

    const { runner, token } = await runners().registerWithToken({ token: reset, name: 'carol-runner', version: 'v9.1.0', labels: ['docker', 'ubuntu-latest:docker://node:20', 'docker', ''] });
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    const carolId = (await userOf(carol)).id;
    const listed = await runnerList(await get('/api/v1/user/actions/runners', carol));
    expect(listed).toEqual([
      {
        id: runner.id,
        uuid: runner.uuid,
        name: 'carol-runner',
        owner_id: carolId,
        repo_id: 0,
        description: '',
        labels: ['docker', 'ubuntu-latest:docker://node:20'],
        status: 'offline',
        version: 'v9.1.0',
        ephemeral: false,
      },
    ]);
    // A registration token registers any number of runners until it is reset.
    await runners().registerWithToken({ token: reset, name: 'second' });
    expect(await runnerList(await get('/api/v1/user/actions/runners', carol))).toHaveLength(2);

    // The runner's own token: a wrong one is refused; the right one marks it online (idle: it has done no work).
    await expect(runners().authenticate(runner.uuid, 'f'.repeat(40))).rejects.toThrow(UNREGISTERED_RUNNER);
    await expect(runners().authenticate('00000000-0000-0000-0000-000000000000', token)).rejects.toThrow(UNREGISTERED_RUNNER);
    const online = await runners().authenticate(runner.uuid, token);
    await runners().declare(online, 'v9.2.0', ['self-hosted']);
    const after = checkRunner(await json(await get(`/api/v1/user/actions/runners/${runner.id}`, carol)));
    expect(after).toMatchObject({ status: 'idle', version: 'v9.2.0', labels: ['self-hosted'] });
  });

  test('the instance token, reset, registers a global runner that every level may see', async () => {
    const old = await tokenOf(await get('/api/v1/admin/actions/runners/registration-token', admin));
    const reset = await runners().resetRegistrationToken(SYSTEM, { kind: 'global' });
    expect(await tokenOf(await get('/api/v1/admin/runners/registration-token', admin))).toBe(reset);
    await expect(runners().registerWithToken({ token: old, name: 'x' })).rejects.toThrow(REGISTRATION_TOKEN_INVALIDATED);
    const { runner } = await runners().registerWithToken({ token: reset, name: 'global-from-token' });
    const seen = checkRunner(await json(await get(`/api/v1/admin/actions/runners/${runner.id}`, admin)));
    expect(seen).toMatchObject({ owner_id: 0, repo_id: 0, name: 'global-from-token' });
    expect(ids(await runnerList(await get('/api/v1/user/actions/runners?visible=true', bob)))).toContain(runner.id);
    expect(ids(await runnerList(await get('/api/v1/user/actions/runners', bob)))).not.toContain(runner.id);
  });
});

describe('repository runners (the repository\'s owners)', () => {
  let repo: { full: string; id: number; ownerId: number };
  let privateRepo: { full: string; id: number; ownerId: number };
  beforeAll(async () => {
    repo = await createRepo(alice);
    privateRepo = await createRepo(alice, { private: true });
  });

  test('register, list, get, delete', async () => {
    const base = `/api/v1/repos/${repo.full}/actions/runners`;
    const made = await registered(await post(base, { name: 'builder', description: 'the big one', ephemeral: true }, alice));
    const other = await registered(await post(base, { name: 'builder' }, alice));
    expect(other.id).not.toBe(made.id);
    expect(other.token).not.toBe(made.token);

    const list = await runnerList(await get(base, alice));
    expect(ids(list)).toEqual([made.id, other.id]);
    const one = checkRunner(await json(await get(`${base}/${made.id}`, alice)));
    expect(one).toEqual({
      id: made.id,
      uuid: made.uuid,
      name: 'builder',
      owner_id: 0,
      repo_id: repo.id,
      description: 'the big one',
      labels: [],
      status: 'offline',
      version: '',
      ephemeral: true,
    });
    // Its token is never shown again.
    expect(JSON.stringify(list)).not.toContain(made.token);

    // Paging: X-Total-Count counts them all.
    const page = await get(`${base}?limit=1&page=2`, alice);
    expect(page.headers.get('x-total-count')).toBe('2');
    expect((await json<unknown[]>(page)).length).toBe(1);

    const gone = await del(`${base}/${made.id}`, alice);
    expect(gone.status).toBe(204);
    expect(await gone.text()).toBe('');
    await expectApiError(await get(`${base}/${made.id}`, alice), 404, s.url);
    await expectApiError(await del(`${base}/${made.id}`, alice), 404, s.url);
    expect(ids(await runnerList(await get(base, alice)))).toEqual([other.id]);
    await expectApiError(await get(`${base}/999999999`, alice), 404, s.url);
    await expectApiError(await get(`${base}/not-a-number`, alice), 404, s.url);
  });

  test('bad input: a name is required (422)', async () => {
    const base = `/api/v1/repos/${repo.full}/actions/runners`;
    expect((await post(base, {}, alice)).status).toBe(422);
    expect((await post(base, { name: '' }, alice)).status).toBe(422);
    const long = await registered(await post(base, { name: 'é'.repeat(200) }, alice));
    // Kept to 255 bytes, never cutting a character.
    expect(checkRunner(await json(await get(`${base}/${long.id}`, alice))).name).toBe('é'.repeat(127));
  });

  test("visible: the owner's and the instance's runners too; those may be read but not deleted here", async () => {
    const mine = await createRepo(alice);
    const base = `/api/v1/repos/${mine.full}/actions/runners`;
    const own = await registered(await post(base, { name: 'own' }, alice));
    const users = await registered(await post('/api/v1/user/actions/runners', { name: 'alice-wide' }, alice));
    const global = await registered(await post('/api/v1/admin/actions/runners', { name: 'everyone' }, admin));
    const bobs = await registered(await post('/api/v1/user/actions/runners', { name: 'bob-only' }, bob));

    expect(ids(await runnerList(await get(base, alice)))).toEqual([own.id]);
    expect(ids(await runnerList(await get(`${base}?visible=false`, alice)))).toEqual([own.id]);
    const visible = ids(await runnerList(await get(`${base}?visible=true`, alice)));
    expect(visible).toEqual(expect.arrayContaining([own.id, users.id, global.id]));
    expect(visible).not.toContain(bobs.id);

    expect(checkRunner(await json(await get(`${base}/${global.id}`, alice))).name).toBe('everyone');
    expect(checkRunner(await json(await get(`${base}/${users.id}`, alice))).name).toBe('alice-wide');
    await expectApiError(await get(`${base}/${bobs.id}`, alice), 404, s.url);
    expect(await expectApiError(await del(`${base}/${global.id}`, alice), 404, s.url)).toBe('No permission to delete this runner');
    expect((await get(`/api/v1/admin/actions/runners/${global.id}`, admin)).status).toBe(200);
  });

  test('jobs waiting for runners: none yet, an empty list', async () => {
    for (const query of ['', '?labels=ubuntu-latest,docker', '?labels=']) {
      const res = await get(`/api/v1/repos/${repo.full}/actions/runners/jobs${query}`, alice);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual([]);
    }
  });

  test('anonymous 401; readers, writers, administrator collaborators and strangers 403; a private repository unseen 404; site administrators may', async () => {
    const base = `/api/v1/repos/${repo.full}/actions/runners`;
    for (const path of [base, `${base}/registration-token`, `${base}/jobs`, `${base}/1`]) expect((await get(path)).status, path).toBe(401);
    expect((await post(base, { name: 'x' })).status).toBe(401);
    for (const permission of ['read', 'write', 'admin']) {
      const collaborator = await account(s, `c${permission}`);
      const added = await s.fetch(`/api/v1/repos/${repo.full}/collaborators/${collaborator.name}`, jsonInit('PUT', { permission }, alice.h));
      expect(added.status).toBe(204);
      expect(await expectApiError(await get(`${base}/registration-token`, collaborator), 403, s.url)).toContain('owner');
      expect((await get(base, collaborator)).status).toBe(403);
      expect((await post(base, { name: 'x' }, collaborator)).status).toBe(403);
    }
    expect((await get(`${base}/registration-token`, bob)).status).toBe(403);
    await expectApiError(await get(`/api/v1/repos/${privateRepo.full}/actions/runners/registration-token`, bob), 404, s.url);
    await expectApiError(await post(`/api/v1/repos/${privateRepo.full}/actions/runners`, { name: 'x' }, bob), 404, s.url);
    await tokenOf(await get(`/api/v1/repos/${privateRepo.full}/actions/runners/registration-token`, admin));
    await registered(await post(`/api/v1/repos/${privateRepo.full}/actions/runners`, { name: 'by-admin' }, admin));
    expect((await runnerList(await get(`/api/v1/repos/${privateRepo.full}/actions/runners`, alice))).map((r) => r.name)).toEqual(['by-admin']);
  });

  test('token scopes: repository, read for GETs, write for changes', async () => {
    const base = `/api/v1/repos/${repo.full}/actions/runners`;
    const readOnly = tokenHeader(await createToken(s.host, alice.name, ['read:repository']));
    await tokenOf(await get(`${base}/registration-token`, readOnly));
    expect((await get(base, readOnly)).status).toBe(200);
    expect(await expectApiError(await post(base, { name: 'x' }, readOnly), 403, s.url)).toContain('write:repository');
    const listed = await runnerList(await get(base, alice));
    expect(await expectApiError(await del(`${base}/${listed[0]!.id}`, readOnly), 403, s.url)).toContain('write:repository');
    const userOnly = tokenHeader(await createToken(s.host, alice.name, ['write:user', 'write:organization']));
    expect(await expectApiError(await get(`${base}/registration-token`, userOnly), 403, s.url)).toContain('read:repository');
  });

  test('a repository whose Actions unit is off: 404', async () => {
    const off = await createRepo(alice);
    expect((await s.fetch(`/api/v1/repos/${off.full}`, jsonInit('PATCH', { has_actions: false }, alice.h))).status).toBe(200);
    await expectApiError(await get(`/api/v1/repos/${off.full}/actions/runners/registration-token`, alice), 404, s.url);
    await expectApiError(await get(`/api/v1/repos/${off.full}/actions/runners`, admin), 404, s.url);
  });
});

describe("organization runners (the organization's owners)", () => {
  test('register, list, get, delete; the repository\'s runners stay apart', async () => {
    const org = await createOrg(alice);
    const repo = await createRepo(alice, {}, org.name);
    const base = `/api/v1/orgs/${org.name}/actions/runners`;
    const inRepo = await registered(await post(`/api/v1/repos/${repo.full}/actions/runners`, { name: 'repo-one' }, alice));
    const made = await registered(await post(base, { name: 'org-one' }, alice));
    expect(await runnerList(await get(base, alice))).toEqual([expect.objectContaining({ id: made.id, owner_id: org.id, repo_id: 0, name: 'org-one' })]);
    // The organization's runners are visible to its repositories.
    expect(ids(await runnerList(await get(`/api/v1/repos/${repo.full}/actions/runners?visible=true`, alice)))).toEqual(expect.arrayContaining([inRepo.id, made.id]));
    await expectApiError(await get(`${base}/${inRepo.id}`, alice), 404, s.url);
    expect((await del(`${base}/${made.id}`, alice)).status).toBe(204);
    expect(await runnerList(await get(base, alice))).toEqual([]);
    expect(await (await get(`${base}/jobs`, alice)).json()).toEqual([]);
  });

  test('anonymous 401; a member who is no owner 403; another user 403; a private organization unseen 404; site administrators may; scope organization', async () => {
    const org = await createOrg(alice);
    const privateOrg = await createOrg(alice, { visibility: 'private' });
    const base = `/api/v1/orgs/${org.name}/actions/runners`;
    expect((await get(`${base}/registration-token`)).status).toBe(401);
    const member = await account(s, 'm');
    const team = await s.fetch(`/api/v1/orgs/${org.name}/teams`, jsonInit('POST', { name: uniq('t'), permission: 'admin', units: ['repo.code', 'repo.actions'] }, alice.h));
    expect(team.status).toBe(201);
    const { id: teamId } = await json<{ id: number }>(team);
    expect((await s.fetch(`/api/v1/teams/${teamId}/members/${member.name}`, { method: 'PUT', headers: alice.h })).status).toBe(204);
    await expectApiError(await get(`${base}/registration-token`, member), 403, s.url);
    expect((await post(base, { name: 'x' }, member)).status).toBe(403);
    expect((await get(base, bob)).status).toBe(403);
    await expectApiError(await get(`/api/v1/orgs/${privateOrg.name}/actions/runners/registration-token`, bob), 404, s.url);
    await tokenOf(await get(`${base}/registration-token`, admin));
    await registered(await post(`/api/v1/orgs/${privateOrg.name}/actions/runners`, { name: 'by-admin' }, admin));

    const repoOnly = tokenHeader(await createToken(s.host, alice.name, ['write:repository', 'write:user']));
    expect(await expectApiError(await get(`${base}/registration-token`, repoOnly), 403, s.url)).toContain('read:organization');
    const readOnly = tokenHeader(await createToken(s.host, alice.name, ['read:organization']));
    expect((await get(base, readOnly)).status).toBe(200);
    expect(await expectApiError(await post(base, { name: 'x' }, readOnly), 403, s.url)).toContain('write:organization');
  });
});

describe("the signed-in user's runners", () => {
  test("each user's own; another's are neither read nor deleted", async () => {
    const dave = await account(s, 'dave');
    const erin = await account(s, 'erin');
    const made = await registered(await post('/api/v1/user/actions/runners', { name: 'dave-box' }, dave));
    expect(await runnerList(await get('/api/v1/user/actions/runners', dave))).toEqual([expect.objectContaining({ id: made.id, owner_id: (await userOf(dave)).id, repo_id: 0 })]);
    expect(await runnerList(await get('/api/v1/user/actions/runners', erin))).toEqual([]);
    await expectApiError(await get(`/api/v1/user/actions/runners/${made.id}`, erin), 404, s.url);
    await expectApiError(await del(`/api/v1/user/actions/runners/${made.id}`, erin), 404, s.url);
    expect((await del(`/api/v1/user/actions/runners/${made.id}`, dave)).status).toBe(204);
    expect(await runnerList(await get('/api/v1/user/actions/runners', dave))).toEqual([]);
  });

  test('anonymous 401; a token without the user scope 403', async () => {
    for (const path of ['/api/v1/user/actions/runners', '/api/v1/user/actions/runners/registration-token', '/api/v1/user/actions/runners/jobs', '/api/v1/user/actions/runners/1']) {
      expect((await get(path)).status, path).toBe(401);
    }
    expect((await post('/api/v1/user/actions/runners', { name: 'x' })).status).toBe(401);
    const repoOnly = tokenHeader(await createToken(s.host, bob.name, ['write:repository']));
    expect(await expectApiError(await get('/api/v1/user/actions/runners/registration-token', repoOnly), 403, s.url)).toContain('read:user');
    const readUser = tokenHeader(await createToken(s.host, bob.name, ['read:user']));
    await tokenOf(await get('/api/v1/user/actions/runners/registration-token', readUser));
    expect(await expectApiError(await post('/api/v1/user/actions/runners', { name: 'x' }, readUser), 403, s.url)).toContain('write:user');
  });
});

describe('the instance (site administrators)', () => {
  test('every runner, whoever owns it; any may be read and deleted', async () => {
    const repo = await createRepo(alice);
    const inRepo = await registered(await post(`/api/v1/repos/${repo.full}/actions/runners`, { name: 'r' }, alice));
    const ofUser = await registered(await post('/api/v1/user/actions/runners', { name: 'u' }, bob));
    const global = await registered(await post('/api/v1/admin/actions/runners', { name: 'g', description: 'shared' }, admin));
    const all = ids(await runnerList(await get('/api/v1/admin/actions/runners?limit=50', admin)));
    expect(all).toEqual(expect.arrayContaining([inRepo.id, ofUser.id, global.id]));
    expect(checkRunner(await json(await get(`/api/v1/admin/actions/runners/${global.id}`, admin)))).toMatchObject({ owner_id: 0, repo_id: 0, description: 'shared' });
    expect((await del(`/api/v1/admin/actions/runners/${inRepo.id}`, admin)).status).toBe(204);
    await expectApiError(await get(`/api/v1/repos/${repo.full}/actions/runners/${inRepo.id}`, alice), 404, s.url);
    expect(await (await get('/api/v1/admin/actions/runners/jobs', admin)).json()).toEqual([]);
    expect(await (await get('/api/v1/admin/runners/jobs?labels=x', admin)).json()).toEqual([]);
  });

  test('anonymous 401; anyone else 403; a token without the admin scope 403', async () => {
    for (const path of ['/api/v1/admin/actions/runners', '/api/v1/admin/actions/runners/registration-token', '/api/v1/admin/runners/registration-token', '/api/v1/admin/runners/jobs']) {
      expect((await get(path)).status, path).toBe(401);
      expect((await get(path, alice)).status, path).toBe(403);
    }
    expect((await post('/api/v1/admin/actions/runners', { name: 'x' }, alice)).status).toBe(403);
    const userOnly = tokenHeader(await createToken(s.host, admin.name, ['write:user']));
    expect(await expectApiError(await get('/api/v1/admin/actions/runners/registration-token', userOnly), 403, s.url)).toContain('read:admin');
    await expect(runners().registrationToken({ kind: 'anonymous' } as never, { kind: 'global' })).rejects.toThrow();
  });
});

describe('what goes with a deleted repository, organization or account', () => {
  test("a repository's tokens and runners", async () => {
    const repo = await createRepo(alice);
    const token = await tokenOf(await get(`/api/v1/repos/${repo.full}/actions/runners/registration-token`, alice));
    const made = await registered(await post(`/api/v1/repos/${repo.full}/actions/runners`, { name: 'doomed' }, alice));
    const { runner: fromToken } = await runners().registerWithToken({ token, name: 'doomed-too' });
    expect((await del(`/api/v1/repos/${repo.full}`, alice)).status).toBe(204);
    await expectApiError(await get(`/api/v1/admin/actions/runners/${made.id}`, admin), 404, s.url);
    await expectApiError(await get(`/api/v1/admin/actions/runners/${fromToken.id}`, admin), 404, s.url);
    await expect(runners().registerWithToken({ token, name: 'after' })).rejects.toThrow(REGISTRATION_TOKEN_NOT_FOUND);
    await expect(runners().authenticate(made.uuid, made.token)).rejects.toThrow(UNREGISTERED_RUNNER);
  });

  test("an organization's tokens and runners", async () => {
    const org = await createOrg(alice);
    const token = await tokenOf(await get(`/api/v1/orgs/${org.name}/actions/runners/registration-token`, alice));
    const made = await registered(await post(`/api/v1/orgs/${org.name}/actions/runners`, { name: 'doomed' }, alice));
    expect((await del(`/api/v1/orgs/${org.name}`, alice)).status).toBe(204);
    await expectApiError(await get(`/api/v1/admin/actions/runners/${made.id}`, admin), 404, s.url);
    await expect(runners().registerWithToken({ token, name: 'after' })).rejects.toThrow(REGISTRATION_TOKEN_NOT_FOUND);
  });

  test("an account's tokens and runners", async () => {
    const frank = await account(s, 'frank');
    const token = await tokenOf(await get('/api/v1/user/actions/runners/registration-token', frank));
    const made = await registered(await post('/api/v1/user/actions/runners', { name: 'doomed' }, frank));
    const survivor = await registered(await post('/api/v1/user/actions/runners', { name: 'stays' }, bob));
    expect((await del(`/api/v1/admin/users/${frank.name}`, admin)).status).toBe(204);
    await expectApiError(await get(`/api/v1/admin/actions/runners/${made.id}`, admin), 404, s.url);
    await expect(runners().registerWithToken({ token, name: 'after' })).rejects.toThrow(REGISTRATION_TOKEN_NOT_FOUND);
    expect((await get(`/api/v1/admin/actions/runners/${survivor.id}`, admin)).status).toBe(200);
  });
});
