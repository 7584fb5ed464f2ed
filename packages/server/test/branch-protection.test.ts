/**
 * Branch protection over the API, as Forgejo has it: CRUD on `/branch_protections` for repository administrators
 * (401 anonymous, 403 other users who see the repository, 404 who do not), Forgejo's refusals (400 without a
 * name, 403 for a second rule of one name, 422 for unknown users and teams, 423 on an archived repository), the
 * whitelist filtering (only writers for push and merge, only teams covering the repository), the edit rules
 * (`enable_push` false clears the whitelist switches; a non-null `status_check_contexts` replaces the list whatever
 * `enable_status_check` says), the Branch fields the rules give, and the branch and contents APIs refused on a
 * protected branch.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { BranchProtectionSchema, BranchSchema, matchesSchema, schemaErrors } from '@repohost/core';
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
let reader: Account;
let stranger: Account;

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

/** A repository of `owner` with a first commit on main; `writer` writes and `reader` reads it. */
async function repo(body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('r');
  const res = await call('POST', '/user/repos', owner, { name, auto_init: true, ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  const full = `${owner.name}/${name}`;
  for (const [who, permission] of [
    [writer, 'write'],
    [reader, 'read'],
  ] as const) {
    expect((await call('PUT', `/repos/${full}/collaborators/${who.name}`, owner, { permission })).status).toBe(204);
  }
  return full;
}

async function protect(full: string, body: Record<string, unknown>): Promise<any> {
  const res = await call('POST', `/repos/${full}/branch_protections`, owner, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
}

beforeAll(async () => {
  s = await startTestServer();
  [owner, writer, reader, stranger] = await Promise.all([account('own'), account('wr'), account('rd'), account('st')]);
});
afterAll(async () => {
  await s?.cleanup();
});

describe('branch protection CRUD', () => {
  test('create, list, get, edit and delete a rule; the body follows the schema', async () => {
    const full = await repo();
    let res = await call('GET', `/repos/${full}/branch_protections`, owner);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual([]);

    const created = await protect(full, {
      rule_name: 'main',
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: [writer.name.toUpperCase(), reader.name],
      push_whitelist_deploy_keys: true,
      enable_merge_whitelist: true,
      merge_whitelist_usernames: [writer.name],
      enable_status_check: true,
      status_check_contexts: ['ci/*'],
      required_approvals: 2,
      enable_approvals_whitelist: true,
      // The stranger only sees the public repository: not a reader Forgejo keeps.
      approvals_whitelist_username: [reader.name, stranger.name],
      block_on_rejected_reviews: true,
      block_on_official_review_requests: true,
      block_on_outdated_branch: true,
      dismiss_stale_approvals: true,
      ignore_stale_approvals: true,
      require_signed_commits: false,
      protected_file_patterns: '*.lock',
      unprotected_file_patterns: 'docs/**',
      apply_to_admins: true,
    });
    expectSchema(BranchProtectionSchema, created);
    expect(created).toMatchObject({
      rule_name: 'main',
      branch_name: 'main',
      enable_push: true,
      enable_push_whitelist: true,
      // The reader may not write code: dropped from the push whitelist, kept among approvers.
      push_whitelist_usernames: [writer.name],
      push_whitelist_teams: [],
      push_whitelist_deploy_keys: true,
      merge_whitelist_usernames: [writer.name],
      status_check_contexts: ['ci/*'],
      required_approvals: 2,
      approvals_whitelist_username: [reader.name],
      protected_file_patterns: '*.lock',
      unprotected_file_patterns: 'docs/**',
      apply_to_admins: true,
    });

    const glob = await protect(full, { rule_name: 'release/**', enable_push: false, required_approvals: -3 });
    expect(glob.branch_name).toBe('');
    expect(glob.required_approvals).toBe(0);
    expect(glob.enable_push_whitelist).toBe(false);

    res = await call('GET', `/repos/${full}/branch_protections`, owner);
    const list = await json<any[]>(res);
    expectSchema(Type.Array(BranchProtectionSchema), list);
    expect(list.map((r) => r.rule_name)).toEqual(['main', 'release/**']);

    res = await call('GET', `/repos/${full}/branch_protections/${encodeURIComponent('release/**')}`, owner);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(list[1]);

    // enable_push false clears the whitelist switches; lists not sent stay.
    res = await call('PATCH', `/repos/${full}/branch_protections/main`, owner, { enable_push: false, push_whitelist_deploy_keys: true, required_approvals: 1 });
    expect(res.status).toBe(200);
    const edited = await json(res);
    expectSchema(BranchProtectionSchema, edited);
    expect(edited).toMatchObject({ enable_push: false, enable_push_whitelist: false, push_whitelist_deploy_keys: false, required_approvals: 1, push_whitelist_usernames: [writer.name] });
    expect(edited.created_at).toBe(created.created_at);

    res = await call('DELETE', `/repos/${full}/branch_protections/release%2F**`, owner);
    expect(res.status).toBe(204);
    expect((await call('GET', `/repos/${full}/branch_protections/release%2F**`, owner)).status).toBe(404);
    expect((await call('DELETE', `/repos/${full}/branch_protections/release%2F**`, owner)).status).toBe(404);
  });

  test('two creations of one rule at once: one is made, the other is 403; deleting the repository takes the rules', async () => {
    const full = await repo();
    const results = await Promise.all([1, 2, 3].map(() => call('POST', `/repos/${full}/branch_protections`, owner, { rule_name: 'race' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403]);
    expect(await json<any[]>(await call('GET', `/repos/${full}/branch_protections`, owner))).toHaveLength(1);
    const { id } = await json(await call('GET', `/repos/${full}`, owner));
    expect(await s.host.protection.hasRules(id)).toBe(true);
    expect((await call('DELETE', `/repos/${full}`, owner)).status).toBe(204);
    expect(await s.host.protection.hasRules(id)).toBe(false);
  });

  test('status_check_contexts: a non-null list replaces, whatever enable_status_check; null or absent keeps it', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'main', enable_status_check: true, status_check_contexts: ['a', 'b'] });
    const patch = async (body: Record<string, unknown>) => {
      const res = await call('PATCH', `/repos/${full}/branch_protections/main`, owner, body);
      expect(res.status, await res.clone().text()).toBe(200);
      return json(res);
    };
    expect((await patch({ enable_status_check: false })).status_check_contexts).toEqual(['a', 'b']);
    expect(await patch({ status_check_contexts: ['c'] })).toMatchObject({ enable_status_check: false, status_check_contexts: ['c'] });
    expect((await patch({ status_check_contexts: null, enable_status_check: true })).status_check_contexts).toEqual(['c']);
    expect(await patch({ enable_status_check: false, status_check_contexts: [] })).toMatchObject({ enable_status_check: false, status_check_contexts: [] });
  });

  test('who may: 401 anonymous, 403 readers and writers, 404 strangers of a private repository, 200 the owner', async () => {
    const full = await repo({ private: true });
    await protect(full, { rule_name: 'main' });
    expect((await call('GET', `/repos/${full}/branch_protections`)).status).toBe(404);
    expect((await call('GET', `/repos/${full}/branch_protections`, stranger)).status).toBe(404);
    const publicRepo = await repo();
    expect(await expectApiError(await call('GET', `/repos/${publicRepo}/branch_protections`), 401, s.url)).toBe('token is required');
    for (const who of [reader, writer, stranger]) {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['POST', '', { rule_name: 'x' }],
        ['GET', '/main', undefined],
        ['PATCH', '/main', {}],
        ['DELETE', '/main', undefined],
      ] as const) {
        const res = await call(method, `/repos/${publicRepo}/branch_protections${path}`, who, body);
        expect(await expectApiError(res, 403, s.url)).toBe('user should be an owner or a collaborator with admin write of a repository');
      }
    }
  });

  test("Forgejo's refusals: no name 400, a second rule 403, unknown user or team 422, archived 423, unknown rule 404", async () => {
    const full = await repo();
    expect(await expectApiError(await call('POST', `/repos/${full}/branch_protections`, owner, {}), 400, s.url)).toBe('both rule_name and branch_name are empty');
    // The deprecated branch_name names the rule when rule_name is empty.
    const legacy = await protect(full, { branch_name: 'legacy' });
    expect(legacy.rule_name).toBe('legacy');
    expect(await expectApiError(await call('POST', `/repos/${full}/branch_protections`, owner, { rule_name: 'legacy' }), 403, s.url)).toBe('Branch protection already exist');
    expect(await expectApiError(await call('POST', `/repos/${full}/branch_protections`, owner, { rule_name: 'x', push_whitelist_usernames: ['nobody-here'] }), 422, s.url)).toBe(
      'user does not exist [uid: 0, name: nobody-here]',
    );
    expect((await call('PATCH', `/repos/${full}/branch_protections/legacy`, owner, { merge_whitelist_usernames: ['nobody-here'] })).status).toBe(422);
    expect((await call('PATCH', `/repos/${full}/branch_protections/nothing`, owner, {})).status).toBe(404);
    expect((await call('POST', `/repos/${full}/branch_protections`, owner, { rule_name: 'y', required_approvals: 'two' })).status).toBe(422);
    // Nothing was written by the refused calls.
    expect((await json<any[]>(await call('GET', `/repos/${full}/branch_protections`, owner))).map((r) => r.rule_name)).toEqual(['legacy']);

    expect((await call('PATCH', `/repos/${full}`, owner, { archived: true })).status).toBe(200);
    expect(await expectApiError(await call('POST', `/repos/${full}/branch_protections`, owner, { rule_name: 'z' }), 423, s.url)).toBe('repo is archived');
    expect((await call('PATCH', `/repos/${full}/branch_protections/legacy`, owner, { enable_push: true })).status).toBe(423);
    expect((await call('GET', `/repos/${full}/branch_protections/legacy`, owner)).status).toBe(200);
  });

  test('teams: names are checked in the organization (422), only teams covering the repository are kept', async () => {
    const org = uniq('org');
    expect((await call('POST', '/orgs', owner, { username: org })).status).toBe(201);
    const name = uniq('r');
    expect((await call('POST', `/orgs/${org}/repos`, owner, { name, auto_init: true })).status).toBe(201);
    const team = async (body: Record<string, unknown>) => {
      const res = await call('POST', `/orgs/${org}/teams`, owner, { name: uniq('t'), permission: 'write', units: ['repo.code'], ...body });
      expect(res.status, await res.clone().text()).toBe(201);
      return json(res);
    };
    const covering = await team({});
    const all = await team({ includes_all_repositories: true });
    const elsewhere = await team({});
    expect((await call('PUT', `/teams/${covering.id}/repos/${org}/${name}`, owner)).status).toBe(204);
    const full = `${org}/${name}`;
    const res = await call('POST', `/repos/${full}/branch_protections`, owner, { rule_name: 'main', push_whitelist_teams: ['nope'] });
    expect(await expectApiError(res, 422, s.url)).toMatch(/^team does not exist \[org_id \d+, team_id 0, name: nope\]$/);
    const created = await protect(full, {
      rule_name: 'main',
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_teams: [covering.name, all.name.toUpperCase(), elsewhere.name],
    });
    expect(created.push_whitelist_teams).toEqual([covering.name, all.name].sort());
  });
});

