/**
 * `GET /repos/search` over HTTP: for every kind of caller, exactly the repositories they may see (and with
 * `private=false`, only public ones of public owners), with a total that agrees on every page; keyword matching
 * (names, descriptions, topics, `owner/name`, comma-separated parts, `%` and `_` taken literally); Forgejo's
 * filters, orderings and paging; and bad input.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ANONYMOUS, AccessMode, RepoHost, SYSTEM, SearchResultsSchema, matchesSchema, schemaErrors, userActor, type Actor, type Repository, type User } from '@repohost/core';
import { PASSWORD, createToken, createUser, jsonInit, openTestHost, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;

interface Found {
  names: string[];
  total: number;
  link: string | null;
  body: { ok: boolean; data: { name: string; full_name: string; owner: { login: string }; permissions: { admin: boolean; pull: boolean } }[] };
}

async function search(query: string, headers: Record<string, string> = {}): Promise<Found> {
  const res = await s.fetch(`/api/v1/repos/search?${query}`, { headers });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(matchesSchema(SearchResultsSchema, body), schemaErrors(SearchResultsSchema, body).join('\n')).toBe(true);
  expect(body.ok).toBe(true);
  return { names: body.data.map((r: { full_name: string }) => r.full_name), total: Number(res.headers.get('x-total-count')), link: res.headers.get('link'), body };
}

/** Every page of a search with `limit` per page: the names, and the total each page reported. */
async function allPages(query: string, headers: Record<string, string> = {}, limit = 2): Promise<{ names: string[]; totals: number[] }> {
  const names: string[] = [];
  const totals: number[] = [];
  for (let page = 1; page <= 50; page++) {
    const found = await search(`${query}&limit=${limit}&page=${page}`, headers);
    totals.push(found.total);
    if (found.names.length === 0) break;
    names.push(...found.names);
  }
  return { names, totals };
}

async function repo(owner: User, name: string, options: { private?: boolean; description?: string; template?: boolean } = {}): Promise<Repository> {
  return (await s.host.repos.create(SYSTEM, { name, ...options }, { owner })).repo;
}

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.cleanup();
});

describe('what each caller finds', () => {
  const tag = uniq('vis');
  const owners: User[] = [];
  const repos: { repo: Repository; owner: User }[] = [];
  let callers: { label: string; actor: Actor; headers: Record<string, string> }[];

  beforeAll(async () => {
    for (const visibility of ['public', 'limited', 'private'] as const) {
      const owner = await createUser(s.host, uniq(`o${visibility[0]}`), { visibility });
      owners.push(owner);
      // More private than public repositories, so that a count of the wrong set cannot come out right by chance.
      for (const [suffix, isPrivate] of [['pub-a', false], ['priv-a', true], ['pub-b', false], ['priv-b', true], ['priv-c', true]] as const) {
        repos.push({ repo: await repo(owner, `${tag}-${suffix}`, { private: isPrivate }), owner });
      }
    }
    const other = await createUser(s.host, uniq('other'));
    const admin = await createUser(s.host, uniq('admin'), { admin: true });
    const restrictedName = uniq('restr');
    const restricted = await s.host.users.create(SYSTEM, { username: restrictedName, email: `${restrictedName}@example.com`, password: PASSWORD, restricted: true });
    repos.push({ repo: await repo(restricted, `${tag}-own-pub`), owner: restricted });
    repos.push({ repo: await repo(restricted, `${tag}-own-priv`, { private: true }), owner: restricted });
    const owner = owners[2]!;
    const token = async (user: User, scopes = ['all']) => tokenHeader(await createToken(s.host, user.name, scopes));
    callers = [
      { label: 'anonymous', actor: ANONYMOUS, headers: {} },
      { label: 'another user', actor: userActor(other), headers: await token(other) },
      { label: 'a restricted user', actor: userActor(restricted), headers: await token(restricted) },
      { label: 'a public-only token', actor: userActor(other, { publicOnly: true }), headers: await token(other, ['read:repository', 'public-only']) },
      { label: 'a site administrator', actor: userActor(admin), headers: await token(admin) },
      { label: 'a public-only token of an administrator', actor: userActor(admin, { publicOnly: true }), headers: await token(admin, ['read:repository', 'public-only']) },
      { label: 'the owner of the private-profile repositories', actor: userActor(owner), headers: await token(owner) },
    ];
  });

  test('items are exactly the repositories host.access shows; the total counts them on every page', async () => {
    for (const { label, actor, headers } of callers) {
      const expected = (await s.host.access.repoAccessMany(actor, repos)).filter((a) => a.mode !== AccessMode.None).map((a) => `${a.owner.name}/${a.repo.name}`);
      const { names, totals } = await allPages(`q=${tag}`, headers);
      expect([...names].sort(), label).toEqual([...expected].sort());
      expect(new Set(names).size, `${label}: no repository twice`).toBe(names.length);
      for (const total of totals) expect(total, label).toBe(expected.length);
    }
  });

  test('private=false: only public repositories of public owners, for everyone', async () => {
    const publicOwner = owners[0]!;
    for (const { label, actor, headers } of callers) {
      const restricted = label === 'a restricted user';
      const expected = repos
        .filter(({ repo: r, owner }) => r.is_private === 0 && owner.visibility === 0 && (!restricted || actor.kind !== 'user' || owner.id === actor.user.id))
        .map(({ repo: r, owner }) => `${owner.name}/${r.name}`);
      const { names, totals } = await allPages(`q=${tag}&private=false`, headers, 3);
      expect([...names].sort(), label).toEqual([...expected].sort());
      for (const total of totals) expect(total, label).toBe(expected.length);
      if (!restricted) expect(names.every((n) => n.startsWith(`${publicOwner.name}/`) || n.includes('-own-pub')), label).toBe(true);
    }
  });

  test('each item carries the caller\'s permissions', async () => {
    const admin = callers.find((c) => c.label === 'a site administrator')!;
    const found = await search(`q=${tag}-priv-a&limit=50`, admin.headers);
    expect(found.body.data.length).toBe(3);
    for (const item of found.body.data) expect(item.permissions).toMatchObject({ admin: true, pull: true });
    const anon = await search(`q=${tag}-pub-a`);
    for (const item of anon.body.data) expect(item.permissions).toMatchObject({ admin: false, pull: true });
  });

  test('is_private narrows what may be seen, never widens it', async () => {
    const other = callers.find((c) => c.label === 'another user')!;
    expect((await search(`q=${tag}&is_private=true&limit=50`, other.headers)).names).toEqual([]);
    const owner = callers.find((c) => c.label === 'the owner of the private-profile repositories')!;
    const mine = await search(`q=${tag}&is_private=true&limit=50`, owner.headers);
    expect(mine.names.length).toBe(3);
    expect(mine.total).toBe(3);
  });
});

