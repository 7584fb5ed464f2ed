/**
 * The permission matrix of issue 9: every kind of actor × every kind of repository × every operation, asked
 * through the API, git over HTTP and git over SSH (the real clients against the built-in servers). The expected
 * answer of every cell is written out below as data, from Forgejo's rules (`GetUserRepoPermission`, `reqAdmin`,
 * `reqOwner` + `CanUserDelete`, the git permission checks), not computed by RepoHost's own permission code; the
 * test collects what the server answers in every cell and reports every cell that differs.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepositorySchema, SYSTEM, matchesSchema, userActor, type RepoHost, type User } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';

// ---- the grid ----

const REPOS = ['userPublic', 'userPrivate', 'orgPublic', 'orgPrivate', 'privateOrgPublic', 'archived'] as const;
type RepoKind = (typeof REPOS)[number];

/**
 * What Forgejo lets each actor do to each repository. `read`/`write`/`admin`: the access mode; `owner`: owns it
 * (may delete); `teamAdmin`: a member of a team with admin rights, which Forgejo makes an owner of the repository
 * except that only organization owners may delete it; `noCode`: sees the repository (a team grants it issues)
 * but not its code; `none`: may not know it exists.
 */
type Role = 'none' | 'read' | 'write' | 'admin' | 'owner' | 'teamAdmin' | 'noCode';

//                   userPublic userPrivate orgPublic    orgPrivate   privateOrgPublic archived
const ROLES = {
  anonymous:        ['read',    'none',     'read',      'none',      'none',          'read'],
  siteAdmin:        ['owner',   'owner',    'owner',     'owner',     'owner',         'owner'],
  owner:            ['owner',   'owner',    'read',      'none',      'none',          'owner'],
  orgOwner:         ['read',    'none',     'owner',     'owner',     'owner',         'read'],
  teamRead:         ['read',    'none',     'read',      'read',      'read',          'read'],
  teamWrite:        ['read',    'none',     'write',     'write',     'write',         'read'],
  teamAdmin:        ['read',    'none',     'teamAdmin', 'teamAdmin', 'teamAdmin',     'read'],
  // Code none, issues write: a public repository's code stays readable to a member; a private one's is not.
  teamIssuesOnly:   ['read',    'none',     'read',      'noCode',    'read',          'read'],
  // Code read, every other unit none.
  teamCodeRead:     ['read',    'none',     'read',      'read',      'read',          'read'],
  collabRead:       ['read',    'read',     'read',      'read',      'read',          'read'],
  collabWrite:      ['write',   'write',    'write',     'write',     'write',         'write'],
  collabAdmin:      ['admin',   'admin',    'admin',     'admin',     'admin',         'admin'],
  // Restricted accounts read nothing they were not given, public or not.
  restricted:       ['none',    'none',     'none',      'none',      'none',          'none'],
  restrictedCollab: ['write',   'write',    'write',     'write',     'write',         'write'],
  // A restricted member of the reading teams: those teams' repositories only, not the public ones around them.
  restrictedTeam:   ['none',    'none',     'read',      'read',      'read',          'none'],
  stranger:         ['read',    'none',     'read',      'none',      'none',          'read'],
  // collabWrite's token limited to public resources: public repositories of public owners only, with its rights there.
  publicOnly:       ['write',   'none',     'write',     'none',      'none',          'write'],
} as const satisfies Record<string, readonly Role[]>;
type ActorKind = keyof typeof ROLES;
const ACTORS = Object.keys(ROLES) as ActorKind[];

/**
 * The account's mode as `GET …/collaborators/{user}/permission` names it (Forgejo's `permission.AccessMode`): the
 * role's mode, a team admin's `owner`, and for a per-unit team the team's own mode (the lowest it grants a unit),
 * whichever units it covers. Public-only tokens and anonymous callers have no account of their own here.
 */
const PERMISSION_NAME: Record<Role, string> = { none: 'none', read: 'read', write: 'write', admin: 'admin', owner: 'owner', teamAdmin: 'owner', noCode: 'write' };
const PERMISSION_NAME_EXCEPTIONS: Partial<Record<ActorKind, Partial<Record<RepoKind, string>>>> = {
  // The issues team's mode is write (its only unit); the code of a public repository is readable anyway.
  teamIssuesOnly: { orgPublic: 'write', privateOrgPublic: 'write' },
};

