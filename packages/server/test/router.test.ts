/**
 * The router's contract: groups load their resource once, before any handler, and hide what the caller may not
 * see; routes are typed from their declaration; no input that names an Object.prototype member reaches past a
 * closed set.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { H3 } from 'h3';
import { Type } from '@sinclair/typebox';
import { ForbiddenError, RepositorySchema, SYSTEM, UserSchema, toApiRepository, toApiUser, userActor, type RepoHost } from '@repohost/core';
import { ApiRouter, defineGroups, type Groups } from '@repohost/server';
import { PASSWORD, basic, createToken, createUser, jsonInit, openTestHost, startTestServer, tokenHeader, type TestHost, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

describe('route groups', () => {
  let t: TestHost;
  let app: H3;
  let handled: string[];
  const root = 'http://forge.test';

  beforeAll(async () => {
    t = await openTestHost();
    const alice = await createUser(t.host, 'alice');
    await createUser(t.host, 'bob');
    await t.host.repos.create(userActor(alice), { name: 'secret', private: true });
    await t.host.repos.create(userActor(alice), { name: 'open' });
    app = new H3();
    const router = new ApiRouter(app, t.host);
    const { repo, user } = defineGroups(router);
    handled = [];
    repo.add({
      method: 'GET',
      path: '/probe',
      operationId: 'probe',
      summary: 'probe',
      tag: 'test',
      reply: { status: 200, description: 'Repository', schema: RepositorySchema },
      handler: async ({ repo, view }) => {
        handled.push(repo.repo.name);
        return toApiRepository(repo, view);
      },
    });
    user.nest('/items/{item}', async ({ user, params }) => ({ item: `${user.name}:${params.item}` })).add({
      method: 'GET',
      path: '',
      operationId: 'nested',
      summary: 'nested',
      tag: 'test',
      reply: { status: 200, description: 'echo', schema: Type.Object({ item: Type.String() }) },
      handler: async ({ item }) => ({ item }),
    });
    const Echo = Type.Object({
      q: Type.String(),
      state: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
      labels: Type.Optional(Type.Array(Type.Integer())),
      n: Type.Optional(Type.Integer()),
    });
    router.add({
      method: 'GET',
      path: '/echo-query',
      operationId: 'echoQuery',
      summary: 'echo the parsed query',
      tag: 'test',
      query: Echo,
      reply: { status: 200, description: 'echo', schema: Echo },
      handler: async ({ query }) => query,
    });
  });
  afterAll(async () => t?.cleanup());

  const get = (path: string, user?: string) =>
    app.fetch(new Request(`${root}/api/v1${path}`, { headers: user ? { Authorization: basic(user, PASSWORD) } : {} }));

  test('an empty query value is absent (Go\'s form helpers); required and typed parameters still validate', async () => {
    const echo = async (query: string) => {
      const res = await get(`/echo-query?${query}`);
      return { status: res.status, body: await json(res) };
    };
    expect(await echo('q=x&labels=&state=&n=')).toEqual({ status: 200, body: { q: 'x' } });
    expect(await echo('q=x&labels=3&labels=&labels=4')).toEqual({ status: 200, body: { q: 'x', labels: [3, 4] } });
    expect(await echo('q=x&state=closed')).toEqual({ status: 200, body: { q: 'x', state: 'closed' } });
    for (const bad of ['q=', 'labels=1', 'q=x&state=bogus', 'q=x&labels=abc']) {
      const res = await get(`/echo-query?${bad}`);
      await expectApiError(res, 422, t.host.settings.server.ROOT_URL);
    }
  });

  test('a repository the caller may not see is a 404 before the handler runs', async () => {
    handled.length = 0;
    for (const who of [undefined, 'bob']) {
      const res = await get('/repos/alice/secret/probe', who);
      expect(res.status, String(who)).toBe(404);
      expect((await json(res)).message).toBe('The target couldn\'t be found.');
    }
    expect((await get('/repos/alice/nothing/probe', 'alice')).status).toBe(404);
    expect((await get('/repos/nobody/open/probe', 'alice')).status).toBe(404);
    expect(handled).toEqual([]);
  });

  test('the handler receives what the group loaded, with the caller\'s permission', async () => {
    handled.length = 0;
    const res = await get('/repos/alice/secret/probe', 'alice');
    expect(res.status).toBe(200);
    expect((await json(res)).permissions).toEqual({ admin: true, push: true, pull: true });
    const anon = await get('/repos/ALICE/OPEN/probe');
    expect(anon.status).toBe(200);
    expect((await json(anon)).permissions).toEqual({ admin: false, push: false, pull: true });
    expect(handled).toEqual(['secret', 'open']);
  });

  test('nested groups load in order and see what the outer group loaded', async () => {
    const res = await get('/users/alice/items/x%20y');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ item: 'alice:x y' });
    expect((await get('/users/nobody/items/x')).status).toBe(404);
  });

  test('resolves the repository once per request, however many stages need it', async () => {
    const s = await startTestServer();
    try {
      const owner = uniq('o');
      await createUser(s.host, owner);
      await s.host.repos.create(userActor(await s.host.users.resolve(SYSTEM, owner)), { name: 'r' });
      const token = await createToken(s.host, owner);
      const resolve = vi.spyOn(s.host.repos, 'resolve');
      expect((await s.fetch(`/api/v1/repos/${owner}/r`, { headers: tokenHeader(token) })).status).toBe(200);
      expect(resolve).toHaveBeenCalledTimes(1);
      // DELETE decides its token scope from the loaded owner, checks ownership and deletes: still one lookup.
      expect((await s.fetch(`/api/v1/repos/${owner}/r`, { method: 'DELETE', headers: tokenHeader(token) })).status).toBe(204);
      expect(resolve).toHaveBeenCalledTimes(2);
    } finally {
      await s.cleanup();
    }
  });
});

describe('group defaults and guards', () => {
  let t: TestHost;
  let app: H3;
  let router: ApiRouter;
  const steps: string[] = [];
  const root = 'http://forge.test';
  const Reply = Type.Object({ loaded: Type.Array(Type.String()) });

  beforeAll(async () => {
    t = await openTestHost();
    await createUser(t.host, 'alice');
    app = new H3();
    router = new ApiRouter(app, t.host);
    const outer = router.group(
      '/outer/{name}',
      async ({ params }) => {
        steps.push(`outer:${params.name}`);
        return { outer: params.name };
      },
      { tag: 'outer', auth: 'token', scopes: ['repository'] },
    );
    const handler = async ({ outer }: { outer: string }) => ({ loaded: [outer] });
    outer.add({ method: 'GET', path: '', operationId: 'inherits', summary: 's', reply: { status: 200, description: 'r', schema: Reply }, handler });
    outer.add({
      method: 'GET',
      path: '/own',
      operationId: 'overrides',
      summary: 's',
      tag: 'own',
      auth: 'basic',
      scopes: ['user'],
      reply: { status: 200, description: 'r', schema: Reply },
      handler,
    });
    const guarded = outer.nest(
      '/guarded',
      async ({ outer }) => {
        steps.push('inner');
        return { inner: outer };
      },
      {
        tag: 'inner',
        guard: [
          () => void steps.push('first guard'),
          ({ params }) => {
            steps.push('second guard');
            if (params.name === 'refused') throw new ForbiddenError('refused by the guard');
          },
        ],
      },
    );
    guarded.add({
      method: 'POST',
      path: '',
      operationId: 'guarded',
      summary: 's',
      body: Type.Object({ count: Type.Integer() }),
      reply: { status: 200, description: 'r', schema: Reply },
      handler: async ({ outer, inner }) => ({ loaded: [outer, inner] }),
    });
  });
  afterAll(async () => t?.cleanup());

  const call = (method: string, path: string, body?: string, signedIn = true) =>
    app.fetch(
      new Request(`${root}/api/v1${path}`, {
        method,
        headers: { ...(signedIn ? { Authorization: basic('alice', PASSWORD) } : {}), 'content-type': 'application/json' },
        body,
      }),
    );
  const spec = (operationId: string) => router.routes.find((r) => r.spec.operationId === operationId)!.spec;

  test("a route holds its group's tag, auth and scopes unless it names its own; a nested group adds to its parent's", () => {
    expect(spec('inherits')).toMatchObject({ tag: 'outer', auth: 'token', scopes: ['repository'] });
    expect(spec('overrides')).toMatchObject({ tag: 'own', auth: 'basic', scopes: ['user'] });
    expect(spec('guarded')).toMatchObject({ tag: 'inner', auth: 'token', scopes: ['repository'] });
  });

  test("the group's auth holds: anonymous callers are refused before anything loads", async () => {
    steps.length = 0;
    await expectApiError(await call('GET', '/outer/x', undefined, false), 401, t.host.settings.server.ROOT_URL);
    expect(steps).toEqual([]);
    expect(await json(await call('GET', '/outer/x'))).toEqual({ loaded: ['x'] });
  });

  test("guards run in order after the enclosing group loaded and before the group's own loader and the body", async () => {
    steps.length = 0;
    const refused = await call('POST', '/outer/refused/guarded', '{"count": "not a number"');
    expect((await expectApiError(refused, 403, t.host.settings.server.ROOT_URL))).toBe('refused by the guard');
    expect(steps).toEqual(['outer:refused', 'first guard', 'second guard']);
    steps.length = 0;
    const passed = await call('POST', '/outer/ok/guarded', '{"count": 1}');
    expect(await json(passed)).toEqual({ loaded: ['ok', 'ok'] });
    expect(steps).toEqual(['outer:ok', 'first guard', 'second guard', 'inner']);
  });

  test('a route of a group without a tag must name one', () => {
    const untagged = router.group('/untagged', async () => ({}));
    const add = untagged.add.bind(untagged) as (spec: unknown) => void;
    expect(() => add({ method: 'GET', path: '', operationId: 'untagged', summary: 's', reply: { status: 204, description: 'r' }, handler: async () => {} })).toThrow(
      'route untagged has no tag, nor has its group',
    );
  });
});

/**
 * Compile-time checks (the test command type-checks test files): each `@ts-expect-error` fails the build when
 * the line below it stops being an error.
 */
