/**
 * Counters and issue numbers with two hosts on one database (one SQLite file, or one PostgreSQL schema), written
 * from both at once as two processes behind a load balancer would: stars and follows, issues opened, closed and
 * reopened, labels and milestones set, comments posted and deleted. Every stored counter ends equal to its recount
 * (`check_repo_stats` finds nothing to correct: repositories' stars, watches and issue and pull counts, accounts'
 * stars and follows, issues' comments, labels' and milestones' issues), issue numbers are unique and without gaps,
 * and concurrent creations stop at an account's repository limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoHost, SYSTEM, openStorage, userActor, type Issue, type RepoAccess, type Storage, type User } from '@repohost/core';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

let t: TestHost;
let a: RepoHost;
let b: RepoHost;
let raw: Storage;

beforeAll(async () => {
  t = await openTestHost({ database: { PATH: 'counters.db' } });
  a = t.host;
  // A second process on the same database: migrations done, no start-up repair of the first one's work.
  b = await RepoHost.open({ settings: structuredClone(a.settings), reconcile: false });
  raw = await openStorage(a.settings.database);
});
afterAll(async () => {
  await b?.close();
  await raw?.close();
  await t?.cleanup();
});

/** The host the `i`-th of a batch of concurrent calls goes to: alternately one and the other. */
const hostOf = (i: number) => (i % 2 === 0 ? a : b);
const as = (u: User) => userActor(u);

async function checkRepoStats(): Promise<string> {
  await a.cron.run(SYSTEM, 'check_repo_stats');
  await a.cron.idle();
  const state = (await a.cron.state('check_repo_stats'))!;
  expect(state.last_error).toBe('');
  return state.last_message;
}

/** Every call must succeed: a 503 (a deadlock, a busy database) is a failure of this test too. */
async function all(calls: readonly Promise<unknown>[]): Promise<unknown[]> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  // With the driver's own error behind a 503 (its SQLSTATE and words), so a failure says which kind it was.
  const cause = (e: Error) => (e.cause instanceof Error ? ` (${String((e.cause as { code?: unknown }).code)}: ${e.cause.message})` : '');
  expect(failed.map((e) => `${e.name}: ${e.message}${cause(e)}`)).toEqual([]);
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
}