/** Whom each actor may see among the owners (for `/users/{owner}/repos`): the private organization only its members. */
const SEES_PRIVATE_ORG: readonly ActorKind[] = ['siteAdmin', 'orgOwner', 'teamRead', 'teamWrite', 'teamAdmin', 'teamIssuesOnly', 'teamCodeRead', 'restrictedTeam'];

/** What git says, reduced: done; asks for credentials; not found (as for a missing repository); refused; archived. */
type GitOutcome = 'ok' | 'auth' | 'hidden' | 'denied' | 'archived';
type Permissions = { admin: boolean; push: boolean; pull: boolean } | null;

interface Cell {
  /** `GET /repos/{owner}/{repo}` status and the `permissions` it reports. */
  read: number;
  permissions: Permissions;
  httpClone: GitOutcome;
  httpPush: GitOutcome;
  sshClone: GitOutcome | 'n/a';
  sshPush: GitOutcome | 'n/a';
  /** `PATCH /repos/{owner}/{repo}` status. */
  edit: number;
  /** `PUT /repos/{owner}/{repo}/collaborators/{user}` status. */
  collaborators: number;
  /** `DELETE /repos/{owner}/{repo}` status. */
  remove: number;
}

/**
 * The answers a role gets, written out per role (signed-in actors; anonymous ones are adjusted in `expected`).
 * git refusals: `hidden` where the repository may not be seen, `denied` (403, "User permission denied") where it
 * may be but the code may not be read or written. (Forgejo's HTTP side says 404 in both cases; RepoHost keeps 404
 * for what the caller may not see, as its SSH side and Forgejo's `serv` do.)
 */
const BY_ROLE: Record<Role, Cell> = {
  none: { read: 404, permissions: null, httpClone: 'hidden', httpPush: 'hidden', sshClone: 'hidden', sshPush: 'hidden', edit: 404, collaborators: 404, remove: 404 },
  noCode: { read: 200, permissions: { admin: false, push: false, pull: false }, httpClone: 'denied', httpPush: 'denied', sshClone: 'denied', sshPush: 'denied', edit: 403, collaborators: 403, remove: 403 },
  read: { read: 200, permissions: { admin: false, push: false, pull: true }, httpClone: 'ok', httpPush: 'denied', sshClone: 'ok', sshPush: 'denied', edit: 403, collaborators: 403, remove: 403 },
  write: { read: 200, permissions: { admin: false, push: true, pull: true }, httpClone: 'ok', httpPush: 'ok', sshClone: 'ok', sshPush: 'ok', edit: 403, collaborators: 403, remove: 403 },
  admin: { read: 200, permissions: { admin: true, push: true, pull: true }, httpClone: 'ok', httpPush: 'ok', sshClone: 'ok', sshPush: 'ok', edit: 200, collaborators: 204, remove: 403 },
  teamAdmin: { read: 200, permissions: { admin: true, push: true, pull: true }, httpClone: 'ok', httpPush: 'ok', sshClone: 'ok', sshPush: 'ok', edit: 200, collaborators: 204, remove: 403 },
  owner: { read: 200, permissions: { admin: true, push: true, pull: true }, httpClone: 'ok', httpPush: 'ok', sshClone: 'ok', sshPush: 'ok', edit: 200, collaborators: 204, remove: 204 },
};

