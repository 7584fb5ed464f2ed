/**
 * Domain events: emitted inside the change's transaction, delivered to in-transaction subscribers before commit
 * (their failure undoes the change) and to the others after it; a change that rolls back tells nobody.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SYSTEM, userActor, type DomainEvent, type RepoHost, type User } from '@repohost/core';
import { ReposStore } from '@repohost/core/internal';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

describe('domain events', () => {
  let t: TestHost;
  let host: RepoHost;
  let alice: User;

  beforeEach(async () => {
    t = await openTestHost();
    host = t.host;
    alice = await createUser(host, 'alice', { admin: true });
  });
  afterEach(async () => t.cleanup());

  it('delivers repo.created after commit, with the row, its owner and the actor', async () => {
    const seen: DomainEvent<'repo.created'>[] = [];
    let visibleToHandler: boolean | undefined;
    host.events.on('repo.created', async (event) => {
      seen.push(event);
      // After commit: anyone reading the database sees the new repository.
      visibleToHandler = Boolean(await host.repos.resolve(SYSTEM, 'alice', event.payload.repo.name).catch(() => undefined));
    });
    const created = await host.repos.create(userActor(alice), { name: 'demo' });
    await host.events.idle();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.type).toBe('repo.created');
    expect(seen[0]!.payload.repo).toEqual(created.repo);
    expect(seen[0]!.payload.owner.id).toBe(alice.id);
    expect(seen[0]!.payload.actor).toEqual(userActor(alice));
    expect(seen[0]!.occurredUnix).toBeGreaterThan(0);
    expect(visibleToHandler).toBe(true);
  });

  it('calls in-transaction subscribers with the open transaction\'s stores, before commit', async () => {
    let sawRowInside: string | undefined;
    host.events.withinTransaction('repo.created', async (event, tx) => {
      sawRowInside = (await tx.store(ReposStore).findByOwnerAndName(event.payload.owner.id, event.payload.repo.name))?.name;
    });
    const after = vi.fn();
    host.events.on('repo.created', after);
    await host.repos.create(userActor(alice), { name: 'outboxed' });
    await host.events.idle();
    expect(sawRowInside).toBe('outboxed');
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('undoes the change when an in-transaction subscriber fails, and tells no one else', async () => {
    host.events.withinTransaction('repo.created', async () => {
      throw new Error('outbox unavailable');
    });
    const after = vi.fn();
    host.events.on('*', after);
    await expect(host.repos.create(userActor(alice), { name: 'doomed', auto_init: true })).rejects.toThrow('outbox unavailable');
    await host.events.idle();
    expect(after).not.toHaveBeenCalled();
    expect(await host.git.exists({ owner: 'alice', name: 'doomed' })).toBe(false);
    await expect(host.repos.resolve(SYSTEM, 'alice', 'doomed')).rejects.toThrow();
    expect((await host.users.findById(alice.id))!.num_repos).toBe(0);
  });

  it('keeps the change when an after-commit subscriber fails, reporting the failure', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      host.events.on('repo.created', () => {
        throw new Error('mailer down');
      });
      const later = vi.fn();
      host.events.on('repo.created', later);
      const created = await host.repos.create(userActor(alice), { name: 'kept' });
      await host.events.idle();
      expect(created.repo.name).toBe('kept');
      expect(later).toHaveBeenCalledTimes(1);
      expect(report).toHaveBeenCalledWith(expect.stringContaining('repo.created'), expect.objectContaining({ message: 'mailer down' }));
    } finally {
      report.mockRestore();
    }
  });

  it('reports an account purge as the repositories it removed, then the user, in that order', async () => {
    const bob = await createUser(host, 'bob');
    await host.repos.create(userActor(bob), { name: 'one' });
    await host.repos.create(userActor(bob), { name: 'two' });
    const seen: string[] = [];
    host.events.on('*', (event) => {
      seen.push(event.type === 'repo.deleted' ? `${event.type}:${event.payload.repo.name}` : event.type);
    });
    await host.accounts.deleteUser(userActor(alice), bob, { purge: true });
    await host.events.idle();
    expect(seen).toEqual(['repo.deleted:one', 'repo.deleted:two', 'user.deleted']);
  });

  it('stops delivering to a subscriber that unsubscribed', async () => {
    const handler = vi.fn();
    const off = host.events.on('repo.created', handler);
    await host.repos.create(userActor(alice), { name: 'first' });
    await host.events.idle();
    off();
    await host.repos.create(userActor(alice), { name: 'second' });
    await host.events.idle();
    expect(handler).toHaveBeenCalledTimes(1);
  });
});