async function indexesOf(repoId: number): Promise<number[]> {
  const rows = await raw.db.selectFrom('issue').select('index').where('repo_id', '=', repoId).execute();
  return rows.map((row: { index: number | string }) => Number(row.index)).sort((x: number, y: number) => x - y);
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The issue as it is now, read through `host` (edits compare with what they are given). */
function current(host: RepoHost, access: RepoAccess, issue: Issue): Promise<Issue> {
  return host.issues.resolve(SYSTEM, access, issue.index);
}

describe('two hosts writing at once', () => {
  it('stars, follows, issues, closes, labels, milestones and comments leave every counter equal to its recount, and issue numbers 1..n', async () => {
    const owner = await createUser(a, 'owner');
    const access = await a.repos.create(as(owner), { name: 'busy', auto_init: true });
    const repoId = access.repo.id;
    const fans = (await all(Array.from({ length: 10 }, (_, i) => createUser(hostOf(i), `fan${i}`)))) as User[];
    const fanAccess = async (fan: User, host: RepoHost): Promise<RepoAccess> => host.repos.resolve(as(fan), owner.name, 'busy');
    const label = await a.labels.createInRepo(as(owner), access, { name: 'bug', color: '#ff0000' });
    const milestone = await a.milestones.create(as(owner), access, { title: 'v1' });

    // Round 1: every fan stars through both hosts at once and follows the owner; 24 issues opened, half on each host.
    const opened = await all([
      ...fans.flatMap((fan) => [a, b].map(async (host) => host.social.star(as(fan), await fanAccess(fan, host)))),
      ...fans.map((fan, i) => hostOf(i + 1).social.follow(as(fan), owner)),
      ...range(24).map((i) => hostOf(i).issues.create(as(owner), access, { title: `issue ${i}` })),
    ]);
    const issues = (opened.slice(fans.length * 3) as Issue[]).sort((x, y) => x.index - y.index);
    expect(issues.map((issue) => issue.index)).toEqual(range(24));
    expect(await checkRepoStats()).toBe('all counters agree');

    // Round 2: closes, labels, milestones and comments on existing issues while more issues are opened, each call
    // on the host its turn gives.
    const talk = issues[23]!;
    await all([
      ...issues.slice(0, 8).map(async (issue, i) => hostOf(i).issues.edit(as(owner), access, await current(hostOf(i), access, issue), { state: 'closed' })),
      ...issues.slice(4, 12).map(async (issue, i) => hostOf(i + 1).issueLabels.add(as(owner), access, await current(hostOf(i + 1), access, issue), [label.id])),
      ...issues.slice(10, 16).map(async (issue, i) => hostOf(i).issues.edit(as(owner), access, await current(hostOf(i), access, issue), { milestone: milestone.id })),
      ...range(12).map((i) => hostOf(i).comments.create(as(fans[i % fans.length]!), access, talk, { body: `comment ${i}` })),
      ...range(6).map((i) => hostOf(i + 1).issues.create(as(owner), access, { title: `more ${i}` })),
    ]);
    expect(await indexesOf(repoId)).toEqual(range(30));

    // Round 3: undo part of it from both hosts at once, while the rest goes on.
    const comments = (await a.comments.listOfIssue(SYSTEM, access, talk)).items;
    expect(comments).toHaveLength(12);
    await all([
      ...comments.slice(0, 5).map(async (comment, i) => hostOf(i).comments.delete(as(owner), access, await hostOf(i).comments.resolve(SYSTEM, access, comment.id))),
      ...range(5).map((i) => hostOf(i + 1).comments.create(as(fans[i]!), access, talk, { body: `later ${i}` })),
      ...issues.slice(0, 4).map(async (issue, i) => hostOf(i).issues.edit(as(owner), access, await current(hostOf(i), access, issue), { state: 'open' })),
      ...issues.slice(12, 18).map(async (issue, i) => hostOf(i + 1).issues.edit(as(owner), access, await current(hostOf(i + 1), access, issue), { state: 'closed' })),
      ...fans.slice(0, 4).flatMap((fan) => [a, b].map(async (host) => host.social.unstar(as(fan), await fanAccess(fan, host)))),
      ...fans.slice(0, 3).map((fan, i) => hostOf(i).social.unfollow(as(fan), owner)),
      ...range(4).map((i) => hostOf(i).issues.create(as(owner), access, { title: `last ${i}` })),
    ]);
    expect(await indexesOf(repoId)).toEqual(range(34));

    // What a client sees, from either host, agrees with the rows; and nothing is left for the recount to correct.
    expect(await checkRepoStats()).toBe('all counters agree');
    for (const host of [a, b]) {
      const repo = (await host.repos.resolve(SYSTEM, owner.name, 'busy')).repo;
      // 34 issues: closed 8, reopened 4, closed 6 more.
      expect(repo).toMatchObject({ num_stars: 6, num_issues: 34, num_closed_issues: 10, num_pulls: 0 });
      expect((await host.issues.resolve(SYSTEM, access, talk.index)).num_comments).toBe(12);
      expect(await host.users.findById(owner.id)).toMatchObject({ num_followers: 7 });
    }
    expect(await raw.db.selectFrom('label').select(['num_issues', 'num_closed_issues']).where('id', '=', label.id).executeTakeFirstOrThrow()).toMatchObject({
      num_issues: 8,
      // Labeled: issues 5..12; of those 5..8 were closed, 5..8 stay closed (only 1..4 reopened).
      num_closed_issues: 4,
    });
    expect(await raw.db.selectFrom('milestone').select(['num_issues', 'num_closed_issues']).where('id', '=', milestone.id).executeTakeFirstOrThrow()).toMatchObject({
      num_issues: 6,
      // Milestone on 11..16; 13..16 closed in round 3.
      num_closed_issues: 4,
    });
  }, 120_000);

  it('closing, reopening and labeling one issue at once from both hosts neither deadlocks nor loses a count', async () => {
    const owner = await createUser(a, 'labeler');
    const access = await a.repos.create(as(owner), { name: 'labels-at-once' });
    const labels = await Promise.all(['x', 'y'].map((name) => a.labels.createInRepo(as(owner), access, { name, color: '#00ff00' })));
    const issues = (await all(range(12).map((i) => hostOf(i).issues.create(as(owner), access, { title: `i${i}` })))) as Issue[];
    // Each issue is closed through one host while its labels change through the other, three times over: a close
    // locks the issue and then its labels' counts, so a label change that took them the other way round deadlocked.
    for (const [state, label] of [['closed', labels[0]!], ['open', labels[1]!], ['closed', labels[0]!]] as const) {
      await all(
        issues.flatMap((issue, i) => [
          (async () => hostOf(i).issues.edit(as(owner), access, await current(hostOf(i), access, issue), { state }))(),
          (async () => hostOf(i + 1).issueLabels.replace(as(owner), access, await current(hostOf(i + 1), access, issue), [label.id]))(),
        ]),
      );
    }
    expect(await checkRepoStats()).toBe('all counters agree');
    expect((await a.repos.resolve(SYSTEM, owner.name, 'labels-at-once')).repo).toMatchObject({ num_issues: 12, num_closed_issues: 12 });
    expect(await raw.db.selectFrom('label').select(['num_issues', 'num_closed_issues']).where('id', '=', labels[0]!.id).executeTakeFirstOrThrow()).toMatchObject({ num_issues: 12, num_closed_issues: 12 });
  }, 120_000);

  it('repositories created at once through both hosts stop at the account limit', async () => {
    const admin = await createUser(a, 'root', { admin: true });
    const maker = await createUser(a, 'maker');
    await a.userAdmin.edit(as(admin), maker, { max_repo_creation: 3 });
    const settled = await Promise.allSettled(range(8).map((i) => hostOf(i).repos.create(as(maker), { name: `r${i}` })));
    const made = settled.filter((r) => r.status === 'fulfilled');
    const refused = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    expect(made).toHaveLength(3);
    expect(refused).toHaveLength(5);
    for (const error of refused) expect(error.message).toBe('user has reached maximum limit of repositories [limit: 3]');
    expect((await a.users.findById(maker.id))!.num_repos).toBe(3);
    const rows = await raw.db.selectFrom('repository').select('id').where('owner_id', '=', maker.id).execute();
    expect(rows).toHaveLength(3);
    expect(await checkRepoStats()).toBe('all counters agree');
  }, 120_000);
});