describe('keywords', () => {
  let alice: User;
  let bob: User;
  let h: Record<string, string>;
  const tag = uniq('kw');

  beforeAll(async () => {
    alice = await createUser(s.host, uniq('alice'));
    bob = await createUser(s.host, uniq('bob'));
    h = tokenHeader(await createToken(s.host, alice.name));
    await repo(alice, `${tag}-Alpha`, { description: 'The FIRST one' });
    await repo(alice, `${tag}-beta`, { description: `mentions ${tag}-gamma` });
    await repo(bob, `${tag}-gamma`);
    await repo(alice, `${tag}-100_done`, { description: 'is 100% sure' });
    await repo(alice, `${tag}-100xdone`, { description: 'is 1000 sure' });
    const res = await s.fetch(`/api/v1/repos/${alice.name}/${tag}-beta/topics`, jsonInit('PUT', { topics: [`${tag}-topic`, 'shared'] }, h));
    expect(res.status).toBe(204);
  });

  test('a part of the name, in any case', async () => {
    expect((await search(`q=${tag.toUpperCase()}-ALPHA`)).names).toEqual([`${alice.name}/${tag}-Alpha`]);
    expect((await search(`q=${tag}-a`)).names).toEqual([`${alice.name}/${tag}-Alpha`]);
    expect((await search(`q=%20${tag}-beta%20`)).names, 'surrounding spaces are trimmed').toEqual([`${alice.name}/${tag}-beta`]);
  });

  test('descriptions only with includeDesc', async () => {
    expect((await search(`q=first one`)).names).toEqual([]);
    expect((await search(`q=first one&includeDesc=true`)).names).toEqual([`${alice.name}/${tag}-Alpha`]);
    const both = await search(`q=${tag}-gamma&includeDesc=true`);
    expect([...both.names].sort()).toEqual([`${alice.name}/${tag}-beta`, `${bob.name}/${tag}-gamma`].sort());
  });

  test('topics: by part of a name, or whole names only with topic=true', async () => {
    expect((await search(`q=${tag}-top`)).names).toEqual([`${alice.name}/${tag}-beta`]);
    expect((await search(`q=${tag}-TOPIC&topic=true`)).names).toEqual([`${alice.name}/${tag}-beta`]);
    expect((await search(`q=${tag}-top&topic=true`)).names).toEqual([]);
    // A name match does not count when only topics are asked for.
    expect((await search(`q=${tag}-alpha&topic=true`)).names).toEqual([]);
  });

  test('comma-separated parts: any of them', async () => {
    const found = await search(`q=${tag}-alpha,${tag}-gamma`);
    expect([...found.names].sort()).toEqual([`${alice.name}/${tag}-Alpha`, `${bob.name}/${tag}-gamma`].sort());
    expect(found.total).toBe(2);
  });

  test('owner/name matches both halves, and that owner comes first', async () => {
    expect((await search(`q=${bob.name}/${tag}-gam`)).names).toEqual([`${bob.name}/${tag}-gamma`]);
    expect((await search(`q=${alice.name}/${tag}-gam`)).names).toEqual([]);
  });

  test('% and _ are matched literally', async () => {
    expect((await search(`q=${encodeURIComponent(`${tag}-100_d`)}`)).names).toEqual([`${alice.name}/${tag}-100_done`]);
    expect((await search(`q=${encodeURIComponent(`${tag}-100__`)}`)).names).toEqual([]);
    expect((await search(`q=${encodeURIComponent('100% s')}&includeDesc=true&uid=${alice.id}`)).names).toEqual([`${alice.name}/${tag}-100_done`]);
    expect((await search(`q=${encodeURIComponent('%')}&uid=${bob.id}`)).names).toEqual([]);
    expect((await search(`q=${encodeURIComponent('"')}&uid=${bob.id}`)).names).toEqual([]);
  });
});

