/**
 * Tag protection, as Forgejo has it: CRUD on `/tag_protections` for repository administrators (401, 403, 404 as
 * for branch rules), its refusals (400 without a pattern or without any whitelist, 403 for a second rule of one
 * pattern, 422 for unknown users and teams, 423 archived, 404 for ids of other repositories or not numbers), and
 * the rules enforced: only whitelisted users and team members create, move or delete matching tags, by `git push`
 * (refused with `Tag … is protected`) and through the tag API (422).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { TagProtectionSchema, matchesSchema, schemaErrors } from '@repohost/core';
import type { TSchema } from '@sinclair/typebox';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

let s: TestServer;
let owner: Account;
let writer: Account;
let member: Account;
let stranger: Account;
let org: string;
let teamName: string;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let counter = 0;

async function account(prefix: string): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name);
  const token = await createToken(s.host, name);
  return { name, token, h: tokenHeader(token) };
}

const call = (method: string, apiPath: string, who?: Account, body?: unknown) =>
  s.fetch(`/api/v1${apiPath}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h ?? {}));

function expectSchema(schema: TSchema, body: unknown): void {
  expect(matchesSchema(schema, body), schemaErrors(schema, body).join('\n')).toBe(true);
}

function git(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr: String(stderr) });
    });
  });
}

/** An organization repository: `writer` is a write collaborator, `member` writes through the team. */
async function repo(body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('r');
  const res = await call('POST', `/orgs/${org}/repos`, owner, { name, auto_init: true, ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  const full = `${org}/${name}`;
  expect((await call('PUT', `/repos/${full}/collaborators/${writer.name}`, owner, { permission: 'write' })).status).toBe(204);
  return full;
}

async function protectTags(full: string, body: Record<string, unknown>): Promise<any> {
  const res = await call('POST', `/repos/${full}/tag_protections`, owner, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
}

beforeAll(async () => {
  s = await startTestServer();
  [owner, writer, member, stranger] = await Promise.all([account('own'), account('wr'), account('mb'), account('st')]);
  org = uniq('org');
  expect((await call('POST', '/orgs', owner, { username: org })).status).toBe(201);
  teamName = uniq('team');
  const res = await call('POST', `/orgs/${org}/teams`, owner, { name: teamName, permission: 'write', units: ['repo.code'], includes_all_repositories: true });
  expect(res.status).toBe(201);
  const team = await json(res);
  expect((await call('PUT', `/teams/${team.id}/members/${member.name}`, owner)).status).toBe(204);
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-tag-protect-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Tag Tester\n\temail = tag@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});
afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('tag protection CRUD', () => {
  test('create, list, get, edit and delete', async () => {
    const full = await repo();
    expect(await json(await call('GET', `/repos/${full}/tag_protections`, owner))).toEqual([]);
    const created = await protectTags(full, { name_pattern: ' v* ', whitelist_usernames: [writer.name.toUpperCase()], whitelist_teams: [teamName] });
    expectSchema(TagProtectionSchema, created);
    expect(created).toMatchObject({ name_pattern: 'v*', whitelist_usernames: [writer.name], whitelist_teams: [teamName] });

    const list = await json(await call('GET', `/repos/${full}/tag_protections`, owner));
    expectSchema(Type.Array(TagProtectionSchema), list);
    expect(list).toEqual([created]);
    expect(await json(await call('GET', `/repos/${full}/tag_protections/${created.id}`, owner))).toEqual(created);

    const res = await call('PATCH', `/repos/${full}/tag_protections/${created.id}`, owner, { name_pattern: 'v*-rc', whitelist_usernames: [owner.name], whitelist_teams: null });
    expect(res.status).toBe(200);
    const edited = await json(res);
    expect(edited).toMatchObject({ id: created.id, name_pattern: 'v*-rc', whitelist_usernames: [owner.name], whitelist_teams: [teamName] });
    expect((await json(await call('PATCH', `/repos/${full}/tag_protections/${created.id}`, owner, { whitelist_teams: [] }))).whitelist_teams).toEqual([]);

    expect((await call('DELETE', `/repos/${full}/tag_protections/${created.id}`, owner)).status).toBe(204);
    expect((await call('GET', `/repos/${full}/tag_protections/${created.id}`, owner)).status).toBe(404);
    expect((await call('DELETE', `/repos/${full}/tag_protections/${created.id}`, owner)).status).toBe(404);
  });

  test("who may, and Forgejo's refusals", async () => {
    const full = await repo();
    const rule = await protectTags(full, { name_pattern: 'v*', whitelist_usernames: [owner.name] });
    expect(await expectApiError(await call('GET', `/repos/${full}/tag_protections`), 401, s.url)).toBe('token is required');
    for (const who of [writer, member, stranger]) {
      expect(await expectApiError(await call('GET', `/repos/${full}/tag_protections/${rule.id}`, who), 403, s.url)).toBe(
        'user should be an owner or a collaborator with admin write of a repository',
      );
    }
    const hidden = await repo({ private: true });
    expect((await call('GET', `/repos/${hidden}/tag_protections`, stranger)).status).toBe(404);

    const post = (body: Record<string, unknown>) => call('POST', `/repos/${full}/tag_protections`, owner, body);
    expect(await expectApiError(await post({ name_pattern: '  ', whitelist_usernames: [owner.name] }), 400, s.url)).toBe('name_pattern are empty');
    expect(await expectApiError(await post({ name_pattern: 'x*' }), 400, s.url)).toBe('both whitelist_usernames and whitelist_teams are empty');
    expect(await expectApiError(await post({ name_pattern: 'v*', whitelist_usernames: [owner.name] }), 403, s.url)).toBe('Tag protection already exist');
    expect(await expectApiError(await post({ name_pattern: 'y*', whitelist_usernames: ['ghost-user'] }), 422, s.url)).toBe('user does not exist [uid: 0, name: ghost-user]');
    expect((await post({ name_pattern: 'y*', whitelist_teams: ['ghost-team'] })).status).toBe(422);
    // Ids of another repository's rules, and ids that are not numbers, are not found.
    const other = await repo();
    expect((await call('GET', `/repos/${other}/tag_protections/${rule.id}`, owner)).status).toBe(404);
    expect((await call('PATCH', `/repos/${other}/tag_protections/${rule.id}`, owner, { name_pattern: 'z' })).status).toBe(404);
    expect((await call('GET', `/repos/${full}/tag_protections/abc`, owner)).status).toBe(404);
    expect((await call('GET', `/repos/${full}/tag_protections/99999999999999999999`, owner)).status).toBe(404);

    expect((await call('PATCH', `/repos/${full}`, owner, { archived: true })).status).toBe(200);
    expect((await post({ name_pattern: 'w*', whitelist_usernames: [owner.name] })).status).toBe(423);
    expect((await call('PATCH', `/repos/${full}/tag_protections/${rule.id}`, owner, { name_pattern: 'q' })).status).toBe(423);
  });
});

describe('tag protection enforced', () => {
  test('git push: a matching tag only by whitelisted users and team members; others and non-matching tags as usual', async () => {
    const full = await repo();
    await protectTags(full, { name_pattern: 'v*', whitelist_usernames: [writer.name], whitelist_teams: [teamName] });
    const dir = path.join(scratch, `clone-${++counter}`);
    const url = (who: Account) => `http://${who.name}:${who.token}@127.0.0.1:${new URL(s.url).port}/${full}.git`;
    expect((await git(['clone', '-q', url(owner), dir], scratch)).code).toBe(0);
    expect((await git(['tag', 'v1.0'], dir)).code).toBe(0);
    expect((await git(['tag', 'build-1'], dir)).code).toBe(0);

    // Even the owner is not on the whitelist.
    const refused = await git(['push', url(owner), 'refs/tags/v1.0'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('remote: Tag v1.0 is protected');
    expect((await call('GET', `/repos/${full}/tags/v1.0`, owner)).status).toBe(404);
    expect((await git(['push', '-q', url(owner), 'refs/tags/build-1'], dir)).code).toBe(0);

    expect((await git(['push', '-q', url(writer), 'refs/tags/v1.0'], dir)).code).toBe(0);
    expect((await call('GET', `/repos/${full}/tags/v1.0`, owner)).status).toBe(200);
    const deleting = await git(['push', url(owner), ':refs/tags/v1.0'], dir);
    expect(deleting.stderr).toContain('remote: Tag v1.0 is protected');
    expect((await call('GET', `/repos/${full}/tags/v1.0`, owner)).status).toBe(200);
    // A team member may, through the team.
    expect((await git(['push', '-q', url(member), ':refs/tags/v1.0'], dir)).code).toBe(0);
    expect((await call('GET', `/repos/${full}/tags/v1.0`, owner)).status).toBe(404);
  });

  test('the tag API: creating or deleting a protected tag is 422 for those not whitelisted', async () => {
    const full = await repo();
    await protectTags(full, { name_pattern: '/^rel-[0-9]+$/', whitelist_usernames: [writer.name] });
    let res = await call('POST', `/repos/${full}/tags`, owner, { tag_name: 'rel-1', target: 'main' });
    expect(await expectApiError(res, 422, s.url)).toBe('user not allowed to create protected tag');
    res = await call('POST', `/repos/${full}/tags`, owner, { tag_name: 'rel-x', target: 'main' });
    expect(res.status, await res.clone().text()).toBe(201);
    res = await call('POST', `/repos/${full}/tags`, writer, { tag_name: 'rel-1', target: 'main' });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await expectApiError(await call('DELETE', `/repos/${full}/tags/rel-1`, owner), 422, s.url)).toBe('user not allowed to delete protected tag');
    expect((await call('DELETE', `/repos/${full}/tags/rel-1`, writer)).status).toBe(204);
  });
});
