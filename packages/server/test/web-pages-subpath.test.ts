/**
 * The server's own HTML pages (sign-in, consent, authorization errors, two-factor settings) link the stylesheet and
 * the home page under ROOT_URL's path, as a proxy in front serves them from `/forge/`.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { RepoHost } from '@repohost/core';
import { createApp } from '../src/index.js';

let host: RepoHost;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  host = await RepoHost.inMemory({ overrides: { server: { ROOT_URL: 'https://git.example.com/forge/' } } });
  app = createApp(host);
});
afterAll(async () => {
  await app?.close();
  await host?.close();
});

test.each([
  ['the sign-in form', '/user/login', 200],
  ['an authorization request that names no application', '/login/oauth/authorize', 400],
])('%s links the stylesheet and home under ROOT_URL', async (_what, path, status) => {
  const res = await app.app.fetch(new Request(`http://127.0.0.1${path}`));
  expect(res.status).toBe(status);
  const text = await res.text();
  expect(text).toMatch(/<link rel="stylesheet" href="\/forge\/assets\/repohost-[0-9a-f]{12}\.css">/);
  expect(text).toContain('<a class="brand" href="/forge/">Home</a>');
});
