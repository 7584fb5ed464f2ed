/**
 * Languages of a repository's default branch (`GET /repos/{owner}/{repo}/languages`, `Repository.language`):
 * bytes per language, told apart by file name as GitHub's linguist names them, counting only programming and
 * markup languages and leaving out vendored, generated, documentation and dot files, as Forgejo does. Measured
 * with one git process per commit and kept per commit in `language_stat`.
 */
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { nowUnix } from '../storage/index.js';
import type { RepoKey, TreeFile } from '../git/index.js';
import type { User } from '../users/index.js';
import { repoKey, type RepoAccess } from './service.js';
import { ReposStore } from './store.js';
import { LanguageStatsStore } from './languages-store.js';
import type { Repository } from './tables.js';

/** Linguist's language kinds that count towards the statistics. */
type CountedKind = 'programming' | 'markup';

interface Language {
  name: string;
  kind: CountedKind;
}

const programming = (name: string): Language => ({ name, kind: 'programming' });
const markup = (name: string): Language => ({ name, kind: 'markup' });

/**
 * Languages by lower-cased file extension. Where linguist weighs the content to choose between languages (`.h`,
 * `.m`, `.pl`, `.ts`), the common one is taken. Data and prose (JSON, YAML, Markdown, text) are absent: they
 * never count. Members of a group count as the group (TSX as TypeScript, SCSS as CSS), as Forgejo groups them.
 */
const BY_EXTENSION: ReadonlyMap<string, Language> = new Map(
  (
    [
      [programming('Go'), ['go']],
      [programming('TypeScript'), ['ts', 'tsx', 'mts', 'cts']],
      [programming('JavaScript'), ['js', 'jsx', 'mjs', 'cjs', 'es6']],
      [programming('Python'), ['py', 'pyw', 'pyi', 'pyx']],
      [programming('C'), ['c', 'h']],
      [programming('C++'), ['cpp', 'cc', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'h++', 'ipp', 'tpp', 'inl']],
      [programming('C#'), ['cs', 'csx']],
      [programming('Java'), ['java']],
      [programming('Kotlin'), ['kt', 'kts']],
      [programming('Scala'), ['scala', 'sc']],
      [programming('Groovy'), ['groovy', 'gradle']],
      [programming('Rust'), ['rs']],
      [programming('Ruby'), ['rb', 'rake', 'gemspec']],
      [programming('PHP'), ['php', 'phtml']],
      [programming('Perl'), ['pl', 'pm']],
      [programming('Raku'), ['raku', 'rakumod']],
      [programming('Lua'), ['lua']],
      [programming('Shell'), ['sh', 'bash', 'zsh', 'ksh']],
      [programming('PowerShell'), ['ps1', 'psm1', 'psd1']],
      [programming('Batchfile'), ['bat', 'cmd']],
      [programming('Swift'), ['swift']],
      [programming('Objective-C'), ['m']],
      [programming('Objective-C++'), ['mm']],
      [programming('Dart'), ['dart']],
      [programming('Elixir'), ['ex', 'exs']],
      [programming('Erlang'), ['erl', 'hrl']],
      [programming('Haskell'), ['hs', 'lhs']],
      [programming('OCaml'), ['ml', 'mli']],
      [programming('F#'), ['fs', 'fsi', 'fsx']],
      [programming('Clojure'), ['clj', 'cljs', 'cljc', 'edn']],
      [programming('Common Lisp'), ['lisp', 'lsp']],
      [programming('Emacs Lisp'), ['el']],
      [programming('Scheme'), ['scm', 'ss']],
      [programming('R'), ['r']],
      [programming('Julia'), ['jl']],
      [programming('Zig'), ['zig']],
      [programming('Nim'), ['nim']],
      [programming('D'), ['d']],
      [programming('Fortran'), ['f90', 'f95', 'f03', 'f08']],
      [programming('Pascal'), ['pas', 'pp']],
      [programming('Assembly'), ['asm', 'nasm']],
      [programming('Unix Assembly'), ['s']],
      [programming('Visual Basic .NET'), ['vb']],
      [programming('Elm'), ['elm']],
      [programming('PureScript'), ['purs']],
      [programming('Solidity'), ['sol']],
      [programming('V'), ['v']],
      [programming('Crystal'), ['cr']],
      [programming('Nix'), ['nix']],
      [programming('HCL'), ['hcl', 'tf']],
      [programming('CMake'), ['cmake']],
      [programming('Makefile'), ['mk', 'mak']],
      [programming('Dockerfile'), ['dockerfile']],
      [programming('Starlark'), ['bzl', 'star']],
      [programming('GLSL'), ['glsl', 'vert', 'frag']],
      [programming('CUDA'), ['cu', 'cuh']],
      [programming('Vim Script'), ['vim']],
      [programming('Tcl'), ['tcl']],
      [programming('AWK'), ['awk']],
      [programming('Prolog'), ['pro']],
      [programming('Smalltalk'), ['st']],
      [programming('Ada'), ['adb', 'ads']],
      [programming('COBOL'), ['cob', 'cbl']],
      [programming('WebAssembly'), ['wat', 'wast']],
      [markup('HTML'), ['html', 'htm', 'xhtml']],
      [markup('CSS'), ['css', 'scss', 'sass', 'less', 'styl']],
      [markup('Vue'), ['vue']],
      [markup('Svelte'), ['svelte']],
      [markup('TeX'), ['tex', 'sty', 'cls']],
      [markup('Jupyter Notebook'), ['ipynb']],
    ] as const
  ).flatMap(([language, extensions]) => extensions.map((ext) => [ext, language] as const)),
);

