/**
 * A claimed row's lease (webhook tasks, jobs) is renewed every third of its length, counted from when the claim read
 * the clock: a claim that waited for a busy database has already used part of its lease, and its first renewal must
 * not wait a whole third more.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renewLease } from '../src/storage/locks.js';

describe('renewLease', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-29T12:00:00.500Z'));
  });
  afterEach(() => vi.useRealTimers());

  const start = Math.floor(new Date('2026-11-29T12:00:00.500Z').getTime() / 1000);

  it('renews every third of the lease from the claim, writing whole seconds', () => {
    const renewals: [number, number][] = [];
    const stop = renewLease(start, 6, (until, now) => renewals.push([until, now]));
    // The claim read the clock at 12:00:00 (whole second): the first renewal is due 2 s after that, at 12:00:02.
    vi.advanceTimersByTime(1_499);
    expect(renewals).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(renewals).toEqual([[start + 2 + 6, start + 2]]);
    // Then every 2 s from the last renewal.
    vi.advanceTimersByTime(2_000);
    expect(renewals).toEqual([
      [start + 2 + 6, start + 2],
      [start + 4 + 6, start + 4],
    ]);
    stop();
    vi.advanceTimersByTime(10_000);
    expect(renewals).toHaveLength(2);
  });

  it('renews at once when the claim itself took longer than a third of the lease', () => {
    const renewals: number[] = [];
    // The claim read the clock 3 s ago (it waited for the database), with a 6 s lease.
    const stop = renewLease(start - 3, 6, (until) => renewals.push(until));
    vi.advanceTimersByTime(0);
    expect(renewals).toEqual([start + 6]);
    vi.advanceTimersByTime(1_999);
    expect(renewals).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(renewals).toEqual([start + 6, start + 2 + 6]);
    stop();
  });

  it('stopped before its first renewal, it never renews', () => {
    const renew = vi.fn();
    renewLease(start, 3, renew)();
    vi.advanceTimersByTime(60_000);
    expect(renew).not.toHaveBeenCalled();
  });
});
