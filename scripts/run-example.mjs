#!/usr/bin/env node
/**
 * `npm run example -- <name> [args…]` runs examples/<name>.ts on Node 20, which cannot run TypeScript itself.
 *
 * It builds the packages if they are stale, strips the types of every example with the `typescript` package
 * (`transpileModule`: no type check, `npm run typecheck` does that) into a temporary folder under node_modules, so
 * that `@repohost/*` resolves to the built workspace packages and one example can import another, then runs the
 * example in a child node process and exits with its status.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { ensureBuilt } from './build-if-stale.mjs';

const root = path.resolve(fileURLToPath(import.meta.url), '../..');
const examplesDir = path.join(root, 'examples');
const examples = (await readdir(examplesDir)).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();

const [given, ...args] = process.argv.slice(2);
const name = given && path.basename(given).replace(/\.ts$/, '');
if (!name || !examples.includes(name)) {
  process.stderr.write(`${given ? `no example "${given}"\n` : ''}Usage: npm run example -- <name> [args…]\nExamples: ${examples.join(', ')}\n`);
  process.exit(1);
}

await ensureBuilt();

const cache = path.join(root, 'node_modules', '.cache');
await mkdir(cache, { recursive: true });
const out = await mkdtemp(path.join(cache, 'repohost-example-'));
let status = 1;
try {
  // The examples import each other as './x.js', which names the transpiled file; ESM by this package.json.
  await writeFile(path.join(out, 'package.json'), '{ "type": "module" }\n');
  for (const example of examples) {
    const fileName = path.join(examplesDir, `${example}.ts`);
    const { outputText } = ts.transpileModule(await readFile(fileName, 'utf8'), {
      fileName,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        // Stack traces name examples/<name>.ts and its lines, not the temporary copy.
        inlineSourceMap: true,
        sourceRoot: pathToFileURL(examplesDir).href,
      },
    });
    await writeFile(path.join(out, `${example}.js`), outputText);
  }
  status = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(out, `${name}.js`), ...args], { stdio: 'inherit' });
    // Ctrl-C reaches the child through the terminal; waiting for it lets the temporary folder be removed.
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', () => {});
    process.on('SIGTERM', forward);
    child.on('error', reject);
    // Killed by a signal: the shell's convention, 128 + its number.
    child.on('exit', (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0)));
  });
} finally {
  await rm(out, { recursive: true, force: true });
}
process.exit(status);
