/**
 * A page of a repository's issues or pull requests must read its own rows, however many rows of the other kind or
 * state the repository holds and however many comments the installation holds. SQLite keeps no statistics here and
 * plans by the indexes alone, so the plan of every statement a page runs is fixed by the schema: each is checked
 * (EXPLAIN QUERY PLAN, with the values it ran with) for every sort and state the API lists by time. PostgreSQL plans
 * by statistics of the data at hand, which a test's few rows cannot stand for.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SYSTEM, userActor, type RepoHost } from '@repohost/core';
import { openTestHost, TEST_DB, type TestHost } from '@repohost/test-support';

let t: TestHost;
beforeAll(async () => {
  t = await openTestHost();
});
afterAll(async () => {
  await t?.cleanup();
});

/** Every statement better-sqlite3 runs (`all`) while `work` runs, with its values. */
async function statementsOf(work: () => Promise<void>): Promise<Map<string, unknown[]>> {
  const probe = new Database(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as { all: (...args: unknown[]) => unknown[] };
  probe.close();
  const all = statementPrototype.all;
  const seen = new Map<string, unknown[]>();
  statementPrototype.all = function (this: { source: string }, ...args: unknown[]) {
    seen.set(this.source, args.flat());
    return all.apply(this, args);
  };
  try {
    await work();
  } finally {
    statementPrototype.all = all;
  }
  return seen;
}

describe.skipIf(TEST_DB === 'postgres')('the statements of a page of issues or pull requests (SQLite)', () => {
  test('each searches an index that holds its equalities, and a page of a kind is read in the order of one', async () => {
    const host: RepoHost = t.host;
    const user = await host.users.create(SYSTEM, { username: 'planner', email: 'planner@example.com', password: 'planner-password-1', admin: false });
    const actor = userActor(user);
    const access = await host.repos.create(actor, { name: 'plans', auto_init: true });
    await host.contents.createFile(actor, access, 't/1.txt', { content: Buffer.from('t\n').toString('base64'), branch: 'main', new_branch: 'topic' });
    await host.pulls.create(actor, access, { head: 'topic', base: 'main', title: 'pull' });
    await host.issues.create(actor, access, { title: 'issue' });

    const statements = await statementsOf(async () => {
      for (const sort of ['latest', 'oldest', 'recentupdate', 'leastupdate'] as const) {
        for (const state of ['all', 'open', 'closed'] as const) {
          // A pull request list is newest first unless it names another order.
          const pulls = await host.pulls.list(actor, access, { state, ...(sort === 'latest' ? {} : { sort }) }, { page: 1, limit: 20 });
          await host.pulls.details(actor, pulls.items);
          const issues = await host.issues.list(actor, access, { state, type: 'issues', sort }, { page: 1, limit: 20 });
          await host.issues.details(actor, issues.items);
        }
      }
    });
    const storage = (host as unknown as { storage: { directRead(sql: string, values: readonly unknown[]): { detail: string }[] } }).storage;
    let lists = 0;
    let reviewCounts = 0;
    for (const [sql, values] of statements) {
      if (!/^select/i.test(sql)) continue;
      const plan = storage.directRead(`explain query plan ${sql}`, values).map((row) => row.detail);
      const about = `${sql}\n  ${plan.join('\n  ')}`;
      expect(plan.filter((line) => line.startsWith('SCAN ')), about).toEqual([]);
      if (/from "issue" where \("issue"\."repo_id" = \? and "issue"\."is_pull" = \?/.test(sql)) {
        const equalities = sql.includes('"is_closed" = ?') ? 'repo_id=? AND is_pull=? AND is_closed=?' : 'repo_id=? AND is_pull=?';
        expect(plan.some((line) => line.startsWith('SEARCH issue ') && line.includes(`(${equalities}`)), about).toBe(true);
        expect(plan.filter((line) => line.includes('TEMP B-TREE')), about).toEqual([]);
        if (sql.includes('order by')) lists++;
      }
      if (/from "comment" where "issue_id" in/.test(sql)) {
        expect(plan.some((line) => line.startsWith('SEARCH comment ') && line.includes('(issue_id=? AND type=?)')), about).toBe(true);
        reviewCounts++;
      }
    }
    // Newest, oldest, most and least recently updated first, of every state or of one (the kind is a value).
    expect(lists).toBe(8);
    expect(reviewCounts).toBe(1);
  });
});
