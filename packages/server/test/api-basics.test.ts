/**
 * API v1 basics over real HTTP: version, public settings, the swagger document, error bodies, body parsing,
 * every way of authenticating (and the ways that must not work), sudo, reverse-proxy auth and token scopes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RepositorySchema, UserSchema, matchesSchema, schemaErrors, SYSTEM } from '@repohost/core';
import { PASSWORD, basic, createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer, userNamed } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const WARNING = 'token and access_token API authentication is deprecated';

describe('GET /version and /settings/* with default settings', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('GET /api/v1/version returns {version} with the reported version, anonymously', async () => {
    const res = await s.fetch('/api/v1/version');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(res);
    expect(body).toEqual({ version: s.host.settings.repohost.REPORTED_VERSION });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  test('GET /api/v1/settings/api has Forgejo defaults', async () => {
    const res = await s.fetch('/api/v1/settings/api');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      max_response_items: 50,
      default_paging_num: 30,
      default_git_trees_per_page: 1000,
      default_max_blob_size: 10485760,
    });
  });

  test('GET /api/v1/settings/repository has Forgejo defaults', async () => {
    const res = await s.fetch('/api/v1/settings/repository');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      mirrors_disabled: false,
      http_git_disabled: false,
      migrations_disabled: false,
      stars_disabled: false,
      forks_disabled: false,
      time_tracking_disabled: false,
      lfs_disabled: true,
    });
  });

  test('GET /api/v1/settings/ui has Forgejo defaults', async () => {
    const res = await s.fetch('/api/v1/settings/ui');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      default_theme: 'gitea-auto',
      allowed_reactions: ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'],
      custom_emojis: ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs', 'forgejo'],
    });
  });

  test('GET /api/v1/settings/attachment reflects the configuration (max_size in MB)', async () => {
    const res = await s.fetch('/api/v1/settings/attachment');
    expect(res.status).toBe(200);
    const a = s.host.settings.attachment;
    expect(await json(res)).toEqual({ enabled: true, allowed_types: a.ALLOWED_TYPES, max_size: 2048, max_files: 5 });
  });

  test('settings are public even with a token that has a single unrelated scope', async () => {
    const name = uniq('set');
    await createUser(s.host, name);
    const token = await createToken(s.host, name, ['read:issue']);
    for (const p of ['/api/v1/version', '/api/v1/settings/api', '/api/v1/settings/repository', '/api/v1/settings/ui', '/api/v1/settings/attachment']) {
      const res = await s.fetch(p, { headers: tokenHeader(token) });
      expect(res.status, p).toBe(200);
    }
  });
});

describe('GET /version and /settings/* with overridden settings', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      api: { MAX_RESPONSE_ITEMS: 7, DEFAULT_PAGING_NUM: 4, DEFAULT_GIT_TREES_PER_PAGE: 99, DEFAULT_MAX_BLOB_SIZE: 1234 },
      repository: { DISABLE_STARS: true, DISABLE_FORKS: true, DISABLE_MIGRATIONS: true, DISABLE_HTTP_GIT: true },
      mirror: { ENABLED: false },
      service: { ENABLE_TIMETRACKING: false },
      server: { LFS_START_SERVER: true },
      ui: { DEFAULT_THEME: 'gitea-dark', REACTIONS: ['+1', 'heart'], CUSTOM_EMOJIS: ['forgejo'] },
      attachment: { ENABLED: false, ALLOWED_TYPES: '.txt,.md', MAX_SIZE: 10, MAX_FILES: 2 },
      repohost: { REPORTED_VERSION: '12.3.4+test' },
    });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('version', async () => {
    expect(await json(await s.fetch('/api/v1/version'))).toEqual({ version: '12.3.4+test' });
  });

  test('api settings equal the configured values', async () => {
    expect(await json(await s.fetch('/api/v1/settings/api'))).toEqual({
      max_response_items: 7,
      default_paging_num: 4,
      default_git_trees_per_page: 99,
      default_max_blob_size: 1234,
    });
  });

  test('repository settings equal the configured values', async () => {
    expect(await json(await s.fetch('/api/v1/settings/repository'))).toEqual({
      mirrors_disabled: true,
      http_git_disabled: true,
      migrations_disabled: true,
      stars_disabled: true,
      forks_disabled: true,
      time_tracking_disabled: true,
      lfs_disabled: false,
    });
  });

  test('ui settings equal the configured values', async () => {
    expect(await json(await s.fetch('/api/v1/settings/ui'))).toEqual({
      default_theme: 'gitea-dark',
      allowed_reactions: ['+1', 'heart'],
      custom_emojis: ['forgejo'],
    });
  });

  test('attachment settings equal the configured values', async () => {
    expect(await json(await s.fetch('/api/v1/settings/attachment'))).toEqual({
      enabled: false,
      allowed_types: '.txt,.md',
      max_size: 10,
      max_files: 2,
    });
  });
});

describe('GET /swagger.v1.json', () => {
  let s: TestServer;
  let doc: any;
  beforeAll(async () => {
    s = await startTestServer();
    const res = await s.fetch('/swagger.v1.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = await json(res);
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('is a swagger 2.0 document for /api/v1', () => {
    expect(doc.swagger).toBe('2.0');
    expect(doc.basePath).toBe('/api/v1');
    expect(doc.info.version).toBe(s.host.settings.repohost.REPORTED_VERSION);
    expect(Object.keys(doc.securityDefinitions)).toEqual(
      expect.arrayContaining(['AuthorizationHeaderToken', 'BasicAuth', 'SudoHeader', 'SudoParam', 'Token', 'AccessToken']),
    );
  });

  test('has a path and operation for every registered route, and nothing else', () => {
    const expected = new Map<string, string[]>();
    for (const { spec, path } of s.routes) expected.set(path, [...(expected.get(path) ?? []), spec.method.toLowerCase()]);
    expect(s.routes.length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(doc.paths).sort()).toEqual([...expected.keys()].sort());
    for (const [path, methods] of expected) expect(Object.keys(doc.paths[path]).sort(), path).toEqual([...methods].sort());
    // Every operation is named once, and each path parameter is declared.
    const ids: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const op of Object.values<any>(ops)) {
        ids.push(op.operationId);
        for (const [, param] of path.matchAll(/\{(\w+)\}/g)) {
          expect(op.parameters.some((p: any) => p.in === 'path' && p.name === param && p.required === true), `${path} ${param}`).toBe(true);
        }
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('documents page and limit on every list, and the enum of order_by', () => {
    for (const { spec, path } of s.routes) {
      if (!('list' in spec.reply)) continue;
      const op = doc.paths[path][spec.method.toLowerCase()];
      const query = op.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name);
      expect(query, path).toEqual(expect.arrayContaining(['page', 'limit']));
      expect(op.responses['200'].headers, path).toHaveProperty(['X-Total-Count']);
    }
    const orderBy = doc.paths['/user/repos'].get.parameters.find((p: any) => p.name === 'order_by');
    expect(orderBy).toMatchObject({ in: 'query', type: 'string' });
    expect(orderBy.enum).toEqual(expect.arrayContaining(['name', 'newest', 'reversesize']));
  });

  test('describes the token and repository operations with their bodies and responses', () => {
    const tokens = doc.paths['/users/{username}/tokens'];
    expect(tokens.post.responses['201'].schema).toEqual({ $ref: '#/definitions/AccessToken' });
    expect(tokens.post.parameters).toContainEqual(
      expect.objectContaining({ in: 'body', name: 'body', schema: { $ref: '#/definitions/CreateAccessTokenOption' } }),
    );
    expect(tokens.get.responses['200'].schema).toEqual({ type: 'array', items: { $ref: '#/definitions/AccessToken' } });
    const create = doc.paths['/user/repos'].post;
    expect(create.parameters).toContainEqual(expect.objectContaining({ in: 'body', schema: { $ref: '#/definitions/CreateRepoOption' } }));
    expect(create.responses['201'].schema).toEqual({ $ref: '#/definitions/Repository' });
    expect(create.responses['409']).toEqual({ $ref: '#/responses/conflict' });
    expect(doc.paths['/user/repos'].get.responses['200'].headers).toHaveProperty(['X-Total-Count']);
  });

  test('has the User, Repository, AccessToken and CreateRepoOption definitions', () => {
    for (const name of ['User', 'Repository', 'AccessToken', 'CreateRepoOption']) expect(doc.definitions, name).toHaveProperty([name]);
    expect(doc.definitions.User.type).toBe('object');
    expect(doc.definitions.User.properties).toHaveProperty(['login']);
    expect(doc.definitions.Repository.properties.owner).toEqual({ $ref: '#/definitions/User' });
    expect(doc.definitions.Repository.properties.permissions).toEqual({ $ref: '#/definitions/Permission' });
    expect(Object.keys(doc.definitions.AccessToken.properties)).toEqual(expect.arrayContaining(['id', 'name', 'sha1', 'token_last_eight', 'scopes']));
    expect(doc.definitions.CreateRepoOption.required).toEqual(['name']);
    expect(doc.definitions.CreateRepoOption.properties.name).toMatchObject({ type: 'string', maxLength: 100 });
    expect(doc.definitions.CreateRepoOption.properties.object_format_name).toMatchObject({ type: 'string', enum: ['sha1', 'sha256'] });
  });

  test('every $ref points at a definition or response that exists', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string') refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const [, section, name] = /^#\/(definitions|responses)\/(.+)$/.exec(ref) ?? [];
      expect(section, ref).toBeDefined();
      expect(doc[section!], ref).toHaveProperty([name!]);
    }
  });

  test('is not served when [api] ENABLE_SWAGGER is false', async () => {
    const off = await startTestServer({ api: { ENABLE_SWAGGER: false } });
    try {
      const res = await off.fetch('/swagger.v1.json');
      expect(res.status).toBe(404);
    } finally {
      await off.cleanup();
    }
  });
});

describe('errors and request bodies', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  async function userWithToken(prefix = 'b') {
    const name = uniq(prefix);
    await createUser(s.host, name);
    return { name, token: await createToken(s.host, name) };
  }

  async function repoCount(name: string): Promise<number> {
    return (await s.host.repos.listOwnedBy(SYSTEM, await userNamed(s.host, name))).total;
  }

  test('an unknown route under /api/v1 is a 404 with the JSON error body', async () => {
    for (const p of ['/api/v1/nope', '/api/v1/users/someone/nothing-here', '/api/v1/repos/a/b/c/d/e', '/api/v1']) {
      const message = await expectApiError(await s.fetch(p), 404, s.url);
      expect(message, p).not.toBe('');
    }
    const { token } = await userWithToken();
    await expectApiError(await s.fetch('/api/v1/nope', jsonInit('POST', { a: 1 }, tokenHeader(token))), 404, s.url);
  });

  test('malformed JSON bodies are 422 with a message, never 500, and create nothing', async () => {
    const { name, token } = await userWithToken();
    const bodies = ['{bad', '{"name": "x"', "{'name':'x'}", '}', 'nul', '\u0000', '{"name":"x",}', 'null', '[]', '[{"name":"x"}]', '"x"', '42', 'true'];
    for (const body of bodies) {
      const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', body, tokenHeader(token)));
      const message = await expectApiError(res, 422, s.url);
      expect(message.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(await repoCount(name)).toBe(0);
  });

  test('an empty body is read as {} and fails validation naming the required field', async () => {
    const { token } = await userWithToken();
    const res = await s.fetch('/api/v1/user/repos', { method: 'POST', headers: { 'content-type': 'application/json', ...tokenHeader(token) } });
    const message = await expectApiError(res, 422, s.url);
    expect(message).toContain('name');
  });

  test('JSON field names match case-insensitively, as Go decodes them', async () => {
    const a = await userWithToken('ci');
    const b = await userWithToken('ci');
    const resA = await s.fetch('/api/v1/user/repos', jsonInit('POST', '{"Name":"x"}', tokenHeader(a.token)));
    expect(resA.status).toBe(201);
    expect((await json(resA)).name).toBe('x');
    const resB = await s.fetch('/api/v1/user/repos', jsonInit('POST', '{"NAME":"x"}', tokenHeader(b.token)));
    expect(resB.status).toBe(201);
    expect((await json(resB)).name).toBe('x');
    const resC = await s.fetch('/api/v1/user/repos', jsonInit('POST', '{"nAmE":"y","PRIVATE":true,"Auto_Init":true}', tokenHeader(a.token)));
    expect(resC.status).toBe(201);
    const c = await json(resC);
    expect(c).toMatchObject({ name: 'y', private: true, empty: false });
    // The repositories really exist under those names.
    expect((await s.fetch(`/api/v1/repos/${a.name}/x`, { headers: tokenHeader(a.token) })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${b.name}/x`, { headers: tokenHeader(b.token) })).status).toBe(200);
  });

  test('takes the official Go SDK\'s bodies as sent: "" in an enum is its default, null is absent', async () => {
    const { name, token } = await userWithToken('sdk');
    // Byte for byte what code.gitea.io/sdk/gitea sends for CreateRepo(CreateRepoOption{Name: …}).
    const sdkBody = (repo: string, extra = '') =>
      `{"name":"${repo}","description":"","private":false,"issue_labels":"","auto_init":false,"template":false,"gitignores":"","license":"","readme":"","default_branch":"","trust_model":"","object_format_name":""${extra}}`;
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', sdkBody('from-sdk'), tokenHeader(token)));
    expect(res.status, await res.clone().text()).toBe(201);
    const repo = await json(res);
    expect(repo).toMatchObject({ name: 'from-sdk', object_format_name: 'sha1', default_branch: 'main', private: false, empty: true });
    expect(matchesSchema(RepositorySchema, repo), schemaErrors(RepositorySchema, repo).join('\n')).toBe(true);
    // With auto_init and an explicit object format, as TestCreateRepoSha256 sends it.
    const sha256 = await s.fetch('/api/v1/user/repos', jsonInit('POST', sdkBody('sdk-sha256').replace('"auto_init":false', '"auto_init":true').replace('"object_format_name":""', '"object_format_name":"sha256"'), tokenHeader(token)));
    expect(sha256.status).toBe(201);
    expect(await json(sha256)).toMatchObject({ object_format_name: 'sha256', empty: false });
    // null in any field, as clients built on pointer fields send it.
    const nulls = await s.fetch('/api/v1/user/repos', jsonInit('POST', '{"name":"nulls","description":null,"private":null,"auto_init":null,"trust_model":null,"object_format_name":null,"default_branch":null}', tokenHeader(token)));
    expect(nulls.status).toBe(201);
    expect(await json(nulls)).toMatchObject({ name: 'nulls', description: '', private: false, empty: true });
    expect(await repoCount(name)).toBe(3);
    // A value outside the enum is still refused, naming the field.
    const bad = await s.fetch('/api/v1/user/repos', jsonInit('POST', sdkBody('bad', '').replace('"trust_model":""', '"trust_model":"anyone"'), tokenHeader(token)));
    expect(await expectApiError(bad, 422, s.url)).toContain('[trust_model]');
  });

  test('an exact field-name match wins over a case-insensitive one', async () => {
    const { token } = await userWithToken();
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', '{"Name":"first","name":"second"}', tokenHeader(token)));
    expect(res.status).toBe(201);
    expect((await json(res)).name).toBe('second');
  });

  test('NUL characters anywhere in a request are refused cleanly (PostgreSQL cannot store them), never a 500', async () => {
    const admin = uniq('nul');
    await createUser(s.host, admin, { admin: true });
    const token = await createToken(s.host, admin);
    const pw = { Authorization: basic(admin, PASSWORD) };
    const cases: [string, RequestInit, number][] = [
      ['/api/v1/user', { headers: { Authorization: basic('a\u0000b', PASSWORD) } }, 401],
      ['/api/v1/user', { headers: { Authorization: basic('a\u0000@example.com', PASSWORD) } }, 401],
      ['/api/v1/users/a%00b', {}, 404],
      ['/api/v1/users/a%00b/repos', {}, 404],
      [`/api/v1/repos/${admin}/a%00b`, {}, 404],
      [`/api/v1/user?sudo=a%00b`, { headers: tokenHeader(token) }, 404],
      [`/api/v1/users/${admin}/tokens/a%00b`, { method: 'DELETE', headers: pw }, 404],
      [`/api/v1/users/${admin}/tokens`, jsonInit('POST', { name: 'a\u0000b', scopes: ['all'] }, pw), 422],
      ['/api/v1/user/repos', jsonInit('POST', { name: 'nul', description: 'a\u0000b' }, tokenHeader(token)), 422],
      ['/api/v1/user/repos?order_by=name%00', { headers: tokenHeader(token) }, 422],
    ];
    for (const [p, init, status] of cases) {
      await expectApiError(await s.fetch(p, init), status, s.url);
    }
    expect(await repoCount(admin)).toBe(0);
    expect((await s.host.tokens.list(SYSTEM, await userNamed(s.host, admin))).total).toBe(1);
  });

  test('unknown fields are ignored, including __proto__ and other Object.prototype names', async () => {
    const { name, token } = await userWithToken();
    const body = '{"name":"p1","__proto__":{"private":true,"auto_init":true},"constructor":{"x":1},"toString":5,"whatever":[1]}';
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', body, tokenHeader(token)));
    expect(res.status).toBe(201);
    const repo = await json(res);
    expect(repo).toMatchObject({ name: 'p1', private: false, empty: true });
    // The same stray field does not make an otherwise valid body invalid.
    const res2 = await s.fetch('/api/v1/user/repos', jsonInit('POST', '{"name":"p2","__proto__":{"private":"yes"}}', tokenHeader(token)));
    expect(res2.status).toBe(201);
    expect((await json(res2)).private).toBe(false);
    expect(await repoCount(name)).toBe(2);
  });
});

describe('authentication', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  async function user(prefix = 'a', options: { admin?: boolean } = {}) {
    const name = uniq(prefix);
    await createUser(s.host, name, options);
    return { name, token: await createToken(s.host, name) };
  }

  async function whoAmI(init: RequestInit = {}, query = ''): Promise<{ status: number; login?: string; res: Response }> {
    const res = await s.fetch(`/api/v1/user${query}`, init);
    if (res.status !== 200) return { status: res.status, res };
    const body = await json(res);
    expect(matchesSchema(UserSchema, body), schemaErrors(UserSchema, body).join('\n')).toBe(true);
    return { status: 200, login: body.login, res };
  }

  test('Authorization: token <t>', async () => {
    const u = await user();
    expect(await whoAmI({ headers: { Authorization: `token ${u.token}` } })).toMatchObject({ status: 200, login: u.name });
  });

  test('Authorization: Bearer <t>, scheme case-insensitive', async () => {
    const u = await user();
    expect(await whoAmI({ headers: { Authorization: `Bearer ${u.token}` } })).toMatchObject({ status: 200, login: u.name });
    expect(await whoAmI({ headers: { Authorization: `bearer ${u.token}` } })).toMatchObject({ status: 200, login: u.name });
    expect(await whoAmI({ headers: { Authorization: `TOKEN ${u.token}` } })).toMatchObject({ status: 200, login: u.name });
  });

  test('basic auth with the password, by user name or email', async () => {
    const u = await user();
    expect(await whoAmI({ headers: { Authorization: basic(u.name, PASSWORD) } })).toMatchObject({ status: 200, login: u.name });
    expect(await whoAmI({ headers: { Authorization: basic(`${u.name}@example.com`, PASSWORD) } })).toMatchObject({ status: 200, login: u.name });
    expect(await whoAmI({ headers: { Authorization: basic(u.name.toUpperCase(), PASSWORD) } })).toMatchObject({ status: 200, login: u.name });
  });

  test('basic auth with a token as the password, or as the user name', async () => {
    const u = await user();
    expect(await whoAmI({ headers: { Authorization: basic(u.name, u.token) } })).toMatchObject({ status: 200, login: u.name });
    expect(await whoAmI({ headers: { Authorization: basic(u.token, '') } })).toMatchObject({ status: 200, login: u.name });
    expect(await whoAmI({ headers: { Authorization: basic(u.token, 'x-oauth-basic') } })).toMatchObject({ status: 200, login: u.name });
  });

  test('deprecated ?token= and ?access_token= work and add a Warning header', async () => {
    const u = await user();
    for (const param of ['token', 'access_token']) {
      const r = await whoAmI({}, `?${param}=${u.token}`);
      expect(r, param).toMatchObject({ status: 200, login: u.name });
      expect(r.res.headers.get('warning'), param).toContain(WARNING);
    }
    // Without a query token there is no warning.
    const plain = await s.fetch('/api/v1/user', { headers: tokenHeader(u.token) });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('warning')).toBeNull();
  });

  test('the deprecation Warning is also on error responses', async () => {
    const unknown = 'f'.repeat(40);
    for (const param of ['token', 'access_token']) {
      const res = await s.fetch(`/api/v1/user?${param}=${unknown}`);
      await expectApiError(res, 401, s.url);
      expect(res.headers.get('warning'), param).toContain(WARNING);
    }
    // A valid query token with a failing request (missing resource) still warns.
    const u = await user();
    const res = await s.fetch(`/api/v1/repos/${u.name}/missing?token=${u.token}`);
    await expectApiError(res, 404, s.url);
    expect(res.headers.get('warning')).toContain(WARNING);
  });

  test('a wrong password is 401', async () => {
    const u = await user();
    const res = await s.fetch('/api/v1/user', { headers: { Authorization: basic(u.name, 'not-the-password') } });
    await expectApiError(res, 401, s.url);
    const res2 = await s.fetch('/api/v1/user', { headers: { Authorization: basic(uniq('nobody'), PASSWORD) } });
    await expectApiError(res2, 401, s.url);
    // Even on a route that needs no authentication, bad credentials are refused rather than ignored.
    await expectApiError(await s.fetch('/api/v1/version', { headers: { Authorization: basic(u.name, 'nope') } }), 401, s.url);
  });

  test('malformed basic credentials are 401, never 500', async () => {
    for (const value of ['Basic', 'Basic !!!', 'Basic bm9jb2xvbg==', `Basic ${Buffer.from(':').toString('base64')}`, `Basic ${Buffer.from('\u0000:\u0000').toString('base64')}`]) {
      await expectApiError(await s.fetch('/api/v1/user', { headers: { Authorization: value } }), 401, s.url);
    }
  });

  test('an unknown or malformed token is 401', async () => {
    for (const token of ['0123456789abcdef0123456789abcdef01234567', 'not-a-token', 'g'.repeat(40)]) {
      await expectApiError(await s.fetch('/api/v1/user', { headers: tokenHeader(token) }), 401, s.url);
      await expectApiError(await s.fetch('/api/v1/user', { headers: { Authorization: `Bearer ${token}` } }), 401, s.url);
      await expectApiError(await s.fetch(`/api/v1/user?token=${token}`), 401, s.url);
    }
    await expectApiError(await s.fetch('/api/v1/user', { headers: { Authorization: 'token' } }), 401, s.url);
  });

  test('GET /api/v1/user anonymously is 401 "token is required"', async () => {
    const res = await s.fetch('/api/v1/user');
    expect(await expectApiError(res, 401, s.url)).toBe('token is required');
  });

  test('a session cookie does not authenticate', async () => {
    await user();
    const res = await s.fetch('/api/v1/user', { headers: { Cookie: 'i_like_gitea=0123456789abcdef; _csrf=abc; gitea_incredible=1' } });
    expect(await expectApiError(res, 401, s.url)).toBe('token is required');
  });

  test('sudo: a site admin acts as another user via the Sudo header or the sudo parameter', async () => {
    const admin = await user('adm', { admin: true });
    const other = await user('sud');
    expect(await whoAmI({ headers: { ...tokenHeader(admin.token), Sudo: other.name } })).toMatchObject({ status: 200, login: other.name });
    expect(await whoAmI({ headers: tokenHeader(admin.token) }, `?sudo=${other.name}`)).toMatchObject({ status: 200, login: other.name });
    expect(await whoAmI({ headers: { Authorization: basic(admin.name, PASSWORD), Sudo: other.name } })).toMatchObject({
      status: 200,
      login: other.name,
    });
    // The body is the other user's own view (not an admin).
    const body = await json(await s.fetch('/api/v1/user', { headers: { ...tokenHeader(admin.token), Sudo: other.name } }));
    expect(body.is_admin).toBe(false);
    // Things done under sudo are done as that user.
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'via-sudo' }, { ...tokenHeader(admin.token), Sudo: other.name }));
    expect(res.status).toBe(201);
    expect((await json(res)).owner.login).toBe(other.name);
    expect((await s.host.repos.listOwnedBy(SYSTEM, await userNamed(s.host, admin.name))).total).toBe(0);
  });

  test('sudo by a non-admin or anonymous caller is 403; an unknown sudo user is 404', async () => {
    const plain = await user('nsu');
    const other = await user('nsv');
    const admin = await user('adm', { admin: true });
    const r1 = await s.fetch('/api/v1/user', { headers: { ...tokenHeader(plain.token), Sudo: other.name } });
    expect(await expectApiError(r1, 403, s.url)).toBe('Only administrators allowed to sudo.');
    const r2 = await s.fetch(`/api/v1/user?sudo=${other.name}`, { headers: tokenHeader(plain.token) });
    await expectApiError(r2, 403, s.url);
    const r3 = await s.fetch('/api/v1/version', { headers: { Sudo: other.name } });
    await expectApiError(r3, 403, s.url);
    const r4 = await s.fetch('/api/v1/user', { headers: { ...tokenHeader(admin.token), Sudo: uniq('ghost') } });
    await expectApiError(r4, 404, s.url);
  });

  test('X-WEBAUTH-USER is ignored when reverse-proxy API authentication is off (the default)', async () => {
    const u = await user('rp');
    const res = await s.fetch('/api/v1/user', { headers: { 'X-WEBAUTH-USER': u.name } });
    expect(await expectApiError(res, 401, s.url)).toBe('token is required');
  });
});

describe('reverse-proxy authentication enabled', () => {
  let s: TestServer;
  let untrusted: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ service: { ENABLE_REVERSE_PROXY_AUTHENTICATION_API: true } });
    untrusted = await startTestServer({
      service: { ENABLE_REVERSE_PROXY_AUTHENTICATION_API: true },
      security: { REVERSE_PROXY_TRUSTED_PROXIES: ['10.0.0.0/8'] },
    });
  });
  afterAll(async () => {
    await s?.cleanup();
    await untrusted?.cleanup();
  });

  test('X-WEBAUTH-USER from 127.0.0.1 signs the user in', async () => {
    const name = uniq('rp');
    await createUser(s.host, name);
    const res = await s.fetch('/api/v1/user', { headers: { 'X-WEBAUTH-USER': name } });
    expect(res.status).toBe(200);
    expect((await json(res)).login).toBe(name);
    // Reverse-proxy auth counts like a password for token management.
    const created = await s.fetch(`/api/v1/users/${name}/tokens`, jsonInit('POST', { name: 'rp', scopes: ['read:user'] }, { 'X-WEBAUTH-USER': name }));
    expect(created.status).toBe(201);
  });

  test('an unknown reverse-proxy user stays anonymous', async () => {
    const res = await s.fetch('/api/v1/user', { headers: { 'X-WEBAUTH-USER': uniq('ghost') } });
    expect(await expectApiError(res, 401, s.url)).toBe('token is required');
  });

  test('the header is ignored from an address outside REVERSE_PROXY_TRUSTED_PROXIES', async () => {
    const name = uniq('rp');
    await createUser(untrusted.host, name);
    const res = await untrusted.fetch('/api/v1/user', { headers: { 'X-WEBAUTH-USER': name } });
    expect(await expectApiError(res, 401, untrusted.url)).toBe('token is required');
  });
});

describe('DISABLE_QUERY_AUTH_TOKEN', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ security: { DISABLE_QUERY_AUTH_TOKEN: true } });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('query tokens are rejected with 401 (still with the deprecation warning); header tokens work', async () => {
    const name = uniq('q');
    await createUser(s.host, name);
    const token = await createToken(s.host, name);
    for (const param of ['token', 'access_token']) {
      const res = await s.fetch(`/api/v1/user?${param}=${token}`);
      await expectApiError(res, 401, s.url);
      expect(res.headers.get('warning')).toContain(WARNING);
    }
    const ok = await s.fetch('/api/v1/user', { headers: tokenHeader(token) });
    expect(ok.status).toBe(200);
  });
});

describe('token scopes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  async function user(prefix = 'sc') {
    const name = uniq(prefix);
    await createUser(s.host, name);
    return name;
  }

  test('read:repository only: GET /user is 403 naming read:user', async () => {
    const name = await user();
    const token = await createToken(s.host, name, ['read:repository']);
    const res = await s.fetch('/api/v1/user', { headers: tokenHeader(token) });
    const message = await expectApiError(res, 403, s.url);
    expect(message).toBe('token does not have at least one of required scope(s): [read:user]');
  });

  test('read:user: GET /user works, POST /user/repos is 403 and creates nothing', async () => {
    const name = await user();
    const token = await createToken(s.host, name, ['read:user']);
    expect((await s.fetch('/api/v1/user', { headers: tokenHeader(token) })).status).toBe(200);
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'nope' }, tokenHeader(token)));
    const message = await expectApiError(res, 403, s.url);
    expect(message).toContain('write:user');
    expect(message).toContain('write:repository');
    expect(await s.host.git.exists({ owner: name.toLowerCase(), name: 'nope' })).toBe(false);
    expect((await s.host.repos.listOwnedBy(SYSTEM, await userNamed(s.host, name))).total).toBe(0);
  });

  test('write:user + write:repository may create a repository (and write implies read)', async () => {
    const name = await user();
    const token = await createToken(s.host, name, ['write:user', 'write:repository']);
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'made' }, tokenHeader(token)));
    expect(res.status).toBe(201);
    expect((await s.fetch('/api/v1/user', { headers: tokenHeader(token) })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${name}/made`, { headers: tokenHeader(token) })).status).toBe(200);
    expect((await s.fetch('/api/v1/user/repos', { headers: tokenHeader(token) })).status).toBe(200);
  });

  test('write:repository alone cannot create (needs write:user too)', async () => {
    const name = await user();
    const token = await createToken(s.host, name, ['write:repository']);
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'nope' }, tokenHeader(token)));
    await expectApiError(res, 403, s.url);
  });

  test('`all` works on every route', async () => {
    const name = await user();
    const token = await createToken(s.host, name, ['all']);
    const h = tokenHeader(token);
    expect((await s.fetch('/api/v1/user', { headers: h })).status).toBe(200);
    const created = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'everything', private: true }, h));
    expect(created.status).toBe(201);
    expect((await s.fetch('/api/v1/user/repos', { headers: h })).status).toBe(200);
    expect((await s.fetch(`/api/v1/users/${name}`, { headers: h })).status).toBe(200);
    expect((await s.fetch(`/api/v1/users/${name}/repos`, { headers: h })).status).toBe(200);
    expect((await s.fetch(`/api/v1/users/${name}/tokens`, { headers: h })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${name}/everything`, { headers: h })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${name}/everything`, { method: 'DELETE', headers: h })).status).toBe(204);
  });

  test('public-only + all: private repositories are invisible (404), public ones are readable', async () => {
    const name = await user();
    const full = await createToken(s.host, name, ['all']);
    for (const [repo, priv] of [['pub', false], ['priv', true]] as const) {
      expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo, private: priv }, tokenHeader(full)))).status).toBe(201);
    }
    const token = await createToken(s.host, name, ['public-only', 'all']);
    const h = tokenHeader(token);
    await expectApiError(await s.fetch(`/api/v1/repos/${name}/priv`, { headers: h }), 404, s.url);
    const pub = await s.fetch(`/api/v1/repos/${name}/pub`, { headers: h });
    expect(pub.status).toBe(200);
    const body = await json(pub);
    expect(matchesSchema(RepositorySchema, body), schemaErrors(RepositorySchema, body).join('\n')).toBe(true);
    // Listings leave the private repository out too.
    for (const p of ['/api/v1/user/repos', `/api/v1/users/${name}/repos`]) {
      const list = await json(await s.fetch(p, { headers: h }));
      expect(list.map((r: any) => r.name), p).toEqual(['pub']);
    }
    // The private repository cannot be deleted through such a token either.
    await expectApiError(await s.fetch(`/api/v1/repos/${name}/priv`, { method: 'DELETE', headers: h }), 404, s.url);
    expect((await s.fetch(`/api/v1/repos/${name}/priv`, { headers: tokenHeader(full) })).status).toBe(200);
    // The account itself is still reachable.
    expect((await s.fetch('/api/v1/user', { headers: h })).status).toBe(200);
  });

  test('password basic auth is not limited by scopes', async () => {
    const name = await user();
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'pw' }, { Authorization: basic(name, PASSWORD) }));
    expect(res.status).toBe(201);
  });
});