export function typedRouteContracts(router: ApiRouter, { repo, user }: Groups, host: RepoHost): void {
  repo.add({
    method: 'GET',
    path: '/typed/{name}/params',
    operationId: 'typedParams',
    summary: 'typed',
    tag: 'test',
    reply: { status: 200, description: 'User', schema: UserSchema },
    handler: async ({ params, repo, view }) => {
      const fromPath: { owner: string; repo: string; name: string } = params;
      void fromPath;
      // @ts-expect-error a parameter the path does not have
      void params.nope;
      return toApiUser(repo.owner, view);
    },
  });
  repo.add({
    method: 'GET',
    path: '/typed-reply',
    operationId: 'typedReply',
    summary: 'typed',
    tag: 'test',
    reply: { status: 200, description: 'User', schema: UserSchema },
    // @ts-expect-error a repository is not the User the route declares
    handler: async ({ repo, view }) => toApiRepository(repo, view),
  });
  user.add({
    method: 'GET',
    path: '/list',
    operationId: 'list',
    summary: 'list',
    tag: 'test',
    reply: { status: 200, description: 'UserList', list: UserSchema },
    // @ts-expect-error a list route returns a page ({ items, total }), not an array
    handler: async ({ user, page, view }) => (page.limit > 0 ? [toApiUser(user, view)] : []),
  });
  // @ts-expect-error the router's top level names no tag: its routes name theirs
  router.add({
    method: 'GET',
    path: '/untagged',
    operationId: 'untagged',
    summary: 'untagged',
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    handler: async () => {},
  });
  repo.add({
    method: 'GET',
    path: '/tagged-by-group',
    operationId: 'taggedByGroup',
    summary: 'the repository group names the tag',
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    handler: async () => {},
  });
  router.add({
    method: 'DELETE',
    path: '/nothing',
    operationId: 'nothing',
    summary: 'nothing',
    tag: 'test',
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    // @ts-expect-error a 204 route returns nothing
    handler: async () => host.publicSettings.version(),
  });
  router.add({
    method: 'POST',
    path: '/typed-body',
    operationId: 'typedBody',
    summary: 'typedBody',
    tag: 'test',
    body: Type.Object({ count: Type.Integer() }),
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    handler: async ({ body }) => {
      const count: number = body.count;
      void count;
      // @ts-expect-error the body has no such field
      void body.other;
    },
  });
}

