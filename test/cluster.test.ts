/**
 * Three `repohost web` processes of the built CLI on one installation (one database, one repository folder, one
 * key file and blob folder), each on its own port as if on its own host, behind a round-robin proxy: what one
 * process writes every other serves, concurrent writers spread over them lose nothing and leave every counter
 * equal to a recount, git goes through the balancer, and cron runs once per schedule.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoHost, SYSTEM, loadSettings } from '@repohost/core';
import { testDatabaseEnv } from '@repohost/test-support';
import { TEST_S3, freshBucket } from './support/s3.js';
import { NodeProcess, RoundRobinProxy, freePort, git, waitFor } from './support/cluster.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const PROCESSES = 3;
const USERS = 6;

describe('three processes on one installation behind a load balancer', () => {
  let workPath: string;
  let env: NodeJS.ProcessEnv;
  let cleanupDb: () => Promise<void>;
  const nodes: NodeProcess[] = [];
  let proxy: RoundRobinProxy;
  /** Tokens of alice (a site administrator) and of the other users, by name. */
  const tokens = new Map<string, string>();
  const users = ['alice', ...Array.from({ length: USERS - 1 }, (_, i) => `user${i + 1}`)];
  const reposDir = () => path.join(workPath, 'data', 'forgejo-repositories');
  let receiver: http.Server | undefined;

  /** A request through the balancer (or straight to one process) as `user`. */
  const api = (pathname: string, init: RequestInit & { as?: string; via?: string } = {}) =>
    fetch(`${init.via ?? proxy.url}api/v1${pathname}`, {
      ...init,
      headers: { authorization: `token ${tokens.get(init.as ?? 'alice')}`, 'content-type': 'application/json', ...init.headers },
    });
  const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await response).json() as Promise<T>;

  beforeAll(async () => {
    const { ensureBuilt } = (await import(path.join(root, 'scripts', 'build-if-stale.mjs'))) as { ensureBuilt(): Promise<void> };
    await ensureBuilt();
    workPath = await mkdtemp(path.join(tmpdir(), 'repohost-cluster-'));
    const db = await testDatabaseEnv();
    cleanupDb = db.cleanup;
    proxy = new RoundRobinProxy(() => nodes.map((n) => n.port));
    await proxy.start();
    env = {
      PATH: process.env.PATH,
      HOME: workPath,
      ...db.env,
      FORGEJO__SERVER__HTTP_ADDR: '127.0.0.1',
      // Every process names itself by the balancer's address, as behind a real one.
      FORGEJO__SERVER__ROOT_URL: proxy.url,
      FORGEJO__WEBHOOK__ALLOWED_HOST_LIST: 'loopback',
      // Every 2 seconds, so that a few seconds show whether each run happens once or once per process.
      FORGEJO__CRON_0X2E_CHECK_REPO_STATS__SCHEDULE: '*/2 * * * * *',
      FORGEJO__CRON_0X2E_CHECK_REPO_STATS__RUN_AT_START: 'false',
      // Short leases and a frequent repair sweep, so that a killed process's work is taken over within the test.
      FORGEJO__REPOHOST__LEASE_SECONDS: '4',
      FORGEJO__CRON_0X2E_REPAIR_GIT_INTENTS__SCHEDULE: '*/2 * * * * *',
      FORGEJO__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true',
      // One bucket for every process when an S3 server is at hand (`.ci/run` starts one); else the shared folder.
      ...(TEST_S3.endpoint
        ? {
            FORGEJO__STORAGE__STORAGE_TYPE: 'minio',
            FORGEJO__STORAGE__MINIO_ENDPOINT: TEST_S3.endpoint,
            FORGEJO__STORAGE__MINIO_ACCESS_KEY_ID: TEST_S3.accessKey,
            FORGEJO__STORAGE__MINIO_SECRET_ACCESS_KEY: TEST_S3.secretKey,
            FORGEJO__STORAGE__MINIO_BUCKET: freshBucket(),
            AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          }
        : {}),
    };
    // A new installation, as `repohost` would start it: its key file is what every process reads.
    const host = await RepoHost.open({ settings: loadSettings({ workPath, env }), noSecretKey: 'generate' });
    for (const name of users) {
      const user = await host.users.create(SYSTEM, { username: name, email: `${name}@example.com`, password: 'a-good-password', admin: name === 'alice' });
      tokens.set(name, (await host.tokens.create(SYSTEM, user, { name: 'cluster', scopes: ['all'] })).value);
    }
    await host.close();
    for (let i = 0; i < PROCESSES; i++) nodes.push(new NodeProcess(`process ${i + 1}`, await freePort(), workPath, env));
    await Promise.all(nodes.map((n) => n.start()));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    if (process.env.REPOHOST_CLUSTER_LOG) for (const n of nodes) console.log(n.name, n.output.join(''));
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await proxy?.stop();
    await cleanupDb?.();
    if (workPath) await rm(workPath, { recursive: true, force: true });
  });

  it('spreads requests over every process, and each serves what another wrote', async () => {
    const created = await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: 'shared', auto_init: true }) });
    expect(created.status).toBe(201);
    const issue = await json<{ number: number }>(api('/repos/alice/shared/issues', { method: 'POST', body: JSON.stringify({ title: 'first' }) }));
    for (const node of nodes) {
      const answer = await api('/repos/alice/shared/issues/' + issue.number, { via: node.url });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { title: string }).title).toBe('first');
      const repo = await json<{ open_issues_count: number; html_url: string }>(api('/repos/alice/shared', { via: node.url }));
      expect(repo.open_issues_count).toBe(1);
      expect(repo.html_url).toBe(`${proxy.url}alice/shared`);
    }
    // Through the balancer, each process answers its share.
    for (let i = 0; i < PROCESSES * 2; i++) expect((await api('/repos/alice/shared')).status).toBe(200);
    for (const node of nodes) expect(proxy.sent.get(node.port) ?? 0).toBeGreaterThan(0);
  });

  it('concurrent issues, comments and stars from every user over every process lose nothing and counters equal a recount', async () => {
    expect((await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: 'soak' }) })).status).toBe(201);
    // Everyone may write issues and comments: a public repository with each user as a collaborator.
    for (const name of users.slice(1)) {
      expect((await api(`/repos/alice/soak/collaborators/${name}`, { method: 'PUT', body: JSON.stringify({ permission: 'write' }) })).status).toBe(204);
    }
    const perUser = 8;
    const issues = await Promise.all(
      users.flatMap((name) =>
        Array.from({ length: perUser }, async (_, i) => {
          const answer = await api('/repos/alice/soak/issues', { method: 'POST', as: name, body: JSON.stringify({ title: `${name} ${i}` }) });
          expect(answer.status).toBe(201);
          return ((await answer.json()) as { number: number }).number;
        }),
      ),
    );
    const total = users.length * perUser;
    // Numbers are unique and leave no gap.
    expect([...issues].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));

    const target = issues[0]!;
    await Promise.all(
      users.flatMap((name) =>
        Array.from({ length: perUser }, async (_, i) => {
          const answer = await api(`/repos/alice/soak/issues/${target}/comments`, { method: 'POST', as: name, body: JSON.stringify({ body: `${name} says ${i}` }) });
          expect(answer.status).toBe(201);
        }),
      ),
    );
    // Stars: every user stars, half of them unstar again, all at once.
    await Promise.all(users.map(async (name) => expect((await api('/user/starred/alice/soak', { method: 'PUT', as: name })).status).toBe(204)));
    const leaving = users.filter((_, i) => i % 2 === 1);
    await Promise.all(leaving.map(async (name) => expect((await api('/user/starred/alice/soak', { method: 'DELETE', as: name })).status).toBe(204)));
    // Closing a third of the issues concurrently moves the open and closed counts together.
    const closing = issues.filter((n) => n % 3 === 0);
    await Promise.all(closing.map(async (n) => expect((await api(`/repos/alice/soak/issues/${n}`, { method: 'PATCH', body: JSON.stringify({ state: 'closed' }) })).status).toBe(201)));

    for (const node of nodes) {
      const repo = await json<{ open_issues_count: number; stars_count: number }>(api('/repos/alice/soak', { via: node.url }));
      const issue = await json<{ comments: number }>(api(`/repos/alice/soak/issues/${target}`, { via: node.url }));
      const comments = await api(`/repos/alice/soak/issues/${target}/comments?limit=100`, { via: node.url });
      const stargazers = await api('/repos/alice/soak/stargazers?limit=50', { via: node.url });
      const open = await api('/repos/alice/soak/issues?state=open&type=issues&limit=1', { via: node.url });
      expect({
        openCounter: repo.open_issues_count,
        openListed: Number(open.headers.get('x-total-count')),
        comments: issue.comments,
        commentsListed: ((await comments.json()) as unknown[]).length,
        stars: repo.stars_count,
        stargazers: ((await stargazers.json()) as unknown[]).length,
      }).toEqual({
        openCounter: total - closing.length,
        openListed: total - closing.length,
        comments: users.length * perUser,
        commentsListed: users.length * perUser,
        stars: users.length - leaving.length,
        stargazers: users.length - leaving.length,
      });
    }
    // Each account's own count of stars too.
    for (const name of users) {
      const me = await json<{ starred_repos_count: number }>(api('/user', { as: name }));
      expect({ name, stars: me.starred_repos_count }).toEqual({ name, stars: leaving.includes(name) ? 0 : 1 });
    }
  });

  it('uploads through every process are served by every other (one bucket, or one shared folder)', async () => {
    expect((await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: 'uploads' }) })).status).toBe(201);
    const issue = await json<{ number: number }>(api('/repos/alice/uploads/issues', { method: 'POST', body: JSON.stringify({ title: 'files' }) }));
    const uploads = await Promise.all(
      Array.from({ length: PROCESSES * 3 }, async (_, i) => {
        const form = new FormData();
        const bytes = Buffer.from(`file ${i} `.repeat(1000 + i));
        form.append('attachment', new Blob([bytes]), `f${i}.txt`);
        const answer = await fetch(`${proxy.url}api/v1/repos/alice/uploads/issues/${issue.number}/assets`, { method: 'POST', headers: { authorization: `token ${tokens.get('alice')}` }, body: form });
        expect(answer.status).toBe(201);
        return { bytes, url: ((await answer.json()) as { browser_download_url: string }).browser_download_url };
      }),
    );
    for (const { bytes, url } of uploads) {
      for (const node of nodes) {
        const answer = await fetch(url.replace(proxy.url, node.url), { headers: { authorization: `token ${tokens.get('alice')}` } });
        expect(answer.status).toBe(200);
        expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);
      }
    }
    const listed = await json<unknown[]>(api(`/repos/alice/uploads/issues/${issue.number}/assets`, { via: nodes[2]!.url }));
    expect(listed).toHaveLength(PROCESSES * 3);
  });

  it('pushes to one branch from several clones through the balancer all land, and git agrees with the API', async () => {
    expect((await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: 'pushed', auto_init: true }) })).status).toBe(201);
    const remote = `${proxy.url.replace('http://', `http://alice:${tokens.get('alice')}@`)}alice/pushed.git`;
    const scratch = await mkdtemp(path.join(tmpdir(), 'repohost-cluster-push-'));
    try {
      const writers = 6;
      await Promise.all(
        Array.from({ length: writers }, async (_, i) => {
          const dir = path.join(scratch, `w${i}`);
          expect((await git(['clone', '-q', remote, dir], scratch)).code).toBe(0);
          await writeFile(path.join(dir, `file${i}.txt`), `writer ${i}\n`);
          expect((await git(['add', '.'], dir)).code).toBe(0);
          expect((await git(['commit', '-qm', `writer ${i}`], dir)).code).toBe(0);
          // A push refused as not fast-forward (another landed first) fetches, rebases and tries again.
          for (let attempt = 0; ; attempt++) {
            const pushed = await git(['push', '-q', 'origin', 'HEAD:main'], dir);
            if (pushed.code === 0) return;
            expect(attempt).toBeLessThan(30);
            expect((await git(['pull', '-q', '--rebase', 'origin', 'main'], dir)).code).toBe(0);
          }
        }),
      );
      const check = path.join(scratch, 'check');
      expect((await git(['clone', '-q', remote, check], scratch)).code).toBe(0);
      const files = (await readdir(check)).filter((f) => f.startsWith('file')).sort();
      expect(files).toEqual(Array.from({ length: writers }, (_, i) => `file${i}.txt`).sort());
      const head = (await git(['rev-parse', 'HEAD'], check)).stdout.trim();
      for (const node of nodes) {
        const branch = await json<{ commit: { id: string } }>(api('/repos/alice/pushed/branches/main', { via: node.url }));
        expect(branch.commit.id).toBe(head);
      }
      const fsck = await git(['--git-dir', path.join(reposDir(), 'alice', 'pushed.git'), 'fsck', '--strict'], scratch);
      expect(fsck.code).toBe(0);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('merges of several pull requests at once over every process each merge once', async () => {
    expect((await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: 'merged', auto_init: true }) })).status).toBe(201);
    const count = 4;
    for (let i = 0; i < count; i++) {
      const file = await api(`/repos/alice/merged/contents/f${i}.txt`, { method: 'POST', body: JSON.stringify({ content: Buffer.from(`f${i}\n`).toString('base64'), new_branch: `b${i}` }) });
      expect(file.status).toBe(201);
      const pull = await api('/repos/alice/merged/pulls', { method: 'POST', body: JSON.stringify({ title: `p${i}`, head: `b${i}`, base: 'main' }) });
      expect(pull.status).toBe(201);
    }
    // Each pull request is merged twice at once. A merge whose base moved under it (another pull request merged
    // first) is refused with 409, and one that found the git processes busy with 503 (nothing done); both are tried
    // again, as a client does; the second of a pair finds it merged (405). A merge answered 503 after it happened
    // would show as two 405s.
    const mergeOnce = async (n: number): Promise<number> => {
      for (let attempt = 0; ; attempt++) {
        const status = (await api(`/repos/alice/merged/pulls/${n}/merge`, { method: 'POST', body: JSON.stringify({ Do: 'merge' }) })).status;
        if ((status !== 409 && status !== 503) || attempt >= 40) return status;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    };
    const outcomes = await Promise.all(Array.from({ length: count * 2 }, async (_, j) => ({ pull: (j % count) + 1, status: await mergeOnce((j % count) + 1) })));
    for (let n = 1; n <= count; n++) {
      const statuses = outcomes.filter((o) => o.pull === n).map((o) => o.status).sort();
      expect({ n, statuses }).toEqual({ n, statuses: [200, 405] });
      const pull = await json<{ merged: boolean; state: string }>(api(`/repos/alice/merged/pulls/${n}`));
      expect(pull).toMatchObject({ merged: true, state: 'closed' });
    }
    const contents = await json<{ name: string }[]>(api('/repos/alice/merged/contents'));
    expect(contents.map((c) => c.name).filter((n) => n.startsWith('f')).sort()).toEqual(Array.from({ length: count }, (_, i) => `f${i}.txt`));
    const fsck = await git(['--git-dir', path.join(reposDir(), 'alice', 'merged.git'), 'fsck', '--strict'], workPath);
    expect(fsck.code).toBe(0);
  });

  it('a cron task runs once per schedule with every process up', async () => {
    type Task = { name: string; exec_times: number };
    const runs = async () => (await json<Task[]>(api('/admin/cron?limit=50'))).find((t) => t.name === 'check_repo_stats')!.exec_times;
    const before = await runs();
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 10_000));
    const after = await runs();
    const seconds = (Date.now() - started) / 1000;
    // Every 2 seconds: about 5 runs in 10 s; once per process would be about 15.
    expect(after - before).toBeGreaterThanOrEqual(3);
    expect(after - before).toBeLessThanOrEqual(Math.ceil(seconds / 2) + 1);
  });

  it('kill -9 of one process amid pushes, merges, migrations and webhook deliveries: the others take over, git and the database agree', async () => {
    // A webhook receiver that is slow to answer, so that deliveries are in flight when the process dies.
    const received: { delivery: string; issue: number }[] = [];
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const payload = JSON.parse(body) as { action?: string; issue?: { number: number } };
        if (payload.action === 'opened' && payload.issue) received.push({ delivery: String(req.headers['x-gitea-delivery']), issue: payload.issue.number });
        setTimeout(() => res.writeHead(200).end('ok'), 300);
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

    for (const name of ['killed', 'killed-push', 'killed-merge']) {
      expect((await api('/user/repos', { method: 'POST', body: JSON.stringify({ name, auto_init: true }) })).status).toBe(201);
    }
    const hook = await api('/repos/alice/killed/hooks', {
      method: 'POST',
      body: JSON.stringify({ type: 'gitea', active: true, events: ['issues'], config: { url: hookUrl, content_type: 'json' } }),
    });
    expect(hook.status).toBe(201);
    const pulls = 3;
    for (let i = 0; i < pulls; i++) {
      expect((await api(`/repos/alice/killed-merge/contents/k${i}.txt`, { method: 'POST', body: JSON.stringify({ content: Buffer.from(`k${i}\n`).toString('base64'), new_branch: `k${i}` }) })).status).toBe(201);
      expect((await api('/repos/alice/killed-merge/pulls', { method: 'POST', body: JSON.stringify({ title: `k${i}`, head: `k${i}`, base: 'main' }) })).status).toBe(201);
    }

    const victim = nodes[1]!;
    const scratch = await mkdtemp(path.join(tmpdir(), 'repohost-cluster-kill-'));
    const remote = `${proxy.url.replace('http://', `http://alice:${tokens.get('alice')}@`)}alice/killed-push.git`;
    /** Retries what a client retries when the process answering it died (502 from the balancer) or a merge raced (409). */
    const retrying = async (what: () => Promise<number>, accept: number[]): Promise<number> => {
      for (let attempt = 0; ; attempt++) {
        const status = await what().catch(() => 502);
        if (accept.includes(status) || attempt >= 60) return status;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    };
    try {
      let answered = 0;
      const issueCreates = Array.from({ length: 150 }, (_, i) =>
        api('/repos/alice/killed/issues', { method: 'POST', body: JSON.stringify({ title: `k${i}` }) }).then(
          (r) => (answered++, r.status),
          () => 502,
        ),
      );
      const pushes = Array.from({ length: 3 }, async (_, i) => {
        const dir = path.join(scratch, `p${i}`);
        for (let attempt = 0; ; attempt++) {
          const cloned = await git(['clone', '-q', remote, dir], scratch);
          if (cloned.code === 0) break;
          expect(attempt, cloned.stderr).toBeLessThan(20);
          await rm(dir, { recursive: true, force: true });
          await new Promise((r) => setTimeout(r, 100 + Math.random() * 100));
        }
        for (let c = 0; c < 3; c++) {
          await writeFile(path.join(dir, `p${i}-${c}.txt`), `${i} ${c}\n`);
          expect((await git(['add', '.'], dir)).code).toBe(0);
          expect((await git(['commit', '-qm', `p${i} ${c}`], dir)).code).toBe(0);
          for (let attempt = 0; ; attempt++) {
            const pushed = await git(['push', '-q', 'origin', 'HEAD:main'], dir);
            if (pushed.code === 0) break;
            expect(attempt, pushed.stderr).toBeLessThan(60);
            // Refused (another push landed first) or cut (the process died): catch up and try again.
            await git(['pull', '-q', '--rebase', 'origin', 'main'], dir);
            await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
          }
        }
      });
      const merges = Array.from({ length: pulls }, (_, i) =>
        retrying(async () => (await api(`/repos/alice/killed-merge/pulls/${i + 1}/merge`, { method: 'POST', body: JSON.stringify({ Do: 'merge' }) })).status, [200, 405]),
      );
      const migrations = Array.from({ length: 3 }, (_, i) =>
        api('/repos/migrate', { method: 'POST', body: JSON.stringify({ clone_addr: `${proxy.url}alice/killed.git`, repo_name: `migrated${i}`, repo_owner: 'alice' }) }).then((r) => r.status, () => 502),
      );
      // The kill lands while all of that is under way.
      await waitFor('the first issues to be created', async () => (answered >= 10 ? true : undefined));
      await victim.kill9();
      const created = await Promise.all(issueCreates);
      // The kill cut requests in progress (the balancer answers 502 for those).
      expect(created.filter((s) => s === 502).length).toBeGreaterThan(0);
      await Promise.all(pushes);
      expect(await Promise.all(merges)).toEqual(Array.from({ length: pulls }, () => expect.any(Number)));
      const migrated = await Promise.all(migrations);
      expect(created.filter((s) => s !== 201 && s !== 502)).toEqual([]);
      expect(migrated.filter((s) => s !== 201 && s !== 502)).toEqual([]);

      // Pushes: every commit of every writer landed, and git agrees with the API on every process still up.
      const check = path.join(scratch, 'check');
      expect((await git(['clone', '-q', remote, check], scratch)).code).toBe(0);
      const files = (await readdir(check)).filter((f) => f.startsWith('p')).sort();
      expect(files).toEqual(Array.from({ length: 9 }, (_, n) => `p${Math.floor(n / 3)}-${n % 3}.txt`).sort());
      const living = nodes.filter((n) => n !== victim);
      const head = (await git(['rev-parse', 'HEAD'], check)).stdout.trim();
      for (const node of living) expect((await json<{ commit: { id: string } }>(api('/repos/alice/killed-push/branches/main', { via: node.url }))).commit.id).toBe(head);

      // Merges: each pull request ends merged, its files on main.
      for (let i = 1; i <= pulls; i++) {
        await waitFor(`pull ${i} merged`, async () => {
          const status = await retrying(async () => (await api(`/repos/alice/killed-merge/pulls/${i}/merge`, { method: 'POST', body: JSON.stringify({ Do: 'merge' }) })).status, [200, 405]);
          return status === 405 || status === 200 ? true : undefined;
        });
        expect(await json<{ merged: boolean }>(api(`/repos/alice/killed-merge/pulls/${i}`))).toMatchObject({ merged: true });
      }

      // Migrations: each ends either complete or absent (its name free again), once the leases ran out.
      await waitFor('migrations to settle', async () => {
        for (let i = 0; i < 3; i++) {
          const answer = await api(`/repos/alice/migrated${i}`);
          if (answer.status === 404) continue;
          const repo = (await answer.json()) as { empty: boolean; mirror: boolean };
          if (repo.empty) return undefined;
        }
        return true;
      }, 60_000, 500);

      // Webhooks: every issue that exists was announced, each delivery at most twice (an attempt in flight in the
      // killed process is made again by another), and only those that were in flight twice.
      const issues = await api('/repos/alice/killed/issues?state=all&type=issues&limit=1');
      const issueCount = Number(issues.headers.get('x-total-count'));
      expect(issueCount).toBeGreaterThanOrEqual(created.filter((s) => s === 201).length);
      await waitFor('every issue to be announced', async () => (new Set(received.map((r) => r.issue)).size >= issueCount ? true : undefined), 60_000, 200);
      // The deliverer sends at most 8 at once, so at most that many attempts were cut off by the kill. Any other
      // attempt made twice was one whose lease a living process failed to renew in time (a loaded machine), or one
      // that failed (its answer came too late) and was made again; the process says so in either case, and none is
      // sent twice silently. It says so when it goes to record its attempt, which can be after the second copy
      // arrived here: each repeat is given up to 30 s to be explained.
      const tally = () => {
        const perDelivery = new Map<string, number>();
        for (const r of received) perDelivery.set(r.delivery, (perDelivery.get(r.delivery) ?? 0) + 1);
        // Each process's output on its own: a line never spans two of them.
        const outputs = nodes.map((n) => n.output.join(''));
        const logged = (pattern: RegExp) => outputs.reduce((sum, output) => sum + (output.match(pattern)?.length ?? 0), 0);
        const takenOver = logged(/delivery [0-9a-f-]+: the attempt was not recorded|attempt not recorded:/g);
        const failedAttempts = logged(/delivery [0-9a-f-]+: unable to deliver/g);
        const repeated = [...perDelivery].filter(([, n]) => n === 2).map(([uuid]) => uuid);
        const twice = repeated.length;
        // For the message: the repeats no log line names (those the kill cut off among them).
        const unnamed = repeated.filter((uuid) => !outputs.some((output) => output.includes(`delivery ${uuid}:`)));
        return { perDelivery, twice, explained: 8 + takenOver + failedAttempts, why: `sent twice: ${twice}; taken over: ${takenOver}; failed attempts: ${failedAttempts}; named in no log: ${unnamed.join(', ')}` };
      };
      let seen = tally();
      await waitFor('every delivery sent twice to be explained', async () => ((seen = tally()).twice <= seen.explained ? true : undefined), 30_000, 250).catch(() => undefined);
      expect(new Set(received.map((r) => r.issue)).size).toBe(issueCount);
      expect(seen.perDelivery.size).toBe(issueCount);
      expect([...seen.perDelivery.values()].every((n) => n <= 2)).toBe(true);
      expect(seen.twice, seen.why).toBeLessThanOrEqual(seen.explained);

      // Disk and database agree, every repository is sound, nothing is left half-made.
      const rows: string[] = [];
      for (let page = 1; ; page++) {
        const list = await json<{ name: string }[]>(api(`/user/repos?limit=50&page=${page}`));
        rows.push(...list.map((r) => r.name.toLowerCase()));
        if (list.length < 50) break;
      }
      await waitFor('leftover storage to be repaired', async () => {
        const disk = (await readdir(path.join(reposDir(), 'alice'))).filter((n) => n.endsWith('.git')).map((n) => n.slice(0, -4));
        return disk.sort().join() === [...rows].sort().join() ? true : undefined;
      }, 30_000, 500);
      for (const name of rows) {
        const fsck = await git(['--git-dir', path.join(reposDir(), 'alice', `${name}.git`), 'fsck', '--strict'], scratch);
        const problems = fsck.stderr.split('\n').filter((line) => line && !line.startsWith('notice:'));
        expect({ name, code: fsck.code, problems }).toEqual({ name, code: 0, problems: [] });
      }
      expect(await json<string[]>(api('/admin/unadopted'))).toEqual([]);

      // The killed process comes back and serves.
      await victim.start();
      expect((await api('/repos/alice/killed', { via: victim.url })).status).toBe(200);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
