import { execFile } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useCliWorkspace } from './cli-workspace.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = path.join(root, 'packages', 'cli', 'dist', 'main.js');

/** A port something else already listens on, on every interface as `repohost web` does by default. */
async function busyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

describe('repohost web on a port already in use', () => {
  const ws = useCliWorkspace('repohost-web-port-');
  let occupied: Server | undefined;
  afterEach(() => {
    occupied?.close();
    occupied = undefined;
  });
  beforeAll(async () => {
    const { ensureBuilt } = (await import(path.join(root, 'scripts', 'build-if-stale.mjs'))) as { ensureBuilt(): Promise<void> };
    await ensureBuilt();
  }, 600_000);

  it('says so in one line naming the port and the setting, and exits 1 (in-process)', async () => {
    const { port, server } = await busyPort();
    occupied = server;
    const r = await ws.cli(['web', '--port', String(port)]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    // A new installation's first start also says where its key went; the failure is the one other line.
    const lines = r.err.split('\n').filter((line) => line !== '' && !line.startsWith('Generated [security] SECRET_KEY'));
    expect(lines).toEqual([`Error: cannot listen on port ${port} of 0.0.0.0: it is already in use (is another server running?); choose another with [server] HTTP_PORT in app.ini, or --port`]);
  });

  it('the built binary prints that one line, no stack trace, and exits non-zero at once', async () => {
    const { port, server } = await busyPort();
    occupied = server;
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [CLI, 'web'], { cwd: ws.work, env: { ...process.env, ...ws.env, FORGEJO__SERVER__HTTP_PORT: String(port) }, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('Generated [security] SECRET_KEY'));
    expect(lines).toEqual([expect.stringContaining(`cannot listen on port ${port}`)]);
    expect(lines[0]).toContain('[server] HTTP_PORT');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
