/**
 * Every regular expression in RepoHost's sources runs in time linear in its input: each literal is proven so by
 * recheck's ReDoS analysis (an automaton check, with fuzzing where that cannot decide), because the event loop
 * every request shares runs them, and a pattern that backtracks on a long input stalls the whole server.
 * Patterns users write themselves (tag protection expressions) and patterns built from what they write
 * (EditorConfig globs) do not run on V8's engine at all, but on RE2 (`linear-regex.ts`); globs have their own
 * automaton (`glob.ts`). A pattern recheck cannot prove linear is rewritten, or listed below with the bound that
 * keeps its input small wherever it runs.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { check } from 'recheck';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCES = ['packages/core/src', 'packages/server/src', 'packages/cli/src'];

/** Literals recheck finds super-linear, with why their input can never be long. Keep this list short. */
const BOUNDED: Record<string, string> = {};

/** The only file that may build a RegExp at run time: it compiles users' patterns on RE2, not V8's engine. */
const DYNAMIC_ALLOWED = new Set(['packages/core/src/linear-regex.ts']);

interface Found {
  source: string;
  flags: string;
  sites: string[];
}

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const dir of SOURCES) walk(path.join(ROOT, dir));
  return files;
}

/** Regular expression literals (by their text) and the files that call `new RegExp` / `RegExp(`. */
function scan(): { literals: Map<string, Found>; dynamic: string[] } {
  const literals = new Map<string, Found>();
  const dynamic: string[] = [];
  for (const file of sourceFiles()) {
    const relative = path.relative(ROOT, file);
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(sf);
        const slash = text.lastIndexOf('/');
        const found = literals.get(text) ?? { source: text.slice(1, slash), flags: text.slice(slash + 1), sites: [] };
        found.sites.push(`${relative}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`);
        literals.set(text, found);
      }
      if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
        dynamic.push(`${relative}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { literals, dynamic };
}

const { literals, dynamic } = scan();

describe('regular expressions', () => {
  test('the scan finds the sources', () => {
    expect(literals.size).toBeGreaterThan(100);
  });

  test('no RegExp is built at run time outside the RE2 wrapper', () => {
    expect(dynamic.filter((site) => !DYNAMIC_ALLOWED.has(site.slice(0, site.lastIndexOf(':'))))).toEqual([]);
  });

  test('every literal is linear-time, or listed with the bound on its input', { timeout: 300_000 }, async () => {
    // One at a time: recheck's agent gave spurious verdicts to checks sent concurrently.
    const verdicts: { text: string; found: Found; status: string; complexity: string | undefined }[] = [];
    for (const [text, found] of literals) {
      // Global and sticky flags change where matching starts, not how it backtracks.
      const result = await check(found.source, found.flags.replace(/[gy]/g, ''), { timeout: 60_000 });
      verdicts.push({ text, found, status: result.status, complexity: result.status === 'vulnerable' ? result.complexity.type : undefined });
    }
    const unproven = verdicts.filter((v) => v.status !== 'safe' && !(v.text in BOUNDED)).map((v) => `${v.text} (${v.status} ${v.complexity ?? ''}) at ${v.found.sites.join(', ')}`);
    expect(unproven).toEqual([]);
    // A listed pattern that no longer exists, or is now proven linear, leaves the list.
    const stale = Object.keys(BOUNDED).filter((text) => !verdicts.some((v) => v.text === text && v.status !== 'safe'));
    expect(stale).toEqual([]);
  });
});
