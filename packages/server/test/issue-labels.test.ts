/**
 * Labels on issues over HTTP: list, add, replace, remove one (by id or name), clear; ids or names in the body;
 * organization labels on the organization's repositories; the exclusive-scope rule; the timeline events and
 * `issue.labeled`; label counts after every change (closing, reopening and deleting issues included); who may
 * do each, private repositories, bad input, and `updated_at`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { LabelSchema, SYSTEM, schemaErrors, type Label, type RepoAccess } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const LabelListSchema = Type.Array(LabelSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

interface ApiLabelView {
  id: number;
  name: string;
  url: string;
}

describe('issue labels', () => {
  let s: TestServer;
  let owner: Account;
  let writer: Account;
  let reader: Account;
  let stranger: Account;

  async function account(prefix: string, admin = false): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name, { admin });
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  async function repo(isPrivate = false): Promise<string> {
    const name = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate }, owner.h))).status).toBe(201);
    const path = `${owner.name}/${name}`;
    expect((await s.fetch(`/api/v1/repos/${path}/collaborators/${writer.name}`, jsonInit('PUT', { permission: 'write' }, owner.h))).status).toBe(204);
    expect((await s.fetch(`/api/v1/repos/${path}/collaborators/${reader.name}`, jsonInit('PUT', { permission: 'read' }, owner.h))).status).toBe(204);
    return path;
  }

  const call = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1/${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  async function label(base: string, name: string, options: { exclusive?: boolean } = {}): Promise<ApiLabelView> {
    const res = await call('POST', `${base}/labels`, owner, { name, color: '00aabb', exclusive: options.exclusive ?? false });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body;
  }

  async function issue(path: string, body: Record<string, unknown> = {}): Promise<{ number: number; updated_at: string; labels: ApiLabelView[] }> {
    const res = await call('POST', `repos/${path}/issues`, owner, { title: uniq('issue'), ...body });
    const created = await json(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    return created;
  }

  /** Sends a change of an issue's labels and returns the names it answers, checking the answer's shape. */
  async function change(method: 'POST' | 'PUT', path: string, index: number, labels: unknown, who: Account = writer): Promise<string[]> {
    const res = await call(method, `repos/${path}/issues/${index}/labels`, who, { labels });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors(LabelListSchema, body)).toEqual([]);
    return body.map((l: ApiLabelView) => l.name);
  }

  async function namesOn(path: string, index: number, who?: Account): Promise<string[]> {
    const res = await call('GET', `repos/${path}/issues/${index}/labels`, who);
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors(LabelListSchema, body)).toEqual([]);
    return body.map((l: ApiLabelView) => l.name);
  }

  async function access(path: string): Promise<RepoAccess> {
    const [o, r] = path.split('/');
    return s.host.repos.resolve(SYSTEM, o!, r!);
  }

  /** The stored issue counts of a repository's labels, by name. */
  async function counts(path: string): Promise<Record<string, [number, number]>> {
    const rows = (await s.host.labels.listOfRepo(SYSTEM, await access(path), { limit: 50 })).items;
    return Object.fromEntries(rows.map((l: Label) => [l.name, [l.num_issues, l.num_closed_issues]]));
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    writer = await account('wri');
    reader = await account('rea');
    stranger = await account('str');
  });
  afterAll(async () => s?.cleanup());

  test('add, replace, remove one, clear: answers sorted by name, issue updated, events recorded', async () => {
    const path = await repo();
    const [bug, docs, urgent] = [await label(`repos/${path}`, 'bug'), await label(`repos/${path}`, 'docs'), await label(`repos/${path}`, 'urgent')];
    const events: { added: string[]; removed: string[]; index: number }[] = [];
    const off = s.host.events.on('issue.labeled', ({ payload }) => {
      if (payload.repo.name !== path.split('/')[1]) return;
      events.push({ added: payload.added.map((l) => l.name), removed: payload.removed.map((l) => l.name), index: payload.issue.index });
    });
    let created: Awaited<ReturnType<typeof issue>>;
    try {
      created = await issue(path, { labels: [urgent.id] });
      expect(created.labels.map((l) => l.name)).toEqual(['urgent']);

      await new Promise((r) => setTimeout(r, 1100));
      expect(await change('POST', path, created.number, [docs.id, bug.id])).toEqual(['bug', 'docs', 'urgent']);
      const after = await json(await call('GET', `repos/${path}/issues/${created.number}`));
      expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
      expect(after.labels.map((l: ApiLabelView) => l.name)).toEqual(['bug', 'docs', 'urgent']);

      // Adding what is there already changes nothing and announces nothing.
      expect(await change('POST', path, created.number, [bug.id])).toEqual(['bug', 'docs', 'urgent']);
      expect(await change('PUT', path, created.number, [docs.id])).toEqual(['docs']);

      let res = await call('DELETE', `repos/${path}/issues/${created.number}/labels/${docs.id}`, writer);
      expect(res.status).toBe(204);
      expect(await namesOn(path, created.number)).toEqual([]);

      expect(await change('PUT', path, created.number, [bug.id, urgent.id])).toEqual(['bug', 'urgent']);
      res = await call('DELETE', `repos/${path}/issues/${created.number}/labels`, writer);
      expect(res.status).toBe(204);
      expect(await namesOn(path, created.number)).toEqual([]);
      // Clearing an issue without labels is fine too.
      expect((await call('DELETE', `repos/${path}/issues/${created.number}/labels`, writer)).status).toBe(204);

      // Announced after commit, so maybe a moment after the answer.
      await expect.poll(() => events).toEqual([
        { added: ['urgent'], removed: [], index: created.number },
        { added: ['docs', 'bug'], removed: [], index: created.number },
        { added: [], removed: ['bug', 'urgent'], index: created.number },
        { added: [], removed: ['docs'], index: created.number },
        { added: ['bug', 'urgent'], removed: [], index: created.number },
        { added: [], removed: ['bug', 'urgent'], index: created.number },
      ]);
    } finally {
      off();
    }

    // The timeline shows each label set ("1") and taken off ("").
    const res = await call('GET', `repos/${path}/issues/${created.number}/timeline?limit=50`, owner);
    expect(res.status).toBe(200);
    const timeline = (await json(res)).filter((e: { type: string }) => e.type === 'label');
    expect(timeline.map((e: { body: string; label: ApiLabelView }) => `${e.body === '1' ? '+' : '-'}${e.label.name}`)).toEqual([
      '+urgent',
      '+docs',
      '+bug',
      '-bug',
      '-urgent',
      '-docs',
      '+bug',
      '+urgent',
      '-bug',
      '-urgent',
    ]);
    expect(timeline[0].user.login).toBe(owner.name);
    expect(timeline[1].user.login).toBe(writer.name);
  });

  test('labels by name; numbers and names mixed, or other values, are a 400; unknown and foreign ids are ignored', async () => {
    const path = await repo();
    const other = await repo();
    const [bug] = [await label(`repos/${path}`, 'bug'), await label(`repos/${path}`, 'feature')];
    const foreign = await label(`repos/${other}`, 'foreign');
    const { number } = await issue(path);

    expect(await change('POST', path, number, ['feature', 'nope'])).toEqual(['feature']);
    expect(await change('PUT', path, number, ['bug'])).toEqual(['bug']);
    expect(await change('POST', path, number, [999999, foreign.id])).toEqual(['bug']);
    expect(await change('PUT', path, number, [foreign.id])).toEqual([]);
    // A JSON number with a fraction is read as Go converts it: truncated.
    expect(await change('POST', path, number, [bug.id + 0.5])).toEqual(['bug']);
    // Ids no label can have, and more of them than a statement could bind, are no error.
    expect(await change('POST', path, number, [-1, 0, 1e20, 2 ** 63])).toEqual(['bug']);
    const many = Array.from({ length: 40_000 }, (_, i) => i + 1_000_000);
    expect(await change('POST', path, number, [...many, bug.id])).toEqual(['bug']);
    expect(await change('POST', path, number, many.map((n) => `n${n}`).concat('feature'))).toEqual(['bug', 'feature']);
    expect(await change('PUT', path, number, [bug.id])).toEqual(['bug']);

    const mixed = await expectApiError(await call('POST', `repos/${path}/issues/${number}/labels`, writer, { labels: [bug.id, 'feature'] }), 400, s.url);
    expect(mixed).toBe('labels should be an array of strings or integers');
    for (const bad of [[true], [null], [{ id: bug.id }], [[bug.id]]]) {
      const message = await expectApiError(await call('PUT', `repos/${path}/issues/${number}/labels`, writer, { labels: bad }), 400, s.url);
      expect(message).toBe('a label must be an integer or a string');
    }
    await expectApiError(await call('POST', `repos/${path}/issues/${number}/labels`, writer, { labels: 'bug' }), 422, s.url);
    expect(await namesOn(path, number)).toEqual(['bug']);

    // An absent or null list adds nothing, and replaces with nothing.
    expect(await change('POST', path, number, null)).toEqual(['bug']);
    expect(await change('PUT', path, number, null)).toEqual([]);

    // A foreign label on the issue's own repository's path cannot be taken off, and is no label of it.
    expect(await change('PUT', path, number, [bug.id])).toEqual(['bug']);
    expect((await call('DELETE', `repos/${path}/issues/${number}/labels/${foreign.id}`, writer)).status).toBe(204);
    expect((await call('DELETE', `repos/${path}/issues/${number}/labels/bug`, writer)).status).toBe(204);
    expect(await namesOn(path, number)).toEqual([]);
    const unknown = await expectApiError(await call('DELETE', `repos/${path}/issues/${number}/labels/nope`, writer), 422, s.url);
    expect(unknown).toContain('label does not exist');
    await expectApiError(await call('DELETE', `repos/${path}/issues/${number}/labels/999999`, writer), 422, s.url);
  });

  test('exclusive scopes: the newer label of a scope replaces the older; the text before the last / is the scope', async () => {
    const path = await repo();
    const base = `repos/${path}`;
    const high = await label(base, 'prio/high', { exclusive: true });
    const low = await label(base, 'prio/low', { exclusive: true });
    const loose = await label(base, 'prio/loose');
    const alphaX = await label(base, 'scope/alpha/x', { exclusive: true });
    const alphaY = await label(base, 'scope/alpha/y', { exclusive: true });
    const betaX = await label(base, 'scope/beta/x', { exclusive: true });
    const trailing = await label(base, 'prio/', { exclusive: true });
    const { number } = await issue(path, { labels: [high.id, low.id] });
    expect(await namesOn(path, number)).toEqual(['prio/low']);

    expect(await change('POST', path, number, [high.id])).toEqual(['prio/high']);
    expect(await change('POST', path, number, [loose.id, trailing.id])).toEqual(['prio/', 'prio/high', 'prio/loose']);
    expect(await change('POST', path, number, [low.id])).toEqual(['prio/', 'prio/loose', 'prio/low']);
    // Within one request the later of a scope wins.
    expect(await change('POST', path, number, [low.id, high.id])).toEqual(['prio/', 'prio/high', 'prio/loose']);
    expect(await change('PUT', path, number, [high.id, low.id, alphaX.id, betaX.id])).toEqual(['prio/low', 'scope/alpha/x', 'scope/beta/x']);
    expect(await change('POST', path, number, [alphaY.id])).toEqual(['prio/low', 'scope/alpha/y', 'scope/beta/x']);
    // Names follow the same rule.
    expect(await change('POST', path, number, ['scope/alpha/x', 'prio/high'])).toEqual(['prio/high', 'scope/alpha/x', 'scope/beta/x']);

    // A label made exclusive later does not rewrite issues; the next change of that scope applies the rule.
    const plain = await label(base, 'area/ui');
    const other = await label(base, 'area/db');
    expect(await change('PUT', path, number, [plain.id, other.id])).toEqual(['area/db', 'area/ui']);
    expect((await call('PATCH', `${base}/labels/${plain.id}`, owner, { exclusive: true })).status).toBe(200);
    expect((await call('PATCH', `${base}/labels/${other.id}`, owner, { exclusive: true })).status).toBe(200);
    expect(await namesOn(path, number)).toEqual(['area/db', 'area/ui']);
    const third = await label(base, 'area/api', { exclusive: true });
    expect(await change('POST', path, number, [third.id])).toEqual(['area/api']);
  });

  test('organization labels on the organization repositories’ issues; not on other owners’ repositories', async () => {
    const org = uniq('org');
    expect((await call('POST', 'orgs', owner, { username: org })).status).toBe(201);
    const repoName = uniq('r');
    expect((await call('POST', `orgs/${org}/repos`, owner, { name: repoName })).status).toBe(201);
    const path = `${org}/${repoName}`;
    const orgLabel = await label(`orgs/${org}`, 'kind/bug', { exclusive: true });
    const repoLabel = await label(`repos/${path}`, 'kind/feature', { exclusive: true });
    const shared = await label(`orgs/${org}`, 'shared');
    await label(`repos/${path}`, 'shared');

    const created = await issue(path, { labels: [orgLabel.id] });
    expect(created.labels).toEqual([orgLabel]);
    const res = await call('GET', `repos/${path}/issues/${created.number}/labels`);
    const listed = await json(res);
    expect(listed).toEqual([orgLabel]);
    expect(listed[0].url).toBe(`${s.url}api/v1/orgs/${org}/labels/${orgLabel.id}`);

    // Exclusive scopes span the repository's and the organization's labels.
    expect(await change('POST', path, created.number, [repoLabel.id], owner)).toEqual(['kind/feature']);
    expect(await change('POST', path, created.number, [orgLabel.id], owner)).toEqual(['kind/bug']);
    // A name both own names both.
    expect(await change('PUT', path, created.number, ['shared'], owner)).toEqual(['shared', 'shared']);
    expect((await call('DELETE', `repos/${path}/issues/${created.number}/labels/shared`, owner)).status).toBe(204);
    expect(await namesOn(path, created.number)).toEqual(['shared']);
    expect((await call('DELETE', `repos/${path}/issues/${created.number}/labels/${shared.id}`, owner)).status).toBe(204);
    expect(await namesOn(path, created.number)).toEqual([]);

    // Another owner's repository cannot use the organization's labels.
    const mine = await repo();
    const { number } = await issue(mine, { labels: [orgLabel.id] });
    expect(await namesOn(mine, number)).toEqual([]);
    expect(await change('POST', mine, number, [orgLabel.id])).toEqual([]);
    expect(await change('POST', mine, number, ['kind/bug'])).toEqual([]);

    // Deleting the organization label takes it off its issues.
    expect(await change('PUT', path, created.number, [orgLabel.id, shared.id], owner)).toEqual(['kind/bug', 'shared']);
    expect((await call('DELETE', `orgs/${org}/labels/${orgLabel.id}`, owner)).status).toBe(204);
    expect(await namesOn(path, created.number)).toEqual(['shared']);
  });

  test('counts follow adding, removing, closing, reopening, deleting issues and labels', async () => {
    const path = await repo();
    const [a, b] = [await label(`repos/${path}`, 'a'), await label(`repos/${path}`, 'b')];
    const one = await issue(path, { labels: [a.id, b.id] });
    const two = await issue(path, { labels: [a.id] });
    expect(await counts(path)).toEqual({ a: [2, 0], b: [1, 0] });

    expect((await call('PATCH', `repos/${path}/issues/${one.number}`, writer, { state: 'closed' })).status).toBe(201);
    expect(await counts(path)).toEqual({ a: [2, 1], b: [1, 1] });
    expect(await change('PUT', path, one.number, [b.id])).toEqual(['b']);
    expect(await counts(path)).toEqual({ a: [1, 0], b: [1, 1] });
    expect((await call('PATCH', `repos/${path}/issues/${one.number}`, writer, { state: 'open' })).status).toBe(201);
    expect(await counts(path)).toEqual({ a: [1, 0], b: [1, 0] });

    let sorted = await json(await call('GET', `repos/${path}/labels?sort=mostissues`));
    expect(sorted.map((l: ApiLabelView) => l.name)).toEqual(['a', 'b']);
    expect(await change('POST', path, two.number, [b.id])).toEqual(['a', 'b']);
    expect(await change('POST', path, (await issue(path)).number, [b.id])).toEqual(['b']);
    expect(await counts(path)).toEqual({ a: [1, 0], b: [3, 0] });
    sorted = await json(await call('GET', `repos/${path}/labels?sort=mostissues`));
    expect(sorted.map((l: ApiLabelView) => l.name)).toEqual(['b', 'a']);
    sorted = await json(await call('GET', `repos/${path}/labels?sort=leastissues`));
    expect(sorted.map((l: ApiLabelView) => l.name)).toEqual(['a', 'b']);

    expect((await call('DELETE', `repos/${path}/issues/${two.number}`, owner)).status).toBe(204);
    expect(await counts(path)).toEqual({ a: [0, 0], b: [2, 0] });
    expect((await call('DELETE', `repos/${path}/issues/${one.number}/labels`, owner)).status).toBe(204);
    expect(await counts(path)).toEqual({ a: [0, 0], b: [1, 0] });

    // Deleting a label takes it off every issue.
    expect((await call('DELETE', `repos/${path}/labels/${b.id}`, owner)).status).toBe(204);
    expect(await counts(path)).toEqual({ a: [0, 0] });
  });

  test('organization label counts leave out the issues of a deleted repository', async () => {
    const org = uniq('org');
    expect((await call('POST', 'orgs', owner, { username: org })).status).toBe(201);
    const names = [uniq('r'), uniq('r')];
    for (const name of names) expect((await call('POST', `orgs/${org}/repos`, owner, { name })).status).toBe(201);
    const orgLabel = await label(`orgs/${org}`, 'team');
    for (const name of names) await issue(`${org}/${name}`, { labels: [orgLabel.id] });
    const orgRow = async () => (await s.host.labels.getOfOrg(SYSTEM, (await s.host.orgs.resolve(SYSTEM, org)), orgLabel.id)).num_issues;
    expect(await orgRow()).toBe(2);
    expect((await call('DELETE', `repos/${org}/${names[0]}`, owner)).status).toBe(204);
    expect(await orgRow()).toBe(1);
  });

  test('a repository transferred out of an organization loses the organization’s labels and their events', async () => {
    const org = uniq('org');
    expect((await call('POST', 'orgs', owner, { username: org })).status).toBe(201);
    const name = uniq('r');
    expect((await call('POST', `orgs/${org}/repos`, owner, { name })).status).toBe(201);
    const orgLabel = await label(`orgs/${org}`, 'org-kind');
    const repoLabel = await label(`repos/${org}/${name}`, 'repo-kind');
    const { number } = await issue(`${org}/${name}`, { labels: [orgLabel.id, repoLabel.id] });

    const res = await call('POST', `repos/${org}/${name}/transfer`, owner, { new_owner: owner.name });
    expect(res.status, await res.text()).toBe(202);
    const path = `${owner.name}/${name}`;
    expect(await namesOn(path, number)).toEqual(['repo-kind']);
    const timeline = (await json(await call('GET', `repos/${path}/issues/${number}/timeline`, owner))).filter((e: { type: string }) => e.type === 'label');
    expect(timeline.map((e: { label: ApiLabelView }) => e.label.name)).toEqual(['repo-kind']);
    const row = await s.host.labels.getOfOrg(SYSTEM, await s.host.orgs.resolve(SYSTEM, org), orgLabel.id);
    expect(row.num_issues).toBe(0);
  });

  test('who may change an issue’s labels: writers; readers 403, anonymous 401; a private repository is a 404', async () => {
    const path = await repo();
    const bug = await label(`repos/${path}`, 'bug');
    const { number } = await issue(path, { labels: [bug.id] });
    for (const who of [reader, stranger]) {
      expect(await expectApiError(await call('POST', `repos/${path}/issues/${number}/labels`, who, { labels: [bug.id] }), 403, s.url)).toBe('write permission is required');
      await expectApiError(await call('PUT', `repos/${path}/issues/${number}/labels`, who, { labels: [] }), 403, s.url);
      await expectApiError(await call('DELETE', `repos/${path}/issues/${number}/labels`, who), 403, s.url);
      await expectApiError(await call('DELETE', `repos/${path}/issues/${number}/labels/${bug.id}`, who), 403, s.url);
    }
    await expectApiError(await call('POST', `repos/${path}/issues/${number}/labels`, undefined, { labels: [bug.id] }), 401, s.url);
    await expectApiError(await call('DELETE', `repos/${path}/issues/${number}/labels`), 401, s.url);
    expect(await namesOn(path, number, stranger)).toEqual(['bug']);
    expect(await namesOn(path, number)).toEqual(['bug']);
    await expectApiError(await call('GET', `repos/${path}/issues/999/labels`), 404, s.url);
    await expectApiError(await call('POST', `repos/${path}/issues/999/labels`, writer, { labels: [bug.id] }), 404, s.url);
    await expectApiError(await call('GET', `repos/${path}/issues/abc/labels`), 404, s.url);

    const secret = await repo(true);
    const hidden = await label(`repos/${secret}`, 'hidden');
    const { number: n } = await issue(secret, { labels: [hidden.id] });
    await expectApiError(await call('GET', `repos/${secret}/issues/${n}/labels`, stranger), 404, s.url);
    await expectApiError(await call('GET', `repos/${secret}/issues/${n}/labels`), 404, s.url);
    await expectApiError(await call('POST', `repos/${secret}/issues/${n}/labels`, stranger, { labels: [hidden.id] }), 404, s.url);
    await expectApiError(await call('DELETE', `repos/${secret}/issues/${n}/labels/${hidden.id}`, stranger), 404, s.url);
    expect(await namesOn(secret, n, reader)).toEqual(['hidden']);
    await expectApiError(await call('DELETE', `repos/${secret}/issues/${n}/labels`, reader), 403, s.url);
    expect(await namesOn(secret, n, owner)).toEqual(['hidden']);
  });

  test('updated_at dates the change for repository administrators only, never before creation nor in the future', async () => {
    const path = await repo();
    const bug = await label(`repos/${path}`, 'bug');
    const created = await issue(path);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const before = new Date(Date.parse(created.updated_at) - 3_600_000).toISOString();

    expect(await expectApiError(await call('POST', `repos/${path}/issues/${created.number}/labels`, writer, { labels: [bug.id], updated_at: created.updated_at }), 403, s.url)).toBe(
      'user needs to have admin or owner right',
    );
    await expectApiError(await call('POST', `repos/${path}/issues/${created.number}/labels`, owner, { labels: [bug.id], updated_at: future }), 403, s.url);
    await expectApiError(await call('DELETE', `repos/${path}/issues/${created.number}/labels`, owner, { updated_at: before }), 403, s.url);
    expect(await namesOn(path, created.number)).toEqual([]);

    await new Promise((r) => setTimeout(r, 1100));
    const res = await call('POST', `repos/${path}/issues/${created.number}/labels`, owner, { labels: [bug.id], updated_at: created.updated_at });
    expect(res.status).toBe(200);
    const after = await json(await call('GET', `repos/${path}/issues/${created.number}`));
    expect(after.updated_at).toBe(created.updated_at);
    expect(after.labels.map((l: ApiLabelView) => l.name)).toEqual(['bug']);
    const timeline = (await json(await call('GET', `repos/${path}/issues/${created.number}/timeline`, owner))).filter((e: { type: string }) => e.type === 'label');
    expect(timeline.map((e: { created_at: string }) => e.created_at)).toEqual([created.updated_at]);
  });
});
