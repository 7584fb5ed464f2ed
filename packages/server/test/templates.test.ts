/**
 * The template lists over real HTTP: `/gitignore/templates`, `/licenses`, `/label/templates` and one template
 * of each, read anonymously or with any token, bodies checked against the schemas; unknown or odd names are 404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import {
  GitignoreTemplateInfoSchema,
  LabelTemplateSchema,
  LicenseTemplateInfoSchema,
  LicensesTemplateListEntrySchema,
  TemplateNamesSchema,
  matchesSchema,
  schemaErrors,
} from '@repohost/core';
import { createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.cleanup();
});

function expectSchema(schema: Parameters<typeof matchesSchema>[0], value: unknown): void {
  expect(matchesSchema(schema, value), schemaErrors(schema, value).join('; ')).toBe(true);
}

async function getJson(path: string, init?: RequestInit): Promise<{ res: Response; body: any }> {
  const res = await s.fetch(path, init);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { res, body: await json(res) };
}

describe('GET /gitignore/templates', () => {
  test('lists the template names anonymously, as a plain array with no paging headers', async () => {
    const { res, body } = await getJson('/api/v1/gitignore/templates');
    expectSchema(TemplateNamesSchema, body);
    expect(body).toEqual(s.host.repoTemplates.gitignoreNames());
    expect(body).toEqual(expect.arrayContaining(['C', 'C++', 'Go', 'Node', 'Python', 'macOS', 'VisualStudioCode']));
    expect(res.headers.get('x-total-count')).toBeNull();
  });

  test('GET /gitignore/templates/{name} returns the name and text', async () => {
    const { body } = await getJson('/api/v1/gitignore/templates/Node');
    expectSchema(GitignoreTemplateInfoSchema, body);
    expect(body.name).toBe('Node');
    expect(body.source).toContain('node_modules/');
    // A name that needs escaping in a path.
    const cpp = await getJson('/api/v1/gitignore/templates/C%2B%2B');
    expect(cpp.body.name).toBe('C++');
    expect(cpp.body.source).toBe((await s.host.repoTemplates.gitignore('C++')).source);
  });

  test('an unknown, differently cased, path-like or huge name is 404', async () => {
    for (const name of ['Nope', 'node', '..%2FNode', '..%2F', '%2E%2E', 'Global%2FmacOS', 'C%2CGo', '__proto__', 'x'.repeat(4000)]) {
      const res = await s.fetch(`/api/v1/gitignore/templates/${name}`);
      await expectApiError(res, 404, s.url);
    }
  });
});

describe('GET /licenses', () => {
  test('lists SPDX ids with their API URLs, Apache-2.0 and MIT first', async () => {
    const { res, body } = await getJson('/api/v1/licenses');
    expectSchema(Type.Array(LicensesTemplateListEntrySchema), body);
    expect(body.slice(0, 2)).toEqual([
      { key: 'Apache-2.0', name: 'Apache-2.0', url: `${s.url}api/v1/licenses/Apache-2.0` },
      { key: 'MIT', name: 'MIT', url: `${s.url}api/v1/licenses/MIT` },
    ]);
    expect(body.map((l: { key: string }) => l.key)).toEqual(expect.arrayContaining(['GPL-3.0-only', 'GPL-3.0-or-later', 'BSD-3-Clause', 'MPL-2.0', 'Unlicense']));
    expect(res.headers.get('x-total-count')).toBeNull();
  });

  test('GET /licenses/{name} returns the license text, reachable at the listed URL', async () => {
    const { body: list } = await getJson('/api/v1/licenses');
    const gplEntry = list.find((l: { key: string }) => l.key === 'GPL-3.0-or-later');
    const res = await fetch(gplEntry.url);
    expect(res.status).toBe(200);
    const gpl = await json(res);
    expectSchema(LicenseTemplateInfoSchema, gpl);
    expect(gpl).toMatchObject({ key: 'GPL-3.0-or-later', name: 'GPL-3.0-or-later', url: gplEntry.url });
    expect(gpl.body).toContain('GNU GENERAL PUBLIC LICENSE');
    expect(gpl.implementation).toMatch(/^Create a text file/);

    const { body: mit } = await getJson('/api/v1/licenses/MIT');
    expect(mit.body).toContain('Copyright (c) <year> <copyright holders>');
  });

  test('an unknown, differently cased or path-like license is 404', async () => {
    for (const name of ['mit', 'NOPE', '..%2FMIT', '..%2F', 'MIT%00', 'x'.repeat(4000)]) {
      const res = await s.fetch(`/api/v1/licenses/${name}`);
      await expectApiError(res, 404, s.url);
    }
  });
});

describe('GET /label/templates', () => {
  test('lists Forgejo\'s label sets', async () => {
    const { body } = await getJson('/api/v1/label/templates');
    expectSchema(TemplateNamesSchema, body);
    expect(body).toEqual(['Advanced', 'Default']);
  });

  test('GET /label/templates/{name} returns the labels, colors without "#"', async () => {
    const { body } = await getJson('/api/v1/label/templates/Default');
    expectSchema(Type.Array(LabelTemplateSchema), body);
    expect(body[0]).toEqual({ name: 'bug', exclusive: false, color: 'ee0701', description: 'Something is not working' });
    expect(body).toHaveLength(7);

    const advanced = (await getJson('/api/v1/label/templates/Advanced')).body;
    expectSchema(Type.Array(LabelTemplateSchema), advanced);
    expect(advanced).toEqual(s.host.repoTemplates.labelSet('Advanced'));
    expect(advanced.find((l: { name: string }) => l.name === 'Priority/High')).toEqual({ name: 'Priority/High', exclusive: true, color: 'd32f2f', description: 'The priority is high' });
  });

  test('an unknown, differently cased or path-like label set is 404', async () => {
    for (const name of ['default', 'Nope', 'Default.yaml', '..%2FDefault', '..%2F', 'x'.repeat(4000)]) {
      const res = await s.fetch(`/api/v1/label/templates/${name}`);
      await expectApiError(res, 404, s.url);
    }
  });
});

describe('who may read the templates', () => {
  test('any signed-in caller, whatever its token scopes', async () => {
    const name = uniq('tpl');
    await createUser(s.host, name);
    const token = await createToken(s.host, name, ['read:issue']);
    for (const path of ['/api/v1/gitignore/templates', '/api/v1/gitignore/templates/Go', '/api/v1/licenses', '/api/v1/licenses/MIT', '/api/v1/label/templates', '/api/v1/label/templates/Advanced']) {
      const res = await s.fetch(path, { headers: tokenHeader(token) });
      expect(res.status, path).toBe(200);
    }
  });

  test('a wrong token is refused before anything is read', async () => {
    const res = await s.fetch('/api/v1/licenses', { headers: tokenHeader('0'.repeat(40)) });
    await expectApiError(res, 401, s.url);
  });

  test('only GET is routed', async () => {
    const res = await s.fetch('/api/v1/licenses/MIT', { method: 'DELETE' });
    expect([404, 405]).toContain(res.status);
  });
});

describe('the swagger document', () => {
  test('documents the six operations under Forgejo\'s operation ids', async () => {
    const doc = (await getJson('/swagger.v1.json')).body;
    const ops: [string, string][] = [
      ['/gitignore/templates', 'listGitignoresTemplates'],
      ['/gitignore/templates/{name}', 'getGitignoreTemplateInfo'],
      ['/licenses', 'listLicenseTemplates'],
      ['/licenses/{name}', 'getLicenseTemplateInfo'],
      ['/label/templates', 'listLabelTemplates'],
      ['/label/templates/{name}', 'getLabelTemplateInfo'],
    ];
    for (const [path, id] of ops) {
      expect(doc.paths[path]?.get?.operationId, path).toBe(id);
      if (path.endsWith('{name}')) expect(doc.paths[path].get.responses['404'], path).toBeDefined();
    }
    expect(doc.definitions.LicenseTemplateInfo.properties).toHaveProperty('implementation');
    expect(doc.definitions.LabelTemplate.properties).toHaveProperty('exclusive');
  });
});
