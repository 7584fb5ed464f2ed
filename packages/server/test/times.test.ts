/**
 * Time tracking over HTTP: tracked times of an issue (add, list with `user`/`since`/`before`, delete one, reset),
 * of a repository (`/repos/{owner}/{repo}/times`, `…/times/{user}`) and of the signed-in user (`/user/times`);
 * stopwatches (start, stop into a tracked time, cancel, `/user/stopwatches`); timeline events of each; who may
 * (contributors only or everyone, writers for stopwatches, administrators crediting others); tracking switched off
 * per repository and site-wide; private repositories; bad input.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { SYSTEM, StopWatchSchema, TimelineCommentSchema, TrackedTimeSchema, schemaErrors, userActor } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const TrackedTimeListSchema = Type.Array(TrackedTimeSchema);
const StopWatchListSchema = Type.Array(StopWatchSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('time tracking', () => {
  let s: TestServer;
  let owner: Account;
  let writer: Account;
  let reader: Account;
  let stranger: Account;
  let admin: Account;

  async function account(prefix: string, isAdmin = false): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name, { admin: isAdmin });
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  const call = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1/${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  async function repo(isPrivate = false): Promise<string> {
    const name = uniq('r');
    expect((await call('POST', 'user/repos', owner, { name, private: isPrivate })).status).toBe(201);
    const path = `repos/${owner.name}/${name}`;
    expect((await call('PUT', `${path}/collaborators/${writer.name}`, owner, { permission: 'write' })).status).toBe(204);
    expect((await call('PUT', `${path}/collaborators/${reader.name}`, owner, { permission: 'read' })).status).toBe(204);
    return path;
  }

  async function issue(path: string, by = owner): Promise<number> {
    const res = await call('POST', `${path}/issues`, by, { title: 'work' });
    expect(res.status).toBe(201);
    return (await json(res)).number as number;
  }

  async function addTime(path: string, index: number, who: Account, body: Record<string, unknown>): Promise<any> {
    const res = await call('POST', `${path}/issues/${index}/times`, who, body);
    const time = await json(res);
    expect(res.status, JSON.stringify(time)).toBe(200);
    expect(schemaErrors(TrackedTimeSchema, time)).toEqual([]);
    return time;
  }

  async function list(url: string, who: Account): Promise<any[]> {
    const res = await call('GET', url, who);
    const body = await json<any[]>(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors(TrackedTimeListSchema, body)).toEqual([]);
    return body;
  }

  async function timeline(path: string, index: number): Promise<any[]> {
    const body = await json<any[]>(await call('GET', `${path}/issues/${index}/timeline`, owner));
    for (const entry of body) expect(schemaErrors(TimelineCommentSchema, entry)).toEqual([]);
    return body.filter((e) => /tracking|time_manual/.test(e.type));
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    writer = await account('wri');
    reader = await account('rea');
    stranger = await account('str');
    admin = await account('adm', true);
  });
  afterAll(async () => s?.cleanup());

  test('add by hand: the time, its user and issue; administrators may credit others; the timeline records it', async () => {
    const path = await repo();
    const index = await issue(path);
    const mine = await addTime(path, index, writer, { time: 3600, created: '2026-01-02T03:04:05Z' });
    expect(mine).toMatchObject({ time: 3600, user_name: writer.name, user_id: writer.id, created: '2026-01-02T03:04:05Z', issue: { number: index } });
    expect(mine.issue_id).toBe(mine.issue.id);
    // A writer naming someone else still tracks their own time; the repository's owner may credit another.
    expect((await addTime(path, index, writer, { time: 60, user_name: reader.name })).user_name).toBe(writer.name);
    expect((await addTime(path, index, owner, { time: 120, user_name: reader.name })).user_name).toBe(reader.name);
    expect((await addTime(path, index, admin, { time: 30, user_name: writer.name })).user_name).toBe(writer.name);
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, owner, { time: 5, user_name: 'nobody-here' }), 404, s.url);

    const events = await timeline(path, index);
    // Stored as Forgejo stores it (`|seconds`), shown as Forgejo words it.
    expect(events.map((e) => [e.type, e.user.login, e.body])).toEqual([
      ['add_time_manual', writer.name, '1 hour'],
      ['add_time_manual', writer.name, '1 minute'],
      ['add_time_manual', reader.name, '2 minutes'],
      ['add_time_manual', writer.name, '30 seconds'],
    ]);
    expect(events[0].tracked_time).toMatchObject({ id: mine.id, time: 3600, user_name: writer.name });
  });

  test('lists: managers see everyone, others their own; user, since and before filter; counts in X-Total-Count', async () => {
    const path = await repo();
    const one = await issue(path);
    const two = await issue(path, reader);
    await addTime(path, one, writer, { time: 100, created: '2026-01-01T00:00:00Z' });
    await addTime(path, one, owner, { time: 200, created: '2026-02-01T00:00:00Z' });
    await addTime(path, two, reader, { time: 300, created: '2026-03-01T00:00:00Z' });

    expect((await list(`${path}/issues/${one}/times`, owner)).map((t) => t.time)).toEqual([100, 200]);
    expect((await list(`${path}/issues/${one}/times?user=${writer.name}`, owner)).map((t) => t.time)).toEqual([100]);
    // A reader sees only their own times; asking for someone else's is refused.
    expect(await list(`${path}/issues/${one}/times`, reader)).toEqual([]);
    await expectApiError(await call('GET', `${path}/issues/${one}/times?user=${writer.name}`, reader), 403, s.url);
    await expectApiError(await call('GET', `${path}/issues/${one}/times?user=nobody-here`, owner), 404, s.url);

    let res = await call('GET', `${path}/times?limit=2`, owner);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect((await json<any[]>(res)).map((t) => t.time)).toEqual([100, 200]);
    expect((await list(`${path}/times?since=2026-01-15T00:00:00Z`, owner)).map((t) => t.time)).toEqual([200, 300]);
    expect((await list(`${path}/times?before=2026-02-01T00:00:00Z`, owner)).map((t) => t.time)).toEqual([100, 200]);
    expect((await list(`${path}/times?since=2026-01-15T00:00:00%2B00:00&before=2026-02-15T00:00:00Z`, owner)).map((t) => t.time)).toEqual([200]);
    expect((await list(`${path}/times`, reader)).map((t) => [t.time, t.issue.number])).toEqual([[300, two]]);
    await expectApiError(await call('GET', `${path}/times?since=yesterday`, owner), 422, s.url);
    await expectApiError(await call('GET', `${path}/issues/${one}/times?before=2026-99-01`, owner), 422, s.url);

    // A user's times in the repository: themselves, repository administrators, site administrators.
    res = await call('GET', `${path}/times/${reader.name}`, reader);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBeNull();
    expect((await json<any[]>(res)).map((t) => t.time)).toEqual([300]);
    expect((await list(`${path}/times/${writer.name}`, owner)).map((t) => t.time)).toEqual([100]);
    expect((await list(`${path}/times/${writer.name}`, admin)).map((t) => t.time)).toEqual([100]);
    await expectApiError(await call('GET', `${path}/times/${writer.name}`, reader), 403, s.url);
    await expectApiError(await call('GET', `${path}/times/nobody-here`, owner), 404, s.url);

    // The signed-in user's own times, anywhere.
    const others = await repo();
    const three = await issue(others, reader);
    await addTime(others, three, reader, { time: 400, created: '2026-04-01T00:00:00Z' });
    // (Earlier tests credited this reader with time too, now: the range leaves those out.)
    const mine = await list('user/times?before=2026-06-01T00:00:00Z', reader);
    expect(mine.map((t) => [t.time, t.issue.repository.full_name])).toEqual([
      [300, path.slice('repos/'.length)],
      [400, others.slice('repos/'.length)],
    ]);
    expect((await list('user/times?since=2026-03-15T00:00:00Z&before=2026-06-01T00:00:00Z', reader)).map((t) => t.time)).toEqual([400]);
    await expectApiError(await call('GET', 'user/times'), 401, s.url);
    await expectApiError(await call('GET', 'user/times?before=soon', reader), 422, s.url);
  });

  test('delete one and reset: own times only (site administrators any), each a timeline event', async () => {
    const path = await repo();
    const index = await issue(path);
    const other = await issue(path);
    const a = await addTime(path, index, writer, { time: 50 });
    const b = await addTime(path, index, writer, { time: 70 });
    const c = await addTime(path, index, owner, { time: 90 });

    await expectApiError(await call('DELETE', `${path}/issues/${index}/times/${c.id}`, writer), 403, s.url);
    // The id must be a time of the issue in the path.
    await expectApiError(await call('DELETE', `${path}/issues/${other}/times/${a.id}`, writer), 404, s.url);
    await expectApiError(await call('DELETE', `${path}/issues/${index}/times/abc`, writer), 404, s.url);
    await expectApiError(await call('DELETE', `${path}/issues/${index}/times/99999`, writer), 404, s.url);
    expect((await call('DELETE', `${path}/issues/${index}/times/${a.id}`, writer)).status).toBe(204);
    await expectApiError(await call('DELETE', `${path}/issues/${index}/times/${a.id}`, writer), 404, s.url);
    expect((await call('DELETE', `${path}/issues/${index}/times/${c.id}`, admin)).status).toBe(204);
    expect((await list(`${path}/issues/${index}/times`, owner)).map((t) => t.id)).toEqual([b.id]);

    expect((await call('DELETE', `${path}/issues/${index}/times`, writer)).status).toBe(204);
    await expectApiError(await call('DELETE', `${path}/issues/${index}/times`, writer), 404, s.url);
    expect(await list(`${path}/issues/${index}/times`, owner)).toEqual([]);

    const events = (await timeline(path, index)).filter((e) => e.type === 'delete_time_manual');
    expect(events.map((e) => [e.user.login, e.body])).toEqual([
      [writer.name, '50 seconds'],
      [owner.name, '1 minute 30 seconds'],
      [writer.name, '1 minute 10 seconds'],
    ]);
  });

  test('stopwatches: start, list, stop into a tracked time, cancel; one runs at a time; conflicts are 409', async () => {
    const path = await repo();
    const index = await issue(path);
    const next = await issue(path);

    let res = await call('POST', `${path}/issues/${index}/stopwatch/start`, writer);
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('');
    await expectApiError(await call('POST', `${path}/issues/${index}/stopwatch/start`, writer), 409, s.url);

    res = await call('GET', 'user/stopwatches', writer);
    const watches = await json<any[]>(res);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(schemaErrors(StopWatchListSchema, watches)).toEqual([]);
    const [ownerName, repoName] = path.slice('repos/'.length).split('/');
    expect(watches).toMatchObject([{ issue_index: index, issue_title: 'work', repo_owner_name: ownerName, repo_name: repoName }]);
    expect(watches[0].seconds).toBeGreaterThanOrEqual(0);
    expect(await json(await call('GET', 'user/stopwatches', owner))).toEqual([]);

    // Starting another stops the running one, which becomes a tracked time.
    expect((await call('POST', `${path}/issues/${next}/stopwatch/start`, writer)).status).toBe(201);
    expect((await json<any[]>(await call('GET', 'user/stopwatches', writer))).map((w) => w.issue_index)).toEqual([next]);
    expect((await list(`${path}/issues/${index}/times`, writer)).map((t) => t.user_name)).toEqual([writer.name]);

    res = await call('POST', `${path}/issues/${next}/stopwatch/stop`, writer);
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('');
    await expectApiError(await call('POST', `${path}/issues/${next}/stopwatch/stop`, writer), 409, s.url);
    const tracked = await list(`${path}/issues/${next}/times`, writer);
    expect(tracked).toHaveLength(1);
    expect(tracked[0].time).toBeGreaterThanOrEqual(0);
    expect(await json(await call('GET', 'user/stopwatches', writer))).toEqual([]);

    expect((await call('POST', `${path}/issues/${next}/stopwatch/start`, writer)).status).toBe(201);
    expect((await call('DELETE', `${path}/issues/${next}/stopwatch/delete`, writer)).status).toBe(204);
    await expectApiError(await call('DELETE', `${path}/issues/${next}/stopwatch/delete`, writer), 409, s.url);
    expect(await list(`${path}/issues/${next}/times`, writer)).toHaveLength(1);

    expect((await timeline(path, index)).map((e) => e.type)).toEqual(['start_tracking', 'stop_tracking']);
    const events = await timeline(path, next);
    expect(events.map((e) => e.type)).toEqual(['start_tracking', 'stop_tracking', 'start_tracking', 'cancel_tracking']);
    expect(events[1].tracked_time).toMatchObject({ id: tracked[0].id, user_name: writer.name });
  });

  test('concurrent starts leave one stopwatch running; concurrent stops track the time once', async () => {
    const path = await repo();
    const issues = [await issue(path), await issue(path), await issue(path)];
    const starts = await Promise.all(issues.map((i) => call('POST', `${path}/issues/${i}/stopwatch/start`, owner)));
    expect(starts.map((r) => r.status)).toEqual([201, 201, 201]);
    const running = await json<any[]>(await call('GET', 'user/stopwatches', owner));
    expect(running).toHaveLength(1);
    const last = running[0].issue_index as number;
    const stops = (await Promise.all([1, 2].map(() => call('POST', `${path}/issues/${last}/stopwatch/stop`, owner)))).map((r) => r.status).sort();
    expect(stops).toEqual([201, 409]);
    // Each start that was cut short and the final stop: one tracked time per issue.
    const times = await list(`${path}/times`, owner);
    expect(times.map((t) => t.issue.number).sort()).toEqual([...issues].sort());
  });

  test('who may: contributors only by default; everyone when the repository allows; stopwatches need write', async () => {
    const path = await repo();
    const index = await issue(path);
    const posted = await issue(path, reader);
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, undefined, { time: 10 }), 401, s.url);
    await expectApiError(await call('GET', `${path}/issues/${index}/times`), 401, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/stopwatch/start`), 401, s.url);
    // Neither writer, poster nor assignee.
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, reader, { time: 10 }), 403, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, stranger, { time: 10 }), 403, s.url);
    await expectApiError(await call('DELETE', `${path}/issues/${index}/times`, stranger), 403, s.url);
    // The poster may track on their own issue, but a stopwatch needs write.
    expect((await addTime(path, posted, reader, { time: 10 })).user_name).toBe(reader.name);
    await expectApiError(await call('POST', `${path}/issues/${posted}/stopwatch/start`, reader), 403, s.url);
    await expectApiError(await call('POST', `${path}/issues/${posted}/stopwatch/stop`, reader), 403, s.url);

    const res = await call('PATCH', path, owner, { internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: false, enable_issue_dependencies: true } });
    expect(res.status).toBe(200);
    expect((await addTime(path, index, stranger, { time: 15 })).user_name).toBe(stranger.name);

    const hidden = await repo(true);
    const secret = await issue(hidden);
    await expectApiError(await call('POST', `${hidden}/issues/${secret}/times`, stranger, { time: 10 }), 404, s.url);
    await expectApiError(await call('GET', `${hidden}/times`, stranger), 404, s.url);
    await expectApiError(await call('POST', `${hidden}/issues/${secret}/stopwatch/start`, stranger), 404, s.url);
  });

  test('tracking off in the repository: adding is 400, issue lists 404, repository lists 400', async () => {
    const path = await repo();
    const index = await issue(path);
    await addTime(path, index, owner, { time: 10 });
    expect((await call('PATCH', path, owner, { internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true } })).status).toBe(200);
    expect(await expectApiError(await call('POST', `${path}/issues/${index}/times`, owner, { time: 10 }), 400, s.url)).toBe('time tracking disabled');
    await expectApiError(await call('DELETE', `${path}/issues/${index}/times`, owner), 400, s.url);
    await expectApiError(await call('GET', `${path}/issues/${index}/times`, owner), 404, s.url);
    await expectApiError(await call('GET', `${path}/times`, owner), 400, s.url);
    await expectApiError(await call('GET', `${path}/times/${owner.name}`, owner), 400, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/stopwatch/start`, owner), 403, s.url);
  });

  test('times and stopwatches go with their issue; stopwatches with their account', async () => {
    const path = await repo();
    const index = await issue(path);
    const worker = await account('wrk');
    expect((await call('PUT', `${path}/collaborators/${worker.name}`, owner, { permission: 'write' })).status).toBe(204);
    await addTime(path, index, worker, { time: 42 });
    expect((await call('POST', `${path}/issues/${index}/stopwatch/start`, worker)).status).toBe(201);
    expect(await json(await call('GET', 'user/stopwatches', worker))).toHaveLength(1);
    expect((await call('DELETE', `${path}/issues/${index}`, owner)).status).toBe(204);
    expect(await json(await call('GET', 'user/stopwatches', worker))).toEqual([]);
    expect(await list('user/times', worker)).toEqual([]);

    const other = await issue(path);
    expect((await call('POST', `${path}/issues/${other}/stopwatch/start`, worker)).status).toBe(201);
    const gone = await s.host.users.resolve(SYSTEM, worker.name);
    expect((await call('DELETE', `admin/users/${worker.name}`, admin)).status).toBe(204);
    expect((await s.host.times.stopwatches(userActor(gone))).total).toBe(0);
  });

  test('bad input is a 4xx', async () => {
    const path = await repo();
    const index = await issue(path);
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, owner, {}), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, owner, { time: 0 }), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, owner, { time: '60' }), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, owner, { time: 1.5 }), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, owner, { time: 60, created: 'now' }), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/times`, owner, '{"time":'), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/31337/times`, owner, { time: 60 }), 404, s.url);
    expect(await list(`${path}/issues/${index}/times`, owner)).toEqual([]);
  });
});

describe('time tracking off site-wide', () => {
  let s: TestServer;
  afterAll(async () => s?.cleanup());

  test('[service] ENABLE_TIMETRACKING = false: nothing can be tracked', async () => {
    s = await startTestServer({ service: { ENABLE_TIMETRACKING: false } });
    const name = uniq('own');
    await createUser(s.host, name);
    const h = tokenHeader(await createToken(s.host, name));
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'r' }, h))).status).toBe(201);
    expect((await s.fetch(`/api/v1/repos/${name}/r/issues`, jsonInit('POST', { title: 't' }, h))).status).toBe(201);
    await expectApiError(await s.fetch(`/api/v1/repos/${name}/r/issues/1/times`, jsonInit('POST', { time: 5 }, h)), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${name}/r/times`, { headers: h }), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${name}/r/issues/1/stopwatch/start`, { method: 'POST', headers: h }), 403, s.url);
  });
});