/** Languages of files known by their whole name. */
const BY_FILENAME: ReadonlyMap<string, Language> = new Map([
  ['makefile', programming('Makefile')],
  ['gnumakefile', programming('Makefile')],
  ['dockerfile', programming('Dockerfile')],
  ['containerfile', programming('Dockerfile')],
  ['cmakelists.txt', programming('CMake')],
  ['rakefile', programming('Ruby')],
  ['gemfile', programming('Ruby')],
  ['vagrantfile', programming('Ruby')],
  ['jenkinsfile', programming('Groovy')],
  ['build.bazel', programming('Starlark')],
  ['workspace.bazel', programming('Starlark')],
  ['meson.build', programming('Meson')],
]);

/** Third-party code kept in the repository (linguist's `vendor.yml`, the common part). */
const VENDORED = [
  /(^|\/)node_modules\//,
  /(^|\/)bower_components\//,
  /(^|\/)vendors?\//,
  /(^|\/)(3rd|[Tt]hird)[-_]?[Pp]arty\//,
  /(^|\/)Godeps\/_workspace\//,
  /(^|\/)Pods\//,
  /(^|\/)Carthage\/Build\//,
  /(^|\/)\.yarn\//,
  /(^|[-.\/])min\.(js|css)$/,
];

/** Documentation (linguist's `documentation.yml`). */
const DOCUMENTATION = [
  /^[Dd]ocs?\//,
  /(^|\/)[Dd]ocumentation\//,
  /(^|\/)[Jj]avadoc\//,
  /^[Mm]an\//,
  /^[Ee]xamples\//,
  /^[Dd]emos?\//,
  /^[Ss]amples?\//,
  /(^|\/)(CHANGE(S|LOG)?|CONTRIBUTING|COPYING|INSTALL|LICEN[CS]E|[Ll]icen[cs]e|README|[Rr]eadme|CITATION)(\.|$)/,
];

