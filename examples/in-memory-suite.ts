/**
 * A test suite of another project (here with node:test; vitest and jest work the same way) that needs a real
 * forge: `startTestForge()` from `@repohost/server/testing` starts one in memory in a few milliseconds, with a
 * site administrator and a token; nothing touches the disk and `close()` frees it. The suite calls it over HTTP
 * with `@repohost/client`, whose methods and types are generated from the server's own routes.
 *
 * `npm run example -- in-memory-suite` runs it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM } from '@repohost/core';
import { startTestForge, type TestForge } from '@repohost/server/testing';
import { NotFoundError, RepoHostClient } from '@repohost/client';

let forge: TestForge;
let client: RepoHostClient;

before(async () => {
  forge = await startTestForge();
  client = new RepoHostClient({ url: forge.url, auth: { token: forge.admin.token } });
});
after(async () => {
  await forge.close();
});

test('the code under test can open an issue on a new repository', async () => {
  const repo = await client.repos.createCurrentUserRepo({ name: 'app', auto_init: true });
  assert.equal(repo.full_name, `${forge.admin.username}/app`);
  const issue = await client.issues.createIssue(forge.admin.username, 'app', { title: 'Found a bug' });
  assert.equal(issue.number, 1);
  // A list call is a page when awaited, every item of every page when iterated.
  const titles: string[] = [];
  for await (const open of client.issues.listIssues(forge.admin.username, 'app', { state: 'open' })) titles.push(open.title);
  assert.deepEqual(titles, ['Found a bug']);
});

test('refusals are typed errors with Forgejo’s status and message', async () => {
  await assert.rejects(client.repos.get(forge.admin.username, 'missing'), (error) => error instanceof NotFoundError && error.status === 404);
});

test('state can be read through the services, without HTTP', async () => {
  const { repo } = await forge.host.repos.resolve(SYSTEM, forge.admin.username, 'app');
  assert.equal(repo.num_issues, 1);
});
