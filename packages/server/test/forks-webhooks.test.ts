/**
 * The `fork` webhook event, as Forgejo sends it: to the parent's hooks that ask for forks, with the parent as
 * `forkee`, the new fork as `repository` and the forker as `sender`; hooks that do not ask for it hear nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';
import { startReceiver, type Receiver } from './webhook-receiver';

interface Account {
  name: string;
  h: Record<string, string>;
}

describe('fork webhooks', () => {
  let s: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    s = await startTestServer({ webhook: { ALLOWED_HOST_LIST: 'loopback' } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await s?.cleanup();
    await receiver?.close();
  });

  async function account(): Promise<Account> {
    const name = uniq('u');
    await createUser(s.host, name);
    return { name, h: tokenHeader(await createToken(s.host, name)) };
  }

  test('a fork is announced to the parent\'s fork hooks only', async () => {
    const [alice, bob] = [await account(), await account()];
    const name = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true }, alice.h))).status).toBe(201);
    const hook = (events: string[], pathname: string) =>
      s.fetch(`/api/v1/repos/${alice.name}/${name}/hooks`, jsonInit('POST', { type: 'gitea', active: true, events, config: { url: `${receiver.url}${pathname}`, content_type: 'json' } }, alice.h));
    expect((await hook(['fork'], '/forks')).status).toBe(201);
    expect((await hook(['push'], '/pushes')).status).toBe(201);

    const res = await s.fetch(`/api/v1/repos/${alice.name}/${name}/forks`, jsonInit('POST', {}, bob.h));
    expect(res.status).toBe(202);
    const fork = await json(res);
    const delivered = await receiver.waitFor((r) => r.url === '/forks');
    expect(delivered.headers['x-gitea-event']).toBe('fork');
    const body = JSON.parse(delivered.body);
    expect(body.forkee).toMatchObject({ full_name: `${alice.name}/${name}`, fork: false });
    expect(body.repository).toMatchObject({ id: fork.id, full_name: `${bob.name}/${name}`, fork: true });
    expect(body.sender.login).toBe(bob.name);
    expect(receiver.requests.filter((r) => r.url === '/pushes')).toEqual([]);
  });
});
