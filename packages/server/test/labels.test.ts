/**
 * Repository and organization labels over HTTP: create (colors as Forgejo normalizes them), read by id or name,
 * list with paging and sorts, edit (Forgejo's `is_archived` rule), delete; who may do each (anonymous, readers,
 * strangers, writers, organization owners), private repositories, labels of other repositories, bad input.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { LabelSchema, SYSTEM, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const LabelListSchema = Type.Array(LabelSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('labels', () => {
  let s: TestServer;
  let owner: Account;
  let writer: Account;
  let reader: Account;
  let stranger: Account;

  async function account(prefix: string): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name);
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  async function repo(isPrivate = false): Promise<string> {
    const name = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate }, owner.h))).status).toBe(201);
    const path = `${owner.name}/${name}`;
    expect((await s.fetch(`/api/v1/repos/${path}/collaborators/${writer.name}`, jsonInit('PUT', { permission: 'write' }, owner.h))).status).toBe(204);
    expect((await s.fetch(`/api/v1/repos/${path}/collaborators/${reader.name}`, jsonInit('PUT', { permission: 'read' }, owner.h))).status).toBe(204);
    return path;
  }

  const call = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1/${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  async function created(path: string, who: Account, body: Record<string, unknown>): Promise<any> {
    const res = await call('POST', path, who, body);
    const label = await json(res);
    expect(res.status, JSON.stringify(label)).toBe(201);
    expect(schemaErrors(LabelSchema, label)).toEqual([]);
    return label;
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    writer = await account('wri');
    reader = await account('rea');
    stranger = await account('str');
  });
  afterAll(async () => s?.cleanup());

  test('create: colors with or without #, three or six digits, stored lower case; the view is complete', async () => {
    const path = await repo();
    const blue = await created(`repos/${path}/labels`, owner, { name: 'blue', color: '#0000FF', description: 'CMYB' });
    expect(blue).toEqual({
      id: blue.id,
      name: 'blue',
      exclusive: false,
      is_archived: false,
      color: '0000ff',
      description: 'CMYB',
      url: `${s.url}api/v1/repos/${path}/labels/${blue.id}`,
    });
    expect((await created(`repos/${path}/labels`, writer, { name: 'gray', color: '808080' })).color).toBe('808080');
    expect((await created(`repos/${path}/labels`, owner, { name: 'short', color: 'aBc' })).color).toBe('aabbcc');
    expect((await created(`repos/${path}/labels`, owner, { name: 'hash-short', color: '#F0a' })).color).toBe('ff00aa');
    const scoped = await created(`repos/${path}/labels`, owner, { name: 'prio/high', color: '#ff0000', exclusive: true, is_archived: true });
    expect(scoped).toMatchObject({ exclusive: true, is_archived: true });

    for (const color of ['zzzzzz', '#12345', '1234567', '#ggg', ' 123456', '##123456']) {
      const message = await expectApiError(await call('POST', `repos/${path}/labels`, owner, { name: 'bad', color }), 422, s.url);
      expect(message).toContain('bad color code');
    }
    await expectApiError(await call('POST', `repos/${path}/labels`, owner, { name: '', color: '123456' }), 422, s.url);
    await expectApiError(await call('POST', `repos/${path}/labels`, owner, { name: 'x' }), 422, s.url);
    await expectApiError(await call('POST', `repos/${path}/labels`, owner, { name: 'x', color: '' }), 422, s.url);
    await expectApiError(await call('POST', `repos/${path}/labels`, owner, { name: 'x', color: 123456 }), 422, s.url);
  });

  test('read one by id or by name; list pages, counts and sorts', async () => {
    const path = await repo();
    const names = ['delta', 'alpha', 'charlie', 'bravo'];
    const labels = [];
    for (const name of names) labels.push(await created(`repos/${path}/labels`, owner, { name, color: '00aabb' }));

    let res = await call('GET', `repos/${path}/labels/${labels[0].id}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(labels[0]);
    res = await call('GET', `repos/${path}/labels/charlie`);
    expect(res.status).toBe(200);
    expect((await json(res)).id).toBe(labels[2].id);
    await expectApiError(await call('GET', `repos/${path}/labels/nope`), 404, s.url);
    await expectApiError(await call('GET', `repos/${path}/labels/999999`), 404, s.url);

    res = await call('GET', `repos/${path}/labels?limit=3`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('4');
    const page1 = await json(res);
    expect(schemaErrors(LabelListSchema, page1)).toEqual([]);
    expect(page1.map((l: { name: string }) => l.name)).toEqual(['alpha', 'bravo', 'charlie']);
    res = await call('GET', `repos/${path}/labels?limit=3&page=2`);
    expect((await json(res)).map((l: { name: string }) => l.name)).toEqual(['delta']);
    res = await call('GET', `repos/${path}/labels?sort=reversealphabetically`);
    expect((await json(res)).map((l: { name: string }) => l.name)).toEqual(['delta', 'charlie', 'bravo', 'alpha']);
    await expectApiError(await call('GET', `repos/${path}/labels?sort=sideways`), 422, s.url);
  });

  test('edit: given fields change, a bad color is a 422, and leaving out is_archived unarchives (as Forgejo does)', async () => {
    const path = await repo();
    const label = await created(`repos/${path}/labels`, owner, { name: 'old', color: '111111', description: 'd', is_archived: true });
    let res = await call('PATCH', `repos/${path}/labels/${label.id}`, writer, { color: '#0E0175', description: 'blueish', is_archived: true });
    let edited = await json(res);
    expect(res.status).toBe(200);
    expect(schemaErrors(LabelSchema, edited)).toEqual([]);
    expect(edited).toEqual({ ...label, color: '0e0175', description: 'blueish', is_archived: true });

    res = await call('PATCH', `repos/${path}/labels/${label.id}`, owner, { name: 'kind/new', exclusive: true });
    edited = await json(res);
    expect(edited).toEqual({ ...label, name: 'kind/new', exclusive: true, color: '0e0175', description: 'blueish', is_archived: false });

    await expectApiError(await call('PATCH', `repos/${path}/labels/${label.id}`, owner, { color: 'blue' }), 422, s.url);
    expect(await json(await call('GET', `repos/${path}/labels/${label.id}`))).toEqual(edited);
    await expectApiError(await call('PATCH', `repos/${path}/labels/999999`, owner, { name: 'x' }), 404, s.url);
    await expectApiError(await call('PATCH', `repos/${path}/labels/kind`, owner, { name: 'x' }), 404, s.url);
  });

  test('delete: 204, then gone; a second delete is a 404', async () => {
    const path = await repo();
    const label = await created(`repos/${path}/labels`, owner, { name: 'gone', color: '111111' });
    expect((await call('DELETE', `repos/${path}/labels/${label.id}`, writer)).status).toBe(204);
    await expectApiError(await call('GET', `repos/${path}/labels/${label.id}`), 404, s.url);
    await expectApiError(await call('DELETE', `repos/${path}/labels/${label.id}`, writer), 404, s.url);
    expect((await call('GET', `repos/${path}/labels`)).headers.get('x-total-count')).toBe('0');
  });

  test('who may change labels: writers; readers and strangers 403, anonymous 401; a private repository is a 404', async () => {
    const path = await repo();
    const label = await created(`repos/${path}/labels`, owner, { name: 'mine', color: '111111' });
    for (const who of [reader, stranger]) {
      await expectApiError(await call('POST', `repos/${path}/labels`, who, { name: 'x', color: '111111' }), 403, s.url);
      await expectApiError(await call('PATCH', `repos/${path}/labels/${label.id}`, who, { name: 'x' }), 403, s.url);
      await expectApiError(await call('DELETE', `repos/${path}/labels/${label.id}`, who), 403, s.url);
    }
    await expectApiError(await call('POST', `repos/${path}/labels`, undefined, { name: 'x', color: '111111' }), 401, s.url);
    await expectApiError(await call('DELETE', `repos/${path}/labels/${label.id}`), 401, s.url);
    expect((await call('GET', `repos/${path}/labels/${label.id}`)).status).toBe(200);

    const secret = await repo(true);
    const hidden = await created(`repos/${secret}/labels`, owner, { name: 'hidden', color: '111111' });
    await expectApiError(await call('GET', `repos/${secret}/labels`, stranger), 404, s.url);
    await expectApiError(await call('GET', `repos/${secret}/labels/${hidden.id}`), 404, s.url);
    await expectApiError(await call('POST', `repos/${secret}/labels`, stranger, { name: 'x', color: '111111' }), 404, s.url);
    await expectApiError(await call('DELETE', `repos/${secret}/labels/${hidden.id}`, stranger), 404, s.url);
    expect((await call('GET', `repos/${secret}/labels/${hidden.id}`, reader)).status).toBe(200);
    await expectApiError(await call('PATCH', `repos/${secret}/labels/${hidden.id}`, reader, { name: 'x' }), 403, s.url);

    // A label of another repository is not this repository's.
    await expectApiError(await call('GET', `repos/${path}/labels/${hidden.id}`, owner), 404, s.url);
    await expectApiError(await call('PATCH', `repos/${path}/labels/${hidden.id}`, owner, { name: 'x' }), 404, s.url);
    await expectApiError(await call('DELETE', `repos/${path}/labels/${hidden.id}`, owner), 404, s.url);
    expect((await json(await call('GET', `repos/${secret}/labels/${hidden.id}`, owner))).name).toBe('hidden');
  });

  test('organization labels: owners change them, anyone who sees the organization lists them, a token reads one', async () => {
    const org = uniq('org');
    expect((await call('POST', 'orgs', owner, { username: org })).status).toBe(201);
    const label = await created(`orgs/${org}/labels`, owner, { name: 'kind/bug', color: '#EE0701', exclusive: true, description: 'broken' });
    expect(label).toEqual({
      id: label.id,
      name: 'kind/bug',
      exclusive: true,
      is_archived: false,
      color: 'ee0701',
      description: 'broken',
      url: `${s.url}api/v1/orgs/${org}/labels/${label.id}`,
    });
    await created(`orgs/${org}/labels`, owner, { name: 'a-first', color: '000000' });

    let res = await call('GET', `orgs/${org}/labels?limit=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    const page = await json(res);
    expect(schemaErrors(LabelListSchema, page)).toEqual([]);
    expect(page.map((l: { name: string }) => l.name)).toEqual(['a-first']);

    await expectApiError(await call('GET', `orgs/${org}/labels/${label.id}`), 401, s.url);
    expect(await json(await call('GET', `orgs/${org}/labels/${label.id}`, stranger))).toEqual(label);
    expect((await json(await call('GET', `orgs/${org}/labels/kind%2Fbug`, stranger))).id).toBe(label.id);
    await expectApiError(await call('GET', `orgs/${org}/labels/999999`, stranger), 404, s.url);

    expect(await expectApiError(await call('POST', `orgs/${org}/labels`, stranger, { name: 'x', color: '111111' }), 403, s.url)).toBe('Must be an organization owner');
    await expectApiError(await call('PATCH', `orgs/${org}/labels/${label.id}`, stranger, { name: 'x' }), 403, s.url);
    await expectApiError(await call('DELETE', `orgs/${org}/labels/${label.id}`, stranger), 403, s.url);
    await expectApiError(await call('POST', `orgs/${org}/labels`, undefined, { name: 'x', color: '111111' }), 401, s.url);
    await expectApiError(await call('POST', `orgs/${org}/labels`, owner, { name: 'x', color: 'nope' }), 422, s.url);

    res = await call('PATCH', `orgs/${org}/labels/${label.id}`, owner, { color: '#0e0175', description: 'blueish' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ ...label, color: '0e0175', description: 'blueish' });

    // An organization's label is not one of a repository's, nor of another organization's.
    const repoName = uniq('r');
    expect((await call('POST', `orgs/${org}/repos`, owner, { name: repoName })).status).toBe(201);
    await expectApiError(await call('GET', `repos/${org}/${repoName}/labels/${label.id}`), 404, s.url);
    expect((await call('GET', `repos/${org}/${repoName}/labels`)).headers.get('x-total-count')).toBe('0');
    const other = uniq('org');
    expect((await call('POST', 'orgs', owner, { username: other })).status).toBe(201);
    await expectApiError(await call('GET', `orgs/${other}/labels/${label.id}`, owner), 404, s.url);
    await expectApiError(await call('DELETE', `orgs/${other}/labels/${label.id}`, owner), 404, s.url);

    expect((await call('DELETE', `orgs/${org}/labels/${label.id}`, owner)).status).toBe(204);
    await expectApiError(await call('GET', `orgs/${org}/labels/${label.id}`, owner), 404, s.url);
    expect((await call('GET', `orgs/${org}/labels`)).headers.get('x-total-count')).toBe('1');
  });

  test('a private organization and its labels are a 404 to outsiders', async () => {
    const org = uniq('org');
    expect((await call('POST', 'orgs', owner, { username: org, visibility: 'private' })).status).toBe(201);
    const label = await created(`orgs/${org}/labels`, owner, { name: 'secret', color: '111111' });
    await expectApiError(await call('GET', `orgs/${org}/labels`, stranger), 404, s.url);
    await expectApiError(await call('GET', `orgs/${org}/labels`), 404, s.url);
    await expectApiError(await call('GET', `orgs/${org}/labels/${label.id}`, stranger), 404, s.url);
    await expectApiError(await call('POST', `orgs/${org}/labels`, stranger, { name: 'x', color: '111111' }), 404, s.url);
  });

  test('deleting an organization deletes its labels', async () => {
    const org = uniq('org');
    expect((await call('POST', 'orgs', owner, { username: org })).status).toBe(201);
    await created(`orgs/${org}/labels`, owner, { name: 'doomed', color: '111111' });
    const row = await userNamed(s.host, org);
    expect((await s.host.labels.listOfOrg(SYSTEM, row)).total).toBe(1);
    expect((await call('DELETE', `orgs/${org}`, owner)).status).toBe(204);
    expect((await s.host.labels.listOfOrg(SYSTEM, row)).total).toBe(0);
  });
});