describe('closed sets and Object.prototype names', () => {
  const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  let s: TestServer;
  let admin: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    s = await startTestServer();
    admin = uniq('proto');
    await createUser(s.host, admin, { admin: true });
    const adminActor = userActor(await s.host.users.resolve(SYSTEM, admin));
    const subject = await s.host.repos.create(adminActor, { name: 'subject' });
    // An issue, so routes under /issues/{index} get past their loader and parse what they were sent.
    await s.host.issues.create(adminActor, subject, { title: 'subject' });
    auth = { Authorization: basic(admin, PASSWORD) };
  });
  afterAll(async () => s?.cleanup());

  const concrete = (path: string, value?: string) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => value ?? ({ username: admin, owner: admin, repo: 'subject', token: '0', index: '1' } as Record<string, string>)[name]!);

  test('no route answers 500 to a prototype name in a path parameter, a query parameter or a string field', async () => {
    const failures: string[] = [];
    // Requests of one route run side by side (a few at a time); routes one after another.
    let pending: Promise<void>[] = [];
    const check = (label: string, request: () => Promise<Response>) => {
      pending.push(
        request().then(async (res) => {
          if (res.status >= 500) failures.push(`${label} → ${res.status} ${await res.text()}`);
        }),
      );
    };
    for (const { spec, path } of s.routes) {
      for (const name of PROTO_NAMES) {
        // Path parameters: never a real resource, so even DELETE is harmless.
        if (path.includes('{')) {
          const url = `/api/v1${concrete(path, name)}`;
          check(`${spec.method} ${url}`, () => s.fetch(url, { method: spec.method, headers: auth }));
        }
        if (spec.method === 'DELETE') continue;
        const query = { ...spec.query?.properties, ...('list' in spec.reply ? { page: {}, limit: {} } : {}) };
        for (const param of Object.keys(query)) {
          const url = `/api/v1${concrete(path)}?${param}=${encodeURIComponent(name)}`;
          check(`${spec.method} ${url}`, () => s.fetch(url, { method: spec.method, headers: auth }));
        }
        if (!spec.body) continue;
        const fields = Object.entries((spec.body as { properties?: Record<string, { type?: string; anyOf?: unknown }> }).properties ?? {});
        for (const [field, schema] of fields) {
          if (schema.type !== 'string' && !schema.anyOf) continue;
          const body = { name: uniq('p'), scopes: ['all'], auto_init: true, [field]: name };
          check(`${spec.method} ${path} ${field}=${name}`, () => s.fetch(`/api/v1${concrete(path)}`, jsonInit(spec.method, body, auth)));
        }
      }
      await Promise.all(pending);
      pending = [];
    }
    expect(failures).toEqual([]);
    // A sweep of every route, several requests each.
  }, 240_000);

  test('order_by, readme, trust_model and object_format_name refuse them as unknown members', async () => {
    const owner = uniq('closed');
    await createUser(s.host, owner);
    await s.host.repos.create(userActor(await s.host.users.resolve(SYSTEM, owner)), { name: 'subject' });
    const token = await createToken(s.host, owner);
    for (const name of PROTO_NAMES) {
      await expectApiError(await s.fetch(`/api/v1/user/repos?order_by=${encodeURIComponent(name)}`, { headers: tokenHeader(token) }), 422, s.url);
      const readme = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: uniq('r'), auto_init: true, readme: name }, tokenHeader(token)));
      expect(await expectApiError(readme, 400, s.url)).toMatch(/readme template does not exist/);
      for (const field of ['trust_model', 'object_format_name']) {
        const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: uniq('r'), [field]: name }, tokenHeader(token)));
        expect(await expectApiError(res, 422, s.url)).toContain(`[${field}]`);
      }
    }
    // Nothing was created by any of them.
    const list = await json(await s.fetch('/api/v1/user/repos?limit=50', { headers: tokenHeader(token) }));
    expect(list.map((r: { name: string }) => r.name)).toEqual(['subject']);
  });

  test('git\'s info/refs refuses a service named after a prototype member', async () => {
    // An owner and repository of their own: the probes above ran every route with the admin's credentials, and
    // some of them (rename, PATCH, transfer, admin edits) may have renamed the admin, its password or `subject`.
    const owner = uniq('refs');
    await createUser(s.host, owner);
    await s.host.repos.create(userActor(await s.host.users.resolve(SYSTEM, owner)), { name: 'subject' });
    const ownerAuth = { Authorization: basic(owner, PASSWORD) };
    for (const name of PROTO_NAMES) {
      const res = await s.fetch(`/${owner}/subject.git/info/refs?service=${encodeURIComponent(name)}`, { headers: ownerAuth });
      expect(res.status, name).toBe(403);
    }
    expect((await s.fetch(`/${owner}/subject.git/info/refs?service=git-upload-pack`, { headers: ownerAuth })).status).toBe(200);
  });
});
