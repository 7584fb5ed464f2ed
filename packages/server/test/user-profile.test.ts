/**
 * Profiles over HTTP: the `User` record as each kind of viewer sees it (email, pronouns and admin fields), user
 * visibility (public, limited, private, restricted viewers, public-only tokens), `/user/settings` (defaults,
 * partial changes, Forgejo's checks), and `/users/search` (keyword in name, full name and visible email; `uid`;
 * the ghost and actions users; paging; what each caller may find).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { SYSTEM, UserSchema, UserSearchResultsSchema, UserSettingsSchema, UserType, matchesSchema, schemaErrors } from '@repohost/core';
import { UsersStore } from '@repohost/core/internal';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;
let admin: string;
let adminToken: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = uniq('adm');
  await createUser(s.host, admin, { admin: true });
  adminToken = await createToken(s.host, admin);
});
afterAll(async () => {
  await s?.cleanup();
});

/** The users table itself, for states no route sets yet (restricted accounts, organizations). */
function usersStore(): UsersStore {
  return (s.host as unknown as { ctx: { store<T>(c: new (...a: never[]) => T): T } }).ctx.store(UsersStore);
}

async function person(prefix = 'p', options: Parameters<typeof createUser>[2] = {}): Promise<{ name: string; token: string }> {
  const name = uniq(prefix);
  await createUser(s.host, name, options);
  return { name, token: await createToken(s.host, name) };
}

async function getUser(name: string, token?: string): Promise<Response> {
  return s.fetch(`/api/v1/users/${name}`, { headers: token ? tokenHeader(token) : {} });
}

async function userBody(name: string, token?: string): Promise<any> {
  const res = await getUser(name, token);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(matchesSchema(UserSchema, body), schemaErrors(UserSchema, body).join('\n')).toBe(true);
  return body;
}

async function patchSettings(token: string, body: unknown): Promise<Response> {
  return s.fetch('/api/v1/user/settings', jsonInit('PATCH', body, tokenHeader(token)));
}

