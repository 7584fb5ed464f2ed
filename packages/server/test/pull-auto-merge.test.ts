/**
 * Scheduled merges (`merge_when_checks_succeed`): stored with 201, run when the head commit's statuses all
 * succeed, refused twice, cancelled with `DELETE …/merge` by who scheduled them or an administrator.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonInit } from '@repohost/test-support';
import { expectApiError, json } from './helpers';
import { mergeWorld, type MergeWorld } from './pull-merge-support';

describe('scheduled merges', () => {
  let w: MergeWorld;
  const status = (full: string, sha: string, state: string, context = 'ci') =>
    w.s.fetch(`/api/v1/repos/${full}/statuses/${sha}`, jsonInit('POST', { state, context, description: state }, w.h));
  const isMerged = async (full: string, index: number) => (await w.s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`, { headers: w.h })).status === 204;
  const cancel = (full: string, index: number, headers = w.h) => w.s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`, { method: 'DELETE', headers });

  beforeAll(async () => {
    w = await mergeWorld();
  });
  afterAll(async () => {
    await w?.close();
  });

  test('waits for the checks, then merges as the one who scheduled it', async () => {
    const { full, clone } = await w.newRepo();
    const base = await w.tip(clone, 'main');
    const head = await w.commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await w.openPull(full, 'feature');
    expect((await status(full, head, 'pending')).status).toBe(201);
    expect((await status(full, head, 'success', 'lint')).status).toBe(201);

    const res = await w.merge(full, index, { Do: 'merge', merge_when_checks_succeed: true, MergeTitleField: 'when green' });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await isMerged(full, index)).toBe(false);
    await expectApiError(await w.merge(full, index, { Do: 'merge', merge_when_checks_succeed: true }), 409, w.s.url);

    expect((await status(full, head, 'failure')).status).toBe(201);
    expect(await isMerged(full, index)).toBe(false);
    expect((await status(full, head, 'success')).status).toBe(201);
    await w.eventually(() => isMerged(full, index));
    const merged = await w.tip(clone, 'main');
    expect((await w.git(['log', '-1', '--format=%P', merged], clone)).split(' ')).toEqual([base, head]);
    expect(await w.git(['log', '-1', '--format=%s|%cn', merged], clone)).toBe(`when green|${w.owner}`);
    const timeline = await json(await w.s.fetch(`/api/v1/repos/${full}/issues/${index}/timeline`, { headers: w.h }));
    expect(timeline.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['pull_scheduled_merge', 'merge_pull']));
    // Nothing left to cancel.
    await expectApiError(await cancel(full, index), 404, w.s.url);
  });

  test('with no checks reported it merges at once (201 all the same)', async () => {
    const { full, clone } = await w.newRepo();
    const head = await w.commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await w.openPull(full, 'feature');
    const res = await w.merge(full, index, { Do: 'fast-forward-only', merge_when_checks_succeed: true });
    expect(res.status, await res.clone().text()).toBe(201);
    await w.eventually(() => isMerged(full, index));
    expect(await w.tip(clone, 'main')).toBe(head);
  });

  test('cancelled: by whoever scheduled it or an administrator; others get 403; then nothing merges', async () => {
    const { full, clone } = await w.newRepo();
    await w.collaborator(full, w.writer, 'write');
    await w.collaborator(full, w.reader, 'read');
    const head = await w.commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await w.openPull(full, 'feature');
    expect((await status(full, head, 'pending')).status).toBe(201);
    await expectApiError(await cancel(full, index), 404, w.s.url);

    expect((await w.merge(full, index, { Do: 'merge', merge_when_checks_succeed: true }, w.writerH)).status).toBe(201);
    await expectApiError(await cancel(full, index, w.readerH), 403, w.s.url);
    expect((await w.s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`, { method: 'DELETE' })).status).toBe(401);
    expect((await cancel(full, index, w.writerH)).status).toBe(204);
    await expectApiError(await cancel(full, index, w.writerH), 404, w.s.url);

    // Scheduled again by the writer, cancelled by the owner (an administrator of the repository).
    expect((await w.merge(full, index, { Do: 'merge', merge_when_checks_succeed: true }, w.writerH)).status).toBe(201);
    expect((await cancel(full, index)).status).toBe(204);
    expect((await status(full, head, 'success')).status).toBe(201);
    expect(await isMerged(full, index)).toBe(false);
    const timeline = await json(await w.s.fetch(`/api/v1/repos/${full}/issues/${index}/timeline`, { headers: w.h }));
    expect(timeline.map((e: { type: string }) => e.type)).toContain('pull_cancel_scheduled_merge');
  });

  test('a reader cannot schedule; a disallowed style is refused up front', async () => {
    const { full, clone } = await w.newRepo();
    await w.collaborator(full, w.reader, 'read');
    await w.commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await w.openPull(full, 'feature');
    expect(await expectApiError(await w.merge(full, index, { Do: 'merge', merge_when_checks_succeed: true }, w.readerH), 405, w.s.url)).toBe('User not allowed to merge PR');
    await w.settings(full, { allow_rebase: false });
    expect(await expectApiError(await w.merge(full, index, { Do: 'rebase', merge_when_checks_succeed: true }), 405, w.s.url)).toBe(
      'rebase is not an allowed merge style for this repository',
    );
    expect(await isMerged(full, index)).toBe(false);
  });
});
