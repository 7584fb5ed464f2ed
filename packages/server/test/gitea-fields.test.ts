/**
 * Fields Gitea's clients read that Forgejo does not send, answered beside Forgejo's (the union of both): on
 * Repository (`has_code`, `projects_mode`, `licenses`, `allow_manual_merge`, `autodetect_manual_merge`), Issue
 * (`time_estimate`) and ContentsResponse (`last_author_date`, `last_committer_date`, from the last commit that
 * touched the path, in a read and a folder listing alike).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ContentsResponseSchema, IssueSchema, RepositorySchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

let s: TestServer;
let owner: string;
let h: Record<string, string>;

beforeAll(async () => {
  s = await startTestServer();
  owner = uniq('gf');
  await createUser(s.host, owner);
  h = tokenHeader(await createToken(s.host, owner));
});
afterAll(async () => {
  await s?.cleanup();
});

async function newRepo(): Promise<string> {
  const name = uniq('repo');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true }, h));
  expect(res.status).toBe(201);
  return `${owner}/${name}`;
}

function expectSchema(schema: Parameters<typeof matchesSchema>[0], body: unknown): void {
  expect(matchesSchema(schema, body), schemaErrors(schema, body).join('\n')).toBe(true);
}

describe('Repository', () => {
  test('has_code follows the code unit, manual merge settings follow the pull request unit; projects_mode and licenses', async () => {
    const full = await newRepo();
    const before = await json(await s.fetch(`/api/v1/repos/${full}`, { headers: h }));
    expectSchema(RepositorySchema, before);
    expect(before).toMatchObject({ has_code: true, projects_mode: 'all', licenses: [], allow_manual_merge: false, autodetect_manual_merge: false });

    const edited = await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', { allow_manual_merge: true, autodetect_manual_merge: true }, h));
    expect(edited.status).toBe(200);
    expect(await json(edited)).toMatchObject({ allow_manual_merge: true, autodetect_manual_merge: true });
    const read = await json(await s.fetch(`/api/v1/repos/${full}`));
    expect(read).toMatchObject({ allow_manual_merge: true, autodetect_manual_merge: true });

    // Without the pull request unit there are no merge settings to show, as Gitea answers.
    expect((await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', { has_pull_requests: false }, h))).status).toBe(200);
    expect(await json(await s.fetch(`/api/v1/repos/${full}`))).toMatchObject({ allow_manual_merge: false, autodetect_manual_merge: false, has_code: true });

    // Lists carry them too.
    const list = await json(await s.fetch(`/api/v1/users/${owner}/repos`));
    for (const repo of list) expectSchema(RepositorySchema, repo);
    expect(list.find((r: { full_name: string }) => r.full_name === full)).toMatchObject({ has_code: true, licenses: [] });
  });
});

describe('Issue', () => {
  test('time_estimate is 0 on a read and in a list', async () => {
    const full = await newRepo();
    const created = await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title: 'estimate me' }, h));
    expect(created.status).toBe(201);
    const issue = await json(created);
    expectSchema(IssueSchema, issue);
    expect(issue.time_estimate).toBe(0);
    const list = await json(await s.fetch(`/api/v1/repos/${full}/issues?state=all`));
    expect(list.map((i: { time_estimate: number }) => i.time_estimate)).toEqual([0]);
  });
});

describe('ContentsResponse', () => {
  test('last_author_date and last_committer_date: from the last commit touching the path, in reads and listings', async () => {
    const full = await newRepo();
    const change = await s.fetch(
      `/api/v1/repos/${full}/contents`,
      jsonInit(
        'POST',
        {
          message: 'dated',
          dates: { author: '2021-03-04T05:06:07Z', committer: '2022-08-09T10:11:12Z' },
          files: [{ operation: 'create', path: 'docs/a.md', content: Buffer.from('a\n').toString('base64') }],
        },
        h,
      ),
    );
    expect(change.status, await change.clone().text()).toBe(201);
    const written = await json(change);
    expect(written.files[0]).toMatchObject({ last_author_date: '2021-03-04T05:06:07Z', last_committer_date: '2022-08-09T10:11:12Z' });

    const file = await json(await s.fetch(`/api/v1/repos/${full}/contents/docs/a.md`));
    expectSchema(ContentsResponseSchema, file);
    expect(file).toMatchObject({ last_author_date: '2021-03-04T05:06:07Z', last_committer_date: '2022-08-09T10:11:12Z', last_commit_when: '2022-08-09T10:11:12Z' });

    const root = await json(await s.fetch(`/api/v1/repos/${full}/contents`));
    for (const entry of root) expectSchema(ContentsResponseSchema, entry);
    const docs = root.find((e: { path: string }) => e.path === 'docs');
    expect(docs).toMatchObject({ last_author_date: '2021-03-04T05:06:07Z', last_committer_date: '2022-08-09T10:11:12Z', last_commit_sha: written.commit.sha });
    // README.md was last touched by the initial commit, not the dated one.
    const readme = root.find((e: { path: string }) => e.path === 'README.md');
    expect(readme.last_author_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    expect(readme.last_author_date).not.toBe('2021-03-04T05:06:07Z');
  });
});
