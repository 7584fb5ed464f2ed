/**
 * RepoHost's own recurring tasks at work: orphaned attachment files, expired OAuth2 codes, tokens and sessions,
 * ended sign-in failure windows, pull requests left "checking", and language statistics a missed event left stale.
 */
import { mkdir, utimes, writeFile, access as fileAccess } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM, attachmentBlobKey, openStorage, userActor, type ApiView, type RepoAccess, type RepoHost, type Storage, type User } from '@repohost/core';
import { TEST_GIT, createUser, openTestHost, type TestHost } from '@repohost/test-support';

const nowUnix = () => Math.floor(Date.now() / 1000);

describe("RepoHost's housekeeping tasks", () => {
  let t: TestHost;
  let host: RepoHost;
  let raw: Storage;
  let alice: User;
  let access: RepoAccess;
  let view: ApiView;

  beforeEach(async () => {
    t = await openTestHost({ database: { PATH: 'housekeeping.db' } });
    host = t.host;
    raw = await openStorage(host.settings.database);
    alice = await createUser(host, 'alice');
    access = await host.repos.create(userActor(alice), { name: 'demo', auto_init: true });
    view = { viewer: userActor(alice), settings: host.settings };
  });
  afterEach(async () => {
    await raw.close();
    await t.cleanup();
  });

  async function runTask(name: string): Promise<{ last_error: string; last_message: string }> {
    await host.cron.run(SYSTEM, name);
    await host.cron.idle();
    const state = (await host.cron.state(name))!;
    return { last_error: state.last_error, last_message: state.last_message };
  }

  it('twenty-three tasks are listed (five of them Actions\'), the last six RepoHost\'s own', async () => {
    const listed = await host.cron.list(SYSTEM, { page: 1, limit: 50 });
    expect(listed.total).toBe(23);
    expect(listed.items.map((task) => task.name)).toContain('cleanup_packages');
    expect(listed.items.slice(-6).map((task) => task.name)).toEqual([
      'cleanup_orphaned_attachments',
      'cleanup_expired_sessions',
      'cleanup_sign_in_failures',
      'check_pull_requests',
      'update_repo_languages',
      'repair_git_intents',
    ]);
  });

  it('cleanup_packages removes spooled uploads a crash cut off, and keeps one still arriving', async () => {
    const spool = path.join(host.settings.server.APP_DATA_PATH, 'tmp', 'package-upload');
    await mkdir(spool, { recursive: true });
    const dead = path.join(spool, 'go-1-deadbeef');
    const live = path.join(spool, 'pypi-2-0badf00d');
    await writeFile(dead, 'cut off');
    await writeFile(live, 'arriving');
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(dead, old, old);
    expect(await runTask('cleanup_packages')).toEqual({ last_error: '', last_message: 'removed 0 container upload sessions and 1 spooled uploads' });
    await expect(fileAccess(dead)).rejects.toThrow();
    await fileAccess(live);
  });

  it.skipIf(TEST_GIT === 'memory')('cleanup_orphaned_attachments removes old files no attachment names, and keeps young ones', async () => {
    const blobPath = (uuid: string) => path.join(host.settings.server.APP_DATA_PATH, 'attachments', ...attachmentBlobKey(uuid).split('/'));
    const orphan = '0123abcd-0000-4000-8000-000000000001';
    const young = '0123abcd-0000-4000-8000-000000000002';
    for (const uuid of [orphan, young]) {
      await mkdir(path.dirname(blobPath(uuid)), { recursive: true });
      await writeFile(blobPath(uuid), 'left by a crash');
    }
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(blobPath(orphan), old, old);
    expect(await runTask('cleanup_orphaned_attachments')).toEqual({ last_error: '', last_message: 'removed 1 orphaned attachment files' });
    await expect(fileAccess(blobPath(orphan))).rejects.toThrow();
    await expect(fileAccess(blobPath(young))).resolves.toBeUndefined();
  });

  it('cleanup_expired_sessions removes codes, tokens and sessions past their lifetime, and only those', async () => {
    const now = nowUnix();
    const code = (hash: string, expires: number) => ({
      code_hash: hash,
      application_id: 1,
      uid: alice.id,
      redirect_uri: 'https://app.example/cb',
      scope: '',
      nonce: '',
      code_challenge: '',
      code_challenge_method: '',
      expires_unix: expires,
      created_unix: now - 7200,
    });
    await raw.db.insertInto('oauth2_authorization_code' as never).values([code('a'.repeat(64), now - 60), code('b'.repeat(64), now + 600)] as never).execute();
    const token = (hash: string, expires: number) => ({ token_hash: hash, grant_id: 1, uid: alice.id, kind: 'refresh', scope: '', expires_unix: expires, created_unix: now - 7200 });
    await raw.db.insertInto('oauth2_token' as never).values([token('c'.repeat(64), now - 60), token('d'.repeat(64), now + 600)] as never).execute();
    const session = (hash: string, expires: number) => ({ session_hash: hash, uid: alice.id, expires_unix: expires, created_unix: now - 7200 });
    await raw.db.insertInto('web_session' as never).values([session('e'.repeat(64), now - 60), session('f'.repeat(64), now + 600)] as never).execute();

    expect(await runTask('cleanup_expired_sessions')).toEqual({
      last_error: '',
      last_message: 'removed 1 authorization codes, 1 OAuth2 tokens and 1 sessions past their lifetime',
    });
    const left = async (table: string, column: string) =>
      (await raw.db.selectFrom(table as never).select(column as never).execute()).map((row) => (row as Record<string, string>)[column]![0]);
    expect(await left('oauth2_authorization_code', 'code_hash')).toEqual(['b']);
    expect(await left('oauth2_token', 'token_hash')).toEqual(['d']);
    expect(await left('web_session', 'session_hash')).toEqual(['f']);
  });

  it('cleanup_sign_in_failures removes counters whose window ended and addresses known too long ago, and keeps the rest', async () => {
    const { LOGIN_FAILURE_WINDOW: window, LOGIN_KNOWN_ADDRESS_DAYS: days } = host.settings.security;
    await raw.db
      .insertInto('sign_in_failure' as never)
      .values([
        { key: 'account:ended', window_start_unix: nowUnix() - window - 10, failures: 3 },
        { key: 'account:running', window_start_unix: nowUnix() - 5, failures: 3 },
      ] as never)
      .execute();
    await raw.db
      .insertInto('sign_in_known' as never)
      .values([
        { key: 'forgotten', signed_in_unix: nowUnix() - days * 86_400 - 10 },
        { key: 'recent', signed_in_unix: nowUnix() - 86_400 },
      ] as never)
      .execute();
    expect(await runTask('cleanup_sign_in_failures')).toEqual({
      last_error: '',
      last_message: 'removed 1 ended sign-in failure counters and 1 addresses known past LOGIN_KNOWN_ADDRESS_DAYS',
    });
    const keys = (await raw.db.selectFrom('sign_in_failure' as never).select('key' as never).execute()).map((row) => (row as { key: string }).key);
    expect(keys).toEqual(['account:running']);
    const known = (await raw.db.selectFrom('sign_in_known' as never).select('key' as never).execute()).map((row) => (row as { key: string }).key);
    expect(known).toEqual(['recent']);
  });

  it('check_pull_requests checks again an open pull request a crash left "checking"', async () => {
    await host.branches.create(userActor(alice), access, view, { new_branch_name: 'feature' });
    await host.contents.createFile(userActor(alice), access, 'feature.txt', { content: Buffer.from('feature\n').toString('base64'), message: 'Add feature', branch: 'feature' });
    const pull = await host.pulls.create(userActor(alice), access, { head: 'feature', base: 'main', title: 'Feature' });
    const mergeable = (await host.pulls.resolve(userActor(alice), access, pull.issue.index)).pull.status;
    // What an interrupted check leaves: "checking" (1), which nobody may merge.
    await raw.db.updateTable('pull_request' as never).set({ status: 1 } as never).where('id' as never, '=', pull.pull.id as never).execute();
    expect(await runTask('check_pull_requests')).toEqual({ last_error: '', last_message: 'checked 1 pull requests again' });
    expect((await host.pulls.resolve(userActor(alice), access, pull.issue.index)).pull.status).toBe(mergeable);
    expect(mergeable).toBe(2);
    // Settled ones are left alone.
    expect(await runTask('check_pull_requests')).toEqual({ last_error: '', last_message: 'checked 0 pull requests again' });
  });

  it('update_repo_languages measures again where a missed event left the statistics behind the default branch', async () => {
    await host.contents.createFile(userActor(alice), access, 'main.go', { content: Buffer.from('package main\n\nfunc main() {}\n').toString('base64'), message: 'Go' });
    await host.events.idle();
    const primary = async () => ((await raw.db.selectFrom('repository' as never).select('primary_language' as never).where('id' as never, '=', access.repo.id as never).executeTakeFirstOrThrow()) as { primary_language: string }).primary_language;
    expect(await primary()).toBe('Go');
    // A push whose after-commit measurement never ran: nothing measured, no primary language.
    await raw.db.deleteFrom('language_stat' as never).execute();
    await raw.db.updateTable('repository' as never).set({ primary_language: '' } as never).execute();
    expect(await runTask('update_repo_languages')).toEqual({ last_error: '', last_message: 'measured 1 repositories' });
    expect(await primary()).toBe('Go');
  });
});