describe('filters, orderings and paging', () => {
  let owner: User;
  let other: User;
  const tag = uniq('fl');
  const names = ['b-two', 'a-one', 'c-three', 'A-zero'];

  beforeAll(async () => {
    owner = await createUser(s.host, uniq('fo'));
    other = await createUser(s.host, uniq('fp'));
    for (const name of names) await repo(owner, `${tag}-${name}`, { template: name === 'c-three' });
    await repo(other, `${tag}-other`);
  });

  const full = (name: string, who = owner) => `${who.name}/${tag}-${name}`;

  test('by name by default; alpha, id, created, size orderings both ways', async () => {
    const q = `q=${tag}&uid=${owner.id}`;
    const byName = [full('a-one'), full('A-zero'), full('b-two'), full('c-three')];
    expect((await search(q)).names).toEqual(byName);
    expect((await search(`${q}&sort=alpha`)).names).toEqual(byName);
    expect((await search(`${q}&sort=alpha&order=desc`)).names).toEqual([...byName].reverse());
    const byId = names.map((n) => full(n));
    expect((await search(`${q}&sort=id`)).names).toEqual(byId);
    expect((await search(`${q}&sort=id&order=desc`)).names).toEqual([...byId].reverse());
    expect((await search(`${q}&sort=created&order=desc`)).names).toEqual([...byId].reverse());
    for (const sort of ['size', 'git_size', 'lfs_size', 'stars', 'forks', 'updated']) expect((await search(`${q}&sort=${sort}`)).names, sort).toHaveLength(4);
    // order without sort is ignored, even when it is not a valid order.
    expect((await search(`${q}&order=sideways`)).names).toEqual(byName);
  });

  test('alpha orders by owner first; priority_owner_id puts one owner first', async () => {
    const both = [owner, other].sort((x, y) => (x.lower_name < y.lower_name ? -1 : 1));
    const alpha = await search(`q=${tag}&sort=alpha`);
    expect(alpha.names[0]!.startsWith(`${both[0]!.name}/`)).toBe(true);
    const prioritized = await search(`q=${tag}&priority_owner_id=${other.id}`);
    expect(prioritized.names[0]).toBe(full('other', other));
  });

  test('uid, exclusive, template, mode', async () => {
    expect((await search(`q=${tag}&uid=${other.id}`)).names).toEqual([full('other', other)]);
    expect((await search(`q=${tag}&uid=${other.id}&exclusive=true`)).names).toEqual([full('other', other)]);
    expect((await search(`q=${tag}&uid=999999999`)).names).toEqual([]);
    expect((await search(`q=${tag}&template=true`)).names).toEqual([full('c-three')]);
    expect((await search(`q=${tag}&template=false&uid=${owner.id}`)).total).toBe(3);
    expect((await search(`q=${tag}&mode=fork`)).names).toEqual([]);
    expect((await search(`q=${tag}&mode=mirror`)).names).toEqual([]);
    expect((await search(`q=${tag}&mode=source`)).total).toBe(5);
    // Without uid, collaborative only leaves mirrors out; with it, it asks for collaborations (none exist yet).
    expect((await search(`q=${tag}&mode=collaborative`)).total).toBe(5);
    expect((await search(`q=${tag}&mode=collaborative&uid=${owner.id}`)).total).toBe(0);
    expect((await search(`q=${tag}&archived=true`)).total).toBe(0);
    expect((await search(`q=${tag}&archived=false`)).total).toBe(5);
    // Nobody can star repositories or be in a team yet.
    expect((await search(`q=${tag}&starredBy=${owner.id}`)).total).toBe(0);
    expect((await search(`q=${tag}&team_id=1`)).total).toBe(0);
  });

  test('paging: limit 0 or negative is the default, a huge one is capped, Link and X-Total-Count', async () => {
    const q = `q=${tag}&uid=${owner.id}`;
    const second = await search(`${q}&limit=3&page=2`);
    expect(second.names).toEqual([full('c-three')]);
    expect(second.total).toBe(4);
    expect(second.link).toContain('rel="first"');
    const first = await search(`${q}&limit=3`);
    expect(first.link).toContain('rel="next"');
    for (const limit of ['0', '-1', '99999999', 'abc', '1e3']) {
      const found = await search(`${q}&limit=${limit}`);
      expect(found.names, limit).toHaveLength(4);
    }
    expect((await search(`${q}&page=999999999999`)).names).toEqual([]);
    expect((await search(`${q}&page=-5`)).names).toHaveLength(4);
  });

  test('a page holds at most [ui] EXPLORE_PAGING_NUM repositories, whatever the limit; the Link header pages by it', async () => {
    const cap = s.host.settings.ui.EXPLORE_PAGING_NUM;
    const many = await createUser(s.host, uniq('many'));
    const mtag = uniq('mx');
    for (let i = 0; i < cap + 2; i++) await repo(many, `${mtag}-${i}`);
    const found = await search(`q=${mtag}&limit=${cap * 10}`);
    expect(found.names).toHaveLength(cap);
    expect(found.total).toBe(cap + 2);
    const res = await s.fetch(`/api/v1/repos/search?q=${mtag}&limit=${cap * 10}`);
    expect(res.headers.get('link')).toContain(`limit=${cap * 10}&page=2`);
    const second = await search(`q=${mtag}&limit=${cap * 10}&page=2`);
    expect(second.names).toHaveLength(2);
  });
});

