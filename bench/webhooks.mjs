/**
 * Webhook delivery benchmark (run by `npm run bench`): deliveries per second from the outbox to a receiver on
 * loopback. TASKS push payloads are queued (with `POST …/hooks/{id}/tests`' service call) while the worker is
 * stopped, then the worker starts and the time until the receiver has every request is measured. The receiver
 * runs in this process; everything lives in a temporary folder removed at the end.
 *
 *   node bench/webhooks.mjs
 */
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';

const TASKS = 2000;

export async function runWebhooksBench(log = console.log) {
  const work = await mkdtemp(path.join(tmpdir(), 'repohost-bench-webhooks-'));
  let received = 0;
  let done;
  const allReceived = new Promise((resolve) => (done = resolve));
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      if (++received === TASKS) done();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const settings = loadSettings({
    workPath: work,
    overrides: {
      server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 },
      database: { PATH: path.join(work, 'bench.db') },
      webhook: { ALLOWED_HOST_LIST: 'loopback' },
    },
  });
  const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
  try {
    const user = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'correct-horse-battery' });
    const actor = userActor(user);
    const access = await host.repos.create(actor, { name: 'hooks', auto_init: true });
    const owner = { kind: 'repo', access };
    const hook = await host.webhooks.create(actor, owner, {
      type: 'forgejo',
      config: { url: `http://127.0.0.1:${receiver.address().port}/hook`, content_type: 'json', secret: 'bench' },
      active: true,
    });
    for (let i = 0; i < TASKS; i++) await host.webhooks.test(actor, access, hook.id, undefined);
    const started = performance.now();
    host.webhooks.delivery.start();
    await allReceived;
    const seconds = (performance.now() - started) / 1000;
    const rate = TASKS / seconds;
    log(`webhook deliveries to a loopback receiver: ${rate.toFixed(0)} deliveries/s (${TASKS} tasks in ${seconds.toFixed(2)} s)`);
    return { deliveriesPerSecond: rate };
  } finally {
    await host.close();
    await new Promise((resolve) => receiver.close(resolve));
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runWebhooksBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
