/**
 * Quotas over HTTP, as Forgejo has them: rules and groups for site administrators (CRUD, rules and users in
 * groups, an account's groups), an account's own quota (usage, the groups that apply, the subject check, the
 * asset lists), the 404 of every quota route while `[quota] ENABLED` is off, and the refusals of an account over
 * its quota (repository creation: 413; a git push: declined with `Quota exceeded`, deletions still allowed).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ConfigError,
  QuotaGroupSchema,
  QuotaInfoSchema,
  QuotaRuleInfoSchema,
  UserSchema,
  emptyUsage,
  evaluateGroups,
  loadSettings,
  matchesSchema,
  schemaErrors,
  userActor,
} from '@repohost/core';
import type { TSchema } from '@sinclair/typebox';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

/**
 * Repository creation and pushes ask the quota from the repos domain (`ReposService.create`, `GitTransferService.run`);
 * until those call sites exist, the enforcement tests below are skipped rather than failing.
 */
const coreSource = (file: string) => readFileSync(fileURLToPath(new URL(`../../core/src/${file}`, import.meta.url)), 'utf8');
const CREATE_CHECKS_QUOTA = /assertCanWrite/.test(coreSource('repos/service.ts'));
const PUSH_CHECKS_QUOTA = /overQuota/.test(coreSource('repos/transfer.ts'));

let s: TestServer;
let off: TestServer;
let admin: Account;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;

async function account(prefix = 'q', options: { admin?: boolean } = {}, server: TestServer = s): Promise<Account> {
  const name = uniq(prefix);
  await createUser(server.host, name, options);
  const token = await createToken(server.host, name);
  return { name, token, h: tokenHeader(token) };
}

function expectSchema(schema: TSchema, body: unknown): void {
  expect(matchesSchema(schema, body), schemaErrors(schema, body).join('\n')).toBe(true);
}

async function createRule(body: Record<string, unknown>): Promise<Response> {
  return s.fetch('/api/v1/admin/quota/rules', jsonInit('POST', body, admin.h));
}

async function newRule(limit: number, subjects: string[]): Promise<string> {
  const name = uniq('rule');
  const res = await createRule({ name, limit, subjects });
  expect(res.status, await res.clone().text()).toBe(201);
  return name;
}

async function newGroup(rules: Record<string, unknown>[] = []): Promise<string> {
  const name = uniq('grp');
  const res = await s.fetch('/api/v1/admin/quota/groups', jsonInit('POST', { name, rules }, admin.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return name;
}

async function join(group: string, user: string): Promise<void> {
  const res = await s.fetch(`/api/v1/admin/quota/groups/${group}/users/${user}`, { method: 'PUT', headers: admin.h });
  expect(res.status, await res.clone().text()).toBe(204);
}

async function createRepo(who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('r');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return `${who.name}/${name}`;
}

async function check(who: Account, subject: string): Promise<boolean> {
  const res = await s.fetch(`/api/v1/user/quota/check?subject=${encodeURIComponent(subject)}`, { headers: who.h });
  expect(res.status, await res.clone().text()).toBe(200);
  return json<boolean>(res);
}

function git(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr: String(stderr) });
    });
  });
}

