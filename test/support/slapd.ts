/**
 * A throwaway OpenLDAP server for tests: `slapd` with a private slapd.conf and an mdb database in a temporary
 * folder, listening on a free loopback port, filled with `ldapadd`, stopped (and its folder removed) by `stop()`.
 * Debian's `slapd` and `ldap-utils` packages provide it (`.ci/run` installs them when absent).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestDirectory {
  host: string;
  port: number;
  url: string;
  /** With `tls`: where LDAPS listens (StartTLS is offered on `port`); the certificate is self-signed. */
  ldapsPort?: number;
  /** The suffix every entry lives under, e.g. `dc=example,dc=org`. */
  baseDn: string;
  /** The root account: may read and write everything. */
  rootDn: string;
  rootPassword: string;
  /** Adds entries (LDIF) as the root account. */
  add(ldif: string): Promise<void>;
  /** Applies an LDIF of changes (`changetype: modify`, …) as the root account. */
  modify(ldif: string): Promise<void>;
  stop(): Promise<void>;
}

const SLAPD_CANDIDATES = ['/usr/sbin/slapd', '/usr/local/sbin/slapd', '/usr/libexec/slapd'];
const SCHEMA_DIR = '/etc/ldap/schema';
const MODULE_DIRS = ['/usr/lib/ldap', '/usr/lib/openldap', '/usr/lib64/openldap'];

/** The slapd binary, or undefined when OpenLDAP is not installed (tests then skip, saying why). */
export function slapdPath(): string | undefined {
  const found = SLAPD_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) return undefined;
  // ldapadd is needed to load entries.
  return spawnSync('ldapadd', ['-VV'], { stdio: 'ignore' }).error ? undefined : found;
}

export const SLAPD_MISSING = 'slapd and ldap-utils are not installed (apt-get install slapd ldap-utils): LDAP tests skipped';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function run(command: string, args: string[], input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'], timeout: 15_000 });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr}`))));
    child.stdin.end(input);
  });
}

/** Starts a private slapd whose suffix is `dc=example,dc=org` (or `suffix`); `tls` adds StartTLS and LDAPS. */
export async function startSlapd(options: { suffix?: string; tls?: boolean } = {}): Promise<TestDirectory> {
  const binary = slapdPath();
  if (!binary) throw new Error(SLAPD_MISSING);
  const baseDn = options.suffix ?? 'dc=example,dc=org';
  const rootDn = `cn=admin,${baseDn}`;
  const rootPassword = 'root-secret';
  const dir = await mkdtemp(path.join(tmpdir(), 'repohost-slapd-'));
  await mkdir(path.join(dir, 'data'));
  const tlsLines: string[] = [];
  if (options.tls) {
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore', timeout: 30_000 });
    if (made.status !== 0) throw new Error('openssl could not make a test certificate');
    tlsLines.push(`TLSCertificateFile ${cert}`, `TLSCertificateKeyFile ${key}`);
  }
  const moduleDir = MODULE_DIRS.find((candidate) => existsSync(path.join(candidate, 'back_mdb.so')));
  const config = [
    ...['core', 'cosine', 'inetorgperson', 'nis'].map((schema) => `include ${SCHEMA_DIR}/${schema}.schema`),
    `pidfile ${path.join(dir, 'slapd.pid')}`,
    ...tlsLines,
    ...(moduleDir ? [`modulepath ${moduleDir}`, 'moduleload back_mdb'] : []),
    'database mdb',
    'maxsize 16777216',
    `suffix "${baseDn}"`,
    `rootdn "${rootDn}"`,
    `rootpw ${rootPassword}`,
    `directory ${path.join(dir, 'data')}`,
    // Passwords: each entry binds with its own, nobody reads them; everything else is readable once bound.
    'access to attrs=userPassword by self write by anonymous auth by * none',
    'access to * by users read by anonymous read',
    '',
  ].join('\n');
  const configFile = path.join(dir, 'slapd.conf');
  await writeFile(configFile, config);

  let child: ChildProcess | undefined;
  let port = 0;
  let ldapsPort: number | undefined;
  let log = '';
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    port = await freePort();
    ldapsPort = options.tls ? await freePort() : undefined;
    const urls = [`ldap://127.0.0.1:${port}/`, ...(ldapsPort ? [`ldaps://127.0.0.1:${ldapsPort}/`] : [])].join(' ');
    // `-d 0` keeps slapd in the foreground, so it is our child and dies with the test run.
    const started = spawn(binary, ['-f', configFile, '-h', urls, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    started.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    let exited = false;
    started.once('exit', () => (exited = true));
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline && !(await canConnect(port))) await new Promise((r) => setTimeout(r, 50));
    if (!exited && (await canConnect(port))) child = started;
    else started.kill('SIGKILL');
  }
  if (!child) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`slapd did not start: ${log}`);
  }
  const running = child;
  const url = `ldap://127.0.0.1:${port}`;
  const ldap = (tool: string, extra: string[], ldif: string) => run(tool, ['-x', '-H', url, '-D', rootDn, '-w', rootPassword, ...extra], ldif);
  await ldap('ldapadd', [], `dn: ${baseDn}\nobjectClass: top\nobjectClass: dcObject\nobjectClass: organization\no: Example\ndc: ${/^dc=([^,]+)/.exec(baseDn)?.[1] ?? 'example'}\n`);
  return {
    host: '127.0.0.1',
    port,
    ldapsPort,
    url,
    baseDn,
    rootDn,
    rootPassword,
    add: (ldif) => ldap('ldapadd', [], ldif),
    modify: (ldif) => ldap('ldapmodify', [], ldif),
    async stop() {
      if (running.exitCode === null && running.signalCode === null) {
        const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
        running.kill('SIGTERM');
        const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
