/**
 * `/api/swagger`: Swagger UI from the swagger-ui-dist package over our document, with `[api] ENABLE_SWAGGER`; no
 * inline script, a strict policy, the package's files cached by version; and nothing at all when it is off.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openTestHost, startTestServer, type TestServer } from '@repohost/test-support';
import { createApp } from '../src/app';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.cleanup());

test('the page loads the UI and our initializer from our server only, with no inline script', async () => {
  const res = await s.fetch('/api/swagger');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html;charset=utf-8');
  const csp = res.headers.get('content-security-policy')!;
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).not.toContain('unsafe');
  const text = await res.text();
  const scripts = [...text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  expect(scripts.length).toBe(2);
  for (const [, attributes, body] of scripts) {
    expect(body).toBe('');
    expect(attributes).toMatch(/^ src="\/assets\//);
  }
  expect(text).not.toContain(' style=');
  expect(text).toContain('data-url="/swagger.v1.json"');
  // Every file the page names is served, the package's under its version, all cacheable for a year.
  const files = [...text.matchAll(/ (?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  expect(files.length).toBe(4);
  for (const file of files) {
    const answer = await s.fetch(file);
    expect(answer.status, file).toBe(200);
    expect(answer.headers.get('cache-control'), file).toContain('max-age=31536000');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await answer.arrayBuffer());
    expect(Number(answer.headers.get('content-length'))).toBe(body.length);
    if (file.endsWith('swagger-ui-bundle.js')) expect(body.length).toBeGreaterThan(100_000);
    if (file.includes('/swagger-init-')) expect(body.toString()).toContain('SwaggerUIBundle');
  }
  const version = /\/assets\/swagger-ui\/([^/]+)\//.exec(text)![1]!;
  for (const path of [`/assets/swagger-ui/${version}/package.json`, `/assets/swagger-ui/${version}/index.html`, '/assets/swagger-ui/0.0.1/swagger-ui.css', `/assets/swagger-ui/${version}/..%2Fpackage.json`]) {
    expect((await s.fetch(path)).status, path).toBe(404);
  }
  // The document itself, and error bodies point here.
  expect((await s.fetch('/swagger.v1.json')).status).toBe(200);
  const error = (await (await s.fetch('/api/v1/repos/nobody/nothing')).json()) as { url: string };
  expect(error.url).toBe(`${s.url}api/swagger`);
});

test('without [api] ENABLE_SWAGGER there is no page and no document', async () => {
  const off = await openTestHost({ api: { ENABLE_SWAGGER: false } });
  try {
    const { app } = createApp(off.host);
    const page = await app.fetch(new Request('http://localhost/api/swagger'));
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await app.fetch(new Request('http://localhost/swagger.v1.json'))).status).toBe(404);
  } finally {
    await off.cleanup();
  }
});