describe('branches under a rule', () => {
  test('the Branch fields: protected, approvals, checks, what the viewer may do, the rule name for administrators', async () => {
    const full = await repo();
    let res = await call('GET', `/repos/${full}/branches/main`, writer);
    expect(await json(res)).toMatchObject({ protected: false, user_can_push: true, user_can_merge: true, effective_branch_protection_name: '' });
    await protect(full, {
      rule_name: 'ma*',
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: [owner.name],
      required_approvals: 1,
      enable_status_check: true,
      status_check_contexts: ['ci'],
    });
    res = await call('GET', `/repos/${full}/branches/main`, writer);
    const branch = await json(res);
    expectSchema(BranchSchema, branch);
    expect(branch).toMatchObject({
      protected: true,
      required_approvals: 1,
      enable_status_check: true,
      status_check_contexts: ['ci'],
      user_can_push: false,
      user_can_merge: true,
      effective_branch_protection_name: '',
    });
    const mine = await json(await call('GET', `/repos/${full}/branches`, owner));
    expect(mine[0]).toMatchObject({ name: 'main', protected: true, user_can_push: true, effective_branch_protection_name: 'ma*' });
  });

  test('deleting a protected branch is 403; renaming needs an administrator for a named rule, and takes the rule along', async () => {
    const full = await repo();
    for (const name of ['keep', 'glob/one']) {
      expect((await call('POST', `/repos/${full}/branches`, owner, { new_branch_name: name })).status).toBe(201);
    }
    await protect(full, { rule_name: 'keep', enable_push: true });
    await protect(full, { rule_name: 'glob/*', enable_push: true });
    expect(await expectApiError(await call('DELETE', `/repos/${full}/branches/keep`, owner), 403, s.url)).toBe('branch protected');
    expect(await expectApiError(await call('PATCH', `/repos/${full}/branches/glob%2Fone`, owner, { name: 'other' }), 403, s.url)).toBe(
      'Branch is protected by glob-based protection rules.',
    );
    expect(await expectApiError(await call('PATCH', `/repos/${full}/branches/keep`, writer, { name: 'kept' }), 403, s.url)).toBe(
      'User must be a repo or site admin to rename default or protected branches.',
    );
    expect((await call('PATCH', `/repos/${full}/branches/keep`, owner, { name: 'kept' })).status).toBe(204);
    expect((await call('GET', `/repos/${full}/branch_protections/kept`, owner)).status).toBe(200);
    expect((await call('GET', `/repos/${full}/branch_protections/keep`, owner)).status).toBe(404);
  });

  test('creating a branch a rule closes is refused; moving one backwards is a force push', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'locked/*', enable_push: false });
    expect(await expectApiError(await call('POST', `/repos/${full}/branches`, writer, { new_branch_name: 'locked/x' }), 403, s.url)).toBe(
      'Not allowed to push to protected branch locked/x',
    );
    expect((await call('GET', `/repos/${full}/branches/locked%2Fx`, owner)).status).toBe(404);
  });
});

