/**
 * A restricted account and a public repository it was given nothing on: the API says 404, and so do git over HTTP
 * and SSH whenever the account is the one asking. git sends credentials only when asked (a 401), so what anyone may
 * read it reads anonymously; under `[service] REQUIRE_SIGNIN_VIEW` nothing is served anonymously (Forgejo's
 * askAuth), git retries as the account, and the clone is refused as the API refuses the read.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM, userActor, type SettingsOverrides, type User } from '@repohost/core';
import { createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';

interface Result {
  code: number;
  stderr: string;
}

let scratch: string;
let gitEnv: NodeJS.ProcessEnv;

function git(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: scratch, env: { ...gitEnv, ...env }, timeout: 60_000 }, (error, _stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr: String(stderr) });
    });
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-restricted-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A server with an owner's public repository, a restricted account and an ordinary one, with tokens. */
async function world(overrides: SettingsOverrides) {
  const ts = await startTestServer(overrides);
  const owner = await createUser(ts.host, 'owner');
  await ts.host.repos.create(userActor(owner), { name: 'open', private: false, auto_init: true });
  let restricted = await createUser(ts.host, 'limited');
  restricted = await ts.host.userAdmin.edit(SYSTEM, restricted, { restricted: true });
  await createUser(ts.host, 'plain');
  const tokens = { limited: await createToken(ts.host, 'limited'), plain: await createToken(ts.host, 'plain') };
  const port = new URL(ts.url).port;
  const url = (who?: 'limited' | 'plain') => `http://${who ? `${who}:${tokens[who]}@` : ''}127.0.0.1:${port}/owner/open.git`;
  return { ts, restricted, tokens, url };
}

describe('a restricted account and a public repository it was given nothing on', () => {
  let w: Awaited<ReturnType<typeof world>>;
  let sshCommand: string;
  let restricted: User;

  beforeAll(async () => {
    w = await world({ server: { START_SSH_SERVER: true, SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: 0 } });
    restricted = w.restricted;
    const keyFile = path.join(scratch, 'limited-key');
    const keygen = await new Promise<number>((resolve) => execFile('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile], (error) => resolve(error ? 1 : 0)));
    expect(keygen).toBe(0);
    const publicKey = (await readFile(`${keyFile}.pub`, 'utf8')).trim().split(' ').slice(0, 2).join(' ');
    await w.ts.host.keys.add(userActor(restricted), restricted, { title: 'limited', key: publicKey });
    const sshPort = w.ts.host.settings.server.SSH_PORT;
    sshCommand = `ssh -F /dev/null -i ${keyFile} -p ${sshPort} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`;
  });
  afterAll(async () => w?.ts.cleanup());

  it('is refused by the API, by git over HTTP when the account asks, and by git over SSH', async () => {
    expect((await w.ts.fetch('/api/v1/repos/owner/open', { headers: tokenHeader(w.tokens.limited) })).status).toBe(404);
    expect((await w.ts.fetch('/api/v1/repos/owner/open', { headers: tokenHeader(w.tokens.plain) })).status).toBe(200);

    // Credentials sent with the first request: the account is the one asking.
    const asked = await git(['-c', `http.extraHeader=Authorization: token ${w.tokens.limited}`, 'ls-remote', w.url()]);
    expect(asked.code).not.toBe(0);
    expect(asked.stderr).toMatch(/not found|returned error: 404\b/);
    const advertised = await w.ts.fetch('/owner/open.git/info/refs?service=git-upload-pack', { headers: tokenHeader(w.tokens.limited) });
    expect(advertised.status).toBe(404);
    expect(await advertised.text()).toContain('Repository not found');
    // An unrestricted account asking the same way reads it.
    expect((await git(['-c', `http.extraHeader=Authorization: token ${w.tokens.plain}`, 'ls-remote', w.url()])).code).toBe(0);

    const ssh = await git(['ls-remote', `ssh://git@127.0.0.1:${w.ts.host.settings.server.SSH_PORT}/owner/open.git`], { GIT_SSH_COMMAND: sshCommand });
    expect(ssh.code).not.toBe(0);
    expect(ssh.stderr).toContain('Cannot find repository: owner/open');
  });
});

describe('under [service] REQUIRE_SIGNIN_VIEW', () => {
  let w: Awaited<ReturnType<typeof world>>;

  beforeAll(async () => {
    w = await world({ service: { REQUIRE_SIGNIN_VIEW: true } });
  });
  afterAll(async () => w?.ts.cleanup());

  it('asks anonymous clients to sign in, then refuses the restricted account as the API does', async () => {
    const anonymous = await w.ts.fetch('/owner/open.git/info/refs?service=git-upload-pack');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await git(['ls-remote', w.url()])).stderr).toMatch(/could not read Username|Authentication failed|returned error: 401\b/);

    // The credentials in the URL go out once the server asks for them.
    const limited = await git(['ls-remote', w.url('limited')]);
    expect(limited.code).not.toBe(0);
    expect(limited.stderr).toMatch(/not found|returned error: 404\b/);
    const plain = await git(['ls-remote', w.url('plain')]);
    expect(plain.code, plain.stderr).toBe(0);
  });
});