/** Files generated by tools, known by name (linguist also reads content; this does not). */
const GENERATED = [/\.pb\.(go|cc|h)$/, /_pb2(_grpc)?\.py$/, /\.designer\.cs$/, /\.g\.dart$/, /(^|\/)__generated__\//];

/** The language a file counts towards, or undefined when it does not count. */
export function fileLanguage(filePath: string): string | undefined {
  const base = filePath.slice(filePath.lastIndexOf('/') + 1);
  if (base.startsWith('.')) return undefined;
  if (VENDORED.some((re) => re.test(filePath)) || DOCUMENTATION.some((re) => re.test(filePath)) || GENERATED.some((re) => re.test(filePath))) return undefined;
  const lower = base.toLowerCase();
  const named = BY_FILENAME.get(lower);
  if (named) return named.name;
  const dot = lower.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION.get(lower.slice(dot + 1))?.name;
}

/** Bytes per language over the files of a tree (empty files count for nothing). */
export function languageSizes(files: readonly TreeFile[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const file of files) {
    if (file.size <= 0) continue;
    const language = fileLanguage(file.path);
    if (language !== undefined) sizes.set(language, (sizes.get(language) ?? 0) + file.size);
  }
  return sizes;
}

/** The language with most bytes (the first by name among equals), '' when there is none. */
export function primaryLanguage(sizes: ReadonlyMap<string, number>): string {
  let best = '';
  let bestSize = 0;
  for (const [language, size] of sizes) {
    if (size > bestSize || (size === bestSize && language < best)) {
      best = language;
      bestSize = size;
    }
  }
  return best;
}

/**
 * Language statistics of repositories. `subscribe` (once per host) keeps `repository.primary_language` true
 * after pushes to the default branch and after creation with content.
 */
export class RepoLanguagesService {
  constructor(private readonly ctx: CoreContext) {}

  subscribe(): void {
    this.ctx.events.on('repo.created', async ({ payload }) => {
      if (payload.repo.is_empty === 0) await this.refreshAfterChange(payload.repo, payload.owner);
    });
    this.ctx.events.on('repo.pushed', async ({ payload }) => {
      const defaultRef = `refs/heads/${payload.repo.default_branch}`;
      if (payload.updates.some((u) => u.ref === defaultRef)) await this.refreshAfterChange(payload.repo, payload.owner);
    });
  }

  /** After an event: a repository deleted (or its storage gone) since is nothing to measure. */
  private async refreshAfterChange(repo: Repository, owner: User): Promise<void> {
    try {
      await this.refresh(repo, owner);
    } catch (error) {
      if (await this.ctx.git.exists(repoKey(owner, repo))) throw error;
    }
  }

  /** Bytes per language on the default branch, by language name (as Forgejo's JSON map, in name order). */
  async list(_actor: Actor, access: RepoAccess): Promise<Record<string, number>> {
    const sizes = await this.refresh(access.repo, access.owner);
    const out: Record<string, number> = {};
    for (const language of [...sizes.keys()].sort()) out[language] = sizes.get(language)!;
    return out;
  }

  /**
   * The statistics of the default branch's current commit: the stored ones when they were measured at that
   * commit, else measured now and stored, with the repository's primary language, in one transaction.
   */
  async refresh(repo: Repository, owner: User): Promise<Map<string, number>> {
    const key = repoKey(owner, repo);
    const head = await this.defaultHead(key, repo.default_branch);
    if (head === undefined) return new Map();
    const stats = this.ctx.store(LanguageStatsStore);
    const stored = await stats.statsOf(repo.id);
    if (stored.length > 0 && stored.every((s) => s.commit_id === head)) {
      return new Map(stored.filter((s) => s.language !== '').map((s) => [s.language, s.size]));
    }
    const sizes = languageSizes(await this.ctx.git.listFiles(key, head));
    // A push may have moved the branch while this measured: the measurement of the newer commit wins.
    if ((await this.defaultHead(key, repo.default_branch)) !== head) return sizes;
    const primary = primaryLanguage(sizes);
    await this.ctx.transaction(async (tx) => {
      // Deleted meanwhile: nothing to keep.
      if (!(await tx.store(ReposStore).update(repo.id, { primary_language: primary }))) return;
      await tx.store(LanguageStatsStore).replace(repo.id, head, sizes, primary, nowUnix());
    });
    repo.primary_language = primary;
    return sizes;
  }

  private async defaultHead(key: RepoKey, branch: string): Promise<string | undefined> {
    const ref = `refs/heads/${branch}`;
    return (await this.ctx.git.readRefs(key, [ref])).get(ref);
  }
}