describe('the contents API on a protected branch', () => {
  const file = (content: string) => Buffer.from(content).toString('base64');

  test('a user who may not push cannot commit; unprotected files still may; protected files never', async () => {
    const full = await repo();
    await protect(full, {
      rule_name: 'main',
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: [owner.name],
      protected_file_patterns: 'secret/**',
      unprotected_file_patterns: 'docs/**',
    });
    let res = await call('POST', `/repos/${full}/contents/code.txt`, writer, { content: file('x'), branch: 'main' });
    expect(await expectApiError(res, 403, s.url)).toBe(`user cannot commit to repo [user: ${writer.name.toLowerCase()}]`);
    res = await call('POST', `/repos/${full}/contents/docs/guide.md`, writer, { content: file('ok'), branch: 'main' });
    expect(res.status, await res.clone().text()).toBe(201);
    res = await call('POST', `/repos/${full}/contents/secret/key.txt`, owner, { content: file('no'), branch: 'main' });
    expect(await expectApiError(res, 403, s.url)).toBe('path is protected and can not be changed [path: secret/key.txt]');
    res = await call('POST', `/repos/${full}/contents/code.txt`, owner, { content: file('mine'), branch: 'main' });
    expect(res.status).toBe(201);
    // Another branch is not protected.
    res = await call('POST', `/repos/${full}/contents/code2.txt`, writer, { content: file('y'), branch: 'main', new_branch: 'side' });
    expect(res.status).toBe(201);
    // What the refused calls left: main has docs/guide.md and code.txt, never secret/key.txt.
    expect((await call('GET', `/repos/${full}/contents/secret/key.txt?ref=main`, owner)).status).toBe(404);
  });

  test('a rule requiring signed commits refuses the server-made (unsigned) commit', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'main', enable_push: true, require_signed_commits: true });
    const res = await call('POST', `/repos/${full}/contents/a.txt`, owner, { content: file('a'), branch: 'main' });
    expect(await expectApiError(res, 403, s.url)).toBe(`user cannot commit to repo [user: ${owner.name.toLowerCase()}]`);
  });
});
