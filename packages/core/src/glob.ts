/**
 * The glob dialect Forgejo matches names with (gobwas/glob), for every filter RepoHost applies: protection rules,
 * webhook branch filters, push mirror branch lists (and later Actions path filters). `*` is any run of
 * characters but the separators, `**` any run at all, `?` one character but a separator, `[abc]`, `[a-z]`,
 * `[!…]` one character of (or not of) a set, `{a,b}` either alternative, `\x` the character x.
 *
 * Matching simulates the pattern as an automaton over the name (time proportional to name × pattern), so no
 * filter a user writes can make a push or a page slow, which a backtracking regular expression could.
 */

type Token =
  | { kind: 'char'; char: string }
  | { kind: 'star' }
  | { kind: 'super' }
  | { kind: 'single' }
  | { kind: 'set'; negate: boolean; ranges: [string, string][] };

/** Alternatives `{a,b}` are expanded into separate token lists; a pattern expanding to more is refused. */
const MAX_ALTERNATIVES = 256;

/** Characters that make a rule name a glob rather than a plain branch name (gobwas's `syntax.Special`). */
const SPECIAL = new Set(['*', '?', '\\', '[', ']', '{', '}']);

export class GlobSyntaxError extends Error {}

/** A rule name with none of the glob characters is a plain branch name (Forgejo's `IsRuleNameSpecial`). */
export function isGlobPattern(name: string): boolean {
  for (const c of name) if (SPECIAL.has(c)) return true;
  return false;
}

/** A compiled glob: `match(name)`. */
export class Glob {
  private constructor(
    private readonly alternatives: Token[][],
    private readonly separators: ReadonlySet<string>,
  ) {}

  /** Compiles `pattern` with `separators` (none: `*` crosses everything); GlobSyntaxError when it is malformed. */
  static compile(pattern: string, separators: readonly string[] = []): Glob {
    return new Glob(expand([...pattern]), new Set(separators));
  }

  /** The pattern matching exactly `text` (gobwas's `QuoteMeta`), for a rule whose glob does not compile. */
  static literal(text: string, separators: readonly string[] = []): Glob {
    return new Glob([[...text].map((char) => ({ kind: 'char', char }) as Token)], new Set(separators));
  }

  match(name: string): boolean {
    const chars = [...name];
    return this.alternatives.some((tokens) => run(tokens, chars, this.separators));
  }
}

const compiledGlobs = new Map<string, Glob | null>();

/**
 * A branch filter as Forgejo compiles it (gobwas/glob without separators): `*` any run, `?` one character,
 * `[abc]`, `[!a-z]`, `{a,b}` alternatives, `\` escapes. `null` when the pattern does not compile.
 */
export function compileGlob(pattern: string): Glob | null {
  const cached = compiledGlobs.get(pattern);
  if (cached !== undefined) return cached;
  let result: Glob | null;
  try {
    result = Glob.compile(pattern);
  } catch {
    result = null;
  }
  if (compiledGlobs.size > 1000) compiledGlobs.clear();
  compiledGlobs.set(pattern, result);
  return result;
}

/** Parses one pattern into its alternatives' token lists. */
function expand(chars: string[]): Token[][] {
  let position = 0;
  // Parses until one of `stops` (unconsumed) or the end; returns every alternative of what it read.
  const sequence = (stops: ReadonlySet<string>, depth: number): Token[][] => {
    let results: Token[][] = [[]];
    const append = (tokens: Token[]) => results.forEach((r) => r.push(...tokens));
    while (position < chars.length && !stops.has(chars[position]!)) {
      const c = chars[position++]!;
      if (c === '\\') {
        if (position >= chars.length) throw new GlobSyntaxError('dangling escape');
        append([{ kind: 'char', char: chars[position++]! }]);
      } else if (c === '*') {
        if (chars[position] === '*') {
          while (chars[position] === '*') position++;
          append([{ kind: 'super' }]);
        } else append([{ kind: 'star' }]);
      } else if (c === '?') append([{ kind: 'single' }]);
      else if (c === '[') append([set()]);
      else if (c === ']' || c === '}') throw new GlobSyntaxError(`unexpected ${c}`);
      else if (c === '{') {
        if (depth > 8) throw new GlobSyntaxError('alternatives nested too deeply');
        const options: Token[][] = [];
        for (;;) {
          options.push(...sequence(ALTERNATIVE_STOPS, depth + 1));
          if (position >= chars.length) throw new GlobSyntaxError('unclosed {');
          if (chars[position++] === '}') break;
        }
        const next: Token[][] = [];
        for (const r of results) for (const o of options) next.push([...r, ...o]);
        if (next.length > MAX_ALTERNATIVES) throw new GlobSyntaxError('too many alternatives');
        results = next;
      } else append([{ kind: 'char', char: c }]);
    }
    return results;
  };
  const set = (): Token => {
    let negate = false;
    if (chars[position] === '!') {
      negate = true;
      position++;
    }
    const ranges: [string, string][] = [];
    while (position < chars.length && chars[position] !== ']') {
      let lo = chars[position++]!;
      if (lo === '\\' && position < chars.length) lo = chars[position++]!;
      if (chars[position] === '-' && position + 1 < chars.length && chars[position + 1] !== ']') {
        position++;
        let hi = chars[position++]!;
        if (hi === '\\' && position < chars.length) hi = chars[position++]!;
        if (hi < lo) throw new GlobSyntaxError('inverted range');
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    if (position >= chars.length) throw new GlobSyntaxError('unclosed [');
    position++;
    if (ranges.length === 0) throw new GlobSyntaxError('empty set');
    return { kind: 'set', negate, ranges };
  };
  const all = sequence(new Set(), 0);
  if (position < chars.length) throw new GlobSyntaxError('unexpected character');
  return all;
}

const ALTERNATIVE_STOPS: ReadonlySet<string> = new Set([',', '}']);

/** Runs the token list over the name as a set of live states, one step per character. */
function run(tokens: Token[], chars: string[], separators: ReadonlySet<string>): boolean {
  const size = tokens.length + 1;
  let live: Uint8Array = new Uint8Array(size);
  const close = (states: Uint8Array): Uint8Array => {
    // A star may match nothing: reaching it reaches what follows it too.
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (states[i] && (t.kind === 'star' || t.kind === 'super')) states[i + 1] = 1;
    }
    return states;
  };
  live[0] = 1;
  close(live);
  for (const c of chars) {
    const next = new Uint8Array(size);
    let any = false;
    for (let i = 0; i < tokens.length; i++) {
      if (!live[i]) continue;
      const t = tokens[i]!;
      const separator = separators.has(c);
      switch (t.kind) {
        case 'char':
          if (t.char === c) next[i + 1] = 1;
          break;
        case 'single':
          if (!separator) next[i + 1] = 1;
          break;
        case 'star':
          if (!separator) next[i] = 1;
          break;
        case 'super':
          next[i] = 1;
          break;
        case 'set': {
          const inSet = t.ranges.some(([lo, hi]) => c >= lo && c <= hi);
          if (inSet !== t.negate) next[i + 1] = 1;
          break;
        }
      }
    }
    live = close(next);
    for (let i = 0; i < size && !any; i++) any = live[i] === 1;
    if (!any) return false;
  }
  return live[tokens.length] === 1;
}
