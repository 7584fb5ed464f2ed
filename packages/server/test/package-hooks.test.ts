/**
 * Forgejo's `package` webhook event: a version created by an upload (not a second file of it) and a version deleted
 * (by the API, by a registry's own delete, by the deletion of its last file) reach the owner's hooks that chose
 * packages, and the linked repository's; with Forgejo's `PackagePayload` (repository and organization null).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PackageSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';
import { startHookedServer, type HookedServer, type ReceivedRequest, type Receiver } from './webhook-receiver';

describe('package webhooks', () => {
  let hooked: HookedServer | undefined;
  let s: TestServer;
  let receiver: Receiver;
  let name: string;
  let h: Record<string, string>;

  beforeAll(async () => {
    hooked = await startHookedServer('ph');
    ({ s, receiver, name, h } = hooked);
  });
  afterAll(async () => hooked?.close());

  const hook = async (path: string, url: string, events: string[]) => {
    const res = await s.fetch(path, jsonInit('POST', { type: 'gitea', config: { url, content_type: 'json' }, events, active: true }, h));
    expect(res.status).toBe(201);
  };
  const upload = (pkg: string, version: string, file: string, headers = h) =>
    s.fetch(`/api/packages/${name}/generic/${pkg}/${version}/${file}`, { method: 'PUT', body: `${pkg} ${version} ${file}\n`, headers });
  const bodies = (path: string) => receiver.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as Record<string, any>);
  /** Waits until every event caused so far was delivered, then a little more for anything that should not come. */
  const settle = async () => {
    await s.host.events.idle();
    await new Promise((resolve) => setTimeout(resolve, 300));
  };

  test('created and deleted reach the owner hook that chose packages, with Forgejo’s payload; other hooks hear nothing', async () => {
    const packagesPath = `/pkg-${uniq('p')}`;
    const pushPath = `/push-${uniq('p')}`;
    await hook('/api/v1/user/hooks', `${receiver.url}${packagesPath}`, ['package']);
    await hook('/api/v1/user/hooks', `${receiver.url}${pushPath}`, ['push']);
    // Another account's hook that chose packages hears nothing of this one's.
    const other = uniq('po');
    await createUser(s.host, other);
    const otherH = tokenHeader(await createToken(s.host, other));
    const otherPath = `/other-${uniq('p')}`;
    expect((await s.fetch('/api/v1/user/hooks', jsonInit('POST', { type: 'gitea', config: { url: `${receiver.url}${otherPath}`, content_type: 'json' }, events: ['package'], active: true }, otherH))).status).toBe(201);

    const pkg = uniq('tool');
    expect((await upload(pkg, '1.0.0', 'a.txt')).status).toBe(201);
    const created = await receiver.waitFor((r: ReceivedRequest) => r.url === packagesPath);
    expect(created.headers['x-gitea-event']).toBe('package');
    expect(created.headers['x-forgejo-event']).toBe('package');
    const body = JSON.parse(created.body);
    expect(body).toMatchObject({
      action: 'created',
      repository: null,
      organization: null,
      package: { type: 'generic', name: pkg, version: '1.0.0', owner: { login: name }, creator: { login: name }, repository: null },
      sender: { login: name },
    });
    expect(Object.keys(body)).toEqual(['action', 'repository', 'package', 'organization', 'sender']);
    expect(matchesSchema(PackageSchema, body.package), schemaErrors(PackageSchema, body.package).join('\n')).toBe(true);
    const listed = await json<{ id: number }[]>(await s.fetch(`/api/v1/packages/${name}?type=generic&q=${pkg}`, { headers: h }));
    expect(body.package.id).toBe(listed[0]!.id);

    // A second file of the version creates nothing; a refused upload (409) neither.
    expect((await upload(pkg, '1.0.0', 'b.txt')).status).toBe(201);
    expect((await upload(pkg, '1.0.0', 'b.txt')).status).toBe(409);
    // A second version is announced; its deletion through the API v1 too.
    expect((await upload(pkg, '2.0.0', 'a.txt')).status).toBe(201);
    await receiver.waitFor((r: ReceivedRequest) => r.url === packagesPath, 2);
    expect((await s.fetch(`/api/v1/packages/${name}/generic/${pkg}/2.0.0`, { method: 'DELETE', headers: h })).status).toBe(204);
    await receiver.waitFor((r: ReceivedRequest) => r.url === packagesPath, 3);
    // Deleting one of two files leaves the version (nothing announced); deleting the last file deletes it.
    expect((await s.fetch(`/api/packages/${name}/generic/${pkg}/1.0.0/a.txt`, { method: 'DELETE', headers: h })).status).toBe(204);
    expect((await s.fetch(`/api/packages/${name}/generic/${pkg}/1.0.0/b.txt`, { method: 'DELETE', headers: h })).status).toBe(204);
    await receiver.waitFor((r: ReceivedRequest) => r.url === packagesPath, 4);
    await settle();

    expect(bodies(packagesPath).map((b) => [b.action, b.package.version])).toEqual([
      ['created', '1.0.0'],
      ['created', '2.0.0'],
      ['deleted', '2.0.0'],
      ['deleted', '1.0.0'],
    ]);
    // The deleted version's payload is the version as it was.
    expect(bodies(packagesPath)[3]).toMatchObject({ action: 'deleted', package: { id: body.package.id, name: pkg, version: '1.0.0', creator: { login: name } }, sender: { login: name } });
    expect(bodies(pushPath)).toEqual([]);
    expect(bodies(otherPath)).toEqual([]);
  });

  test('a package linked to a repository is announced to that repository’s hooks as well as its owner’s', async () => {
    const repo = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, h))).status).toBe(201);
    const repoPath = `/repo-${uniq('p')}`;
    const ownerPath = `/owner-${uniq('p')}`;
    await hook(`/api/v1/repos/${name}/${repo}/hooks`, `${receiver.url}${repoPath}`, ['package']);
    await hook('/api/v1/user/hooks', `${receiver.url}${ownerPath}`, ['package']);
    const pkg = uniq('linked');
    expect((await upload(pkg, '1', 'x.bin')).status).toBe(201);
    await receiver.waitFor((r: ReceivedRequest) => r.url === ownerPath);
    expect((await s.fetch(`/api/v1/packages/${name}/generic/${pkg}/-/link/${repo}`, { method: 'POST', headers: h })).status).toBe(201);
    expect((await upload(pkg, '2', 'x.bin')).status).toBe(201);
    const atRepo = JSON.parse((await receiver.waitFor((r: ReceivedRequest) => r.url === repoPath)).body);
    expect(atRepo).toMatchObject({ action: 'created', repository: null, package: { name: pkg, version: '2', repository: { full_name: `${name}/${repo}` } } });
    await receiver.waitFor((r: ReceivedRequest) => r.url === ownerPath, 2);
    await settle();
    // The version made before the link reached only the owner's hook.
    expect(bodies(repoPath).map((b) => b.package.version)).toEqual(['2']);
    expect(bodies(ownerPath).map((b) => b.package.version)).toEqual(['1', '2']);
  });
});
