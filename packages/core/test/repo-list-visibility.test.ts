/**
 * Listing an owner's repositories: for every kind of actor and every owner visibility, the listed items are
 * exactly the repositories `host.access.repoAccess` lets the actor see, and the total counts those same repositories,
 * on every page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS, AccessMode, SYSTEM, userActor, type Actor, type Page, type RepoAccess, type RepoHost, type Repository, type User } from '@repohost/core';
import { PASSWORD, createUser, openTestHost, type TestHost } from '@repohost/test-support';

const VISIBILITIES = ['public', 'limited', 'private'] as const;

describe('the repositories of an owner, as each actor lists them', () => {
  let t: TestHost;
  let host: RepoHost;
  const owners = new Map<string, User>();
  const repos = new Map<number, Repository[]>();
  let actors: [string, Actor][];

  beforeAll(async () => {
    t = await openTestHost();
    host = t.host;
    for (const visibility of VISIBILITIES) {
      const owner = await createUser(host, `owner-${visibility}`, { visibility });
      owners.set(visibility, owner);
      // More private than public repositories, so a count of the wrong set cannot come out right by chance.
      const created: Repository[] = [];
      for (const [name, isPrivate] of [['pub-a', false], ['priv-a', true], ['pub-b', false], ['priv-b', true], ['priv-c', true]] as const) {
        created.push((await host.repos.create(SYSTEM, { name, private: isPrivate }, { owner })).repo);
      }
      repos.set(owner.id, created);
    }
    const other = await createUser(host, 'other');
    const admin = await createUser(host, 'siteadmin', { admin: true });
    const restricted = await host.users.create(SYSTEM, { username: 'restricted', email: 'restricted@example.com', password: PASSWORD, restricted: true });
    actors = [
      ['anonymous', ANONYMOUS],
      ['another user', userActor(other)],
      ['a restricted user', userActor(restricted)],
      ['a public-only token of another user', userActor(other, { publicOnly: true })],
      ['a site administrator', userActor(admin)],
      ['a public-only token of an administrator', userActor(admin, { publicOnly: true })],
      ['the system', SYSTEM],
    ];
  });
  afterAll(async () => t?.cleanup());

  /** Every page of a list with `limit` items per page; each page's total must be the same. */
  async function allPages(list: (page: number) => Promise<Page<RepoAccess>>): Promise<{ names: string[]; totals: number[] }> {
    const names: string[] = [];
    const totals: number[] = [];
    for (let page = 1; page <= 10; page++) {
      const result = await list(page);
      totals.push(result.total);
      if (result.items.length === 0) break;
      names.push(...result.items.map((item) => item.repo.name));
    }
    return { names: names.sort(), totals };
  }

  it.each(VISIBILITIES)('a %s owner: items are exactly the repositories host.access shows, total is their count', async (visibility) => {
    const owner = owners.get(visibility)!;
    const expectedFor = async (actor: Actor) =>
      (await host.access.repoAccessMany(actor, repos.get(owner.id)!.map((repo) => ({ repo, owner }))))
        .filter((access) => access.mode !== AccessMode.None)
        .map((access) => access.repo.name)
        .sort();
    const cases: [string, Actor][] = [...actors, ['the owner', userActor(owner)], ['a public-only token of the owner', userActor(owner, { publicOnly: true })]];
    for (const [label, actor] of cases) {
      const expected = await expectedFor(actor);
      for (const limit of [2, 50]) {
        const { names, totals } = await allPages((page) => host.repos.listOwnedBy(actor, owner, { page, limit }));
        expect(names, `${label} lists ${visibility} owner's repositories (limit ${limit})`).toEqual(expected);
        for (const total of totals) expect(total, `${label}: total (limit ${limit})`).toBe(expected.length);
      }
      for (const item of (await host.repos.listOwnedBy(actor, owner, { limit: 50 })).items) {
        expect(item.mode, `${label}: mode of ${item.repo.name}`).toBe((await host.access.repoAccess(actor, item.repo, owner)).mode);
      }
    }
    // The owner's own list (`/user/repos`), also through a public-only token.
    for (const [label, actor] of cases.slice(-2)) {
      const expected = await expectedFor(actor);
      const { names, totals } = await allPages((page) => host.repos.listMine(actor, { page, limit: 2 }));
      expect(names, `${label}: listMine`).toEqual(expected);
      for (const total of totals) expect(total, `${label}: listMine total`).toBe(expected.length);
    }
  });
});