function expected(actor: ActorKind, repo: RepoKind): Cell {
  const cell: Cell = { ...BY_ROLE[ROLES[actor][REPOS.indexOf(repo)]!] };
  if (actor === 'anonymous') {
    // Anonymous callers are asked to sign in wherever credentials could help; they have no SSH key.
    // (Deleting has no reqToken in recent Forgejo: reqOwner refuses them with 403 where they may see the repository.)
    Object.assign(cell, { httpPush: 'auth', edit: 401, collaborators: 401, sshClone: 'n/a', sshPush: 'n/a' });
    if (cell.httpClone === 'hidden') cell.httpClone = 'auth';
  }
  // git sends credentials only when asked (a 401): what anyone may clone, it clones anonymously, whoever it is.
  if (ROLES.anonymous[REPOS.indexOf(repo)] !== 'none') cell.httpClone = 'ok';
  // A token is an HTTP credential only.
  if (actor === 'publicOnly') Object.assign(cell, { sshClone: 'n/a', sshPush: 'n/a' });
  // An archived repository can be cloned, not pushed to (by anyone allowed to push otherwise).
  if (repo === 'archived') {
    if (cell.httpPush === 'ok') cell.httpPush = 'archived';
    if (cell.sshPush === 'ok') cell.sshPush = 'archived';
  }
  return cell;
}

/**
 * Cells where RepoHost is known to answer otherwise than Forgejo, each to be fixed outside this test's files (the
 * test fails when one of them is fixed, so that it is removed from here, and when a new difference appears).
 */
/** Cells where RepoHost knowingly answers otherwise than Forgejo (none today: a mended one fails until removed). */
const KNOWN_DIFFERENCES: readonly string[] = [];

// ---- the world ----

interface ActorSetup {
  user?: User;
  token?: string;
  /** GIT_SSH_COMMAND for its key. */
  ssh?: string;
}

let ts: TestServer;
let scratch: string;
let seedRepo: string;
let gitEnv: NodeJS.ProcessEnv;
let sshPort: number;
const prefix = `mx${Math.random().toString(16).slice(2, 8)}`;
const actors = {} as Record<ActorKind, ActorSetup>;
/** `owner/name` of each kind of repository. */
const repoPath = {} as Record<RepoKind, string>;
let ownerName: string;
let publicOrgName: string;
let privateOrgName: string;
let targetName: string;
/** The teams that list each repository (teams covering all of an organization's repositories cover copies too). */
const listingTeams = new Map<RepoKind, number[]>();
/** The collaborations every repository has. */
const COLLABORATIONS = [
  ['collabRead', 'read'],
  ['collabWrite', 'write'],
  ['collabAdmin', 'admin'],
  ['restrictedCollab', 'write'],
] as const;

