/**
 * The counters follows, stars and watches keep (`num_followers`, `num_following`, `num_stars` of accounts;
 * `num_stars`, `num_watches` of repositories) stay equal to the rows they count: under repeated and concurrent
 * calls, through blocks, and when accounts and repositories are deleted.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM, userActor, type RepoAccess, type RepoHost, type User } from '@repohost/core';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

describe('social counters', () => {
  let t: TestHost;
  let host: RepoHost;
  let root: User;
  let alice: User;
  let bob: User;
  let carol: User;

  beforeEach(async () => {
    t = await openTestHost();
    host = t.host;
    root = await createUser(host, 'root', { admin: true });
    alice = await createUser(host, 'alice');
    bob = await createUser(host, 'bob');
    carol = await createUser(host, 'carol');
  });
  afterEach(async () => t.cleanup());

  const as = (u: User) => userActor(u);
  const fresh = async (u: User) => (await host.users.findById(u.id))!;
  const repoOf = async (owner: User, name: string): Promise<RepoAccess> => host.repos.resolve(SYSTEM, owner.name, name);
  async function counts(u: User) {
    const row = await fresh(u);
    return { followers: row.num_followers, following: row.num_following, stars: row.num_stars };
  }

  it('follows count once, whatever the repetition or concurrency, and following oneself records nothing', async () => {
    await Promise.all(Array.from({ length: 8 }, () => host.social.follow(as(bob), alice)));
    await Promise.all([host.social.follow(as(carol), alice), host.social.follow(as(carol), alice), host.social.follow(as(alice), alice)]);
    expect(await counts(alice)).toMatchObject({ followers: 2, following: 0 });
    expect(await counts(bob)).toMatchObject({ followers: 0, following: 1 });
    expect(await host.social.isFollowing(alice, alice)).toBe(false);

    await Promise.all(Array.from({ length: 5 }, () => host.social.unfollow(as(bob), alice)));
    expect(await counts(alice)).toMatchObject({ followers: 1 });
    expect(await counts(bob)).toMatchObject({ following: 0 });
  });

  it('stars and watches count once, concurrently too; creating a repository watches it for its creator', async () => {
    await host.repos.create(as(alice), { name: 'proj' });
    let proj = await repoOf(alice, 'proj');
    expect(proj.repo.num_watches).toBe(1);
    expect(await host.social.isWatching(as(alice), proj)).toBe(true);

    await Promise.all([...Array.from({ length: 6 }, () => host.social.star(as(bob), proj)), host.social.star(as(carol), proj)]);
    await Promise.all(Array.from({ length: 6 }, () => host.social.watch(as(bob), proj)));
    proj = await repoOf(alice, 'proj');
    expect(proj.repo.num_stars).toBe(2);
    expect(proj.repo.num_watches).toBe(2);
    expect((await counts(bob)).stars).toBe(1);

    await Promise.all(Array.from({ length: 4 }, () => host.social.unstar(as(bob), proj)));
    await Promise.all(Array.from({ length: 4 }, () => host.social.unwatch(as(bob), proj)));
    await host.social.unwatch(as(alice), proj);
    proj = await repoOf(alice, 'proj');
    expect(proj.repo.num_stars).toBe(1);
    expect(proj.repo.num_watches).toBe(0);
    expect((await counts(bob)).stars).toBe(0);
  });

  it('deleting a repository corrects its stargazers\' counts', async () => {
    await host.repos.create(as(alice), { name: 'gone' });
    await host.repos.create(as(alice), { name: 'kept' });
    const gone = await repoOf(alice, 'gone');
    const kept = await repoOf(alice, 'kept');
    for (const u of [bob, carol]) {
      await host.social.star(as(u), gone);
      await host.social.star(as(u), kept);
    }
    expect((await counts(bob)).stars).toBe(2);
    await host.repos.delete(as(alice), gone);
    expect((await counts(bob)).stars).toBe(1);
    expect((await counts(carol)).stars).toBe(1);
    const listed = await host.social.listStarred(as(bob), bob);
    expect(listed.items.map((r) => r.repo.name)).toEqual(['kept']);
    expect(listed.total).toBe(1);
  });

  it('deleting an account corrects the counts of everyone and everything it followed, starred or watched', async () => {
    await host.repos.create(as(alice), { name: 'proj' });
    await host.repos.create(as(bob), { name: 'bobs' });
    const proj = await repoOf(alice, 'proj');
    const bobs = await repoOf(bob, 'bobs');
    await host.social.follow(as(bob), alice);
    await host.social.follow(as(alice), bob);
    await host.social.follow(as(carol), bob);
    await host.social.star(as(bob), proj);
    await host.social.watch(as(bob), proj);
    // Carol starred a repository of Bob's: it goes with him, and her count follows.
    await host.social.star(as(carol), bobs);
    await host.social.block(as(alice), carol);

    await host.accounts.deleteUser(userActor(root), bob, { purge: true });

    expect(await counts(alice)).toMatchObject({ followers: 0, following: 0 });
    expect(await counts(carol)).toMatchObject({ following: 0, stars: 0 });
    const after = await repoOf(alice, 'proj');
    expect(after.repo.num_stars).toBe(0);
    expect(after.repo.num_watches).toBe(1);
    // Blocks of others are untouched.
    expect(await host.social.isBlocked(alice.id, carol.id)).toBe(true);
  });

  it('a block ends follows both ways and the blocked account\'s watches of the blocker\'s repositories; stars stay', async () => {
    await host.repos.create(as(alice), { name: 'proj' });
    await host.repos.create(as(carol), { name: 'other' });
    const proj = await repoOf(alice, 'proj');
    const other = await repoOf(carol, 'other');
    await host.social.follow(as(bob), alice);
    await host.social.follow(as(alice), bob);
    await host.social.watch(as(bob), proj);
    await host.social.watch(as(bob), other);
    await host.social.star(as(bob), proj);

    await Promise.all([host.social.block(as(alice), bob), host.social.block(as(alice), bob)]);

    expect(await counts(alice)).toMatchObject({ followers: 0, following: 0 });
    expect(await counts(bob)).toMatchObject({ followers: 0, following: 0, stars: 1 });
    expect((await repoOf(alice, 'proj')).repo).toMatchObject({ num_watches: 1, num_stars: 1 });
    expect((await repoOf(carol, 'other')).repo.num_watches).toBe(2);
    expect(await host.social.isWatching(as(bob), proj)).toBe(false);
    expect(await host.social.isBlockedByAny([carol.id, alice.id], bob.id)).toBe(true);
    expect(await host.social.isBlockedByAny([carol.id], bob.id)).toBe(false);
    expect((await host.social.listBlocked(as(alice))).total).toBe(1);

    // A follow racing the block never survives it.
    await host.social.unblock(as(alice), bob);
    await Promise.allSettled([host.social.follow(as(bob), alice), host.social.block(as(alice), bob)]);
    expect(await host.social.isFollowing(bob, alice)).toBe(false);
    expect(await counts(alice)).toMatchObject({ followers: 0 });
  });
});

describe.skipIf(process.env.REPOHOST_TEST_DB === 'postgres')('social keys (SQLite)', () => {
  it('are checked at commit, so deletions leave the rows to their handlers', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { default: Database } = await import('better-sqlite3');
    const dir = await mkdtemp(`${tmpdir()}/social-keys-`);
    const t = await openTestHost({ database: { PATH: `${dir}/db.sqlite` } });
    await t.cleanup();
    const db = new Database(`${dir}/db.sqlite`, { readonly: true });
    try {
      for (const table of ['follow', 'star', 'user_blocking', 'watch']) {
        const { sql } = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(table) as { sql: string };
        expect(sql.toLowerCase(), table).toMatch(/references "?user"? \("?id"?\) deferrable initially deferred/);
      }
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
