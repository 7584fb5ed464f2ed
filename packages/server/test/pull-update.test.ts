/**
 * `POST /repos/{owner}/{repo}/pulls/{index}/update`: the base brought into the head branch by a merge commit or
 * by replaying the head onto the base, checked with `git log` in a clone; conflicts, pull requests already up to
 * date, and who may update (head writers, maintainers of the base when the poster allows it from a fork).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonInit } from '@repohost/test-support';
import { expectApiError } from './helpers';
import { mergeWorld, type MergeWorld } from './pull-merge-support';

describe('updating a pull request from its base', () => {
  let w: MergeWorld;
  const update = (full: string, index: number, style?: string, headers?: Record<string, string>) =>
    w.s.fetch(`/api/v1/repos/${full}/pulls/${index}/update${style ? `?style=${style}` : ''}`, jsonInit('POST', {}, headers ?? w.h));

  beforeAll(async () => {
    w = await mergeWorld();
  });
  afterAll(async () => {
    await w?.close();
  });

  test('merge (the default): a merge commit of the base on the head branch; then it is up to date', async () => {
    const { full, clone } = await w.newRepo();
    const head = await w.commit(clone, 'feature', { 'a.txt': 'a\n' });
    const base = await w.commit(clone, 'main', { 'b.txt': 'b\n' });
    const index = await w.openPull(full, 'feature');
    expect((await w.getPull(full, index)).head.sha).toBe(head);

    const res = await update(full, index);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.text()).toBe('');
    const updated = await w.tip(clone, 'feature');
    expect((await w.git(['log', '-1', '--format=%P', updated], clone)).split(' ')).toEqual([head, base]);
    expect(await w.git(['log', '-1', '--format=%s|%cn', updated], clone)).toBe(`Merge branch 'main' into feature|${w.owner}`);
    await w.eventually(async () => (await w.getPull(full, index)).head.sha === updated);
    expect(await expectApiError(await update(full, index), 409, w.s.url)).toBe(`HeadBranch of PR ${index} is up to date`);
    // The pull request still merges afterwards.
    expect((await w.merge(full, index, { Do: 'merge' })).status).toBe(200);
  });

  test('rebase: the head commits replayed on the base, the head branch moved to them', async () => {
    const { full, clone } = await w.newRepo();
    await w.commit(clone, 'feature', { 'a.txt': 'a\n' }, { message: 'one' });
    await w.commit(clone, 'feature', { 'c.txt': 'c\n' }, { message: 'two' });
    const base = await w.commit(clone, 'main', { 'b.txt': 'b\n' });
    const index = await w.openPull(full, 'feature');

    const res = await update(full, index, 'rebase');
    expect(res.status, await res.clone().text()).toBe(200);
    const updated = await w.tip(clone, 'feature');
    expect(await w.git(['rev-list', '--merges', `${base}..${updated}`], clone)).toBe('');
    expect((await w.git(['log', '--format=%s|%an|%cn', `${base}..${updated}`], clone)).split('\n')).toEqual([`two|Tester|${w.owner}`, `one|Tester|${w.owner}`]);
    await w.eventually(async () => (await w.getPull(full, index)).head.sha === updated);
  });

  test('conflicts are 409 and leave the head branch alone', async () => {
    const { full, clone } = await w.newRepo();
    const head = await w.commit(clone, 'feature', { 'README.md': 'theirs\n' });
    await w.commit(clone, 'main', { 'README.md': 'ours\n' });
    const index = await w.openPull(full, 'feature');
    expect(await expectApiError(await update(full, index), 409, w.s.url)).toBe('merge failed because of conflict');
    expect(await expectApiError(await update(full, index, 'rebase'), 409, w.s.url)).toBe('rebase failed because of conflict');
    expect(await w.tip(clone, 'feature')).toBe(head);
  });

  test('who may update, and bad input', async () => {
    const { full, clone } = await w.newRepo({ private: true });
    await w.collaborator(full, w.reader, 'read');
    const head = await w.commit(clone, 'feature', { 'a.txt': 'a\n' });
    await w.commit(clone, 'main', { 'b.txt': 'b\n' });
    const index = await w.openPull(full, 'feature');
    await expectApiError(await update(full, index, undefined, w.readerH), 403, w.s.url);
    await expectApiError(await update(full, index, undefined, w.strangerH), 404, w.s.url);
    expect((await w.s.fetch(`/api/v1/repos/${full}/pulls/${index}/update`, { method: 'POST' })).status).toBe(401);
    await expectApiError(await update(full, index, 'sideways'), 422, w.s.url);
    await expectApiError(await update(full, 999), 404, w.s.url);
    // rebase updates switched off for the repository: 403.
    await w.settings(full, { allow_rebase_update: false });
    await expectApiError(await update(full, index, 'rebase'), 403, w.s.url);
    expect(await w.tip(clone, 'feature')).toBe(head);

    // Closed, then merged: 422.
    expect((await w.s.fetch(`/api/v1/repos/${full}/pulls/${index}`, jsonInit('PATCH', { state: 'closed' }, w.h))).status).toBe(201);
    await expectApiError(await update(full, index), 422, w.s.url);
  });

  test("from a fork: the base's maintainers update the fork's branch when the poster allows it", async () => {
    const { full, clone } = await w.newRepo();
    const forked = await w.s.fetch(`/api/v1/repos/${full}/forks`, jsonInit('POST', {}, w.writerH));
    expect(forked.status, await forked.clone().text()).toBe(202);
    const fork = (await forked.json()) as { full_name: string };
    const forkClone = `${clone}-fork`;
    await w.git(['clone', '-q', w.remote(fork.full_name, w.writer), forkClone], w.scratch);
    await w.git(['config', 'user.name', 'Forker'], forkClone);
    await w.git(['config', 'user.email', 'forker@example.com'], forkClone);
    const head = await w.commit(forkClone, 'feature', { 'a.txt': 'a\n' });
    const base = await w.commit(clone, 'main', { 'b.txt': 'b\n' });
    const opened = await w.s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head: `${w.writer}:feature`, base: 'main', title: 'from a fork' }, w.writerH));
    expect(opened.status, await opened.clone().text()).toBe(201);
    const index = ((await opened.json()) as { number: number }).number;

    // Maintainer edits not allowed: the base's owner has no write access to the fork.
    await expectApiError(await update(full, index), 403, w.s.url);
    const allowed = await w.s.fetch(`/api/v1/repos/${full}/pulls/${index}`, jsonInit('PATCH', { allow_maintainer_edit: true }, w.writerH));
    expect(allowed.status, await allowed.clone().text()).toBe(201);
    const res = await update(full, index);
    expect(res.status, await res.clone().text()).toBe(200);
    const updated = await w.tip(forkClone, 'feature');
    expect((await w.git(['log', '-1', '--format=%P', updated], forkClone)).split(' ')).toEqual([head, base]);
    await w.eventually(async () => (await w.getPull(full, index)).head.sha === updated);

    // And the fork's pull request merges into the base.
    const merged = await w.merge(full, index, { Do: 'squash' });
    expect(merged.status, await merged.clone().text()).toBe(200);
    const squashed = await w.tip(clone, 'main');
    expect(await w.git(['log', '-1', '--format=%P|%an', squashed], clone)).toBe(`${base}|${w.writer}`);
  });
});
