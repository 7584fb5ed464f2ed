/**
 * Repository templates: the built-in .gitignore, license, label set and README templates, what creating a
 * repository makes of them (composed .gitignore, filled LICENSE, README), unknown names, and the label rows a
 * label set becomes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { BadRequestError, GitignoreTemplateInfoSchema, LabelTemplateSchema, LicenseTemplateInfoSchema, LicensesTemplateListEntrySchema, NotFoundError, ValidationError, matchesSchema, schemaErrors, userActor, type ApiLabelTemplate, type Label, type RepoHost, type RepoTemplatesService } from '@repohost/core';
import { LabelsStore } from '@repohost/core/internal';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

let t: TestHost;
let host: RepoHost;
let templates: RepoTemplatesService;

beforeAll(async () => {
  t = await openTestHost();
  host = t.host;
  templates = host.repoTemplates;
});
afterAll(async () => t?.cleanup());

function expectSchema(schema: Parameters<typeof matchesSchema>[0], value: unknown): void {
  expect(matchesSchema(schema, value), schemaErrors(schema, value).join('; ')).toBe(true);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** Byte order, as Forgejo (Go's sort.Strings) lists template names. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('.gitignore templates', () => {
  it('lists the common templates under Forgejo\'s names, in byte order', () => {
    const names = templates.gitignoreNames();
    expect(names.length).toBeGreaterThanOrEqual(30);
    for (const name of ['C', 'C++', 'Go', 'Node', 'Python', 'Java', 'Rust', 'Ruby', 'Swift', 'Kotlin', 'Android', 'Haskell', 'Elixir', 'Dart', 'Unity', 'VisualStudio', 'Terraform', 'Linux', 'macOS', 'Windows', 'JetBrains', 'VisualStudioCode', 'Vim', 'Emacs']) {
      expect(names, name).toContain(name);
    }
    expect([...names].sort(byteOrder)).toEqual(names);
    expect(new Set(names).size).toBe(names.length);
    // A copy: the caller cannot change the list.
    names.pop();
    expect(templates.gitignoreNames().length).toBe(names.length + 1);
  });

  it('serves a template\'s name and text', async () => {
    const c = await templates.gitignore('C');
    expectSchema(GitignoreTemplateInfoSchema, c);
    expect(c.name).toBe('C');
    expect(c.source).toContain('*.o\n');
    expect((await templates.gitignore('Node')).source).toContain('node_modules/');
    expect((await templates.gitignore('macOS')).source).toContain('.DS_Store');
    expect((await templates.gitignore('C++')).source).toContain('*.obj');
  });

  it('finds nothing under an unknown, differently cased or path-like name', async () => {
    for (const name of ['Nope', 'c', 'NODE', '', '../C', 'Global/macOS', 'C,C++', 'toString', '__proto__', 'x'.repeat(5000)]) {
      expect(await rejection(templates.gitignore(name)), name).toBeInstanceOf(NotFoundError);
    }
  });

  it('composes several templates as Forgejo writes them, each under a "# ---> Name" line', async () => {
    const c = (await templates.gitignore('C')).source;
    const cpp = (await templates.gitignore('C++')).source;
    expect(await templates.composeGitignore('C,C++')).toBe(`# ---> C\n${c}\n# ---> C++\n${cpp}\n`);
    expect(await templates.composeGitignore(' C , C++ ')).toBe(`# ---> C\n${c}\n# ---> C++\n${cpp}\n`);
    expect(await templates.composeGitignore('Go')).toBe(`# ---> Go\n${(await templates.gitignore('Go')).source}\n`);
    expect(await templates.composeGitignore('')).toBe('');
    expect(await templates.composeGitignore(' , ')).toBe('');
  });

  it('refuses a list naming an unknown template, naming it', async () => {
    const error = await rejection(templates.composeGitignore('C,NoSuchThing,Go'));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('gitignores');
    expect((error as ValidationError).message).toContain('NoSuchThing');
    expect(await rejection(templates.composeGitignore('c'))).toBeInstanceOf(ValidationError);
  });
});

describe('license templates', () => {
  it('lists SPDX ids, Forgejo\'s preferred Apache-2.0 and MIT first, each with its API URL', () => {
    const list = templates.licenseNames();
    expectSchema(Type.Array(LicensesTemplateListEntrySchema), list);
    expect(list.slice(0, 2).map((l) => l.key)).toEqual(['Apache-2.0', 'MIT']);
    const ids = list.map((l) => l.key);
    for (const id of ['GPL-2.0-only', 'GPL-3.0-only', 'GPL-3.0-or-later', 'LGPL-2.1-only', 'LGPL-3.0-only', 'AGPL-3.0-only', 'BSD-2-Clause', 'BSD-3-Clause', 'MPL-2.0', 'Unlicense', 'ISC', 'CC0-1.0', 'EPL-2.0', 'BSL-1.0', '0BSD', 'Zlib']) {
      expect(ids, id).toContain(id);
    }
    const rest = ids.slice(2);
    expect([...rest].sort(byteOrder)).toEqual(rest);
    for (const entry of list) {
      expect(entry.name).toBe(entry.key);
      expect(entry.url).toBe(`${host.settings.server.ROOT_URL}api/v1/licenses/${entry.key}`);
    }
  });

  it('serves a license\'s real text, unfilled', async () => {
    const mit = await templates.license('MIT');
    expectSchema(LicenseTemplateInfoSchema, mit);
    expect(mit).toMatchObject({ key: 'MIT', name: 'MIT', url: `${host.settings.server.ROOT_URL}api/v1/licenses/MIT` });
    expect(mit.body).toMatch(/^MIT License\n/);
    expect(mit.body).toContain('<year> <copyright holders>');
    expect(mit.body).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
    expect(mit.implementation).toMatch(/^Create a text file \(typically named LICENSE or LICENSE\.txt\)/);
    const gpl = await templates.license('GPL-3.0-only');
    expect(gpl.body).toContain('GNU GENERAL PUBLIC LICENSE');
    expect(gpl.body.length).toBeGreaterThan(30_000);
    expect((await templates.license('Apache-2.0')).body).toContain('Apache License');
  });

  it('finds no license under an unknown or differently cased id', async () => {
    for (const name of ['mit', 'GPL-3.0', 'Nope', '', '../MIT', 'constructor', 'x'.repeat(5000)]) {
      expect(await rejection(templates.license(name)), name).toBeInstanceOf(NotFoundError);
    }
  });

  it('fills the copyright placeholders of the LICENSE a repository is created with', async () => {
    const vars = { year: '2031', owner: 'Alice Example', repo: 'demo', email: 'alice@example.com' };
    const mit = await templates.licenseText('MIT', vars);
    expect(mit).toContain('Copyright (c) 2031 Alice Example\n');
    expect(mit).not.toContain('<year>');
    expect(mit.endsWith('\n')).toBe(true);

    const apache = await templates.licenseText('Apache-2.0', vars);
    expect(apache).toContain('Copyright 2031 Alice Example');
    expect(apache).not.toMatch(/\[yyyy\]|\[name of copyright owner\]/);

    const bsd = await templates.licenseText('BSD-3-Clause', vars);
    expect(bsd).toContain('Copyright (c) 2031 Alice Example.');

    const gpl = await templates.licenseText('GPL-3.0-only', vars);
    expect(gpl).toMatch(/demo {1,2}Copyright \(C\) 2031 {1,2}Alice Example/);
    expect(gpl).not.toMatch(/<year>|<name of author>|<program>/);

    // 0BSD's placeholders are bare words: only its copyright line is filled, "THE AUTHOR" elsewhere stays.
    const zeroBsd = await templates.licenseText('0BSD', vars);
    expect(zeroBsd).toContain('Copyright (C) 2031 by Alice Example alice@example.com\n');
    expect(zeroBsd).toContain('THE AUTHOR DISCLAIMS');

    // Without an address the address placeholder stays as written.
    expect(await templates.licenseText('0BSD', { year: '2031', owner: 'Alice', repo: 'demo' })).toContain('Copyright (C) 2031 by Alice EMAIL');
  });

  it('refuses an unknown license for a new repository', async () => {
    const error = await rejection(templates.licenseText('NOT-A-LICENSE', { year: '2031', owner: 'a', repo: 'b' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('license');
    expect((error as ValidationError).message).toContain('NOT-A-LICENSE');
  });
});

describe('label sets', () => {
  it('lists Forgejo\'s label sets', () => {
    expect(templates.labelSetNames()).toEqual(['Advanced', 'Default']);
  });

  it('has Forgejo\'s Default labels, exactly', () => {
    const labels = templates.labelSet('Default');
    expectSchema(Type.Array(LabelTemplateSchema), labels);
    expect(labels).toEqual([
      { name: 'bug', exclusive: false, color: 'ee0701', description: 'Something is not working' },
      { name: 'duplicate', exclusive: false, color: 'cccccc', description: 'This issue or pull request already exists' },
      { name: 'enhancement', exclusive: false, color: '84b6eb', description: 'New feature' },
      { name: 'help wanted', exclusive: false, color: '128a0c', description: 'Need some help' },
      { name: 'invalid', exclusive: false, color: 'e6e6e6', description: 'Something is wrong' },
      { name: 'question', exclusive: false, color: 'cc317c', description: 'More information is needed' },
      { name: 'wontfix', exclusive: false, color: 'ffffff', description: "This won't be fixed" },
    ]);
  });

  it('has Forgejo\'s Advanced scoped labels, with exclusive scopes', () => {
    const labels = templates.labelSet('Advanced');
    expectSchema(Type.Array(LabelTemplateSchema), labels);
    expect(labels).toHaveLength(18);
    const byName = new Map(labels.map((l) => [l.name, l]));
    expect(byName.get('Kind/Bug')).toEqual({ name: 'Kind/Bug', exclusive: false, color: 'ee0701', description: 'Something is not working' });
    expect(byName.get('Compat/Breaking')).toEqual({ name: 'Compat/Breaking', exclusive: false, color: 'c62828', description: "Breaking change that won't be backward compatible" });
    expect(byName.get('Priority/Critical')).toEqual({ name: 'Priority/Critical', exclusive: true, color: 'b71c1c', description: 'The priority is critical' });
    expect(byName.get('Status/Abandoned')?.color).toBe('222222');
    for (const l of labels) {
      expect(l.color, l.name).toMatch(/^[0-9a-f]{6}$/);
      const scope = l.name.slice(0, l.name.lastIndexOf('/'));
      expect(l.exclusive, l.name).toBe(['Reviewed', 'Status', 'Priority'].includes(scope));
    }
  });

  it('hands out copies: changing one does not change the set', () => {
    const labels = templates.labelSet('Default');
    labels[0]!.name = 'changed';
    labels.pop();
    expect(templates.labelSet('Default')[0]!.name).toBe('bug');
    expect(templates.labelSet('Default')).toHaveLength(7);
  });

  it('finds no label set under an unknown or differently cased name', () => {
    for (const name of ['default', 'ADVANCED', 'Nope', '', 'Default.yaml', '../Default', '__proto__']) {
      expect(thrown(() => templates.labelSet(name)), name).toBeInstanceOf(NotFoundError);
    }
    const error = thrown(() => templates.issueLabels('Nope'));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('issue_labels');
    expect((error as ValidationError).message).toContain('label template "Nope" not found');
    expect(templates.issueLabels('Advanced')).toEqual(templates.labelSet('Advanced'));
  });
});

describe('README templates', () => {
  it('has Forgejo\'s one Default template: the name as a heading, then the description', () => {
    expect(templates.readmeNames()).toEqual(['Default']);
    expect(templates.readme('Default', { name: 'demo', description: 'A demo repository' })).toBe('# demo\n\nA demo repository');
    expect(templates.readme('Default', { name: 'demo', description: '' })).toBe('# demo\n\n');
  });

  it('does not expand variables inside the values it substitutes', () => {
    expect(templates.readme('Default', { name: '{Description}', description: 'has {Name} and {OwnerName}' })).toBe('# {Description}\n\nhas {Name} and {OwnerName}');
  });

  it('refuses an unknown template with Forgejo\'s message', () => {
    for (const name of ['default', 'Nope', '']) {
      const error = thrown(() => templates.readme(name, { name: 'demo', description: '' }));
      expect(error, name).toBeInstanceOf(BadRequestError);
      expect((error as Error).message).toBe('readme template does not exist, available templates: [Default]');
    }
  });
});

describe('labels of a repository', () => {
  it('stores a label set as rows of the label table, in the creating transaction, and lists them by name', async () => {
    const alice = await createUser(host, 'labelowner');
    const set = templates.labelSet('Advanced');
    let inside: Label[] = [];
    let other: Label[] = [];
    const subscription = host.events.withinTransaction('repo.created', async (event, tx) => {
      const labels = tx.store(LabelsStore);
      await labels.insertMany(event.payload.repo.id, set);
      await labels.insertMany(event.payload.repo.id, []);
      inside = await labels.listOfRepo(event.payload.repo.id);
      other = await labels.listOfRepo(event.payload.repo.id + 1_000_000);
    });
    try {
      const { repo } = await host.repos.create(userActor(alice), { name: 'labelled' });
      expect(inside).toHaveLength(set.length);
      expect(other).toEqual([]);
      expect(inside.map((l) => l.name)).toEqual(set.map((l) => l.name).sort());
      const bug = inside.find((l) => l.name === 'Kind/Bug')!;
      expect(bug).toMatchObject({ repo_id: repo.id, org_id: 0, exclusive: 0, color: '#ee0701', description: 'Something is not working', num_issues: 0, num_closed_issues: 0, archived_unix: 0 });
      expect(Number(bug.created_unix)).toBeGreaterThan(0);
      expect(inside.find((l) => l.name === 'Priority/Low')).toMatchObject({ exclusive: 1, color: '#4caf50' });
      expect(new Set(inside.map((l) => l.id)).size).toBe(set.length);
    } finally {
      subscription();
    }
  });

  it('keeps the label rows out when the creation rolls back', async () => {
    const bob = await createUser(host, 'labelrollback');
    let repoId = 0;
    const insert = host.events.withinTransaction('repo.created', async (event, tx) => {
      repoId = event.payload.repo.id;
      await tx.store(LabelsStore).insertMany(repoId, templates.labelSet('Default') as ApiLabelTemplate[]);
      throw new Error('fail after inserting labels');
    });
    try {
      await expect(host.repos.create(userActor(bob), { name: 'rolledback' })).rejects.toThrow('fail after inserting labels');
    } finally {
      insert();
    }
    let after: Label[] | undefined;
    const read = host.events.withinTransaction('repo.created', async (_event, tx) => {
      after = await tx.store(LabelsStore).listOfRepo(repoId);
    });
    try {
      await host.repos.create(userActor(bob), { name: 'reader' });
    } finally {
      read();
    }
    expect(repoId).toBeGreaterThan(0);
    expect(after).toEqual([]);
  });
});
