/**
 * `GET /api/healthz` as Forgejo answers it (for load balancers): no authentication, the health JSON with
 * `database:ping` and `cache:ping` (and RepoHost's storage checks), 200 `pass` or 424 `fail`, never a hang.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BLOB_SPACES, BlobsService, LocalBlobStorage, type BlobStorage } from '@repohost/core';
import { TEST_DB, TEST_GIT, startTestServer, type TestServer } from '@repohost/test-support';
import { json } from './helpers';

interface Health {
  status: string;
  description: string;
  checks: Record<string, { status: string; time: string; output?: string }[]>;
}

const opened: TestServer[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.cleanup();
});

async function server(overrides: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(overrides);
  opened.push(s);
  return s;
}

/** A blob space whose lookups fail, or never answer. */
function brokenStorage(behaviour: 'fail' | 'hang'): BlobStorage {
  const local = new LocalBlobStorage('/nonexistent');
  return Object.assign(Object.create(local) as BlobStorage, {
    exists: () => (behaviour === 'fail' ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })) : new Promise<boolean>(() => {})),
  });
}

const RFC3339_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('GET /api/healthz', () => {
  test('a healthy server: 200, pass, each check once with its time; no credentials needed, bad ones ignored', async () => {
    const s = await server();
    for (const headers of [{}, { Authorization: 'token not-a-token' }] as Record<string, string>[]) {
      const res = await s.fetch('/api/healthz', { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.clone().text();
      // Go's MarshalIndent: two-space indentation.
      expect(text.startsWith('{\n  "status": "pass",\n  "description": "RepoHost",\n  "checks": {')).toBe(true);
      const body = await json<Health>(res);
      const expected = ['cache:ping', 'database:ping', ...BLOB_SPACES.map((space) => `${space}:ping`), ...(TEST_GIT === 'native' ? ['repositories:read'] : [])].sort();
      expect(Object.keys(body.checks)).toEqual(expected);
      for (const [name, entries] of Object.entries(body.checks)) {
        expect(entries, name).toHaveLength(1);
        expect(entries[0]!.status, name).toBe('pass');
        expect(entries[0]!.time).toMatch(RFC3339_SECONDS);
        expect(entries[0]!.output).toBeUndefined();
      }
    }
    // HEAD answers as GET does, without the body.
    const head = await s.fetch('/api/healthz', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });

  test('a blob space that fails: 424, fail, the failing check says why', async () => {
    const s = await server();
    s.host.service(BlobsService).use('attachments', brokenStorage('fail'));
    const res = await s.fetch('/api/healthz');
    expect(res.status).toBe(424);
    const body = await json<Health>(res);
    expect(body.status).toBe('fail');
    expect(body.checks['attachments:ping']).toEqual([{ status: 'fail', time: expect.stringMatching(RFC3339_SECONDS), output: 'failed (ECONNREFUSED)' }]);
    expect(body.checks['database:ping']![0]!.status).toBe('pass');
    expect(body.checks['packages:ping']![0]!.status).toBe('pass');
  });

  test('a check that never answers fails after HEALTHCHECK_TIMEOUT instead of hanging, and is not started again while it hangs', async () => {
    const s = await server({ repohost: { HEALTHCHECK_TIMEOUT: 1 } });
    let lookups = 0;
    const hanging = brokenStorage('hang');
    const hang = hanging.exists.bind(hanging);
    hanging.exists = (key: string) => {
      lookups += 1;
      return hang(key);
    };
    s.host.service(BlobsService).use('packages', hanging);
    for (let i = 0; i < 2; i++) {
      const res = await s.fetch('/api/healthz');
      expect(res.status).toBe(424);
      const body = await json<Health>(res);
      expect(body.checks['packages:ping']).toEqual([{ status: 'fail', time: expect.stringMatching(RFC3339_SECONDS), output: 'no answer within 1 s' }]);
      expect(body.checks['database:ping']![0]!.status).toBe('pass');
    }
    // The second report joined the lookup still hanging rather than piling up another.
    expect(lookups).toBe(1);
  });

  test('a closed database: 424 with database:ping failing', async () => {
    const s = await server();
    await s.host.close();
    const res = await s.fetch('/api/healthz');
    expect(res.status).toBe(424);
    const body = await json<Health>(res);
    expect(body.status).toBe('fail');
    expect(body.checks['database:ping']![0]!.status).toBe('fail');
    expect(body.checks['cache:ping']![0]!.status).toBe('pass');
  });

  test.skipIf(TEST_DB !== 'sqlite')('an SQLite database whose file is gone: 424 (as Forgejo checks the file)', async () => {
    const s = await server({ database: { PATH: 'data/health.db' } });
    expect((await s.fetch('/api/healthz')).status).toBe(200);
    await rm(s.host.settings.database.PATH);
    const res = await s.fetch('/api/healthz');
    expect(res.status).toBe(424);
    expect((await json<Health>(res)).checks['database:ping']![0]).toMatchObject({ status: 'fail', output: 'failed (ENOENT)' });
  });

  test.skipIf(TEST_GIT !== 'native')('a repository folder that cannot be listed: 424 with repositories:read failing', async () => {
    const s = await server();
    // A plain file where the folder should be: it cannot be listed, whoever the server runs as.
    const file = path.join(s.workPath, 'not-a-folder');
    await writeFile(file, 'x', { mode: 0o644 });
    s.host.settings.repository.ROOT = file;
    const res = await s.fetch('/api/healthz');
    expect(res.status).toBe(424);
    expect((await json<Health>(res)).checks['repositories:read']![0]!.status).toBe('fail');
  });
});
