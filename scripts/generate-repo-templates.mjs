#!/usr/bin/env node
/**
 * Regenerates the built-in repository templates under packages/core/src/templates/data/ from two registry
 * packages (both CC0-1.0), so the vendored texts are reproducible rather than hand-written:
 *
 * - .gitignore templates: the `gitignores` crate on crates.io, which embeds github/gitignore at a recorded
 *   commit. Every template of the repository's root and Global/ folders is kept, named by its file name without
 *   `.gitignore` (`Node`, `C++`, `macOS`), as Forgejo names the files it ships.
 * - licenses: the `spdx-license-list` npm package (SPDX's license texts), for the ids in LICENSE_IDS below.
 *
 * Fetch and unpack them anywhere, then point the script at them:
 *
 *   cargo new --quiet /tmp/gi && (cd /tmp/gi && cargo add gitignores@4.8.9 && cargo fetch)
 *   (cd /tmp && npm pack spdx-license-list@6.12.0 && tar xzf spdx-license-list-6.12.0.tgz)
 *   node scripts/generate-repo-templates.mjs \
 *     --gitignores ~/.cargo/registry/src/<index>/gitignores-4.8.9 --licenses /tmp/package
 *
 * Output: data/index.ts (names and lazy loaders: nothing is read at start-up), data/gitignores.ts (every
 * template in one module, loaded on first use), data/licenses/<id>.ts (one module per license).
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(import.meta.url), '../..');
const outDir = path.join(root, 'packages/core/src/templates/data');

/** The SPDX ids offered as license templates: the common ones. Forgejo's own names are SPDX ids too. */
const LICENSE_IDS = [
  '0BSD', 'AFL-3.0', 'AGPL-3.0-only', 'AGPL-3.0-or-later', 'Apache-2.0', 'Artistic-2.0', 'BlueOak-1.0.0',
  'BSD-2-Clause', 'BSD-2-Clause-Patent', 'BSD-3-Clause', 'BSD-3-Clause-Clear', 'BSD-4-Clause', 'BSL-1.0',
  'CC-BY-4.0', 'CC-BY-SA-4.0', 'CC0-1.0', 'CDDL-1.0', 'CECILL-2.1', 'ECL-2.0', 'EPL-1.0', 'EPL-2.0', 'EUPL-1.1',
  'EUPL-1.2', 'GPL-2.0-only', 'GPL-2.0-or-later', 'GPL-3.0-only', 'GPL-3.0-or-later', 'ISC', 'LGPL-2.1-only',
  'LGPL-2.1-or-later', 'LGPL-3.0-only', 'LGPL-3.0-or-later', 'LPPL-1.3c', 'MIT', 'MIT-0', 'MPL-2.0', 'MS-PL', 'MS-RL',
  'MulanPSL-2.0', 'NCSA', 'ODbL-1.0', 'OFL-1.1', 'OSL-3.0', 'PostgreSQL', 'UPL-1.0', 'Unlicense', 'Vim', 'WTFPL',
  'Zlib',
];

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '');
    if (!key || argv[i + 1] === undefined) throw new Error(`usage: --gitignores <crate dir> --licenses <package dir>`);
    args[key] = argv[i + 1];
  }
  if (!args.gitignores || !args.licenses) throw new Error('usage: --gitignores <crate dir> --licenses <package dir>');
  return args;
}

/** Reads a Rust string literal starting at the opening quote `source[start]`; returns its value and end. */
function readRustString(source, start) {
  let value = '';
  let i = start + 1;
  for (;;) {
    const ch = source[i];
    if (ch === undefined) throw new Error('unterminated string literal');
    if (ch === '"') return { value, end: i + 1 };
    if (ch !== '\\') {
      value += ch;
      i++;
      continue;
    }
    const esc = source[i + 1];
    i += 2;
    if (esc === 'n') value += '\n';
    else if (esc === 'r') value += '\r';
    else if (esc === 't') value += '\t';
    else if (esc === '0') value += '\0';
    else if (esc === '\\' || esc === '"' || esc === "'") value += esc;
    else if (esc === 'x') {
      value += String.fromCharCode(parseInt(source.slice(i, i + 2), 16));
      i += 2;
    } else if (esc === 'u') {
      const close = source.indexOf('}', i);
      value += String.fromCodePoint(parseInt(source.slice(i + 1, close), 16));
      i = close + 1;
    } else if (esc === '\n') {
      while (/\s/.test(source[i] ?? '')) i++; // a line continuation drops the next line's leading whitespace
    } else throw new Error(`unknown escape \\${esc}`);
  }
}

/** `Self::Variant => "…"` arms of the function `name` in one of the crate's enum files. */
function matchArms(source, name) {
  const body = source.slice(source.lastIndexOf(`fn ${name}(self)`));
  const end = body.indexOf('\n\tfn ', 1);
  const fn = end === -1 ? body : body.slice(0, end);
  const arms = new Map();
  const arm = /Self::(\w+) => "/g;
  let m;
  while ((m = arm.exec(fn))) {
    const { value, end: next } = readRustString(fn, m.index + m[0].length - 1);
    arms.set(m[1], value);
    arm.lastIndex = next;
  }
  return arms;
}

