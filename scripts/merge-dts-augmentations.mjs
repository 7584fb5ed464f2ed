/**
 * `node scripts/merge-dts-augmentations.mjs <file.d.ts>…`: after tsup has bundled a package's declarations into one
 * file, the module augmentations its sources made (`declare module '../storage/schema.js' { interface Schema extends
 * ReposTables {} }`: how each domain adds its tables, events, job payloads and services) still name the source
 * modules, which the bundle no longer has. TypeScript then ignores them, and every type built from those interfaces
 * is empty for the package's users (`Row<'repository'>` was `{}`). In the bundle every declaration shares one module
 * scope, so each such block is unwrapped there and its interfaces merge with the bundle's own. A file without
 * declarations (a build with REPOHOST_BUILD_DTS=0) is left alone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The file's text with each top-level `declare module './…' { … }` replaced by its body; and how many there were. */
export function mergeAugmentations(text) {
  const lines = text.split('\n');
  const out = [];
  let merged = 0;
  for (let i = 0; i < lines.length; i++) {
    // Only augmentations of the package's own (relative) modules: one of a dependency ('kysely') is real.
    if (!/^declare module '\.{1,2}\/[^']*' \{$/.test(lines[i])) {
      out.push(lines[i]);
      continue;
    }
    const end = lines.indexOf('}', i + 1);
    if (end === -1) throw new Error(`unclosed ${lines[i]}`);
    for (const line of lines.slice(i + 1, end)) out.push(line.startsWith('    ') ? line.slice(4) : line);
    merged++;
    i = end;
  }
  return { text: out.join('\n'), merged };
}

// Run as a script (the build), not when a test imports the function.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const file of process.argv.slice(2)) {
    if (!existsSync(file)) continue;
    const { text, merged } = mergeAugmentations(readFileSync(file, 'utf8'));
    if (merged > 0) writeFileSync(file, text);
  }
}