describe('bad input', () => {
  test('unknown sort, order or mode: 422 with Forgejo\'s messages', async () => {
    expect(await expectApiError(await s.fetch('/api/v1/repos/search?sort=sideways'), 422, s.url)).toBe('Invalid sort mode: "sideways"');
    expect(await expectApiError(await s.fetch('/api/v1/repos/search?sort=alpha&order=up'), 422, s.url)).toBe('Invalid sort order: "up"');
    expect(await expectApiError(await s.fetch('/api/v1/repos/search?mode=all'), 422, s.url)).toBe('Invalid search mode: "all"');
  });

  test('odd values are read as Forgejo reads them, never a 500', async () => {
    for (const query of ['uid=abc', 'uid=-1', 'private=maybe', 'topic=1', 'q=%00', 'q=' + 'x'.repeat(5000), 'q=,,,', 'q=a/b/c', 'priority_owner_id=-3', 'q=%E2%80%8B']) {
      const res = await s.fetch(`/api/v1/repos/search?${query}`);
      expect(res.status === 200 || res.status === 422, `${query}: ${res.status}`).toBe(true);
    }
  });
});

describe('the in-memory catalog (SQLite) and SQL', () => {
  const tag = uniq('eq');
  let callers: [string, Actor][];

  beforeAll(async () => {
    const owners: User[] = [];
    for (const visibility of ['public', 'limited', 'private'] as const) owners.push(await createUser(s.host, uniq(`e${visibility[0]}`), { visibility }));
    const restrictedName = uniq('er');
    const restricted = await s.host.users.create(SYSTEM, { username: restrictedName, email: `${restrictedName}@example.com`, password: PASSWORD, restricted: true });
    owners.push(restricted);
    const descriptions = ['Ünïcode DESCRIPTION', 'plain words', '100% Sure_thing', ''];
    let n = 0;
    for (const owner of owners) {
      for (const isPrivate of [false, true]) {
        for (const template of [false, true]) {
          n += 1;
          const created = await repo(owner, `${tag}-${['Alpha', 'beta', 'GAMMA', 'delta'][n % 4]}-${n}`, { private: isPrivate, template, description: descriptions[n % 4] });
          if (n % 3 === 0) {
            const token = await createToken(s.host, owner.name);
            const res = await s.fetch(`/api/v1/repos/${owner.name}/${created.name}/topics`, jsonInit('PUT', { topics: [`${tag}-t${n % 2}`, 'shared-topic'] }, tokenHeader(token)));
            expect(res.status).toBe(204);
          }
        }
      }
    }
    const admin = await createUser(s.host, uniq('ea'), { admin: true });
    const other = await createUser(s.host, uniq('eo'));
    callers = [
      ['anonymous', ANONYMOUS],
      ['another user', userActor(other)],
      ['a public-only token', userActor(other, { publicOnly: true })],
      ['an owner', userActor(owners[1]!)],
      ['a restricted user', userActor(restricted)],
      ['an administrator', userActor(admin)],
      ['the system', SYSTEM],
    ];
  });

  const queries = () => [
    { q: tag },
    { q: `${tag}-ALPHA` },
    { q: `${tag}-alpha,${tag}-gamma`, sort: 'alpha', order: 'desc' },
    { q: 'shared-topic', topic: true },
    { q: `${tag}-t1` },
    { q: 'description', includeDesc: true },
    { q: 'ünïcode', includeDesc: true },
    { q: '100% s', includeDesc: true },
    { q: 'sure_', includeDesc: true },
    { q: `${callers[3]![1].kind === 'user' ? (callers[3]![1] as { user: User }).user.name : ''}/${tag}` },
    { q: tag, private: false },
    { q: tag, is_private: true, sort: 'id', order: 'desc' },
    { q: tag, template: true, sort: 'created' },
    { q: tag, archived: false, mode: 'source', sort: 'size', order: 'desc' },
    { q: tag, exclusive: true, uid: callers[3]![1].kind === 'user' ? (callers[3]![1] as { user: User }).user.id : 0 },
    { q: tag, priority_owner_id: callers[4]![1].kind === 'user' ? (callers[4]![1] as { user: User }).user.id : 0 },
    { q: `${tag},`, limit: 3, page: 2 },
    { limit: 50 },
    { q: '"' },
    { q: ',' },
  ];

  test('give the same pages and totals for every caller and query', async () => {
    // Two searches with no write between them: the second builds the catalog.
    await s.host.repoSearch.search(ANONYMOUS, { q: tag });
    await s.host.repoSearch.search(ANONYMOUS, { q: tag });
    if (s.host.dialect === 'sqlite') expect(s.host.repoSearch.catalogSize).toBeGreaterThan(0);
    for (const [label, actor] of callers) {
      for (const query of queries()) {
        const viaCatalog = await s.host.repoSearch.search(actor, query);
        const viaSql = await s.host.repoSearch.search(actor, query, { catalog: false });
        const names = (page: typeof viaSql) => page.items.map((a) => `${a.owner.name}/${a.repo.name}:${a.mode}`);
        expect(names(viaCatalog), `${label} ${JSON.stringify(query)}`).toEqual(names(viaSql));
        expect(viaCatalog.total, `${label} ${JSON.stringify(query)}`).toBe(viaSql.total);
      }
    }
    if (s.host.dialect === 'sqlite') expect(s.host.repoSearch.catalogSize).toBeGreaterThan(0);
  });

  test('a write is seen by the next search, from this process or another one on the same database', async () => {
    const owner = await createUser(s.host, uniq('ew'));
    const name = `${uniq('fresh')}`;
    const find = async (host: RepoHost) => (await host.repoSearch.search(SYSTEM, { q: name })).items.map((a) => a.repo.name);
    await find(s.host);
    await find(s.host);
    const created = await repo(owner, name);
    expect(await find(s.host)).toEqual([name]);
    expect(await find(s.host)).toEqual([name]);
    await s.host.repos.delete(SYSTEM, { repo: created, owner, mode: AccessMode.Owner });
    expect(await find(s.host)).toEqual([]);
  });
});

describe('another process writing the same database', () => {
  test('its changes are seen at once', async () => {
    const workPath = await mkdtemp(path.join(tmpdir(), 'repohost-search-shared-'));
    const first = await openTestHost({ database: { PATH: path.join(workPath, 'shared.db') } });
    const second = await RepoHost.open({ settings: first.host.settings, reconcile: false });
    try {
      const owner = await createUser(first.host, uniq('sh'));
      const name = uniq('shared');
      const find = async () => (await first.host.repoSearch.search(SYSTEM, { q: name })).items.map((a) => a.repo.name);
      await find();
      await find();
      await second.repos.create(SYSTEM, { name }, { owner: await second.users.resolve(SYSTEM, owner.name) });
      expect(await find()).toEqual([name]);
      expect(await find()).toEqual([name]);
    } finally {
      await second.close();
      await first.cleanup();
      await rm(workPath, { recursive: true, force: true });
    }
  });
});
