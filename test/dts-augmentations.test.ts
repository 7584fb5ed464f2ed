/**
 * The published declarations keep what each domain adds to the shared interfaces (tables, events, job payloads):
 * `scripts/merge-dts-augmentations.mjs` unwraps the `declare module './…'` blocks a bundled `.d.ts` still carries,
 * which TypeScript would otherwise ignore. Checked by compiling a consumer against a bundle shaped as tsup writes
 * it, before and after.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
// @ts-expect-error a build script in plain JavaScript, without declarations
import { mergeAugmentations } from '../scripts/merge-dts-augmentations.mjs';

/** One file of declarations as tsup bundles them: the base interface, then a domain's augmentation of its module. */
const BUNDLED = `import { Selectable } from 'kysely';

interface Schema {
}
type Row<T extends keyof Schema> = Selectable<Schema[T]>;

interface RepositoryTable {
    id: number;
    name: string;
}
interface ReposTables {
    repository: RepositoryTable;
}
declare module '../storage/schema.js' {
    interface Schema extends ReposTables {
    }
}
declare module 'kysely' {
    interface KyselyConfig {
        readonly augmentedByADependency?: true;
    }
}
declare function teamRepo(): Row<'repository'>;

export { type Row, teamRepo };
`;

const CONSUMER = `import { teamRepo } from './index.js';
const name: string = teamRepo().name;
export { name };
`;

/** TypeScript's errors for the consumer compiled against `declarations`, as text. */
async function consumerErrors(declarations: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'repohost-dts-'));
  try {
    await writeFile(path.join(dir, 'index.d.ts'), declarations);
    await writeFile(path.join(dir, 'consumer.ts'), CONSUMER);
    const program = ts.createProgram([path.join(dir, 'consumer.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: false,
      types: [],
      // kysely's own declarations, from this checkout.
      paths: { kysely: [path.resolve('node_modules/kysely')] },
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a bundled augmentation of a source module is merged into the bundle, and the types it adds reach a consumer', async () => {
  // As tsup leaves it: the augmentation names a module the bundle does not have, and the row type is empty.
  expect((await consumerErrors(BUNDLED)).join('\n')).toMatch(/does not satisfy the constraint 'never'|Property 'name' does not exist/);

  const { text, merged } = mergeAugmentations(BUNDLED);
  expect(merged).toBe(1);
  expect(text).not.toContain("declare module '../storage/schema.js'");
  expect(text).toContain('interface Schema extends ReposTables {\n}');
  // A dependency's module is real: its augmentation stays as written.
  expect(text).toContain("declare module 'kysely' {\n    interface KyselyConfig {");
  expect(await consumerErrors(text)).toEqual([]);
}, 60_000);
