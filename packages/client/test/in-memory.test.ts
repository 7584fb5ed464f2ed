/**
 * `@repohost/client` against the in-memory forge (`startTestForge`: `RepoHost.inMemory()` behind `startServer`), and
 * the check that src/generated.ts is what scripts/generate-client.mjs writes for the routes of the sources.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '@repohost/server';
import { startTestForge, type TestForge } from '@repohost/server/testing';
import { NotFoundError, RepoHostClient, repoGet, createTransport } from '@repohost/client';
import * as core from '@repohost/core';
import { GENERATED_PATH, TYPE_CHECKS_PATH, generateClientSource, generateTypeChecks } from '../../../scripts/generate-client.mjs';

describe('@repohost/client against the in-memory forge', () => {
  let forge: TestForge;
  let client: RepoHostClient;
  beforeAll(async () => {
    forge = await startTestForge();
    client = new RepoHostClient({ url: forge.url, auth: { token: forge.admin.token } });
  });
  afterAll(async () => forge?.close());

  test('a repository, an issue and its list; a standalone operation on a transport', async () => {
    const repo = await client.repos.createCurrentUserRepo({ name: 'app', auto_init: true });
    const issue = await client.issues.createIssue(forge.admin.username, repo.name, { title: 'Found a bug' });
    expect(issue.number).toBe(1);
    expect((await client.issues.listIssues(forge.admin.username, 'app', { state: 'open' })).map((i) => i.title)).toEqual(['Found a bug']);
    const transport = createTransport({ url: forge.url, auth: { token: forge.admin.token } });
    expect((await repoGet(transport, forge.admin.username, 'app')).open_issues_count).toBe(1);
    await expect(client.repos.get(forge.admin.username, 'missing')).rejects.toBeInstanceOf(NotFoundError);
  });
});

test('src/generated.ts and test/wire-types.ts are what the generator writes for the routes of the sources', async () => {
  const host = await core.RepoHost.inMemory();
  try {
    const routes = createApp(host).routes;
    const expected: [string, string][] = [
      [GENERATED_PATH, generateClientSource(routes)],
      [TYPE_CHECKS_PATH, generateTypeChecks(routes, { '@repohost/core': core })],
    ];
    for (const [file, source] of expected) {
      // A failure here: run `npm run build` (or `node scripts/generate-client.mjs` after building the server) and commit the file.
      expect((await readFile(file, 'utf8')) === source, `${file} is stale: run node scripts/generate-client.mjs`).toBe(true);
    }
  } finally {
    await host.close();
  }
});
