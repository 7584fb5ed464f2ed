/**
 * Issue templates and the issue config over HTTP, read from the default branch as Forgejo reads them: markdown
 * templates with front matter (or without), YAML issue forms with their defaults and checks, the folders searched
 * and their order, `config.y(a)ml` (and its validation), and who may read them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IssueConfigSchema, IssueConfigValidationSchema, IssueTemplateSchema, matchesSchema, parseIssueTemplate, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  h: Record<string, string>;
}

let s: TestServer;

async function account(prefix = 'i'): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name);
  return { name, h: tokenHeader(await createToken(s.host, name)) };
}

async function repoOf(who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('repo');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, ...body }, who.h));
  expect(res.status).toBe(201);
  return `${who.name}/${name}`;
}

async function commitFiles(full: string, who: Account, files: Record<string, string>, branch?: string): Promise<void> {
  const res = await s.fetch(
    `/api/v1/repos/${full}/contents`,
    jsonInit(
      'POST',
      {
        message: 'templates',
        ...(branch ? { branch: 'main', new_branch: branch } : {}),
        files: Object.entries(files).map(([path, content]) => ({ operation: 'create', path, content: Buffer.from(content).toString('base64') })),
      },
      who.h,
    ),
  );
  expect(res.status, await res.clone().text()).toBe(201);
}

async function templates(full: string, headers: Record<string, string> = {}): Promise<any[]> {
  const res = await s.fetch(`/api/v1/repos/${full}/issue_templates`, { headers });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(Array.isArray(body)).toBe(true);
  for (const t of body) expect(matchesSchema(IssueTemplateSchema, t), schemaErrors(IssueTemplateSchema, t).join('\n')).toBe(true);
  return body;
}

async function config(full: string, headers: Record<string, string> = {}): Promise<{ config: any; validation: any }> {
  const res = await s.fetch(`/api/v1/repos/${full}/issue_config`, { headers });
  const body = await json(res);
  expect(res.status).toBe(200);
  expect(matchesSchema(IssueConfigSchema, body), schemaErrors(IssueConfigSchema, body).join('\n')).toBe(true);
  const checked = await s.fetch(`/api/v1/repos/${full}/issue_config/validate`, { headers });
  const validation = await json(checked);
  expect(checked.status).toBe(200);
  expect(matchesSchema(IssueConfigValidationSchema, validation), schemaErrors(IssueConfigValidationSchema, validation).join('\n')).toBe(true);
  return { config: body, validation };
}

const BUG_MD = `---
name: Bug report
about: Something is broken
title: "[BUG] "
labels: bug, help wanted
ref: main
---
Describe the bug.
`;

const FORM_YAML = `name: Feature
description: Ask for a feature
labels: [enhancement]
body:
  - type: markdown
    attributes:
      value: Thanks for asking!
  - type: input
    id: summary
    attributes:
      label: Summary
    validations:
      required: true
  - type: textarea
    attributes:
      label: Details
      render: markdown
  - type: dropdown
    id: area
    attributes:
      label: Area
      options: [api, ui]
      default: 1
  - type: checkboxes
    id: terms
    visible: [form]
    attributes:
      label: Terms
      options:
        - label: I searched first
          required: true
`;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.cleanup();
});

describe('issue templates', () => {
  test('an empty repository and one without templates have none; the config is the default and valid', async () => {
    const alice = await account('alice');
    const empty = await repoOf(alice, { auto_init: false });
    expect(await templates(empty)).toEqual([]);
    expect(await config(empty)).toEqual({ config: { blank_issues_enabled: true, contact_links: [] }, validation: { valid: true, message: '' } });
    const plain = await repoOf(alice);
    expect(await templates(plain)).toEqual([]);
    expect(await config(plain)).toEqual({ config: { blank_issues_enabled: true, contact_links: [] }, validation: { valid: true, message: '' } });
  });

  test('markdown and forms from every folder, in Forgejo order; config files, other files and invalid ones left out', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const plainText = `${'This template has no front matter at all, so its first eighty bytes become about'} and more.\n`;
    await commitFiles(full, alice, {
      '.gitea/ISSUE_TEMPLATE/bug.md': BUG_MD,
      '.gitea/ISSUE_TEMPLATE/form.yaml': FORM_YAML,
      '.gitea/ISSUE_TEMPLATE/config.yml': 'blank_issues_enabled: true\n',
      '.gitea/ISSUE_TEMPLATE/no-body.yaml': 'name: x\nabout: y\n',
      '.gitea/ISSUE_TEMPLATE/bad-id.yml': 'name: x\nabout: y\nbody:\n  - type: input\n    id: "no spaces"\n    attributes: {label: L}\n',
      '.gitea/ISSUE_TEMPLATE/broken.yaml': 'name: [unclosed\n',
      '.gitea/ISSUE_TEMPLATE/notes.txt': 'not a template',
      '.github/ISSUE_TEMPLATE/plain.md': plainText,
      '.forgejo/issue_template/first.md': '---\nname: First\ndescription: From the description key\n---\nbody',
      'ISSUE_TEMPLATE/root.md': '---\nname: Root\nabout: At the root\nref: refs/tags/v1\n---\n',
      'docs/ISSUE_TEMPLATE/doc.md': '---\nname: Doc\nabout: In docs\n---\n',
    });
    const list = await templates(full);
    expect(list.map((t) => t.file_name)).toEqual([
      'ISSUE_TEMPLATE/root.md',
      '.forgejo/issue_template/first.md',
      '.gitea/ISSUE_TEMPLATE/bug.md',
      '.gitea/ISSUE_TEMPLATE/form.yaml',
      '.github/ISSUE_TEMPLATE/plain.md',
      'docs/ISSUE_TEMPLATE/doc.md',
    ]);
    const byFile = new Map(list.map((t) => [t.file_name, t]));
    expect(byFile.get('.gitea/ISSUE_TEMPLATE/bug.md')).toEqual({
      name: 'Bug report',
      title: '[BUG] ',
      about: 'Something is broken',
      labels: ['bug', 'help wanted'],
      ref: 'refs/heads/main',
      content: 'Describe the bug.\n',
      body: null,
      file_name: '.gitea/ISSUE_TEMPLATE/bug.md',
    });
    expect(byFile.get('ISSUE_TEMPLATE/root.md')).toMatchObject({ name: 'Root', ref: 'refs/tags/v1', labels: null, content: '' });
    expect(byFile.get('.forgejo/issue_template/first.md')).toMatchObject({ name: 'First', about: 'From the description key', content: 'body' });
    const plain = byFile.get('.github/ISSUE_TEMPLATE/plain.md');
    expect(plain).toMatchObject({ name: 'plain.md', content: plainText, title: '', ref: 'refs/heads/' });
    expect(plain.about).toBe(`${plainText.slice(0, 77)}…`);

    const form = byFile.get('.gitea/ISSUE_TEMPLATE/form.yaml');
    expect(form).toMatchObject({ name: 'Feature', about: 'Ask for a feature', labels: ['enhancement'], content: '', ref: 'refs/heads/' });
    expect(form.body).toEqual([
      { type: 'markdown', id: '0', attributes: { value: 'Thanks for asking!' }, validations: null, visible: ['form'] },
      { type: 'input', id: 'summary', attributes: { label: 'Summary' }, validations: { required: true }, visible: ['form', 'content'] },
      { type: 'textarea', id: '2', attributes: { label: 'Details', render: 'markdown' }, validations: null, visible: ['form', 'content'] },
      { type: 'dropdown', id: 'area', attributes: { label: 'Area', options: ['api', 'ui'], default: 1 }, validations: null, visible: ['form', 'content'] },
      { type: 'checkboxes', id: 'terms', attributes: { label: 'Terms', options: [{ label: 'I searched first', required: true }] }, validations: null, visible: ['form'] },
    ]);
  });

  test('only the default branch counts', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    await commitFiles(full, alice, { '.gitea/ISSUE_TEMPLATE/bug.md': BUG_MD }, 'feature');
    expect(await templates(full)).toEqual([]);
    expect((await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', { default_branch: 'feature' }, alice.h))).status).toBe(200);
    expect((await templates(full)).map((t) => t.name)).toEqual(['Bug report']);
  });

  test('a private repository: 404 for anonymous and strangers, the owner reads', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const full = await repoOf(alice, { private: true });
    await commitFiles(full, alice, { '.github/ISSUE_TEMPLATE/bug.md': BUG_MD });
    for (const path of ['issue_templates', 'issue_config', 'issue_config/validate']) {
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/${path}`), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/${path}`, { headers: bob.h }), 404, s.url);
    }
    expect((await templates(full, alice.h)).map((t) => t.name)).toEqual(['Bug report']);
  });
});

describe('templates Forgejo reads, and files that would break a parser', () => {
  const DIRS = [
    'ISSUE_TEMPLATE',
    'issue_template',
    '.forgejo/ISSUE_TEMPLATE',
    '.forgejo/issue_template',
    '.gitea/ISSUE_TEMPLATE',
    '.gitea/issue_template',
    '.github/ISSUE_TEMPLATE',
    '.github/issue_template',
    '.gitlab/ISSUE_TEMPLATE',
    '.gitlab/issue_template',
    'docs/ISSUE_TEMPLATE',
    'docs/issue_template',
  ];

  test('every folder, markdown and both form extensions; the single-file forms are not API templates', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const files: Record<string, string> = {
      // Forgejo's web page reads these when no folder has templates; its API lists folders only.
      'ISSUE_TEMPLATE.md': BUG_MD,
      '.gitea/ISSUE_TEMPLATE.md': BUG_MD,
      '.github/issue_template.md': BUG_MD,
      '.gitea/issue_template/config.yml': 'blank_issues_enabled: false\n',
    };
    DIRS.forEach((dir, index) => {
      files[`${dir}/a.md`] = `---\nname: md ${index}\nabout: x\n---\n`;
      files[`${dir}/b.${index % 2 === 0 ? 'yaml' : 'yml'}`] = FORM_YAML.replace('name: Feature', `name: form ${index}`);
    });
    await commitFiles(full, alice, files);
    const list = await templates(full);
    expect(list.map((t) => t.file_name)).toEqual(DIRS.flatMap((dir, index) => [`${dir}/a.md`, `${dir}/b.${index % 2 === 0 ? 'yaml' : 'yml'}`]));
    expect(list.map((t) => t.name)).toEqual(DIRS.flatMap((_, index) => [`md ${index}`, `form ${index}`]));
    expect((await config(full)).config.blank_issues_enabled).toBe(false);
  });

  test('an alias bomb, deep nesting, merge keys and a second document: templates left out, config reported by validate, never a 500', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]'].join('\n');
    await commitFiles(full, alice, {
      '.gitea/ISSUE_TEMPLATE/bomb.yaml': `${bomb}\nname: x\nabout: y\n`,
      '.gitea/ISSUE_TEMPLATE/bomb.md': `---\n${bomb}\nname: x\nabout: y\n---\n`,
      '.gitea/ISSUE_TEMPLATE/deep.yaml': `name: x\nabout: y\nbody: ${'['.repeat(50_000)}`,
      '.gitea/ISSUE_TEMPLATE/merged.yaml': 'base: &base {label: Summary}\nname: Merged\nabout: y\nbody: [{type: input, id: s, attributes: {<<: *base}}]\n',
      '.gitea/ISSUE_TEMPLATE/two.yaml': 'name: Two\nabout: y\nbody: [{type: markdown, attributes: {value: v}}]\n---\nname: [\n',
      '.gitea/ISSUE_TEMPLATE/config.yml': `${bomb}\n`,
    });
    const list = await templates(full);
    // The markdown one loses its front matter and becomes a whole-file template, as Forgejo reads it.
    expect(list.map((t) => t.name)).toEqual(['bomb.md', 'Merged', 'Two']);
    expect(list[1].body[0].attributes).toEqual({ label: 'Summary' });
    const { config: served, validation } = await config(full);
    expect(served).toEqual({ blank_issues_enabled: true, contact_links: [] });
    expect(validation.valid).toBe(false);
    expect(validation.message).toMatch(/^yaml: /);
  });
});

describe('issue config', () => {
  test('the first config file found is read; .forgejo before .gitea, .yaml before .yml', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    await commitFiles(full, alice, {
      '.gitea/ISSUE_TEMPLATE/config.yml': 'blank_issues_enabled: true\n',
      '.forgejo/ISSUE_TEMPLATE/config.yml': 'blank_issues_enabled: true\ncontact_links: []\n',
      '.forgejo/ISSUE_TEMPLATE/config.yaml': [
        'blank_issues_enabled: false',
        'contact_links:',
        '  - name: Forum',
        '    url: https://forum.example.com',
        '    about: Ask there',
        '  - name: Docs',
        '    url: /docs',
        '    about: Read these',
        '',
      ].join('\n'),
    });
    expect(await config(full)).toEqual({
      config: {
        blank_issues_enabled: false,
        contact_links: [
          { name: 'Forum', url: 'https://forum.example.com', about: 'Ask there' },
          { name: 'Docs', url: '/docs', about: 'Read these' },
        ],
      },
      validation: { valid: true, message: '' },
    });
  });

  test('an invalid config: the defaults are served and validate says why', async () => {
    const alice = await account('alice');
    const cases: [string, string | RegExp][] = [
      ['contact_links:\n  - name: A\n    url: https://a.example\n', 'contact_link at position 1 is missing about key'],
      ['contact_links:\n  - url: https://a.example\n    about: x\n', 'contact_link at position 1 is missing name key'],
      ['contact_links:\n  - name: A\n    about: x\n  - name: B\n    about: y\n', 'contact_link at position 1 is missing url key'],
      ['contact_links:\n  - name: A\n    url: not a url\n    about: x\n', 'not a url is not a valid URL'],
      ['blank_issues_enabled: maybe\n', /cannot unmarshal/],
      ['blank_issues_enabled: [\n', /^yaml: line \d+: /],
      ['just a string\n', /cannot unmarshal/],
    ];
    for (const [text, message] of cases) {
      const full = await repoOf(alice);
      await commitFiles(full, alice, { '.github/issue_template/config.yml': text });
      const { config: served, validation } = await config(full);
      expect(served, text).toEqual({ blank_issues_enabled: true, contact_links: [] });
      expect(validation.valid, text).toBe(false);
      if (typeof message === 'string') expect(validation.message, text).toBe(message);
      else expect(validation.message, text).toMatch(message);
    }
  });

  test('an empty config file is the default, and valid', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    await commitFiles(full, alice, { '.gitea/ISSUE_TEMPLATE/config.yaml': '' });
    expect(await config(full)).toEqual({ config: { blank_issues_enabled: true, contact_links: [] }, validation: { valid: true, message: '' } });
  });
});

describe('template checks', () => {
  const rejects = async (file: string, text: string, message: string | RegExp) => {
    const error = await parseIssueTemplate(file, text).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error, text).toBeDefined();
    if (typeof message === 'string') expect(error).toBe(message);
    else expect(error).toMatch(message);
  };

  test('forms: name, about, body, field ids, labels, options, defaults, hidden required fields', async () => {
    await rejects('a.yaml', 'about: x\nbody: [{type: markdown, attributes: {value: v}}]', "'name' is required");
    await rejects('a.yaml', 'name: x\nbody: [{type: markdown, attributes: {value: v}}]', "'about' is required");
    await rejects('a.yaml', 'name: x\nabout: y\nbody: []', "'body' is required");
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: markdown}]', "body[0](markdown): 'value' is required");
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: input, id: a b, attributes: {label: L}}]', "body[0](input): 'id' should contain only alphanumeric, '-' and '_'");
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: input, id: a, attributes: {label: L}}, {type: textarea, id: a, attributes: {label: M}}]', "body[1](textarea): 'id' should be unique");
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: input, attributes: {}}]', "body[0](input): 'label' is required");
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: color, attributes: {label: L}}]', 'body[0](color): unknown type');
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: dropdown, attributes: {label: L}}]', "body[0](dropdown): 'options' is required and should be a array");
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: dropdown, attributes: {label: L, options: [1]}}]', 'body[0](dropdown), option[0]: should be a string');
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: dropdown, attributes: {label: L, options: [a], default: 3}}]', "body[0](dropdown): the value of 'default' is out of range");
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: checkboxes, attributes: {label: L, options: [a]}}]', 'body[0](checkboxes), option[0]: should be a dictionary');
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: checkboxes, attributes: {label: L, options: [{label: a, required: true, visible: [content]}]}}]', 'body[0](checkboxes), option[0]: can not require a hidden checkbox');
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: input, visible: [content], attributes: {label: L}, validations: {required: true}}]', 'body[0](input): can not require a hidden field');
    await rejects('a.yaml', 'name: x\nabout: y\nbody: [{type: input, attributes: {label: L}, validations: {required: "yes"}}]', "body[0](input): 'required' should be a bool");
    await rejects('a.yaml', 'name: x\nname: y\n', /^yaml: line 2: /);
    await rejects('a.yaml', '- a\n- b\n', /cannot unmarshal !!seq into IssueTemplate/);
  });

  test('markdown: a front matter that is not YAML makes the whole file the template; labels read either way', async () => {
    const broken = await parseIssueTemplate('x/t.md', '---\nname: [\n---\nhello');
    expect(broken).toMatchObject({ name: 't.md', content: '---\nname: [\n---\nhello', about: '---\nname: [\n---\nhello' });
    expect((await parseIssueTemplate('t.md', '---\nname: n\nabout: a\nlabels: [x, y]\n---\n')).labels).toEqual(['x', 'y']);
    expect((await parseIssueTemplate('t.md', '---\nname: n\nabout: a\nlabels: " , "\n---\n')).labels).toBeNull();
    await rejects('t.md', '---\nname: n\n---\nbody', "'about' is required");
    await rejects('t.md', '', "'about' is required");
    const long = 'é'.repeat(100);
    expect((await parseIssueTemplate('t.md', long)).about).toBe(`${'é'.repeat(38)}…`);
  });
});
