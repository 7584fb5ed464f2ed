/**
 * Webhook delivery end to end: real pushes with the git client over HTTP, a real receiver on 127.0.0.1, payloads,
 * signatures checked with node:crypto, create/delete events, the authorization header on first delivery and on a
 * retry, the external-only default refusing loopback, the deliveries API and redelivery.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { HookDeliveryItemSchema, HookDeliverySchema, HookSchema, matchesSchema, schemaErrors, type ApiHook, type ApiHookDelivery, type ApiHookDeliveryItem } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';
import { startReceiver, type ReceivedRequest, type Receiver } from './webhook-receiver';

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

const ZERO = '0'.repeat(40);
const SECRET = 's3cr3t-hook';

let s: TestServer;
let receiver: Receiver;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;

function git(args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: { ...gitEnv, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
      else resolve(String(stdout));
    });
  });
}

async function account(prefix = 'w'): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name);
  const token = await createToken(s.host, name);
  return { name, token, h: tokenHeader(token) };
}

async function createRepo(who: Account): Promise<string> {
  const name = uniq('r');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name }, who.h));
  expect(res.status).toBe(201);
  return `${who.name}/${name}`;
}

async function workingCopy(full: string, who: Account): Promise<string> {
  const dir = await mkdtemp(path.join(scratch, 'wc-'));
  await git(['init', '-q', '-b', 'main'], dir);
  const port = new URL(s.url).port;
  await git(['remote', 'add', 'origin', `http://${who.name}:${who.token}@127.0.0.1:${port}/${full}.git`], dir);
  return dir;
}

let clock = 1_700_000_000;
async function commit(dir: string, file: string, message: string): Promise<string> {
  clock += 60;
  await writeFile(path.join(dir, file), `${message}\n${clock}\n`);
  await git(['add', file], dir);
  await git(['commit', '-q', '-m', message], dir, {
    GIT_AUTHOR_NAME: 'Ann Author',
    GIT_AUTHOR_EMAIL: 'ann@example.com',
    GIT_AUTHOR_DATE: `${clock} +0000`,
    GIT_COMMITTER_DATE: `${clock} +0000`,
  });
  return (await git(['rev-parse', 'HEAD'], dir)).trim();
}

async function createHook(full: string, who: Account, body: Record<string, unknown>): Promise<ApiHook> {
  const res = await s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', body, who.h));
  const hook = await json<ApiHook>(res);
  expect(res.status, JSON.stringify(hook)).toBe(201);
  expect(matchesSchema(HookSchema, hook), schemaErrors(HookSchema, hook).join('\n')).toBe(true);
  return hook;
}

/** The hook path of a receiver URL, so each test's requests are told apart. */
function at(pathname: string) {
  return (r: ReceivedRequest) => r.url === pathname;
}

function signatureOk(r: ReceivedRequest, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(r.body).digest('hex');
  return r.headers['x-forgejo-signature'] === expected && r.headers['x-hub-signature-256'] === `sha256=${expected}` && r.headers['x-gitea-signature'] === expected;
}