beforeAll(async () => {
  [s, off] = await Promise.all([startTestServer({ quota: { ENABLED: true } }), startTestServer()]);
  admin = await account('qadmin', { admin: true });
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-quota-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});
afterAll(async () => {
  await Promise.all([s?.cleanup(), off?.cleanup()]);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('settings and evaluation', () => {
  test('[quota.default] TOTAL takes bytes, -1, or Forgejo size strings; anything else is a configuration error', () => {
    const total = (value: string) => loadSettings({ overrides: { 'quota.default': { TOTAL: value } } })['quota.default'].TOTAL;
    expect(loadSettings()['quota.default'].TOTAL).toBe(-1);
    expect(loadSettings().quota.ENABLED).toBe(false);
    expect(total('1 GiB')).toBe(2 ** 30);
    expect(total('500MB')).toBe(500_000_000);
    expect(total('1.5 KiB')).toBe(1536);
    expect(total('4096')).toBe(4096);
    expect(total('-1')).toBe(-1);
    expect(() => total('lots')).toThrow(ConfigError);
    expect(() => total('-5')).toThrow(ConfigError);
  });

  test('an account in no group is judged by TOTAL on size:all; a rule limits its subjects and what falls under them', () => {
    const usage = emptyUsage();
    usage.size.repos.public = 100;
    expect(evaluateGroups([], usage, 'size:all', -1)).toBe(true);
    expect(evaluateGroups([], usage, 'size:repos:all', 1000)).toBe(true);
    expect(evaluateGroups([], usage, 'size:repos:private', 1000)).toBe(true);
    // Reaching the limit is over it.
    expect(evaluateGroups([], usage, 'size:all', 100)).toBe(false);
    expect(evaluateGroups([], usage, 'size:all', 101)).toBe(true);
    const reposRule = { rules: [{ limit: 1000, subjects: ['size:repos:all'] as const }] };
    expect(evaluateGroups([reposRule], usage, 'size:repos:public', -1)).toBe(true);
    // A group none of whose rules speaks of a subject (or of one it falls under) refuses it.
    expect(evaluateGroups([reposRule], usage, 'size:assets:all', -1)).toBe(false);
    expect(evaluateGroups([reposRule], usage, 'size:all', -1)).toBe(false);
    expect(evaluateGroups([{ rules: [{ limit: 1000, subjects: ['size:repos:public'] }] }], usage, 'size:repos:all', -1)).toBe(false);
    // Every rule that speaks of the subject must allow it; any group that allows it is enough.
    const tight = { rules: [{ limit: 10, subjects: ['size:git:all'] as const }, { limit: -1, subjects: ['size:all'] as const }] };
    const loose = { rules: [{ limit: -1, subjects: ['size:all'] as const }] };
    expect(evaluateGroups([tight], usage, 'size:repos:all', -1)).toBe(false);
    expect(evaluateGroups([tight, loose], usage, 'size:repos:all', -1)).toBe(true);
    expect(evaluateGroups([tight], usage, 'size:assets:artifacts', -1)).toBe(true);
  });
});

describe('with quotas off', () => {
  test('every quota route is a 404, as Forgejo does not mount them', async () => {
    const offAdmin = await account('offadm', { admin: true }, off);
    const user = await account('offu', {}, off);
    for (const [pathname, h] of [
      ['/api/v1/admin/quota/rules', offAdmin.h],
      ['/api/v1/admin/quota/groups', offAdmin.h],
      [`/api/v1/admin/users/${user.name}/quota`, offAdmin.h],
      ['/api/v1/user/quota', user.h],
      ['/api/v1/user/quota/check?subject=size:all', user.h],
      ['/api/v1/user/quota/attachments', user.h],
    ] as const) {
      await expectApiError(await off.fetch(pathname, { headers: h }), 404, off.url);
    }
  });
});

describe('rules', () => {
  test('only site administrators: anonymous 401, others 403', async () => {
    const user = await account();
    await expectApiError(await s.fetch('/api/v1/admin/quota/rules'), 401, s.url);
    await expectApiError(await s.fetch('/api/v1/admin/quota/rules', { headers: user.h }), 403, s.url);
    await expectApiError(await s.fetch('/api/v1/admin/quota/rules', jsonInit('POST', { name: uniq('x'), limit: 1 }, user.h)), 403, s.url);
  });

  test('create, get, list, edit, delete', async () => {
    const name = uniq('rule');
    const created = await createRule({ name, limit: 1024, subjects: ['size:repos:all', 'size:git:lfs'] });
    expect(created.status).toBe(201);
    const body = await json(created);
    expectSchema(QuotaRuleInfoSchema, body);
    expect(body).toEqual({ name, limit: 1024, subjects: ['size:repos:all', 'size:git:lfs'] });

    const got = await s.fetch(`/api/v1/admin/quota/rules/${name}`, { headers: admin.h });
    expect(got.status).toBe(200);
    expect(await json(got)).toEqual(body);

    const list = await s.fetch('/api/v1/admin/quota/rules', { headers: admin.h });
    expect(list.status).toBe(200);
    const rules = await json<unknown[]>(list);
    for (const rule of rules) expectSchema(QuotaRuleInfoSchema, rule);
    expect(rules).toContainEqual(body);

    // What the options leave out stays.
    const limited = await s.fetch(`/api/v1/admin/quota/rules/${name}`, jsonInit('PATCH', { limit: 2048 }, admin.h));
    expect(limited.status).toBe(200);
    expect(await json(limited)).toEqual({ name, limit: 2048, subjects: ['size:repos:all', 'size:git:lfs'] });
    const resubjected = await s.fetch(`/api/v1/admin/quota/rules/${name}`, jsonInit('PATCH', { subjects: ['size:all'] }, admin.h));
    expect(await json(resubjected)).toEqual({ name, limit: 2048, subjects: ['size:all'] });

    const deleted = await s.fetch(`/api/v1/admin/quota/rules/${name}`, { method: 'DELETE', headers: admin.h });
    expect(deleted.status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/admin/quota/rules/${name}`, { headers: admin.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/quota/rules/${name}`, { method: 'DELETE', headers: admin.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/quota/rules/${name}`, jsonInit('PATCH', { limit: 1 }, admin.h)), 404, s.url);
  });

  test('a rule without subjects shows none (omitted), and -1 is unlimited', async () => {
    const name = uniq('rule');
    const res = await createRule({ name, limit: -1 });
    expect(res.status).toBe(201);
    expect(await json(res)).toEqual({ name, limit: -1 });
  });

  test('duplicates 409; a missing name or limit, an unknown subject, a wrong type 422', async () => {
    const name = await newRule(10, ['size:all']);
    expect(await expectApiError(await createRule({ name, limit: 5 }), 409, s.url)).toBe(`rule already exists: [name: ${name}]`);
    expect(await expectApiError(await createRule({ name: uniq('r'), subjects: ['size:all'] }), 422, s.url)).toBe('[Limit]: Required');
    await expectApiError(await createRule({ limit: 5 }), 422, s.url);
    await expectApiError(await createRule({ name: 'x'.repeat(256), limit: 5 }), 422, s.url);
    const other = uniq('r');
    expect(await expectApiError(await createRule({ name: other, limit: 5, subjects: ['size:all', 'size:bogus'] }), 422, s.url)).toBe(
      'unrecognized quota limit subject: [subject: size:bogus]',
    );
    await expectApiError(await s.fetch(`/api/v1/admin/quota/rules/${other}`, { headers: admin.h }), 404, s.url);
    await expectApiError(await createRule({ name: uniq('r'), limit: 'much' }), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/quota/rules/${name}`, jsonInit('PATCH', { subjects: ['nope'] }, admin.h)), 422, s.url);
    // The failed edit changed nothing.
    expect(await json(await s.fetch(`/api/v1/admin/quota/rules/${name}`, { headers: admin.h }))).toEqual({ name, limit: 10, subjects: ['size:all'] });
  });
});

describe('groups', () => {
  test('create with rules (new ones made, existing ones added), get, list, delete', async () => {
    const existing = await newRule(500, ['size:repos:all']);
    const fresh = uniq('rule');
    const name = uniq('grp');
    const res = await s.fetch(
      '/api/v1/admin/quota/groups',
      jsonInit('POST', { name, rules: [{ name: fresh, limit: 100, subjects: ['size:assets:all'] }, { name: existing }] }, admin.h),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const group = await json(res);
    expectSchema(QuotaGroupSchema, group);
    expect(group.name).toBe(name);
    expect(group.rules).toHaveLength(2);
    expect(group.rules).toContainEqual({ name: fresh, limit: 100, subjects: ['size:assets:all'] });
    // An existing rule is added as it is, whatever the listed limit says.
    expect(group.rules).toContainEqual({ name: existing, limit: 500, subjects: ['size:repos:all'] });
    expect(await json(await s.fetch(`/api/v1/admin/quota/rules/${fresh}`, { headers: admin.h }))).toEqual({ name: fresh, limit: 100, subjects: ['size:assets:all'] });

    expect(await json(await s.fetch(`/api/v1/admin/quota/groups/${name}`, { headers: admin.h }))).toEqual(group);
    const list = await json<unknown[]>(await s.fetch('/api/v1/admin/quota/groups', { headers: admin.h }));
    for (const g of list) expectSchema(QuotaGroupSchema, g);
    expect(list).toContainEqual(group);

    // Deleting a rule takes it out of its groups.
    expect((await s.fetch(`/api/v1/admin/quota/rules/${fresh}`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    const after = await json(await s.fetch(`/api/v1/admin/quota/groups/${name}`, { headers: admin.h }));
    expect(after.rules).toEqual([{ name: existing, limit: 500, subjects: ['size:repos:all'] }]);

    expect((await s.fetch(`/api/v1/admin/quota/groups/${name}`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/admin/quota/groups/${name}`, { headers: admin.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/quota/groups/${name}`, { method: 'DELETE', headers: admin.h }), 404, s.url);
    // The group's rules outlive it.
    expect((await s.fetch(`/api/v1/admin/quota/rules/${existing}`, { headers: admin.h })).status).toBe(200);
  });

  test('duplicates 409; a missing name or a bad subject 422, and nothing is left behind', async () => {
    const name = await newGroup();
    const dup = await s.fetch('/api/v1/admin/quota/groups', jsonInit('POST', { name }, admin.h));
    expect(await expectApiError(dup, 409, s.url)).toBe(`group already exists: [name: ${name}]`);
    await expectApiError(await s.fetch('/api/v1/admin/quota/groups', jsonInit('POST', { rules: [] }, admin.h)), 422, s.url);
    const other = uniq('grp');
    const rule = uniq('rule');
    const bad = await s.fetch('/api/v1/admin/quota/groups', jsonInit('POST', { name: other, rules: [{ name: rule, limit: 1, subjects: ['size:nope'] }] }, admin.h));
    await expectApiError(bad, 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/quota/groups/${other}`, { headers: admin.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/quota/rules/${rule}`, { headers: admin.h }), 404, s.url);
    const user = await account();
    await expectApiError(await s.fetch('/api/v1/admin/quota/groups', { headers: user.h }), 403, s.url);
  });

  test('rules in a group: add 204, again 409, unknown rule or group 404, remove 204, again 404', async () => {
    const group = await newGroup();
    const rule = await newRule(1, ['size:all']);
    const at = (g: string, r: string) => `/api/v1/admin/quota/groups/${g}/rules/${r}`;
    expect((await s.fetch(at(group, rule), { method: 'PUT', headers: admin.h })).status).toBe(204);
    expect((await json(await s.fetch(`/api/v1/admin/quota/groups/${group}`, { headers: admin.h }))).rules).toEqual([{ name: rule, limit: 1, subjects: ['size:all'] }]);
    expect(await expectApiError(await s.fetch(at(group, rule), { method: 'PUT', headers: admin.h }), 409, s.url)).toBe(
      `rule already in group: [group: ${group}, rule: ${rule}]`,
    );
    await expectApiError(await s.fetch(at(group, 'no-such-rule'), { method: 'PUT', headers: admin.h }), 404, s.url);
    await expectApiError(await s.fetch(at('no-such-group', rule), { method: 'PUT', headers: admin.h }), 404, s.url);
    expect((await s.fetch(at(group, rule), { method: 'DELETE', headers: admin.h })).status).toBe(204);
    await expectApiError(await s.fetch(at(group, rule), { method: 'DELETE', headers: admin.h }), 404, s.url);
  });

  test('users in a group: add 204, again 409, unknown user 404, list, remove 204, again 404; a deleted account leaves', async () => {
    const group = await newGroup();
    const user = await account();
    const at = (u: string) => `/api/v1/admin/quota/groups/${group}/users/${u}`;
    await join(group, user.name);
    expect(await expectApiError(await s.fetch(at(user.name), { method: 'PUT', headers: admin.h }), 409, s.url)).toMatch(/^user already in group: /);
    await expectApiError(await s.fetch(at('nobody-here'), { method: 'PUT', headers: admin.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/quota/groups/no-such-group/users/${user.name}`, { method: 'PUT', headers: admin.h }), 404, s.url);

    const list = await s.fetch(`/api/v1/admin/quota/groups/${group}/users`, { headers: admin.h });
    expect(list.status).toBe(200);
    const users = await json<{ login: string }[]>(list);
    for (const u of users) expectSchema(UserSchema, u);
    expect(users.map((u) => u.login)).toEqual([user.name]);
    await expectApiError(await s.fetch('/api/v1/admin/quota/groups/no-such-group/users', { headers: admin.h }), 404, s.url);

    expect((await s.fetch(at(user.name), { method: 'DELETE', headers: admin.h })).status).toBe(204);
    await expectApiError(await s.fetch(at(user.name), { method: 'DELETE', headers: admin.h }), 404, s.url);

    const leaving = await account();
    await join(group, leaving.name);
    expect((await s.fetch(`/api/v1/admin/users/${leaving.name}`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    expect(await json(await s.fetch(`/api/v1/admin/quota/groups/${group}/users`, { headers: admin.h }))).toEqual([]);
  });
});

describe("an account's quota", () => {
  test('site administrators set its groups (exactly the list; an unknown group 422 and nothing changes) and read it', async () => {
    const user = await account();
    const g1 = await newGroup([{ name: uniq('rule'), limit: 1000, subjects: ['size:repos:all'] }]);
    const g2 = await newGroup([{ name: uniq('rule'), limit: 2000, subjects: ['size:all'] }]);
    const set = (groups: unknown) => s.fetch(`/api/v1/admin/users/${user.name}/quota/groups`, jsonInit('POST', { groups }, admin.h));
    const info = async () => {
      const res = await s.fetch(`/api/v1/admin/users/${user.name}/quota`, { headers: admin.h });
      expect(res.status).toBe(200);
      const body = await json(res);
      expectSchema(QuotaInfoSchema, body);
      return body;
    };
    expect((await info()).groups).toEqual([]);
    expect((await set([g1, g2])).status).toBe(204);
    // Names are not shown here, to anyone (Forgejo's choice).
    expect((await info()).groups).toEqual(
      [g1, g2].sort().map((g) => ({ rules: [{ limit: g === g1 ? 1000 : 2000, subjects: [g === g1 ? 'size:repos:all' : 'size:all'] }] })),
    );
    expect(await expectApiError(await set([g1, 'no-such-group']), 422, s.url)).toBe('group not found: [group: no-such-group]');
    expect((await info()).groups).toHaveLength(2);
    expect((await set([g2])).status).toBe(204);
    expect((await info()).groups).toEqual([{ rules: [{ limit: 2000, subjects: ['size:all'] }] }]);
    expect((await set([])).status).toBe(204);
    expect((await info()).groups).toEqual([]);
    await expectApiError(await s.fetch(`/api/v1/admin/users/${user.name}/quota/groups`, jsonInit('POST', {}, admin.h)), 422, s.url);

    await expectApiError(await s.fetch('/api/v1/admin/users/nobody-here/quota', { headers: admin.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/users/${user.name}/quota`, { headers: user.h }), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/users/${user.name}/quota/groups`, jsonInit('POST', { groups: [] }, user.h)), 403, s.url);
  });

  test('/user/quota: usage of its repositories (public and private apart) and the groups that apply; 401 anonymous', async () => {
    const user = await account();
    await expectApiError(await s.fetch('/api/v1/user/quota'), 401, s.url);
    const read = async () => {
      const res = await s.fetch('/api/v1/user/quota', { headers: user.h });
      expect(res.status).toBe(200);
      const body = await json(res);
      expectSchema(QuotaInfoSchema, body);
      return body;
    };
    const empty = await read();
    expect(empty).toEqual({
      used: { size: { repos: { public: 0, private: 0 }, git: { LFS: 0 }, assets: { attachments: { issues: 0, releases: 0 }, artifacts: 0, packages: { all: 0 } } } },
      groups: [],
    });
    await createRepo(user, { auto_init: true });
    const afterPublic = await read();
    expect(afterPublic.used.size.repos.public).toBeGreaterThan(0);
    expect(afterPublic.used.size.repos.private).toBe(0);
    await createRepo(user, { auto_init: true, private: true });
    const afterPrivate = await read();
    expect(afterPrivate.used.size.repos.private).toBeGreaterThan(0);
    expect(afterPrivate.used.size.repos.public).toBe(afterPublic.used.size.repos.public);

    const group = await newGroup([{ name: uniq('rule'), limit: 5, subjects: ['size:repos:public'] }]);
    await join(group, user.name);
    expect((await read()).groups).toEqual([{ rules: [{ limit: 5, subjects: ['size:repos:public'] }] }]);
  });

  test('/user/quota/check answers a boolean; an unknown or missing subject is a 422', async () => {
    const user = await account();
    // No group and the default TOTAL (-1): everything is accepted.
    expect(await check(user, 'size:all')).toBe(true);
    expect(await check(user, 'size:repos:all')).toBe(true);
    expect(await check(user, ' size:git:all ')).toBe(true);
    expect(await expectApiError(await s.fetch('/api/v1/user/quota/check?subject=size:everything', { headers: user.h }), 422, s.url)).toBe(
      'unrecognized quota limit subject: [subject: size:everything]',
    );
    await expectApiError(await s.fetch('/api/v1/user/quota/check', { headers: user.h }), 422, s.url);
    await expectApiError(await s.fetch('/api/v1/user/quota/check?subject=size:all'), 401, s.url);
  });

  test('attachments, packages and artifacts: empty pages (no such storage yet)', async () => {
    const user = await account();
    for (const kind of ['attachments', 'packages', 'artifacts']) {
      const res = await s.fetch(`/api/v1/user/quota/${kind}?page=1&limit=10`, { headers: user.h });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('0');
      expect(await json(res)).toEqual([]);
      await expectApiError(await s.fetch(`/api/v1/user/quota/${kind}`), 401, s.url);
    }
  });

  test('a token without the user scope is refused', async () => {
    const user = await account();
    const token = await createToken(s.host, user.name, ['read:repository']);
    await expectApiError(await s.fetch('/api/v1/user/quota', { headers: tokenHeader(token) }), 403, s.url);
  });
});

describe("an organization's quota", () => {
  test('its owners and site administrators read it; others 403 (404 for a private one); anonymous 401', async () => {
    const owner = await account('oown');
    const outsider = await account('oout');
    const orgName = uniq('org');
    await s.host.orgs.create(userActor(await userNamed(s.host, owner.name)), await userNamed(s.host, owner.name), { username: orgName });
    const hidden = uniq('org');
    await s.host.orgs.create(userActor(await userNamed(s.host, owner.name)), await userNamed(s.host, owner.name), { username: hidden, visibility: 'private' });

    for (const who of [owner, admin]) {
      const res = await s.fetch(`/api/v1/orgs/${orgName}/quota`, { headers: who.h });
      expect(res.status, await res.clone().text()).toBe(200);
      const body = await json(res);
      expectSchema(QuotaInfoSchema, body);
      expect(body.groups).toEqual([]);
      expect(body.used.size.repos).toEqual({ public: 0, private: 0 });
    }
    expect(await expectApiError(await s.fetch(`/api/v1/orgs/${orgName}/quota`, { headers: outsider.h }), 403, s.url)).toBe('Must be an organization owner');
    await expectApiError(await s.fetch(`/api/v1/orgs/${orgName}/quota`), 401, s.url);
    await expectApiError(await s.fetch(`/api/v1/orgs/${hidden}/quota`, { headers: outsider.h }), 404, s.url);
    await expectApiError(await s.fetch('/api/v1/orgs/no-such-org/quota', { headers: admin.h }), 404, s.url);

    // Organizations join groups as accounts do.
    const group = await newGroup([{ name: uniq('rule'), limit: 1, subjects: ['size:repos:all'] }]);
    await join(group, orgName);
    const withGroup = await json(await s.fetch(`/api/v1/orgs/${orgName}/quota`, { headers: owner.h }));
    expect(withGroup.groups).toEqual([{ rules: [{ limit: 1, subjects: ['size:repos:all'] }] }]);

    const checked = await s.fetch(`/api/v1/orgs/${orgName}/quota/check?subject=size:repos:all`, { headers: owner.h });
    expect(checked.status).toBe(200);
    expect(await json(checked)).toBe(true);
    await expectApiError(await s.fetch(`/api/v1/orgs/${orgName}/quota/check?subject=size`, { headers: owner.h }), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/orgs/${orgName}/quota/check?subject=size:all`, { headers: outsider.h }), 403, s.url);
    for (const kind of ['attachments', 'packages', 'artifacts']) {
      const res = await s.fetch(`/api/v1/orgs/${orgName}/quota/${kind}`, { headers: owner.h });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('0');
      expect(await json(res)).toEqual([]);
      await expectApiError(await s.fetch(`/api/v1/orgs/${orgName}/quota/${kind}`, { headers: outsider.h }), 403, s.url);
    }
  });
});

describe('over quota', () => {
  let over: Account;
  let repo: string;

  beforeAll(async () => {
    over = await account('over');
    repo = await createRepo(over, { auto_init: true });
    const group = await newGroup([{ name: uniq('rule'), limit: 0, subjects: ['size:repos:all'] }]);
    await join(group, over.name);
  });

  test('the check says so, for the subject and for what it covers', async () => {
    expect(await check(over, 'size:repos:all')).toBe(false);
    expect(await check(over, 'size:repos:public')).toBe(false);
    // The group speaks of repositories only: a subject it does not cover is refused too, as in Forgejo.
    expect(await check(over, 'size:assets:all')).toBe(false);
    expect(await check(over, 'size:all')).toBe(false);
    const other = await account();
    expect(await check(other, 'size:repos:all')).toBe(true);
  });

  test.skipIf(!CREATE_CHECKS_QUOTA)('creating a repository is refused with 413 naming the account; others still may', async () => {
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: uniq('r') }, over.h));
    expect(res.status).toBe(413);
    const body = await json(res);
    expect(body).toMatchObject({ message: 'quota exceeded', username: over.name });
    expect(typeof body.user_id).toBe('number');
    const byAdmin = await s.fetch(`/api/v1/admin/users/${over.name}/repos`, jsonInit('POST', { name: uniq('r') }, admin.h));
    expect(byAdmin.status).toBe(413);
    const other = await account();
    await createRepo(other);
  });

  test.skipIf(!PUSH_CHECKS_QUOTA)('a push is declined with "Quota exceeded", but deleting a branch still goes through', async () => {
    const dir = await mkdtemp(path.join(scratch, 'wc-'));
    const port = new URL(s.url).port;
    expect((await git(['clone', '-q', `http://${over.name}:${over.token}@127.0.0.1:${port}/${repo}.git`, dir], scratch)).code).toBe(0);
    await writeFile(path.join(dir, 'more.txt'), 'more\n');
    await git(['add', 'more.txt'], dir);
    await git(['commit', '-q', '-m', 'more'], dir);
    const pushed = await git(['push', 'origin', 'HEAD:refs/heads/extra'], dir);
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toContain('Quota exceeded');

    // Lift the quota to make a branch, put it back, and delete the branch.
    const set = (groups: string[]) => s.fetch(`/api/v1/admin/users/${over.name}/quota/groups`, jsonInit('POST', { groups }, admin.h));
    const saved = (await json<{ groups: unknown[] }>(await s.fetch(`/api/v1/admin/users/${over.name}/quota`, { headers: admin.h }))).groups;
    expect(saved).toHaveLength(1);
    const names = await json<{ name: string; rules: { limit: number }[] }[]>(await s.fetch('/api/v1/admin/quota/groups', { headers: admin.h }));
    const own = names.filter((g) => g.rules.length === 1 && g.rules[0]!.limit === 0).map((g) => g.name);
    expect((await set([])).status).toBe(204);
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/extra'], dir)).code).toBe(0);
    expect((await set(own)).status).toBe(204);
    expect(await check(over, 'size:repos:all')).toBe(false);
    expect((await git(['push', '-q', 'origin', ':refs/heads/extra'], dir)).code).toBe(0);
  });
});
