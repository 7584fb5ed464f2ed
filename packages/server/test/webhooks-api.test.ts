/**
 * The hook API: `/repos/{owner}/{repo}/hooks`, `/orgs/{org}/hooks`, `/user/hooks`, `/admin/hooks` — create, list,
 * read, edit, delete with Forgejo's validation (422) and permissions (401 anonymous, 403 non-admin, 404 what may
 * not be seen or another repository's hook); default hooks copied onto new repositories; system, organization
 * and user hooks hearing their repositories' events.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HookSchema, SYSTEM, matchesSchema, schemaErrors, type ApiHook } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';
import { startReceiver, type Receiver } from './webhook-receiver';

interface Account {
  name: string;
  h: Record<string, string>;
}

let s: TestServer;
let receiver: Receiver;
let alice: Account;
let bob: Account;
let admin: Account;

async function account(prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name, options);
  return { name, h: tokenHeader(await createToken(s.host, name)) };
}

async function createRepo(who: Account, body: Record<string, unknown> = {}, owner?: string): Promise<string> {
  const name = uniq('r');
  const res = await s.fetch(owner ? `/api/v1/orgs/${owner}/repos` : '/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return `${owner ?? who.name}/${name}`;
}

function hookBody(extra: Record<string, unknown> = {}, config: Record<string, string> = {}) {
  return { type: 'forgejo', config: { url: 'https://example.com/hook', content_type: 'json', ...config }, ...extra };
}

async function hookOf(res: Response, status = 201): Promise<ApiHook> {
  const body = await json<ApiHook>(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(matchesSchema(HookSchema, body), schemaErrors(HookSchema, body).join('\n')).toBe(true);
  return body;
}

beforeAll(async () => {
  s = await startTestServer({ webhook: { ALLOWED_HOST_LIST: 'loopback' }, security: { SECRET_KEY: 'api-test-key' } });
  receiver = await startReceiver();
  alice = await account('alice');
  bob = await account('bob');
  admin = await account('admin', { admin: true });
});
afterAll(async () => {
  await s?.cleanup();
  await receiver?.close();
});

describe('repository hooks', () => {
  let full: string;
  beforeAll(async () => {
    full = await createRepo(alice);
  });

  test('create, read, list, edit, delete', async () => {
    const created = await hookOf(
      await s.fetch(
        `/api/v1/repos/${full}/hooks`,
        jsonInit('POST', hookBody({ events: ['push', 'Create', 'issues'], branch_filter: 'main', active: true, authorization_header: 'Bearer xyz' }, { secret: 'shh' }), alice.h),
      ),
    );
    expect(created).toMatchObject({
      type: 'forgejo',
      url: 'https://example.com/hook',
      config: { url: 'https://example.com/hook', content_type: 'json' },
      content_type: 'json',
      branch_filter: 'main',
      active: true,
      authorization_header: '********',
    });
    // Neither the secret nor the authorization header is ever shown.
    expect(JSON.stringify(created)).not.toContain('shh');
    expect(JSON.stringify(created)).not.toContain('xyz');
    expect(created.events).toEqual(expect.arrayContaining(['push', 'create', 'issues', 'issue_assign', 'issue_comment']));
    expect(created.events).not.toContain('delete');

    const got = await hookOf(await s.fetch(`/api/v1/repos/${full}/hooks/${created.id}`, { headers: alice.h }), 200);
    expect(got).toEqual(created);

    const list = await s.fetch(`/api/v1/repos/${full}/hooks`, { headers: alice.h });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await json<ApiHook[]>(list)).map((h) => h.id)).toEqual([created.id]);

    // Sending back the mask it was shown keeps the header (its stored, encrypted form is untouched).
    const [ownerName, repoName] = full.split('/') as [string, string];
    const owner = { kind: 'repo', access: await s.host.repos.resolve(SYSTEM, ownerName, repoName) } as const;
    const encrypted = (await s.host.webhooks.get(SYSTEM, owner, created.id)).header_authorization_encrypted;
    expect(encrypted).not.toBe('');
    const kept = await hookOf(
      await s.fetch(`/api/v1/repos/${full}/hooks/${created.id}`, jsonInit('PATCH', { events: ['push', 'create', 'issues'], branch_filter: 'main', authorization_header: '********' }, alice.h)),
      200,
    );
    expect(kept.authorization_header).toBe('********');
    expect((await s.host.webhooks.get(SYSTEM, owner, created.id)).header_authorization_encrypted).toBe(encrypted);

    const edited = await hookOf(
      await s.fetch(`/api/v1/repos/${full}/hooks/${created.id}`, jsonInit('PATCH', { config: { url: 'https://example.org/x', content_type: 'form' }, active: false }, alice.h)),
      200,
    );
    // As Forgejo: events absent means push; the authorization header is replaced (here: removed).
    expect(edited).toMatchObject({ config: { url: 'https://example.org/x', content_type: 'form' }, active: false, events: ['push'], authorization_header: '', branch_filter: '' });

    expect((await s.fetch(`/api/v1/repos/${full}/hooks/${created.id}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    expect((await s.fetch(`/api/v1/repos/${full}/hooks/${created.id}`, { headers: alice.h })).status).toBe(404);
    expect((await s.fetch(`/api/v1/repos/${full}/hooks/${created.id}`, { method: 'DELETE', headers: alice.h })).status).toBe(404);
  });

  test('active defaults to false and events to push', async () => {
    const hook = await hookOf(await s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', hookBody(), alice.h)));
    expect(hook).toMatchObject({ active: false, events: ['push'], authorization_header: '' });
  });

  test('validation: type, config, content type, url, branch filter (422)', async () => {
    const post = (body: unknown) => s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', body, alice.h));
    expect(await expectApiError(await post(hookBody({ type: 'nope' })), 422, s.url)).toBe('Invalid hook type: nope');
    expect(await expectApiError(await post({ type: 'gitea', config: { content_type: 'json' } }), 422, s.url)).toBe('Missing config option: url');
    expect(await expectApiError(await post({ type: 'gitea', config: { url: 'https://x.example' } }), 422, s.url)).toBe('Missing config option: content_type');
    expect(await expectApiError(await post(hookBody({}, { content_type: 'xml' })), 422, s.url)).toBe('Invalid content type');
    expect(await expectApiError(await post(hookBody({}, { url: 'ftp://example.com/' })), 422, s.url)).toBe('Invalid url');
    expect(await expectApiError(await post(hookBody({}, { url: 'not a url' })), 422, s.url)).toBe('Invalid url');
    await expectApiError(await post(hookBody({ branch_filter: '[main' })), 422, s.url);
    await expectApiError(await post(hookBody({ branch_filter: '{a,b' })), 422, s.url);
    // Missing required fields and wrong types are the router's 422 too.
    expect((await post({ config: { url: 'https://x.example', content_type: 'json' } })).status).toBe(422);
    expect((await post({ type: 'gitea', config: 'x' })).status).toBe(422);
    expect((await s.fetch(`/api/v1/repos/${full}/hooks/0`, jsonInit('PATCH', { config: { url: 'bad' } }, alice.h))).status).toBe(404);
    const hook = await hookOf(await post(hookBody()));
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}`, jsonInit('PATCH', { config: { url: 'bad' } }, alice.h)), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}`, jsonInit('PATCH', { config: { content_type: 'x' } }, alice.h)), 422, s.url);
  });

  test('chat types: their own settings (Slack: a channel), shown as metadata; types outside the reference enum too', async () => {
    const post = (body: unknown) => s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', body, alice.h));
    const slack = await hookOf(await post({ type: 'slack', config: { url: 'https://hooks.slack.com/x', content_type: 'json', channel: '#dev', username: 'bot' } }));
    expect(slack.config).toMatchObject({ url: 'https://hooks.slack.com/x', channel: '#dev' });
    expect(slack.metadata).toMatchObject({ channel: '#dev' });
    expect(await expectApiError(await post({ type: 'slack', config: { url: 'https://hooks.slack.com/x', content_type: 'json' } }), 422, s.url)).toBe('Missing config option: channel');
    expect((await post({ type: 'slack', config: { url: 'https://hooks.slack.com/x', content_type: 'json', channel: '' } })).status).toBe(400);
    // An edit naming one setting keeps the others.
    const edited = await hookOf(await s.fetch(`/api/v1/repos/${full}/hooks/${slack.id}`, jsonInit('PATCH', { config: { username: 'robot' } }, alice.h)), 200);
    expect(edited.metadata).toMatchObject({ channel: '#dev' });
    expect(edited.type).toBe('slack');
  });

  test('permissions: anonymous 401, a reader 403, a private repository 404, another repository\'s hook 404', async () => {
    const hook = await hookOf(await s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', hookBody(), alice.h)));
    expect((await s.fetch(`/api/v1/repos/${full}/hooks`)).status).toBe(401);
    expect((await s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', hookBody()))).status).toBe(401);
    expect((await s.fetch(`/api/v1/repos/${full}/hooks`, { headers: bob.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}`, { headers: bob.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', hookBody(), bob.h))).status).toBe(403);

    const secret = await createRepo(alice, { private: true });
    expect((await s.fetch(`/api/v1/repos/${secret}/hooks`, { headers: bob.h })).status).toBe(404);

    const bobs = await createRepo(bob);
    expect((await s.fetch(`/api/v1/repos/${bobs}/hooks/${hook.id}`, { headers: bob.h })).status).toBe(404);
    expect((await s.fetch(`/api/v1/repos/${bobs}/hooks/${hook.id}`, jsonInit('PATCH', { active: true }, bob.h))).status).toBe(404);
    expect((await s.fetch(`/api/v1/repos/${bobs}/hooks/${hook.id}`, { method: 'DELETE', headers: bob.h })).status).toBe(404);
    expect((await s.fetch(`/api/v1/repos/${bobs}/hooks/${hook.id}/tests`, { method: 'POST', headers: bob.h })).status).toBe(404);
    // A site administrator may manage any repository's hooks.
    expect((await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}`, { headers: admin.h })).status).toBe(200);
    // A token without the repository scope may not.
    const readOnly = tokenHeader(await createToken(s.host, alice.name, ['read:user']));
    expect((await s.fetch(`/api/v1/repos/${full}/hooks`, { headers: readOnly })).status).toBe(403);
  });
});

describe('user, organization and site hooks', () => {
  test('/user/hooks: own hooks only; they hear the account\'s repositories', async () => {
    const carol = await account('carol');
    const hookPath = `/user-${uniq('h')}`;
    const hook = await hookOf(
      await s.fetch('/api/v1/user/hooks', jsonInit('POST', { type: 'gitea', config: { url: `${receiver.url}${hookPath}`, content_type: 'json' }, events: ['repository'], active: true }, carol.h)),
    );
    expect(hook.url).toBe(`${receiver.url}${hookPath}`);
    expect((await s.fetch('/api/v1/user/hooks', { headers: carol.h }).then((r) => json<ApiHook[]>(r))).map((h) => h.id)).toEqual([hook.id]);
    expect(await s.fetch('/api/v1/user/hooks', { headers: bob.h }).then((r) => json<ApiHook[]>(r))).toEqual([]);
    expect((await s.fetch(`/api/v1/user/hooks/${hook.id}`, { headers: bob.h })).status).toBe(404);
    expect((await s.fetch('/api/v1/user/hooks')).status).toBe(401);

    const full = await createRepo(carol);
    const request = await receiver.waitFor((r) => r.url === hookPath);
    expect(request.headers['x-forgejo-event']).toBe('repository');
    expect(JSON.parse(request.body)).toMatchObject({ action: 'created', repository: { full_name: full }, sender: { login: carol.name } });

    // The deliveries API answers under /user/hooks too (the row is written once the response is read).
    let deliveries: { event: string; status_code: number }[] = [];
    for (let i = 0; i < 50 && deliveries.length === 0; i++) {
      deliveries = await json(await s.fetch(`/api/v1/user/hooks/${hook.id}/deliveries`, { headers: carol.h }));
      if (deliveries.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(deliveries[0]).toMatchObject({ event: 'repository', status_code: 200 });
    expect((await s.fetch(`/api/v1/user/hooks/${hook.id}/deliveries`, { headers: bob.h })).status).toBe(404);

    expect((await s.fetch(`/api/v1/repos/${full}`, { method: 'DELETE', headers: carol.h })).status).toBe(204);
    const deleted = await receiver.waitFor((r) => r.url === hookPath && r.body.includes('"deleted"'));
    expect(JSON.parse(deleted.body)).toMatchObject({ action: 'deleted', repository: { full_name: full } });

    // The account's hooks go with it.
    const carolUser = await userNamed(s.host, carol.name);
    expect((await s.fetch(`/api/v1/admin/users/${carol.name}`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    expect((await s.host.webhooks.list(SYSTEM, { kind: 'user', user: carolUser }, { page: 1, limit: 10 })).total).toBe(0);
  });

  test('/orgs/{org}/hooks: owners only; members 403, outsiders of a private org 404', async () => {
    const org = uniq('org');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org }, alice.h))).status).toBe(201);
    const hookPath = `/org-${uniq('h')}`;
    const hook = await hookOf(
      await s.fetch(`/api/v1/orgs/${org}/hooks`, jsonInit('POST', { type: 'forgejo', config: { url: `${receiver.url}${hookPath}`, content_type: 'json' }, events: ['repository'], active: true }, alice.h)),
    );
    expect(hook.url).toBe(`${receiver.url}${hookPath}`);
    expect((await s.fetch(`/api/v1/orgs/${org}/hooks`, { headers: bob.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/orgs/${org}/hooks/${hook.id}`, { headers: bob.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/orgs/${org}/hooks`)).status).toBe(401);
    expect((await s.fetch(`/api/v1/orgs/${org}/hooks/${hook.id}`, { headers: admin.h })).status).toBe(200);

    const full = await createRepo(alice, {}, org);
    const request = await receiver.waitFor((r) => r.url === hookPath);
    expect(JSON.parse(request.body)).toMatchObject({ action: 'created', repository: { full_name: full }, organization: { login: org } });

    const hidden = uniq('org');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: hidden, visibility: 'private' }, alice.h))).status).toBe(201);
    expect((await s.fetch(`/api/v1/orgs/${hidden}/hooks`, { headers: bob.h })).status).toBe(404);
  });

  test('/admin/hooks: site administrators; system hooks hear every repository, default hooks are copied', async () => {
    expect((await s.fetch('/api/v1/admin/hooks', { headers: alice.h })).status).toBe(403);
    expect((await s.fetch('/api/v1/admin/hooks')).status).toBe(401);
    const systemPath = `/system-${uniq('h')}`;
    const system = await hookOf(
      await s.fetch(
        '/api/v1/admin/hooks',
        jsonInit('POST', { type: 'gitea', config: { url: `${receiver.url}${systemPath}`, content_type: 'json', is_system_webhook: 'true' }, events: ['repository'], active: true }, admin.h),
      ),
    );
    expect(system.url).toBe(`${receiver.url}${systemPath}`);
    const defaultPath = `/default-${uniq('h')}`;
    const fallback = await hookOf(
      await s.fetch(
        '/api/v1/admin/hooks',
        jsonInit('POST', { type: 'gitea', config: { url: `${receiver.url}${defaultPath}`, content_type: 'json', is_system_webhook: 'false' }, events: ['push'], active: true }, admin.h),
      ),
    );
    expect(
      await expectApiError(await s.fetch('/api/v1/admin/hooks', jsonInit('POST', hookBody({}, { is_system_webhook: 'maybe' }), admin.h)), 422, s.url),
    ).toBe('Invalid is_system_webhook value');

    const systems = await json<ApiHook[]>(await s.fetch('/api/v1/admin/hooks', { headers: admin.h }));
    expect(systems.map((h) => h.id)).toEqual([system.id]);
    const all = await json<ApiHook[]>(await s.fetch('/api/v1/admin/hooks?type=all', { headers: admin.h }));
    expect(all.map((h) => h.id)).toEqual([system.id, fallback.id]);
    expect((await s.fetch(`/api/v1/admin/hooks/${fallback.id}`, { headers: admin.h })).status).toBe(200);

    const full = await createRepo(bob);
    const request = await receiver.waitFor((r) => r.url === systemPath && r.body.includes(full));
    expect(JSON.parse(request.body)).toMatchObject({ action: 'created', repository: { full_name: full } });
    // The new repository has its own copy of the default hook.
    const copies = await json<ApiHook[]>(await s.fetch(`/api/v1/repos/${full}/hooks`, { headers: bob.h }));
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ type: 'gitea', config: { url: `${receiver.url}${defaultPath}` }, events: ['push'], active: true });
    expect(copies[0]!.id).not.toBe(fallback.id);
    // A repository hook id is not a site hook.
    expect((await s.fetch(`/api/v1/admin/hooks/${copies[0]!.id}`, { headers: admin.h })).status).toBe(404);

    expect((await s.fetch(`/api/v1/admin/hooks/${system.id}`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    expect((await s.fetch(`/api/v1/admin/hooks/${fallback.id}`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
  });

  test('POST /admin/hooks without is_system_webhook creates a system webhook: GET /admin/hooks lists it', async () => {
    const path = `/plain-${uniq('h')}`;
    const plain = await hookOf(
      await s.fetch('/api/v1/admin/hooks', jsonInit('POST', { type: 'gitea', config: { url: `${receiver.url}${path}`, content_type: 'json' }, events: ['repository'], active: true }, admin.h)),
    );
    const listed = await s.fetch('/api/v1/admin/hooks', { headers: admin.h });
    expect(listed.status).toBe(200);
    expect((await json<ApiHook[]>(listed)).map((h) => h.id)).toEqual([plain.id]);
    expect((await json<ApiHook[]>(await s.fetch('/api/v1/admin/hooks?type=default', { headers: admin.h }))).map((h) => h.id)).toEqual([]);
    // A system hook hears every repository, and no repository gets a copy of it.
    const full = await createRepo(bob);
    const request = await receiver.waitFor((r) => r.url === path && r.body.includes(full));
    expect(JSON.parse(request.body)).toMatchObject({ action: 'created', repository: { full_name: full } });
    expect(await json(await s.fetch(`/api/v1/repos/${full}/hooks`, { headers: bob.h }))).toEqual([]);
    expect((await s.fetch(`/api/v1/admin/hooks/${plain.id}`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    expect(await json(await s.fetch('/api/v1/admin/hooks', { headers: admin.h }))).toEqual([]);
  });
});
