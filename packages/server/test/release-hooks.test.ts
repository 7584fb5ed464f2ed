/**
 * What releases tell the rest of the forge: Forgejo's `ReleasePayload` (published, updated, deleted) at a real
 * receiver on 127.0.0.1, nothing for drafts, and the `publish_release` entry of activity feeds.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ReleaseSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { jsonInit, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';
import { startHookedServer, type HookedServer, type ReceivedRequest, type Receiver } from './webhook-receiver';

describe('release webhooks and feeds', () => {
  let hooked: HookedServer | undefined;
  let s: TestServer;
  let receiver: Receiver;
  let name: string;
  let h: Record<string, string>;

  beforeAll(async () => {
    hooked = await startHookedServer('rh');
    ({ s, receiver, name, h } = hooked);
  });
  afterAll(async () => hooked?.close());

  test('published, updated and deleted reach a hook that chose releases; drafts send nothing', async () => {
    const repo = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo, auto_init: true }, h))).status).toBe(201);
    const full = `${name}/${repo}`;
    const hookPath = `/release-${uniq('p')}`;
    const res = await s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', { type: 'gitea', config: { url: `${receiver.url}${hookPath}`, content_type: 'json' }, events: ['release'], active: true }, h));
    expect(res.status).toBe(201);
    const nth = (n: number) => receiver.waitFor((r: ReceivedRequest) => r.url === hookPath, n, 15_000);

    const draft = await json(await s.fetch(`/api/v1/repos/${full}/releases`, jsonInit('POST', { tag_name: 'd', draft: true }, h)));
    const created = await s.fetch(`/api/v1/repos/${full}/releases`, jsonInit('POST', { tag_name: 'v1', name: 'One', body: 'notes' }, h));
    expect(created.status).toBe(201);
    const release = await json(created);

    const published = await nth(1);
    expect(published.headers['x-gitea-event']).toBe('release');
    const body = JSON.parse(published.body);
    expect(body).toMatchObject({ action: 'published', release: { id: release.id, tag_name: 'v1', name: 'One', draft: false }, repository: { full_name: full }, sender: { login: name } });
    expect(matchesSchema(ReleaseSchema, body.release), schemaErrors(ReleaseSchema, body.release).join('\n')).toBe(true);

    expect((await s.fetch(`/api/v1/repos/${full}/releases/${release.id}`, jsonInit('PATCH', { name: 'Uno' }, h))).status).toBe(200);
    expect(JSON.parse((await nth(2)).body)).toMatchObject({ action: 'updated', release: { name: 'Uno' } });
    expect((await s.fetch(`/api/v1/repos/${full}/releases/${release.id}`, { method: 'DELETE', headers: h })).status).toBe(204);
    expect(JSON.parse((await nth(3)).body)).toMatchObject({ action: 'deleted', release: { id: release.id } });
    // The draft's creation and deletion sent nothing.
    expect((await s.fetch(`/api/v1/repos/${full}/releases/${draft.id}`, { method: 'DELETE', headers: h })).status).toBe(204);
    await s.host.events.idle();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const actions = receiver.requests.filter((r) => r.url === hookPath).map((r) => JSON.parse(r.body).action);
    expect(actions).toEqual(['published', 'updated', 'deleted']);

    // The feed has the publication (the tag the release created is a push_tag entry beside it).
    const feed = await json<{ op_type: string; content: string; ref_name: string }[]>(await s.fetch(`/api/v1/repos/${full}/activities/feeds`, { headers: h }));
    expect(feed.find((a) => a.op_type === 'publish_release')).toMatchObject({ content: 'One', ref_name: 'v1' });
  });
});
