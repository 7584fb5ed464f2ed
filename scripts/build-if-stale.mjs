#!/usr/bin/env node
/**
 * Runs `npm run build` only when a workspace package's dist/ is missing or older than what it is built from, so
 * `npm start`, `npm run bench` and `npm run example` do not rebuild when nothing changed.
 *
 * `node scripts/build-if-stale.mjs` from a script; `await ensureBuilt()` from a test that spawns the built CLI.
 * It builds the JavaScript bundles only (`REPOHOST_BUILD_DTS=0`): the type declarations are for publishing.
 *
 * A package is stale when the oldest file in its dist/ is older than the newest of: a file under its src/, its
 * package.json, tsup.config.ts and tsconfig.json, the shared tsconfig.base.json and package-lock.json (a changed
 * dependency changes the bundled CLI), and the dist/ files of the workspace packages it depends on (a bundle
 * includes their built code, so a dependency rebuilt on its own makes it stale too).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(fileURLToPath(import.meta.url), '../..');

/** Every file under `dir` (none when it does not exist). */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0; // an optional input that is absent (a package without its own tsconfig.json)
  }
}

/** Why the packages must be built, or undefined when every dist/ is newer than its inputs. */
export function staleReason() {
  const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const packages = new Map();
  for (const dir of workspaces) {
    const manifest = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    packages.set(manifest.name, { dir, deps: Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }) });
  }
  const shared = ['tsconfig.base.json', 'package-lock.json'].map((f) => path.join(root, f));
  for (const { dir, deps } of packages.values()) {
    const dist = filesUnder(path.join(root, dir, 'dist'));
    if (dist.length === 0) return `${dir}/dist is missing`;
    const builtAt = Math.min(...dist.map(mtime));
    const inputs = [
      ...filesUnder(path.join(root, dir, 'src')),
      ...['package.json', 'tsup.config.ts', 'tsconfig.json'].map((f) => path.join(root, dir, f)),
      ...shared,
      ...deps.filter((name) => packages.has(name)).flatMap((name) => filesUnder(path.join(root, packages.get(name).dir, 'dist'))),
    ];
    const newer = inputs.find((file) => mtime(file) > builtAt);
    if (newer) return `${path.relative(root, newer)} is newer than ${dir}/dist`;
  }
  return undefined;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Holds a lock while `work` runs: test files (one per database project) may call ensureBuilt at the same time, and
 * two builds at once delete each other's output. The lock is a directory (mkdir is atomic) holding the owner's pid,
 * so a lock left by a killed process is taken over.
 */
async function withLock(work) {
  const lock = path.join(root, 'node_modules', '.cache', 'repohost-build.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  for (const deadline = Date.now() + 10 * 60_000; ; ) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let pid = 0;
      try {
        pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
      } catch {
        // No pid yet (its owner is between mkdir and writeFile), or the lock was just released.
      }
      const abandoned = pid ? !alive(pid) : existsSync(lock) && Date.now() - mtime(lock) > 30_000;
      if (abandoned) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${lock}`);
      else await sleep(200);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function build() {
  return new Promise((resolve, reject) => {
    // Build output goes to stderr, so the stdout of whatever runs next (an example, a test) stays its own.
    // JavaScript only: what runs needs no type declarations, and they took most of the build (`npm run build` makes them).
    const env = { ...process.env, REPOHOST_BUILD_DTS: '0' };
    const child = spawn('npm', ['run', 'build'], { cwd: root, env, stdio: ['ignore', 2, 2], shell: process.platform === 'win32' });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`npm run build failed (${signal ?? `exit code ${code}`})`))));
  });
}

/** Builds the workspace packages when stale; resolves to true when it built. */
export async function ensureBuilt() {
  if (!staleReason()) return false;
  return withLock(async () => {
    // Checked again under the lock: whoever held it may just have built.
    const reason = staleReason();
    if (!reason) return false;
    process.stderr.write(`build-if-stale: ${reason}; running npm run build\n`);
    await build();
    return true;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  ensureBuilt().catch((error) => {
    process.stderr.write(`build-if-stale: ${error.message}\n`);
    process.exit(1);
  });
}
