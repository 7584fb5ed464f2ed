/**
 * PostgreSQL going away under load (PostgreSQL project only): while clients keep reading and writing, the server's
 * connections are terminated from PostgreSQL's side (`pg_terminate_backend`, as a `pg_ctl restart -m fast` ends
 * them), then the database is unreachable for a while (every connection cut, new ones refused, as during the restart
 * itself), then it is back. Requests fail cleanly meanwhile: 503 with Forgejo's `{"message","url"}` body and a
 * Retry-After, never a 500 and never a hang; the process lives (an `error` event of a pg client nobody listened to
 * would end it, and this test with it); and once the database answers again, requests succeed without a restart.
 *
 * The unreachable phase goes through a TCP relay of the test's own between the server and PostgreSQL, so nobody
 * else's connections to the shared development server are touched; the relay also lets the test count them.
 */
import { connect, createServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RepoHost, userActor, type User } from '@repohost/core';
import { startServer, type RunningServer } from '@repohost/server';
import { TEST_DB, createToken, createUser, jsonInit, openTestHost, pgSettings, tokenHeader, type TestHost } from '@repohost/test-support';
import { json, uniq } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP relay to PostgreSQL that the test can cut (every connection, and no new ones) and restore on the same port. */
class Relay {
  private server: NetServer | undefined;
  private readonly pairs = new Set<[Socket, Socket]>();
  port = 0;
  accepted = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    const server = createServer((inbound) => {
      this.accepted++;
      const outbound = connect(this.targetPort, this.targetHost);
      const pair: [Socket, Socket] = [inbound, outbound];
      this.pairs.add(pair);
      const drop = () => {
        this.pairs.delete(pair);
        inbound.destroy();
        outbound.destroy();
      };
      inbound.on('error', drop).on('close', drop);
      outbound.on('error', drop).on('close', drop);
      inbound.pipe(outbound);
      outbound.pipe(inbound);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Cuts every connection and refuses new ones (a database that went down). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    for (const [inbound, outbound] of this.pairs) {
      inbound.destroy();
      outbound.destroy();
    }
    this.pairs.clear();
    await closed;
  }

  get connections(): number {
    return this.pairs.size;
  }
}

describe.runIf(TEST_DB === 'postgres')('PostgreSQL connections lost under load', () => {
  let t: TestHost;
  let host: RepoHost;
  let running: RunningServer;
  let relay: Relay;
  let base: string;
  let owner: User;
  let h: Record<string, string>;
  let full: string;
  let admin: import('pg').Client;

  beforeAll(async () => {
    // The schema is made and migrated by a first host; the one under test reaches the same schema through the relay.
    t = await openTestHost({ server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 } });
    const [pgHost, pgPort] = pgSettings().HOST.split(':');
    relay = new Relay(pgHost!, Number(pgPort ?? 5432));
    await relay.open();
    const settings = structuredClone(t.host.settings);
    settings.database.HOST = `127.0.0.1:${relay.port}`;
    host = await RepoHost.open({ settings, reconcile: false });
    running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
    base = host.settings.server.ROOT_URL;
    owner = await createUser(host, uniq('pg'));
    h = tokenHeader(await createToken(host, owner.name));
    const repo = await host.repos.create(userActor(owner), { name: uniq('r') });
    full = `${owner.name}/${repo.repo.name}`;
    const { default: pg } = await import('pg');
    const s = pgSettings();
    admin = new pg.Client({ host: pgHost, port: Number(pgPort ?? 5432), user: s.USER, password: s.PASSWD, database: s.NAME });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await running?.close();
    await host?.close();
    await relay?.cut();
    await t?.cleanup();
  });

  /** One request, with a bound on its time: a hang fails the test instead of stalling it. */
  async function call(method: 'GET' | 'POST', i: number): Promise<{ status: number; body: any; retryAfter: string | null; ms: number }> {
    const started = Date.now();
    const url = new URL(method === 'GET' ? `api/v1/repos/${full}` : `api/v1/repos/${full}/issues`, base);
    const init = method === 'GET' ? { headers: h } : jsonInit('POST', { title: `under load ${i}` }, h);
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(45_000) });
    const body = await json(res);
    return { status: res.status, body, retryAfter: res.headers.get('retry-after'), ms: Date.now() - started };
  }

  function expectUnavailable(answer: { status: number; body: any; retryAfter: string | null }): void {
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ message: 'the database is unavailable; try again shortly', url: `${base}api/swagger` });
    expect(answer.retryAfter).toBe('1');
  }

  test('503 while connections are lost and the database is unreachable, never 500 or a hang; then service resumes', async () => {
    const appName = `repohost ${host.settings.database.SCHEMA}`;
    const answers: { status: number; body: any; retryAfter: string | null; ms: number }[] = [];
    let stop = false;
    let n = 0;
    const client = async (id: number) => {
      while (!stop) {
        const answer = await call(id % 2 === 0 ? 'GET' : 'POST', n++);
        answers.push(answer);
        // A client that was told to come back later does so after a short pause.
        if (answer.status === 503) await sleep(50);
      }
    };
    const clients = Array.from({ length: 6 }, (_, id) => client(id));

    // Phase 1: PostgreSQL terminates the server's backends, again and again, while requests run on them.
    let terminated = 0;
    for (let round = 0; round < 8; round++) {
      await sleep(150);
      const { rows } = await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [appName]);
      terminated += rows.filter((row) => row.ok).length;
    }
    expect(terminated).toBeGreaterThan(0);

    // Phase 2: unreachable. Every connection is cut and none is accepted: requests answer 503 at once.
    await relay.cut();
    await sleep(300);
    const during = await call('GET', -1);
    expectUnavailable(during);
    expect(during.ms).toBeLessThan(20_000);
    const write = await call('POST', -2);
    expectUnavailable(write);
    await sleep(700);

    // Phase 3: back, on the same address. The pool opens new connections as requests need them.
    await relay.open();
    let recovered: { status: number } | undefined;
    for (let i = 0; i < 300 && recovered?.status !== 200; i++) {
      recovered = await call('GET', -3);
      if (recovered.status !== 200) await sleep(100);
    }
    expect(recovered?.status).toBe(200);
    await sleep(500);
    stop = true;
    await Promise.all(clients);

    // Nothing but success and clean refusals, each refusal in Forgejo's shape with when to come back.
    const statuses = new Map<number, number>();
    for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect([...statuses.keys()].filter((status) => ![200, 201, 503].includes(status))).toEqual([]);
    for (const answer of answers.filter((a) => a.status === 503)) expectUnavailable(answer);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(0);

    // Service resumed for reads and writes, on fresh connections through the relay, with nothing lost or doubled:
    // every issue a client was told was created exists, with numbers 1..n.
    expect(relay.accepted).toBeGreaterThan(0);
    const created = await call('POST', -4);
    expect(created.status).toBe(201);
    const listed = await fetch(new URL(`api/v1/repos/${full}/issues?state=all&limit=50&page=1`, base), { headers: h });
    expect(listed.status).toBe(200);
    const total = Number(listed.headers.get('x-total-count'));
    const reported = answers.filter((a) => a.status === 201).length + 1;
    expect(total).toBeGreaterThanOrEqual(reported);
    const { rows } = await admin.query<{ index: string }>(`SELECT "index" FROM "${host.settings.database.SCHEMA}".issue ORDER BY "index"`);
    expect(rows.map((row) => Number(row.index))).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const repo = await call('GET', -5);
    expect(repo.status).toBe(200);
    expect(repo.body.open_issues_count).toBe(total);
  }, 120_000);
});
