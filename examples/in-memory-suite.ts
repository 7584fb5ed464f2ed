/**
 * A test suite of another project (here with node:test; vitest and jest work the same way) that needs a real
 * forge: `startTestForge()` from `@repohost/server/testing` starts one in memory in a few milliseconds, with a
 * site administrator and a token; nothing touches the disk and `close()` frees it.
 *
 * `npm run example -- in-memory-suite` runs it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM } from '@repohost/core';
import { startTestForge, type TestForge } from '@repohost/server/testing';

let forge: TestForge;
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${forge.url}api/v1${path}`, { ...init, headers: { authorization: `token ${forge.admin.token}`, 'content-type': 'application/json', ...init.headers } });

before(async () => {
  forge = await startTestForge();
});
after(async () => {
  await forge.close();
});

test('the code under test can open an issue on a new repository', async () => {
  const repo = await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: 'app', auto_init: true }) });
  assert.equal(repo.status, 201);
  const issue = await api(`/repos/${forge.admin.username}/app/issues`, { method: 'POST', body: JSON.stringify({ title: 'Found a bug' }) });
  assert.equal(issue.status, 201);
  assert.equal(((await issue.json()) as { number: number }).number, 1);
});

test('state can be read through the services, without HTTP', async () => {
  const { repo } = await forge.host.repos.resolve(SYSTEM, forge.admin.username, 'app');
  assert.equal(repo.num_issues, 1);
});