describe('the User record', () => {
  test('anonymous viewers get the no-reply address and no admin fields; restricted is public', async () => {
    const { name } = await person('rec');
    const row = await userNamed(s.host, name);
    await s.host.users.updateSettings(SYSTEM, row, { location: 'Lyon', pronouns: 'they/them', website: 'https://example.org', description: 'hi' });
    const body = await userBody(name);
    expect(body).toMatchObject({
      id: row.id,
      login: name,
      username: name,
      login_name: '',
      source_id: 0,
      email: `${name}@noreply.127.0.0.1`,
      language: '',
      is_admin: false,
      last_login: '0001-01-01T00:00:00Z',
      active: false,
      prohibit_login: false,
      location: 'Lyon',
      pronouns: 'they/them',
      website: 'https://example.org',
      description: 'hi',
      visibility: 'public',
      html_url: `${s.url}${name}`,
      avatar_url: `${s.url}avatars/${createHash('md5').update(`${name}@example.com`).digest('hex')}`,
    });
    expect(body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('other signed-in users see the email unless hidden; the user and admins see everything', async () => {
    const { name, token } = await person('own');
    const other = await person('oth');
    expect((await userBody(name, other.token)).email).toBe(`${name}@example.com`);
    expect((await userBody(name, other.token)).login_name).toBe('');

    expect((await patchSettings(token, { hide_email: true, language: 'fr-FR' })).status).toBe(200);
    expect((await userBody(name, other.token)).email).toBe(`${name}@noreply.127.0.0.1`);
    for (const viewer of [token, adminToken]) {
      const body = await userBody(name, viewer);
      expect(body.email).toBe(`${name}@example.com`);
      expect(body).toMatchObject({ login_name: name, language: 'fr-FR', active: true, last_login: '1970-01-01T00:00:00Z' });
    }
    const me = await json(await s.fetch('/api/v1/user', { headers: tokenHeader(token) }));
    expect(me).toMatchObject({ login: name, email: `${name}@example.com`, is_admin: false });
  });

  test('hidden pronouns are hidden from anonymous viewers only', async () => {
    const { name, token } = await person('prn');
    expect((await patchSettings(token, { pronouns: 'she/her', hide_pronouns: true })).status).toBe(200);
    expect((await userBody(name)).pronouns).toBe('');
    expect((await userBody(name, adminToken)).pronouns).toBe('she/her');
    expect((await userBody(name, (await person()).token)).pronouns).toBe('she/her');
  });
});

describe('visibility', () => {
  test('limited: signed-in users only; private: the user and admins; restricted viewers: public only', async () => {
    const limited = await person('lim', { visibility: 'limited' });
    const hidden = await person('pri', { visibility: 'private' });
    const other = await person('vw');
    const restricted = await person('rst');
    await usersStore().update((await userNamed(s.host, restricted.name)).id, { is_restricted: 1 });
    const publicOnly = await createToken(s.host, other.name, ['read:user', 'public-only']);

    await expectApiError(await getUser(limited.name), 404, s.url);
    expect((await userBody(limited.name, other.token)).visibility).toBe('limited');
    await expectApiError(await getUser(limited.name, restricted.token), 404, s.url);
    await expectApiError(await getUser(limited.name, publicOnly), 404, s.url);

    await expectApiError(await getUser(hidden.name), 404, s.url);
    await expectApiError(await getUser(hidden.name, other.token), 404, s.url);
    expect((await userBody(hidden.name, hidden.token)).visibility).toBe('private');
    expect((await userBody(hidden.name, adminToken)).visibility).toBe('private');

    // The restricted user sees public profiles and itself; everyone sees that it is restricted.
    expect((await userBody(other.name, restricted.token)).login).toBe(other.name);
    expect((await userBody(restricted.name, other.token)).restricted).toBe(true);
  });
});

describe('/user/settings', () => {
  test('defaults, partial changes, and the answer of both verbs', async () => {
    const { name, token } = await person('set');
    const res = await s.fetch('/api/v1/user/settings', { headers: tokenHeader(token) });
    const initial = await json(res);
    expect(res.status).toBe(200);
    expect(matchesSchema(UserSettingsSchema, initial), schemaErrors(UserSettingsSchema, initial).join('\n')).toBe(true);
    expect(initial).toEqual({
      full_name: '',
      website: '',
      description: '',
      location: '',
      pronouns: '',
      language: '',
      theme: s.host.settings.ui.DEFAULT_THEME,
      diff_view_style: '',
      enable_repo_unit_hints: true,
      hide_email: false,
      hide_pronouns: false,
      hide_activity: false,
    });

    const changed = await patchSettings(token, { Full_Name: 'Ada Lovelace', theme: 'forgejo-dark', hide_activity: true, website: null, enable_repo_unit_hints: false });
    const body = await json(changed);
    expect(changed.status, JSON.stringify(body)).toBe(200);
    expect(body).toEqual({ ...initial, full_name: 'Ada Lovelace', theme: 'forgejo-dark', hide_activity: true, enable_repo_unit_hints: false });
    // Fields not given stay; the profile shows the change.
    const again = await json(await patchSettings(token, { location: 'London' }));
    expect(again).toMatchObject({ full_name: 'Ada Lovelace', location: 'London', hide_activity: true });
    expect((await userBody(name)).full_name).toBe('Ada Lovelace');
    // Clearing works (the SDK clears with "").
    expect(await json(await patchSettings(token, { full_name: '', hide_activity: false }))).toMatchObject({ full_name: '', hide_activity: false });
  });

  test("Forgejo's checks: lengths in characters, website an http(s) URL; nothing changes on a refusal", async () => {
    const { token } = await person('chk');
    const cases: [Record<string, unknown>, string][] = [
      [{ full_name: 'x'.repeat(101) }, 'full_name'],
      [{ website: 'not a url' }, 'website'],
      [{ website: 'ftp://example.org' }, 'website'],
      [{ website: `https://example.org/${'x'.repeat(250)}` }, 'website'],
      [{ description: 'd'.repeat(256) }, 'description'],
      [{ location: 'l'.repeat(51) }, 'location'],
      [{ pronouns: 'p'.repeat(51) }, 'pronouns'],
      [{ language: 'l'.repeat(33) }, 'language'],
      [{ full_name: 'a\u0000b' }, 'full_name'],
      [{ hide_email: 'yes' }, 'hide_email'],
    ];
    for (const [body, field] of cases) {
      const message = await expectApiError(await patchSettings(token, { location: 'changed', ...body }), 422, s.url);
      expect(message, JSON.stringify(body)).toContain(field);
    }
    expect((await json(await s.fetch('/api/v1/user/settings', { headers: tokenHeader(token) }))).location).toBe('');
    // 100 characters that are 200 UTF-16 units: allowed.
    const ok = await patchSettings(token, { full_name: '😀'.repeat(100), website: '' });
    expect(ok.status).toBe(200);
  });

  test('anonymous: 401; a read-only token cannot change them', async () => {
    await expectApiError(await s.fetch('/api/v1/user/settings'), 401, s.url);
    await expectApiError(await s.fetch('/api/v1/user/settings', jsonInit('PATCH', {})), 401, s.url);
    const { name } = await person('ro');
    const readOnly = await createToken(s.host, name, ['read:user']);
    expect((await s.fetch('/api/v1/user/settings', { headers: tokenHeader(readOnly) })).status).toBe(200);
    await expectApiError(await patchSettings(readOnly, { full_name: 'x' }), 403, s.url);
  });
});

describe('/users/search', () => {
  const tag = uniq('srch');
  const names = { plain: `${tag}a`, full: `${tag}b`, lim: `${tag}c`, pri: `${tag}d`, hid: `${tag}e` };

  beforeAll(async () => {
    await createUser(s.host, names.plain);
    await createUser(s.host, names.full);
    await s.host.users.updateSettings(SYSTEM, await userNamed(s.host, names.full), { full_name: `Grace ${tag.toUpperCase()} Hopper` });
    await createUser(s.host, names.lim, { visibility: 'limited' });
    await createUser(s.host, names.pri, { visibility: 'private' });
    await createUser(s.host, names.hid);
    await s.host.users.updateSettings(SYSTEM, await userNamed(s.host, names.hid), { hide_email: true });
    // An organization shares the table and is never found.
    await usersStore().insert({ lower_name: `${tag}org`, name: `${tag}org`, email: '', lower_email: `${tag}org`, type: UserType.Organization, created_unix: 1, updated_unix: 1 });
  });

  async function search(query: string, token?: string): Promise<{ names: string[]; total: number; body: any; res: Response }> {
    const res = await s.fetch(`/api/v1/users/search?${query}`, { headers: token ? tokenHeader(token) : {} });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(matchesSchema(UserSearchResultsSchema, body), schemaErrors(UserSearchResultsSchema, body).join('\n')).toBe(true);
    expect(body.ok).toBe(true);
    return { names: body.data.map((u: { login: string }) => u.login), total: Number(res.headers.get('x-total-count')), body, res };
  }

  test('is not taken for a user named "search"', async () => {
    expect((await search(`q=${names.plain}`)).names).toEqual([names.plain]);
  });

  test('each caller finds whom they may see; names, full names and visible emails match', async () => {
    const viewer = await person('sv');
    const all = Object.values(names).sort();
    expect((await search(`q=${tag}`, adminToken)).names).toEqual(all);
    expect((await search(`q=${tag}`, viewer.token)).names).toEqual([names.plain, names.full, names.lim, names.hid]);
    expect((await search(`q=${tag}`)).names).toEqual([names.plain, names.full, names.hid]);
    const self = await search(`q=${tag}`, await createToken(s.host, names.pri));
    expect(self.names).toContain(names.pri);
    // Full name, case-insensitively.
    expect((await search(`q=GRACE%20${tag}`)).names).toEqual([names.full]);
    // The email of an account that hides it matches only for itself and admins.
    expect((await search(`q=${names.hid}%40example`, viewer.token)).names).toEqual([]);
    expect((await search(`q=${names.hid}%40example`, adminToken)).names).toEqual([names.hid]);
    expect((await search(`q=${names.plain}%40example`)).names).toEqual([names.plain]);
    // LIKE wildcards are literal.
    expect((await search(`q=${tag}%25`)).names).toEqual([]);
  });

  test('paging: limit, page, X-Total-Count and Link; orders', async () => {
    const first = await search(`q=${tag}&limit=2`, adminToken);
    expect(first.names).toEqual([names.plain, names.full]);
    expect(first.total).toBe(5);
    expect(first.res.headers.get('link')).toContain('rel="next"');
    expect((await search(`q=${tag}&limit=2&page=3`, adminToken)).names).toEqual([names.hid]);
    expect((await search(`q=${tag}&sort=reversealphabetically`, adminToken)).names).toEqual(Object.values(names).sort().reverse());
    expect((await search(`q=${tag}&sort=newest`, adminToken)).names[0]).toBe(names.hid);
    expect((await search(`q=${tag}&sort=bogus`, adminToken)).names[0]).toBe(names.plain);
  });

  test('uid: that account only (if visible); -1 and -2 are the ghost and actions users', async () => {
    const plain = await userNamed(s.host, names.plain);
    const pri = await userNamed(s.host, names.pri);
    expect((await search(`uid=${plain.id}`)).names).toEqual([names.plain]);
    expect((await search(`uid=${pri.id}`)).names).toEqual([]);
    expect((await search(`uid=${pri.id}`, adminToken)).names).toEqual([names.pri]);
    expect((await search('uid=99999999')).names).toEqual([]);

    const ghost = await search('uid=-1');
    expect(ghost.total).toBe(1);
    expect(ghost.body.data[0]).toMatchObject({ id: -1, login: 'Ghost', full_name: '', avatar_url: `${s.url}assets/img/avatar_default.png` });
    const actions = await search('uid=-2&q=nothing-matches');
    expect(actions.body.data[0]).toMatchObject({ id: -2, login: 'forgejo-actions', full_name: 'Forgejo Actions', email: 'forgejo-actions@noreply.127.0.0.1' });
    expect((await search('uid=-2', adminToken)).body.data[0]).toMatchObject({ email: 'noreply@forgejo.org', active: true, login_name: 'forgejo-actions' });
    // Not found by name.
    expect((await search('q=forgejo-actions')).names).toEqual([]);
    // The default avatar is served.
    const avatar = await s.fetch('/assets/img/avatar_default.png');
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/png');
  });

  test('bad input is ignored as Forgejo ignores it', async () => {
    expect((await search(`q=${tag}&uid=abc&page=x&limit=-3`, adminToken)).total).toBe(5);
  });
});
