/**
 * The permission rule itself, case by case, as Forgejo's GetUserRepoPermission answers them: grants are given
 * here directly; test/permission-matrix.test.ts checks the whole path (rows, API, git) end to end.
 */
import { describe, expect, it } from 'vitest';
import { AccessMode, ANONYMOUS, NO_GRANTS, SYSTEM, UNIT_NAMES, combineGrants, repoPermission, unitMode, userActor, type RepoGrants, type Repository, type User } from '@repohost/core';

function user(id: number, fields: Partial<User> = {}): User {
  return { id, name: `u${id}`, lower_name: `u${id}`, type: 0, visibility: 0, is_admin: 0, is_restricted: 0, ...fields } as User;
}
function repo(ownerId: number, isPrivate: boolean): Repository {
  return { id: 100, owner_id: ownerId, is_private: isPrivate ? 1 : 0 } as Repository;
}

const alice = user(1);
const admin = user(2, { is_admin: 1 });
const restricted = user(3, { is_restricted: 1 });
const stranger = user(4);
const publicOrg = user(10, { type: 1 });
const limitedOrg = user(11, { type: 1, visibility: 1 });
const privateOrg = user(12, { type: 1, visibility: 2 });

describe('repoPermission', () => {
  it('public repositories of visible owners are readable; private ones are not', () => {
    expect(repoPermission(ANONYMOUS, repo(alice.id, false), alice, NO_GRANTS).mode).toBe(AccessMode.Read);
    expect(repoPermission(ANONYMOUS, repo(alice.id, true), alice, NO_GRANTS).mode).toBe(AccessMode.None);
    expect(repoPermission(userActor(stranger), repo(alice.id, false), alice, NO_GRANTS).mode).toBe(AccessMode.Read);
    expect(repoPermission(userActor(stranger), repo(alice.id, true), alice, NO_GRANTS).mode).toBe(AccessMode.None);
  });

  it('owners, site administrators and the system own; a public-only token only reads public repositories of public owners', () => {
    for (const actor of [userActor(alice), userActor(admin), SYSTEM]) {
      expect(repoPermission(actor, repo(alice.id, true), alice, NO_GRANTS).mode).toBe(AccessMode.Owner);
    }
    expect(repoPermission(userActor(alice, { publicOnly: true }), repo(alice.id, true), alice, NO_GRANTS).mode).toBe(AccessMode.None);
    expect(repoPermission(userActor(stranger, { publicOnly: true }), repo(limitedOrg.id, false), limitedOrg, NO_GRANTS).mode).toBe(AccessMode.None);
  });

  it('limited and private organizations: signed-in accounts see limited ones, members private ones', () => {
    expect(repoPermission(ANONYMOUS, repo(limitedOrg.id, false), limitedOrg, NO_GRANTS).mode).toBe(AccessMode.None);
    expect(repoPermission(userActor(stranger), repo(limitedOrg.id, false), limitedOrg, NO_GRANTS).mode).toBe(AccessMode.Read);
    expect(repoPermission(userActor(stranger), repo(privateOrg.id, false), privateOrg, NO_GRANTS).mode).toBe(AccessMode.None);
    const member: RepoGrants = { member: true, mode: AccessMode.None };
    expect(repoPermission(userActor(stranger), repo(privateOrg.id, false), privateOrg, member).mode).toBe(AccessMode.Read);
    expect(repoPermission(userActor(stranger), repo(privateOrg.id, true), privateOrg, member).mode).toBe(AccessMode.None);
  });

  it('restricted accounts get only what they were given, public or not', () => {
    expect(repoPermission(userActor(restricted), repo(alice.id, false), alice, NO_GRANTS).mode).toBe(AccessMode.None);
    expect(repoPermission(userActor(restricted), repo(publicOrg.id, false), publicOrg, { member: true, mode: AccessMode.None }).mode).toBe(AccessMode.None);
    expect(repoPermission(userActor(restricted), repo(alice.id, true), alice, combineGrants(false, [{ mode: AccessMode.Write }])).mode).toBe(AccessMode.Write);
  });

  it('a collaborator of a private owner gets the collaboration, though the owner is hidden from them', () => {
    const hidden = user(5, { visibility: 2 });
    expect(repoPermission(userActor(stranger), repo(hidden.id, true), hidden, combineGrants(false, [{ mode: AccessMode.Read }])).mode).toBe(AccessMode.Read);
  });

  it('teams grant unit by unit; the highest grant wins per unit; public repositories keep read on every unit', () => {
    const codeRead = { mode: AccessMode.Read, units: { 'repo.code': AccessMode.Read } };
    const issuesWrite = { mode: AccessMode.Write, units: { 'repo.issues': AccessMode.Write } };
    const grants = combineGrants(true, [codeRead, issuesWrite]);
    const privatePermission = repoPermission(userActor(stranger), repo(publicOrg.id, true), publicOrg, grants);
    expect(privatePermission.mode).toBe(AccessMode.Write);
    expect(unitMode(privatePermission, 'repo.code')).toBe(AccessMode.Read);
    expect(unitMode(privatePermission, 'repo.issues')).toBe(AccessMode.Write);
    expect(unitMode(privatePermission, 'repo.wiki')).toBe(AccessMode.None);
    const publicPermission = repoPermission(userActor(stranger), repo(publicOrg.id, false), publicOrg, grants);
    expect(unitMode(publicPermission, 'repo.wiki')).toBe(AccessMode.Read);
    // A collaboration covers every unit at its mode.
    const withCollaboration = combineGrants(true, [codeRead, { mode: AccessMode.Write }]);
    for (const unit of UNIT_NAMES) expect(withCollaboration.units?.[unit]).toBe(AccessMode.Write);
  });

  it('a team with admin rights (the Owners team too) owns the repositories it covers', () => {
    const adminTeam = combineGrants(true, [{ mode: AccessMode.Admin, units: {} }]);
    expect(repoPermission(userActor(stranger), repo(privateOrg.id, true), privateOrg, adminTeam)).toEqual({ mode: AccessMode.Owner });
    // A collaboration with admin rights administers, it does not own.
    const adminCollaboration = combineGrants(false, [{ mode: AccessMode.Admin }]);
    expect(repoPermission(userActor(stranger), repo(alice.id, true), alice, adminCollaboration).mode).toBe(AccessMode.Admin);
  });
});
