/** What `startServer` advertises: absolute URLs name the address it really listens on, unless ROOT_URL was given. */
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM, userActor } from '@repohost/core';
import { startServer, type RunningServer } from '@repohost/server';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

describe('startServer', () => {
  let t: TestHost | undefined;
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    await t?.cleanup();
    running = t = undefined;
  });

  async function serve(server: Record<string, string | number>) {
    t = await openTestHost({ server });
    const alice = await createUser(t.host, 'alice');
    await t.host.repos.create(userActor(alice), { name: 'demo', auto_init: true });
    running = await startServer(t.host, { port: 0, hostname: '127.0.0.1' });
    const res = await fetch(`${running.url}api/v1/repos/alice/demo`);
    expect(res.status).toBe(200);
    return (await res.json()) as { clone_url: string; html_url: string };
  }

  it('with HTTP_PORT = 0, clone_url names the port it listens on, and git can use it', async () => {
    const repo = await serve({ HTTP_PORT: 0 });
    const port = new URL(running!.url).port;
    expect(repo.clone_url).toBe(`http://localhost:${port}/alice/demo.git`);
    const refs = await fetch(`${repo.clone_url}/info/refs?service=git-upload-pack`);
    expect(refs.status).toBe(200);
    expect(t!.host.settings.server.HTTP_PORT).toBe(Number(port));
  });

  it('a port given to startServer overrides HTTP_PORT in the derived ROOT_URL too', async () => {
    const repo = await serve({ HTTP_PORT: 3000 });
    expect(repo.clone_url).toBe(`http://localhost:${new URL(running!.url).port}/alice/demo.git`);
  });

  it('keeps a ROOT_URL given by the embedder (a proxy may stand in front)', async () => {
    const repo = await serve({ HTTP_PORT: 0, ROOT_URL: 'https://git.example.com/forge/' });
    expect(repo.clone_url).toBe('https://git.example.com/forge/alice/demo.git');
    expect((await t!.host.repos.resolve(SYSTEM, 'alice', 'demo')).repo.name).toBe('demo');
  });
});
