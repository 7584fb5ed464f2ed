/**
 * Embedding RepoHost in another Node program: a forge in-process, driven through core's typed methods, with its
 * HTTP API served on a port of your choosing.
 *
 * Run it with `npm run example -- embedded` (builds the packages first if they are stale).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RepoHost, SYSTEM, toApiRepository, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';

const workPath = await mkdtemp(path.join(tmpdir(), 'repohost-embedded-'));
// A new installation: its [security] SECRET_KEY is generated into the data folder, as `repohost web` does.
const host = await RepoHost.open({ config: { workPath, overrides: { server: { HTTP_PORT: 0 } } }, noSecretKey: 'generate' });

const alice = await host.users.create(SYSTEM, { username: 'alice', email: 'alice@example.com', password: 'a-good-password', admin: true });
const { value: token } = await host.tokens.create(SYSTEM, alice, { name: 'embedded', scopes: ['all'] });
// What changed, after it committed: the hook integrations subscribe to (pushes arrive as 'repo.pushed').
host.events.on('repo.created', ({ payload }) => console.log('event repo.created:', `${payload.owner.name}/${payload.repo.name}`));
const demo = await host.repos.create(userActor(alice), { name: 'demo', auto_init: true, description: 'made in-process' });
console.log('created', toApiRepository(demo, { viewer: userActor(alice), settings: host.settings }).full_name);

const server = await startServer(host, { port: 0, hostname: '127.0.0.1' });
const response = await fetch(`${server.url}api/v1/repos/alice/demo`, { headers: { Authorization: `token ${token}` } });
console.log('GET /api/v1/repos/alice/demo →', response.status, ((await response.json()) as { clone_url: string }).clone_url);

await server.close();
await host.close();