beforeAll(async () => {
  s = await startTestServer({ webhook: { ALLOWED_HOST_LIST: 'loopback' }, security: { SECRET_KEY: 'webhook-test-key' } });
  receiver = await startReceiver();
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-webhooks-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});
afterAll(async () => {
  await s?.cleanup();
  await receiver?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('push, create and delete events', () => {
  let alice: Account;
  let full: string;
  let dir: string;
  let hook: ApiHook;
  const hookPath = `/push-${uniq('h')}`;

  beforeAll(async () => {
    alice = await account('alice');
    full = await createRepo(alice);
    dir = await workingCopy(full, alice);
    hook = await createHook(full, alice, {
      type: 'gitea',
      config: { url: `${receiver.url}${hookPath}`, content_type: 'json', secret: SECRET },
      events: ['push', 'create', 'delete'],
      active: true,
      authorization_header: 'Bearer push-token',
    });
  });

  test('a push sends the push payload, signed, with Forgejo headers and the authorization header', async () => {
    const c1 = await commit(dir, 'a.txt', 'first commit');
    const c2 = await commit(dir, 'b.txt', 'second <commit> & more');
    await git(['push', '-q', 'origin', 'main'], dir);
    const request = await receiver.waitFor((r) => at(hookPath)(r) && r.headers['x-forgejo-event'] === 'push');
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-gitea-event']).toBe('push');
    expect(request.headers['x-github-event']).toBe('push');
    expect(request.headers['x-forgejo-event-type']).toBe('push');
    expect(request.headers['x-forgejo-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers['x-gitea-delivery']).toBe(request.headers['x-forgejo-delivery']);
    expect(request.headers['authorization']).toBe('Bearer push-token');
    expect(signatureOk(request, SECRET)).toBe(true);
    // Go's encoding/json escapes HTML characters.
    expect(request.body).toContain('second \\u003ccommit\\u003e \\u0026 more');
    const payload = JSON.parse(request.body);
    expect(payload).toMatchObject({ ref: 'refs/heads/main', before: ZERO, after: c2, total_commits: 2, compare_url: '' });
    expect(payload.commits.map((c: { id: string }) => c.id)).toEqual([c2, c1]);
    expect(payload.commits[1]).toMatchObject({
      id: c1,
      message: 'first commit\n',
      author: { name: 'Ann Author', email: 'ann@example.com' },
      added: ['a.txt'],
      removed: [],
      modified: [],
    });
    expect(payload.commits[1].url).toBe(`${s.url}${full}/commit/${c1}`);
    expect(payload.head_commit.id).toBe(c2);
    expect(payload.repository.full_name).toBe(full);
    expect(payload.pusher.login).toBe(alice.name);
    expect(payload.sender.login).toBe(alice.name);
    // The new branch was announced too.
    const created = await receiver.waitFor((r) => at(hookPath)(r) && r.headers['x-forgejo-event'] === 'create');
    expect(JSON.parse(created.body)).toMatchObject({ ref: 'main', ref_type: 'branch', sha: c2, repository: { full_name: full }, sender: { login: alice.name } });
    expect(signatureOk(created, SECRET)).toBe(true);
  });

  test('a second push lists only its commits, with a compare URL', async () => {
    const before = (await git(['rev-parse', 'HEAD'], dir)).trim();
    const c3 = await commit(dir, 'a.txt', 'third');
    await git(['push', '-q', 'origin', 'main'], dir);
    const request = await receiver.waitFor((r) => at(hookPath)(r) && r.headers['x-forgejo-event'] === 'push' && r.body.includes(`"after": "${c3}"`));
    const payload = JSON.parse(request.body);
    expect(payload).toMatchObject({ before, after: c3, total_commits: 1, compare_url: `${s.url}${full}/compare/${before}...${c3}` });
    expect(payload.commits).toHaveLength(1);
    expect(payload.commits[0]).toMatchObject({ modified: ['a.txt'], added: [] });
  });

  test('tags and branches created and deleted send create and delete events', async () => {
    await git(['tag', 'v1.0'], dir);
    await git(['push', '-q', 'origin', 'v1.0'], dir);
    const tagCreated = await receiver.waitFor((r) => at(hookPath)(r) && r.headers['x-forgejo-event'] === 'create' && r.body.includes('"ref_type": "tag"'));
    expect(JSON.parse(tagCreated.body)).toMatchObject({ ref: 'v1.0', ref_type: 'tag' });
    await git(['push', '-q', 'origin', ':refs/tags/v1.0'], dir);
    const tagDeleted = await receiver.waitFor((r) => at(hookPath)(r) && r.headers['x-forgejo-event'] === 'delete');
    expect(JSON.parse(tagDeleted.body)).toMatchObject({ ref: 'v1.0', ref_type: 'tag', pusher_type: 'user', sender: { login: alice.name } });
  });

  test('the branch filter keeps other branches out', async () => {
    const filtered = `/filtered-${uniq('h')}`;
    await createHook(full, alice, { type: 'forgejo', config: { url: `${receiver.url}${filtered}`, content_type: 'json' }, events: ['push'], branch_filter: '{main,release/*}', active: true });
    await commit(dir, 'c.txt', 'on topic');
    await git(['push', '-q', 'origin', 'HEAD:refs/heads/topic'], dir);
    await git(['push', '-q', 'origin', 'HEAD:refs/heads/release/1'], dir);
    const request = await receiver.waitFor(at(filtered));
    expect(JSON.parse(request.body).ref).toBe('refs/heads/release/1');
    // No signature headers without a secret.
    expect(request.headers['x-forgejo-signature']).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests.filter(at(filtered))).toHaveLength(1);
  });

  test('form content type sends payload= with the JSON', async () => {
    const formPath = `/form-${uniq('h')}`;
    const formHook = await createHook(full, alice, { type: 'gogs', config: { url: `${receiver.url}${formPath}`, content_type: 'form', secret: 'x' }, active: false });
    const res = await s.fetch(`/api/v1/repos/${full}/hooks/${formHook.id}/tests`, { method: 'POST', headers: alice.h });
    expect(res.status).toBe(204);
    const request = await receiver.waitFor(at(formPath));
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(signatureOk(request, 'x')).toBe(true);
    const payload = JSON.parse(new URLSearchParams(request.body).get('payload')!);
    // The server's main is one behind: 'on topic' went to other branches only.
    const head = (await git(['rev-parse', 'HEAD~1'], dir)).trim();
    expect(payload).toMatchObject({ ref: 'refs/heads/main', before: head, after: head, total_commits: 1 });
    expect(payload.commits).toHaveLength(1);
    expect(hook.id).not.toBe(formHook.id);

    // `ref` picks the commit, and is named in the payload as given; an unknown one is 404.
    const tagged = await s.fetch(`/api/v1/repos/${full}/hooks/${formHook.id}/tests?ref=release/1`, { method: 'POST', headers: alice.h });
    expect(tagged.status).toBe(204);
    const second = await receiver.waitFor(at(formPath), 2);
    const onRelease = JSON.parse(new URLSearchParams(second.body).get('payload')!);
    expect(onRelease).toMatchObject({ ref: 'release/1', after: (await git(['rev-parse', 'HEAD'], dir)).trim() });
    expect((await s.fetch(`/api/v1/repos/${full}/hooks/${formHook.id}/tests?ref=nope`, { method: 'POST', headers: alice.h })).status).toBe(404);
  });
});

describe('retries and the deliveries API', () => {
  test('a 500 is retried within 10 s with the authorization header again; deliveries list both attempts; redeliver', async () => {
    const bob = await account('bob');
    const full = await createRepo(bob);
    const hookPath = `/retry-${uniq('h')}`;
    const hook = await createHook(full, bob, {
      type: 'forgejo',
      config: { url: `${receiver.url}${hookPath}`, content_type: 'json', secret: SECRET },
      events: ['push'],
      active: true,
      authorization_header: 'token retry-me',
    });
    receiver.answer(500);
    const res = await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}/tests`, { method: 'POST', headers: bob.h });
    // An empty repository has no commit to send.
    expect(res.status).toBe(404);
    const dir = await workingCopy(full, bob);
    await commit(dir, 'x.txt', 'x');
    await git(['push', '-q', 'origin', 'main'], dir);
    const first = await receiver.waitFor(at(hookPath), 1);
    const second = await receiver.waitFor(at(hookPath), 2, 12_000);
    expect(second.at - first.at).toBeLessThan(10_000);
    expect(first.headers['authorization']).toBe('token retry-me');
    expect(second.headers['authorization']).toBe('token retry-me');
    expect(second.headers['x-forgejo-delivery']).toBe(first.headers['x-forgejo-delivery']);
    expect(second.body).toBe(first.body);

    // The second attempt's row is written after its response: wait for it.
    let items: ApiHookDeliveryItem[] = [];
    for (let i = 0; i < 50 && items.length < 2; i++) {
      const list = await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}/deliveries`, { headers: bob.h });
      expect(list.status).toBe(200);
      items = await json<ApiHookDeliveryItem[]>(list);
      if (items.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(items).toHaveLength(2);
    for (const item of items) expect(matchesSchema(HookDeliveryItemSchema, item), schemaErrors(HookDeliveryItemSchema, item).join('\n')).toBe(true);
    expect(items.map((i) => i.status_code)).toEqual([200, 500]);
    expect(items[0]!.guid).toBe(first.headers['x-forgejo-delivery']);
    expect(items[0]!.event).toBe('push');

    const one = await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}/deliveries/${items[1]!.id}`, { headers: bob.h });
    const delivery = await json<ApiHookDelivery>(one);
    expect(one.status).toBe(200);
    expect(matchesSchema(HookDeliverySchema, delivery), schemaErrors(HookDeliverySchema, delivery).join('\n')).toBe(true);
    expect(delivery.request.payload).toBe(first.body);
    // The stored request never holds the authorization header in clear.
    expect(delivery.request.headers['Authorization']).toBe('******');
    expect(JSON.stringify(delivery)).not.toContain('retry-me');
    expect(delivery.response.payload).toBe('nope');
    expect(delivery.response.headers['x-receiver']).toBe('yes');

    const again = await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}/deliveries/${items[1]!.id}/attempts`, { method: 'POST', headers: bob.h });
    expect(again.status).toBe(202);
    const third = await receiver.waitFor(at(hookPath), 3);
    expect(third.body).toBe(first.body);
    expect(third.headers['authorization']).toBe('token retry-me');

    // Another repository's hook id and an unknown delivery are 404.
    const other = await account('other');
    const otherFull = await createRepo(other);
    expect((await s.fetch(`/api/v1/repos/${otherFull}/hooks/${hook.id}/deliveries`, { headers: other.h })).status).toBe(404);
    expect((await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}/deliveries/999999`, { headers: bob.h })).status).toBe(404);
    // Someone who may read the repository but not administer it.
    expect((await s.fetch(`/api/v1/repos/${full}/hooks/${hook.id}/deliveries`, { headers: other.h })).status).toBe(403);
  });
});

describe('SourceHut builds', () => {
  test('a push submits the manifest read at the pushed commit', async () => {
    const bob = await account('bob');
    const full = await createRepo(bob);
    const dir = await workingCopy(full, bob);
    const hookPath = `/builds-${uniq('h')}/query`;
    await createHook(full, bob, {
      type: 'sourcehut_builds',
      active: true,
      events: ['push'],
      config: { url: `${receiver.url}${hookPath}`, content_type: 'json', manifest_path: '.build.yml', visibility: 'PRIVATE' },
    });
    await writeFile(path.join(dir, '.build.yml'), 'image: alpine/edge\ntasks:\n  - hello: echo "<hi> & bye"\n');
    await git(['add', '.build.yml'], dir);
    const head = await commit(dir, 'README', 'with a manifest');
    await git(['push', '-q', 'origin', 'main'], dir);
    const request = await receiver.waitFor((r) => at(hookPath)(r));
    const body = JSON.parse(request.body) as { query: string; variables: { manifest: string; visibility: string } };
    expect(body.query).toContain('submit');
    expect(body.variables.visibility).toBe('PRIVATE');
    // The manifest as committed, with the repository at that commit as a source.
    expect(body.variables.manifest).toContain('image: alpine/edge');
    expect(body.variables.manifest).toContain('echo "<hi> & bye"');
    expect(body.variables.manifest).toContain(head);
  });
});

describe('a receiver the allow-list refuses', () => {
  test('under the default list a loopback receiver is never called: each refused delivery is listed with the reason and logged', async () => {
    const warnings: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
    // `[webhook] ALLOWED_HOST_LIST` left at its default, `external`.
    const strict = await startTestServer({ security: { SECRET_KEY: 'webhook-test-key' } });
    try {
      const name = uniq('strict');
      await createUser(strict.host, name);
      const h = tokenHeader(await createToken(strict.host, name));
      expect((await strict.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'site', auto_init: true }, h))).status).toBe(201);
      const hookPath = `/refused-${uniq('h')}`;
      const target = receiver.url.replace('http://', 'http://hookuser:hookpass@') + hookPath;
      const created = await strict.fetch(`/api/v1/repos/${name}/site/hooks`, jsonInit('POST', { type: 'gitea', config: { url: target, content_type: 'json' }, events: ['push'], active: true }, h));
      // Accepted, as Forgejo accepts it: the list is applied when delivering.
      expect(created.status).toBe(201);
      const hook = await json<ApiHook>(created);
      const hooksPath = `/api/v1/repos/${name}/site/hooks/${hook.id}`;
      // Two tests, each answered as Forgejo answers it, each a delivery of its own.
      for (let i = 0; i < 2; i++) expect((await strict.fetch(`${hooksPath}/tests`, { method: 'POST', headers: h })).status).toBe(204);

      let items: ApiHookDeliveryItem[] = [];
      for (let i = 0; i < 100 && items.length < 2; i++) {
        const list = await strict.fetch(`${hooksPath}/deliveries`, { headers: h });
        expect(list.status).toBe(200);
        items = await json<ApiHookDeliveryItem[]>(list);
        if (items.length < 2) await new Promise((r) => setTimeout(r, 100));
      }
      expect(items).toHaveLength(2);
      for (const item of items) {
        expect(matchesSchema(HookDeliveryItemSchema, item), schemaErrors(HookDeliveryItemSchema, item).join('\n')).toBe(true);
        expect(item).toMatchObject({ event: 'push', status_code: 0 });
        expect(item.status).toBe(`webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting), deny '127.0.0.1(127.0.0.1)'`);
      }
      const one = await json<ApiHookDelivery>(await strict.fetch(`${hooksPath}/deliveries/${items[0]!.id}`, { headers: h }));
      expect(matchesSchema(HookDeliverySchema, one), schemaErrors(HookDeliverySchema, one).join('\n')).toBe(true);
      expect(receiver.requests.filter(at(hookPath))).toEqual([]);

      // The operator's log names the hook, the delivery and the reason, without the URL's credentials.
      const logged = warnings.filter((line) => line.includes(`webhook ${hook.id} `));
      expect(logged).toHaveLength(2);
      for (const item of items) expect(logged.filter((line) => line.includes(item.guid))).toHaveLength(1);
      for (const line of logged) {
        expect(line).toContain('ALLOWED_HOST_LIST');
        expect(line).toContain(hookPath);
        expect(line).not.toContain('hookpass');
      }
    } finally {
      warn.mockRestore();
      await strict.cleanup();
    }
  });
});