function loadGitignores(crateDir) {
  const templates = new Map();
  for (const file of ['root.rs', 'global.rs']) {
    const source = readFileSync(path.join(crateDir, 'src', file), 'utf8');
    const contents = matchArms(source, 'contents');
    const paths = matchArms(source, 'file_path');
    for (const [variant, filePath] of paths) {
      const name = path.posix.basename(filePath).replace(/\.gitignore$/, '');
      const text = contents.get(variant);
      if (text === undefined) throw new Error(`no contents for ${filePath}`);
      if (templates.has(name)) {
        console.warn(`skipping ${filePath}: a template named ${name} is already taken`);
        continue;
      }
      templates.set(name, text);
    }
  }
  const commit = /commit = "([0-9a-f]{40})"/.exec(readFileSync(path.join(crateDir, 'Cargo.toml'), 'utf8'))?.[1];
  const version = /^version = "([^"]+)"/m.exec(readFileSync(path.join(crateDir, 'Cargo.toml'), 'utf8'))?.[1];
  if (templates.size < 100 || !commit) throw new Error(`${crateDir} does not look like the gitignores crate`);
  return { templates, source: `github/gitignore@${commit} (crates.io gitignores ${version})` };
}

function loadLicenses(packageDir) {
  const { name, version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  if (name !== 'spdx-license-list') throw new Error(`${packageDir} is not the spdx-license-list package`);
  const licenses = new Map();
  for (const id of LICENSE_IDS) {
    const { licenseText } = JSON.parse(readFileSync(path.join(packageDir, 'licenses', `${id}.json`), 'utf8'));
    licenses.set(id, licenseText);
  }
  return { licenses, source: `${name}@${version}` };
}

/**
 * Templates kept at the older github/gitignore revision that Forgejo ships, because clients count the lines of an
 * auto-initialised repository's first commit (the Gitea SDK's TestListRepoCommits expects 109 additions for
 * README + "C,C++" + MIT). Each entry names the sections the newer upstream text added, which are left out.
 */
const PINNED_GITIGNORE_SECTIONS_DROPPED = new Map([
  ['C', ['# debug information files']],
  ['C++', ['# Linker files', '# Debugger Files', '# debug information files']],
]);

/** A template without the named sections (a section: its comment line and the lines up to the next blank one). */
function dropSections(text, headings) {
  const blocks = text.replace(/\n$/, '').split('\n\n');
  const kept = blocks.filter((block) => !headings.includes(block.split('\n')[0]));
  if (kept.length !== blocks.length - headings.length) throw new Error(`sections ${headings.join(', ')} not all found`);
  return `${kept.join('\n\n')}\n`;
}

/** Byte order, as Go's sort.Strings orders the file names Forgejo lists. */
const byteOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function header(source) {
  return `// Generated by scripts/generate-repo-templates.mjs from ${source} (CC0-1.0). Do not edit.\n`;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const { templates, source: gitignoreSource } = loadGitignores(args.gitignores);
  for (const [name, headings] of PINNED_GITIGNORE_SECTIONS_DROPPED) templates.set(name, dropSections(templates.get(name), headings));
  const { licenses, source: licenseSource } = loadLicenses(args.licenses);

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'licenses'), { recursive: true });

  const gitignoreNames = [...templates.keys()].sort(byteOrder);
  const entries = gitignoreNames.map((name) => `  [${JSON.stringify(name)}, ${JSON.stringify(templates.get(name))}],`);
  writeFileSync(
    path.join(outDir, 'gitignores.ts'),
    `${header(gitignoreSource)}\n/** Every .gitignore template's text, by name. */\nexport const GITIGNORE_TEXTS: ReadonlyMap<string, string> = new Map([\n${entries.join('\n')}\n]);\n`,
  );

  const licenseIds = [...licenses.keys()].sort(byteOrder);
  for (const id of licenseIds) {
    writeFileSync(path.join(outDir, 'licenses', `${id}.ts`), `${header(licenseSource)}\nconst text: string = ${JSON.stringify(licenses.get(id))};\nexport default text;\n`);
  }

  const index = [
    `${header(`${gitignoreSource} and ${licenseSource}`)}`,
    '/** Names of the .gitignore templates, in byte order. */',
    `export const GITIGNORE_NAMES: readonly string[] = [\n${gitignoreNames.map((n) => `  ${JSON.stringify(n)},`).join('\n')}\n];`,
    '',
    '/** Loads every .gitignore text at once (they are small); nothing is read until the first use. */',
    "export const loadGitignoreTexts = (): Promise<ReadonlyMap<string, string>> => import('./gitignores.js').then((m) => m.GITIGNORE_TEXTS);",
    '',
    '/** SPDX id → loader of that license\'s text, in byte order of the ids. */',
    'export const LICENSE_LOADERS: ReadonlyMap<string, () => Promise<{ default: string }>> = new Map([',
    ...licenseIds.map((id) => `  [${JSON.stringify(id)}, () => import(${JSON.stringify(`./licenses/${id}.js`)})],`),
    ']);',
    '',
  ].join('\n');
  writeFileSync(path.join(outDir, 'index.ts'), index);

  const written = readdirSync(path.join(outDir, 'licenses')).length;
  console.log(`${gitignoreNames.length} gitignore templates from ${gitignoreSource}; ${written} licenses from ${licenseSource}`);
}

main();