function run(file: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ code: number; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: options.cwd ?? scratch, env: { ...gitEnv, ...options.env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Runs `tasks` with at most `limit` at a time. */
async function inBatches<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

function httpOutcome(result: { code: number; stderr: string }): GitOutcome {
  if (result.code === 0) return 'ok';
  // Status codes only as git words them: the URL in the message carries a port that may contain "401" too.
  if (/could not read Username|Authentication failed|returned error: 401\b/.test(result.stderr)) return 'auth';
  if (/archived/i.test(result.stderr)) return 'archived';
  if (/not found|returned error: 404\b/i.test(result.stderr)) return 'hidden';
  if (/returned error: 403\b|permission denied/i.test(result.stderr)) return 'denied';
  throw new Error(`unexpected git failure: ${result.stderr}`);
}

function sshOutcome(result: { code: number; stderr: string }): GitOutcome {
  if (result.code === 0) return 'ok';
  if (/Cannot find repository/.test(result.stderr)) return 'hidden';
  if (/archived/i.test(result.stderr)) return 'archived';
  if (/permission denied/i.test(result.stderr)) return 'denied';
  throw new Error(`unexpected git failure: ${result.stderr}`);
}

function apiHeaders(actor: ActorKind): Record<string, string> {
  const token = actors[actor].token;
  return token ? tokenHeader(token) : {};
}

function httpUrl(actor: ActorKind, repo: string): string {
  const { user, token } = actors[actor];
  const auth = user && token ? `${encodeURIComponent(user.name)}:${token}@` : '';
  return `http://${auth}127.0.0.1:${new URL(ts.url).port}/${repo}.git`;
}

const sshUrl = (repo: string) => `ssh://git@127.0.0.1:${sshPort}/${repo}.git`;

/** A team of `org` with `members`, on every repository of the organization or on the repositories named. */
async function team(
  host: RepoHost,
  org: User,
  name: string,
  options: { authorize: number; units?: Record<string, number>; members: User[]; repos?: string[] },
): Promise<number> {
  const modeName = ['none', 'read', 'write', 'admin'];
  const unitsMap = Object.fromEntries(Object.entries(options.units ?? units({}, options.authorize)).map(([unit, mode]) => [unit, modeName[mode]!]));
  const created = await host.teams.create(SYSTEM, org, {
    name,
    permission: modeName[options.authorize] as 'read' | 'write' | 'admin',
    units_map: unitsMap,
    includes_all_repositories: !options.repos,
  });
  const loaded = { team: created, org };
  for (const member of options.members) await host.teams.addMember(SYSTEM, loaded, member);
  for (const repoName of options.repos ?? []) await host.teams.addRepo(SYSTEM, loaded, repoName);
  return created.id;
}

/** Every unit at `rest` (none unless given) but those given. */
function units(given: Record<string, number>, rest = 0): Record<string, number> {
  const all: Record<string, number> = {};
  for (const unit of ['repo.code', 'repo.issues', 'repo.ext_issues', 'repo.wiki', 'repo.ext_wiki', 'repo.pulls', 'repo.releases', 'repo.projects', 'repo.packages', 'repo.actions']) {
    all[unit] = given[unit] ?? rest;
  }
  return all;
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-matrix-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Matrix\n\temail = matrix@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };

  ts = await startTestServer({ server: { START_SSH_SERVER: true, SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: 0 } });
  sshPort = ts.host.settings.server.SSH_PORT;
  const { host } = ts;

  // Accounts, their tokens and SSH keys.
  const made = {} as Record<ActorKind, User>;
  for (const actor of ACTORS) {
    if (actor === 'anonymous' || actor === 'publicOnly') continue;
    const name = `${prefix}${actor.toLowerCase()}`.slice(0, 39);
    made[actor] = await createUser(host, name, { admin: actor === 'siteAdmin' });
    if (actor.startsWith('restricted')) made[actor] = await host.userAdmin.edit(SYSTEM, made[actor], { restricted: true });
  }
  targetName = `${prefix}target`;
  await createUser(host, targetName);
  await mkdir(path.join(scratch, 'keys'));
  await Promise.all(
    Object.entries(made).map(async ([actor, user]) => {
      const file = path.join(scratch, 'keys', actor);
      const keygen = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', actor, '-f', file]);
      if (keygen.code !== 0) throw new Error(keygen.stderr);
      const publicKey = (await readFile(`${file}.pub`, 'utf8')).trim().split(' ').slice(0, 2).join(' ');
      await host.keys.add(userActor(user), user, { title: 'matrix', key: publicKey });
      actors[actor as ActorKind] = {
        user,
        token: await createToken(host, user.name),
        ssh: `ssh -F /dev/null -i ${file} -p ${sshPort} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`,
      };
    }),
  );
  actors.anonymous = {};
  actors.publicOnly = {
    user: made.collabWrite,
    token: await createToken(host, made.collabWrite.name, ['public-only', 'write:repository', 'read:user', 'read:organization']),
  };

  // Repositories: an individual's, a public organization's, a private organization's.
  ownerName = made.owner.name;
  const publicOrg = await host.orgs.create(SYSTEM, made.orgOwner, { username: `${prefix}puborg` });
  const privateOrg = await host.orgs.create(SYSTEM, made.orgOwner, { username: `${prefix}privorg`, visibility: 'private' });
  publicOrgName = publicOrg.name;
  privateOrgName = privateOrg.name;
  const create = async (kind: RepoKind, owner: User, isPrivate: boolean) => {
    // Named by position: a name like `…-archived` would show in git's messages and read as the refusal.
    const created = await host.repos.create(SYSTEM, { name: `${prefix}-r${REPOS.indexOf(kind)}`, private: isPrivate, auto_init: true }, { owner });
    repoPath[kind] = `${owner.name}/${created.repo.name}`;
    return created;
  };
  await create('userPublic', made.owner, false);
  await create('userPrivate', made.owner, true);
  const orgPublic = await create('orgPublic', publicOrg, false);
  const orgPrivate = await create('orgPrivate', publicOrg, true);
  await create('privateOrgPublic', privateOrg, false);
  const archived = await create('archived', made.owner, false);
  await host.repoSettings.setArchived(SYSTEM, archived, true);

  // Teams: in the public organization some list their repositories, in the private one they cover all.
  const listed = [orgPublic.repo.name, orgPrivate.repo.name];
  for (const [org, repos] of [
    [publicOrg, listed],
    [privateOrg, undefined],
  ] as const) {
    const listing = [
      await team(host, org, 'readers', { authorize: 1, members: [made.teamRead, made.restrictedTeam], repos }),
      await team(host, org, 'admins', { authorize: 3, members: [made.teamAdmin], repos }),
      // Forgejo stores a unit team's mode as the lowest mode it grants any unit (here: write).
      await team(host, org, 'issues', { authorize: 2, units: units({ 'repo.issues': 2 }), members: [made.teamIssuesOnly], repos }),
    ];
    await team(host, org, 'writers', { authorize: 2, members: [made.teamWrite] });
    await team(host, org, 'coders', { authorize: 1, units: units({ 'repo.code': 1 }), members: [made.teamCodeRead] });
    if (repos) for (const kind of ['orgPublic', 'orgPrivate'] as const) listingTeams.set(kind, listing);
  }

  // Collaborators on every repository.
  for (const kind of REPOS) {
    const access = await host.repos.resolve(SYSTEM, ...(repoPath[kind].split('/') as [string, string]));
    for (const [actor, permission] of COLLABORATIONS) await host.collaborators.add(SYSTEM, access, made[actor], { permission });
  }

  // One local repository whose commit every push offers, as a new branch.
  seedRepo = path.join(scratch, 'seed');
  await run('git', ['init', '-q', seedRepo]);
  await writeFile(path.join(seedRepo, 'seed.txt'), 'seed\n');
  await run('git', ['add', 'seed.txt'], { cwd: seedRepo });
  const commit = await run('git', ['commit', '-q', '-m', 'seed'], { cwd: seedRepo });
  if (commit.code !== 0) throw new Error(commit.stderr);
}, 120_000);

