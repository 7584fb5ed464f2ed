import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEST_DB } from '@repohost/test-support';

const root = fileURLToPath(new URL('..', import.meta.url));

function runExample(name: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, 'scripts', 'run-example.mjs'), name], { cwd: root, timeout: 600_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// The examples use their own in-memory database: once is enough.
describe.runIf(TEST_DB === 'sqlite')('npm run example', () => {
  it('test-server, run on its own, says what it started and stopped; imported, it prints nothing itself', async () => {
    const alone = await runExample('test-server');
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/^Started a forge for tests at http:\/\/127\.0\.0\.1:\d+\//);
    expect(alone.stdout).toContain('GET /api/v1/version → 200');
    expect(alone.stdout).toContain('Stopped it');

    const demo = await runExample('test-server-demo');
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/^forge for tests at /);
    expect(demo.stdout).not.toContain('Started a forge for tests');
  }, 600_000);
});