afterAll(async () => {
  await ts?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

// ---- the checks ----

describe('the permission matrix', () => {
  const key = (actor: ActorKind, repo: RepoKind) => `${actor} × ${repo}`;
  const cells = ACTORS.flatMap((actor) => REPOS.map((repo) => ({ actor, repo })));
  /** What the server answered, cell by cell, filled by the tests below in order. */
  const actual = new Map<string, Cell>();

  /** The cells (and fields) where the server's answer differs from the expected one. */
  function differences(fields: readonly (keyof Cell)[]): string[] {
    const found: string[] = [];
    for (const { actor, repo } of cells) {
      const want = expected(actor, repo);
      const got = actual.get(key(actor, repo))!;
      for (const field of fields) {
        if (JSON.stringify(want[field]) !== JSON.stringify(got[field])) {
          found.push(`${actor} × ${repo} × ${field}: expected ${JSON.stringify(want[field])}, got ${JSON.stringify(got[field])}`);
        }
      }
    }
    return found;
  }

  it('lists show exactly what each actor may see, and X-Total-Count counts only that', async () => {
    const found: string[] = [];
    const visibleOf = (actor: ActorKind, kinds: readonly RepoKind[]) => kinds.filter((kind) => ROLES[actor][REPOS.indexOf(kind)] !== 'none').map((kind) => repoPath[kind]);
    const owners: [string, readonly RepoKind[], boolean][] = [
      [ownerName, ['userPublic', 'userPrivate', 'archived'], false],
      [publicOrgName, ['orgPublic', 'orgPrivate'], false],
      [privateOrgName, ['privateOrgPublic'], true],
    ];
    const orgRoute = ts.routes.some((r) => r.spec.operationId === 'orgListRepos');
    await inBatches(
      8,
      ACTORS.map((actor) => async () => {
        const headers = apiHeaders(actor);
        const want = visibleOf(actor, REPOS).sort();
        const search = await ts.fetch(`/api/v1/repos/search?q=${prefix}&limit=50`, { headers });
        const listed = ((await search.json()) as { data: { full_name: string }[] }).data.map((r) => r.full_name).sort();
        if (search.headers.get('x-total-count') !== String(want.length) || JSON.stringify(listed) !== JSON.stringify(want)) {
          found.push(`${actor} × /repos/search: expected ${want.length} ${JSON.stringify(want)}, got ${search.headers.get('x-total-count')} ${JSON.stringify(listed)}`);
        }
        for (const [owner, kinds, isPrivateOrg] of owners) {
          const seen = !isPrivateOrg || SEES_PRIVATE_ORG.includes(actor);
          const paths = [`/api/v1/users/${owner}/repos`];
          if (orgRoute && owner !== ownerName) paths.push(`/api/v1/orgs/${owner}/repos`);
          for (const listPath of paths) {
            const res = await ts.fetch(`${listPath}?limit=50`, { headers });
            const wantOwned = visibleOf(actor, kinds).sort();
            if (!seen) {
              if (res.status !== 404) found.push(`${actor} × ${listPath}: expected 404, got ${res.status}`);
              continue;
            }
            const owned = res.status === 200 ? ((await res.json()) as { full_name: string }[]).map((r) => r.full_name).sort() : [];
            if (res.status !== 200 || res.headers.get('x-total-count') !== String(wantOwned.length) || JSON.stringify(owned) !== JSON.stringify(wantOwned)) {
              found.push(`${actor} × ${listPath}: expected ${wantOwned.length} ${JSON.stringify(wantOwned)}, got ${res.status} ${res.headers.get('x-total-count')} ${JSON.stringify(owned)}`);
            }
          }
        }
      }),
    );
    expect(found).toEqual([]);
  }, 120_000);

  it('reading, editing, managing collaborators, git over HTTP and SSH: every cell as expected', async () => {
    // Reads, edits and collaborator management through the API.
    await inBatches(
      8,
      cells.map(({ actor, repo }) => async () => {
        const headers = apiHeaders(actor);
        const read = await ts.fetch(`/api/v1/repos/${repoPath[repo]}`, { headers });
        const body = (await read.json()) as { permissions?: Permissions };
        if (read.status === 200) expect(matchesSchema(RepositorySchema, body), `${actor} × ${repo}`).toBe(true);
        const edit = await ts.fetch(`/api/v1/repos/${repoPath[repo]}`, jsonInit('PATCH', { description: `edited by ${actor}` }, headers));
        const collaborators = await ts.fetch(`/api/v1/repos/${repoPath[repo]}/collaborators/${targetName}`, jsonInit('PUT', { permission: 'read' }, headers));
        if (collaborators.status === 204) {
          const removed = await ts.fetch(`/api/v1/repos/${repoPath[repo]}/collaborators/${targetName}`, { method: 'DELETE', headers });
          expect(removed.status, `${actor} × ${repo}: removing the collaborator it added`).toBe(204);
        }
        actual.set(key(actor, repo), {
          read: read.status,
          permissions: read.status === 200 ? (body.permissions ?? null) : null,
          httpClone: 'ok',
          httpPush: 'ok',
          sshClone: 'n/a',
          sshPush: 'n/a',
          edit: edit.status,
          collaborators: collaborators.status,
          remove: 0,
        });
      }),
    );

    // git over HTTP and SSH: ls-remote for a clone's first step, a push of a new branch.
    await inBatches(
      8,
      cells.flatMap(({ actor, repo }) => {
        const cell = () => actual.get(key(actor, repo))!;
        const branch = `refs/heads/${actor.toLowerCase()}`;
        const tasks = [
          async () => {
            cell().httpClone = httpOutcome(await run('git', ['ls-remote', httpUrl(actor, repoPath[repo])]));
          },
          async () => {
            cell().httpPush = httpOutcome(await run('git', ['push', '-q', httpUrl(actor, repoPath[repo]), `HEAD:${branch}-http`], { cwd: seedRepo }));
          },
        ];
        const ssh = actors[actor].ssh;
        if (ssh && actor !== 'publicOnly') {
          tasks.push(
            async () => {
              cell().sshClone = sshOutcome(await run('git', ['ls-remote', sshUrl(repoPath[repo])], { env: { GIT_SSH_COMMAND: ssh } }));
            },
            async () => {
              cell().sshPush = sshOutcome(await run('git', ['push', '-q', sshUrl(repoPath[repo]), `HEAD:${branch}-ssh`], { cwd: seedRepo, env: { GIT_SSH_COMMAND: ssh } }));
            },
          );
        }
        return tasks;
      }),
    );
    expect(differences(['read', 'permissions', 'httpClone', 'httpPush', 'sshClone', 'sshPush', 'edit', 'collaborators'])).toEqual(KNOWN_DIFFERENCES.filter((d) => !d.includes('× remove:')));
  }, 300_000);

  it('the permission report names each account\'s mode on each repository', async () => {
    const found: string[] = [];
    await inBatches(
      8,
      cells
        .filter(({ actor }) => actor !== 'anonymous' && actor !== 'publicOnly')
        .map(({ actor, repo }) => async () => {
          const res = await ts.fetch(`/api/v1/repos/${repoPath[repo]}/collaborators/${actors[actor].user!.name}/permission`, { headers: apiHeaders('siteAdmin') });
          const body = (await res.json()) as { permission?: string; role_name?: string };
          const want = PERMISSION_NAME_EXCEPTIONS[actor]?.[repo] ?? PERMISSION_NAME[ROLES[actor][REPOS.indexOf(repo)]!];
          if (res.status !== 200 || body.permission !== want || body.role_name !== want) {
            found.push(`${actor} × ${repo}: expected ${want}, got ${res.status} ${body.permission}/${body.role_name}`);
          }
        }),
    );
    expect(found).toEqual([]);
  });

  // Last: a deletion that should have been refused and was not would take the repository from the other checks.
  it('deleting: refused to all but owners, organization owners and site administrators', async () => {
    // Whoever has administrative rights (and so could delete it by mistake) deletes a copy made with the same
    // teams and collaborators; the others are refused on the real repositories.
    for (const { actor, repo } of cells) {
      const want = expected(actor, repo);
      const risky = ['owner', 'teamAdmin', 'admin'].includes(ROLES[actor][REPOS.indexOf(repo)]!);
      const target = risky ? await copyOf(repo) : repoPath[repo];
      const res = await ts.fetch(`/api/v1/repos/${target}`, { method: 'DELETE', headers: apiHeaders(actor) });
      actual.get(key(actor, repo))!.remove = res.status;
      if (want.remove === 204) expect((await ts.fetch(`/api/v1/repos/${target}`, { headers: apiHeaders('siteAdmin') })).status).toBe(404);
    }
    for (const repo of REPOS) expect((await ts.fetch(`/api/v1/repos/${repoPath[repo]}`, { headers: apiHeaders('siteAdmin') })).status).toBe(200);
    expect(differences(['remove'])).toEqual(KNOWN_DIFFERENCES.filter((d) => d.includes('× remove:')));
  }, 120_000);
});

let copies = 0;
/** A fresh repository like `repo`: same owner, visibility, archived state, listing teams and collaborators. */
async function copyOf(repo: RepoKind): Promise<string> {
  const { host } = ts;
  const [ownerName, name] = repoPath[repo].split('/') as [string, string];
  const original = await host.repos.resolve(SYSTEM, ownerName, name);
  const copy = await host.repos.create(SYSTEM, { name: `copy${++copies}`, private: original.repo.is_private === 1 }, { owner: original.owner });
  if (original.repo.is_archived === 1) await host.repoSettings.setArchived(SYSTEM, copy, true);
  for (const teamId of listingTeams.get(repo) ?? []) await host.teams.addRepo(SYSTEM, await host.teams.resolve(SYSTEM, teamId), copy.repo.name);
  for (const [actor, permission] of COLLABORATIONS) await host.collaborators.add(SYSTEM, copy, actors[actor].user!, { permission });
  return `${original.owner.name}/${copy.repo.name}`;
}
