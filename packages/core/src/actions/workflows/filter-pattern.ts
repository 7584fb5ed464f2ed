/**
 * GitHub's filter patterns for `branches`, `tags` and `paths` (act's `workflowpattern`, which Forgejo uses): `*` any
 * run without `/`, `**` any run (followed by `/`: any run of whole folders, or none), `?` zero or one and `+` one or more of the
 * preceding character (or class, or star), `[…]` a class of `A-z` and `0-9` characters and ranges, `\` escapes the
 * next character, and a leading `!` makes the pattern negative. act translates a pattern into a Go regular
 * expression; here the same language is compiled into a Thompson automaton and simulated over the name, so a
 * pattern from a workflow file costs time proportional to name × pattern whatever it says.
 */

/** A pattern act refuses; the message is act's (`invalid Pattern '…': Position: n Error: …`). */
export class FilterPatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FilterPatternError';
  }
}

/** What one automaton state accepts of one character. */
type Predicate =
  | { kind: 'char'; char: string; code: number }
  /** Ranges of code points. */
  | { kind: 'class'; ranges: [number, number][] }
  /** `[^/]`, the body of `*`. */
  | { kind: 'notSlash' }
  /** Go's `.`: anything but a newline, the body of `**`. */
  | { kind: 'notNewline' };

type Quantifier = 'one' | 'optional' | 'plus' | 'star';

/** A pattern element: a predicate with its repetition, or the `(.+/)?` act writes for `**` before a slash. */
type Atom = { kind: 'single'; predicate: Predicate; quantifier: Quantifier } | { kind: 'folders' };

type State =
  | { kind: 'test'; predicate: Predicate; next: number }
  | { kind: 'split'; first: number; second: number }
  | { kind: 'accept' };

/** A state of the lazily built deterministic automaton: a set of automaton states, and the moves found so far. */
interface DfaState {
  /** The `test` and `accept` states of the set, ascending. */
  states: number[];
  accepting: boolean;
  /** Code point → the next state's index in `dfa`. */
  moves: Map<number, number>;
}

/** Deterministic states kept per pattern; past this, moves are computed without being remembered. */
const MAX_DFA_STATES = 512;

/** A compiled pattern. */
export class FilterPattern {
  /** Per state, the mark of the last set it was added to, so it enters each set once. */
  private readonly seen: Int32Array;
  private mark = 0;
  private readonly stack: number[] = [];
  /** The deterministic states met so far (the first is the start) and their index by content. */
  private readonly dfa: DfaState[] = [];
  private readonly dfaIndex = new Map<string, number>();

  private constructor(
    /** The pattern without its `!`. */
    readonly pattern: string,
    readonly negative: boolean,
    private readonly states: State[],
    start: number,
    /** Text every matching name starts with, ends with, and contains: checked before the automaton runs. */
    private readonly literals: { prefix: string; suffix: string; inner: string },
  ) {
    this.seen = new Int32Array(states.length);
    const { set } = this.closure([start]);
    this.intern(set);
  }

  /** Compiles one pattern (a leading `!` negates it); FilterPatternError when act would refuse it. */
  static compile(raw: string): FilterPattern {
    const negative = raw.startsWith('!');
    const pattern = negative ? raw.slice(1) : raw;
    const atoms = parseAtoms(pattern);
    const states: State[] = [{ kind: 'accept' }];
    let next = 0;
    // Built from the end, so each element's exit is the entry of what follows it.
    for (let i = atoms.length - 1; i >= 0; i--) next = addAtom(states, atoms[i]!, next);
    return new FilterPattern(pattern, negative, states, next, literalsOf(atoms));
  }

  /** Whether the whole name matches (the negation is the caller's: `Skip` and `Filter` read it). */
  match(name: string): boolean {
    return this.run(name).matched;
  }

  /**
   * The match with the number of steps it took. A character costs one step along a move already known, or, the
   * first time a move is taken, a pass over the automaton's states (a few steps per state): so at most
   * (length of name + 1) × 4 × states in all, whatever the pattern and the name.
   */
  run(name: string): { matched: boolean; steps: number } {
    const { prefix, suffix, inner } = this.literals;
    if (!name.startsWith(prefix) || !name.endsWith(suffix) || !name.includes(inner)) return { matched: false, steps: 1 };
    let steps = 0;
    let current = 0;
    // Past the cache's size the current set is carried by itself (`loose`), never remembered.
    let loose: number[] | undefined;
    for (let i = 0; i < name.length; ) {
      const code = name.codePointAt(i)!;
      i += code > 0xffff ? 2 : 1;
      steps++;
      if (loose === undefined) {
        const known = this.dfa[current]!.moves.get(code);
        if (known !== undefined) {
          current = known;
          if (this.dfa[current]!.states.length === 0) return { matched: false, steps };
          continue;
        }
      }
      const from = loose ?? this.dfa[current]!.states;
      const targets: number[] = [];
      for (const id of from) {
        const s = this.states[id]!;
        steps++;
        if (s.kind === 'test' && accepts(s.predicate, code)) targets.push(s.next);
      }
      const { set, work } = this.closure(targets);
      steps += work;
      if (loose === undefined) {
        const index = this.intern(set);
        if (index !== undefined) {
          this.dfa[current]!.moves.set(code, index);
          current = index;
        } else loose = set;
      } else loose = set;
      if (set.length === 0) return { matched: false, steps };
    }
    const matched = loose ? loose.some((id) => this.states[id]!.kind === 'accept') : this.dfa[current]!.accepting;
    return { matched, steps };
  }

  /** The `test` and `accept` states reached from `from` through splits, ascending, and the steps it took. */
  private closure(from: number[]): { set: number[]; work: number } {
    if (this.mark > 1 << 30) {
      this.seen.fill(0);
      this.mark = 0;
    }
    const mark = ++this.mark;
    const stack = this.stack;
    const set: number[] = [];
    let work = 0;
    for (let k = from.length - 1; k >= 0; k--) stack.push(from[k]!);
    while (stack.length > 0) {
      const id = stack.pop()!;
      work++;
      if (this.seen[id] === mark) continue;
      this.seen[id] = mark;
      const s = this.states[id]!;
      if (s.kind === 'split') stack.push(s.second, s.first);
      else set.push(id);
    }
    set.sort((a, b) => a - b);
    return { set, work };
  }

  /** The deterministic state of a set, made when new; undefined when the cache is full. */
  private intern(set: number[]): number | undefined {
    const key = set.join(',');
    const known = this.dfaIndex.get(key);
    if (known !== undefined) return known;
    if (this.dfa.length >= MAX_DFA_STATES) return undefined;
    this.dfa.push({ states: set, accepting: set.some((id) => this.states[id]!.kind === 'accept'), moves: new Map() });
    this.dfaIndex.set(key, this.dfa.length - 1);
    return this.dfa.length - 1;
  }
}

/**
 * Text any match must start with (the leading plain characters), end with (the trailing ones) and contain (the
 * longest run of plain characters), so most names that cannot match are refused by string search alone.
 */
function literalsOf(atoms: Atom[]): { prefix: string; suffix: string; inner: string } {
  const plainChar = (atom: Atom | undefined) =>
    atom !== undefined && atom.kind === 'single' && atom.quantifier === 'one' && atom.predicate.kind === 'char'
      ? atom.predicate.char
      : undefined;
  let prefix = '';
  for (let i = 0; plainChar(atoms[i]) !== undefined; i++) prefix += plainChar(atoms[i]);
  let suffix = '';
  for (let i = atoms.length - 1; plainChar(atoms[i]) !== undefined; i--) suffix = plainChar(atoms[i]) + suffix;
  let inner = '';
  let run = '';
  for (const atom of atoms) {
    const c = plainChar(atom);
    run = c === undefined ? '' : run + c;
    if (run.length > inner.length) inner = run;
  }
  return { prefix, suffix, inner };
}

function accepts(predicate: Predicate, code: number): boolean {
  switch (predicate.kind) {
    case 'char':
      return predicate.code === code;
    case 'notSlash':
      return code !== SLASH;
    case 'notNewline':
      return code !== NEWLINE;
    case 'class':
      return predicate.ranges.some(([lo, hi]) => code >= lo && code <= hi);
  }
}

const charPredicate = (char: string): Predicate => ({ kind: 'char', char, code: char.codePointAt(0)! });

const SLASH = 0x2f;
const NEWLINE = 0x0a;

/** Appends the states of one element ending in `next`; returns its entry state. */
function addAtom(states: State[], atom: Atom, next: number): number {
  const push = (state: State) => states.push(state) - 1;
  if (atom.kind === 'folders') {
    // (.+/)? : one or more characters, then a slash, or nothing at all.
    const slash = push({ kind: 'test', predicate: charPredicate('/'), next });
    const loop = push({ kind: 'split', first: -1, second: slash });
    const body = push({ kind: 'test', predicate: { kind: 'notNewline' }, next: loop });
    (states[loop] as { first: number }).first = body;
    return push({ kind: 'split', first: body, second: next });
  }
  const { predicate, quantifier } = atom;
  switch (quantifier) {
    case 'one':
      return push({ kind: 'test', predicate, next });
    case 'optional': {
      const body = push({ kind: 'test', predicate, next });
      return push({ kind: 'split', first: body, second: next });
    }
    case 'star': {
      const loop = push({ kind: 'split', first: -1, second: next });
      (states[loop] as { first: number }).first = push({ kind: 'test', predicate, next: loop });
      return loop;
    }
    case 'plus': {
      const loop = push({ kind: 'split', first: -1, second: next });
      const body = push({ kind: 'test', predicate, next: loop });
      (states[loop] as { first: number }).first = body;
      return body;
    }
  }
}

const isRangeChar = (c: string | undefined) => c !== undefined && ((c >= 'A' && c <= 'z') || (c >= '0' && c <= '9'));

/** Reads a pattern as act's `PatternToRegex` does, element by element, collecting its errors. */
function parseAtoms(pattern: string): Atom[] {
  const chars = [...pattern];
  const atoms: Atom[] = [];
  const errors: [number, string][] = [];
  let pos = 0;
  while (pos < chars.length) {
    const c = chars[pos]!;
    if (c === '*') {
      if (chars[pos + 1] === '*') {
        if (chars[pos + 2] === '/') {
          atoms.push({ kind: 'folders' });
          pos += 3;
        } else {
          atoms.push({ kind: 'single', predicate: { kind: 'notNewline' }, quantifier: 'star' });
          pos += 2;
        }
      } else {
        atoms.push({ kind: 'single', predicate: { kind: 'notSlash' }, quantifier: 'star' });
        pos++;
      }
    } else if (c === '+' || c === '?') {
      const last = atoms.at(-1);
      if (pos === 0 || last === undefined) atoms.push({ kind: 'single', predicate: charPredicate(c), quantifier: 'one' });
      else {
        const quantifier = last.kind === 'folders' ? 'optional' : last.quantifier;
        // Go's regexp takes `x??`, `x+?`, `x*?` as lazy forms of the same language and refuses `x?+`, `x++`, `x*+`.
        if (c === '?' && last.kind === 'single' && quantifier === 'one') last.quantifier = 'optional';
        else if (c === '+' && last.kind === 'single' && quantifier === 'one') last.quantifier = 'plus';
        else if (c === '+') errors.push([pos, 'invalid nested repetition operator']);
      }
      pos++;
    } else if (c === '[') {
      pos++;
      if (chars[pos] === ']') {
        errors.push([pos, "Unexpected empty brackets '[]'"]);
        pos++;
        continue;
      }
      const ranges: [string, string][] = [];
      const start = pos;
      let lastWasSingle = false;
      while (pos < chars.length && chars[pos] !== ']') {
        const d = chars[pos]!;
        if (d === '-') {
          const before = chars[pos - 1];
          const after = chars[pos + 1];
          if (pos <= start || pos + 1 >= chars.length) {
            errors.push([pos, 'Invalid range']);
            pos++;
            continue;
          }
          const within = (lo: string, hi: string) =>
            before! >= lo && before! <= hi && after! >= lo && after! <= hi && before! <= after!;
          if (!within('A', 'z') && !within('0', '9')) {
            errors.push([pos, 'Ranges can only include a-z, A-Z, A-z, and 0-9']);
            pos++;
            continue;
          }
          if (lastWasSingle) ranges[ranges.length - 1] = [before!, after!];
          else ranges.push(['-', '-'], [after!, after!]);
          lastWasSingle = false;
          pos += 2;
        } else {
          if (!isRangeChar(d)) {
            errors.push([pos, 'Ranges can only include a-z, A-Z and 0-9']);
            pos++;
            continue;
          }
          ranges.push([d, d]);
          lastWasSingle = true;
          pos++;
        }
      }
      if (pos >= chars.length || chars[pos] !== ']') errors.push([pos, "Missing closing bracket ']' after '['"]);
      pos++;
      const codes = ranges.map(([lo, hi]): [number, number] => [lo.codePointAt(0)!, hi.codePointAt(0)!]);
      atoms.push({ kind: 'single', predicate: { kind: 'class', ranges: codes }, quantifier: 'one' });
    } else if (c === '\\') {
      if (pos + 1 >= chars.length) {
        errors.push([pos, 'Missing symbol after \\']);
        pos++;
        continue;
      }
      atoms.push({ kind: 'single', predicate: charPredicate(chars[pos + 1]!), quantifier: 'one' });
      pos += 2;
    } else {
      atoms.push({ kind: 'single', predicate: charPredicate(c), quantifier: 'one' });
      pos++;
    }
  }
  if (errors.length > 0) {
    const text = errors.map(([at, message]) => `Position: ${at} Error: ${message}`).join(', ');
    throw new FilterPatternError(`invalid Pattern '${pattern}': ${text}`);
  }
  return atoms;
}

/** Compiles a filter's patterns; FilterPatternError on the first one act refuses. */
export function compileFilterPatterns(patterns: readonly string[]): FilterPattern[] {
  return patterns.map((pattern) => FilterPattern.compile(pattern));
}

/**
 * act's `Skip`, for `branches`, `tags` and `paths`: true when no input is included. An input is included when the
 * last pattern matching it is positive, so a later `!pattern` excludes what an earlier one included. No patterns:
 * nothing is skipped.
 */
export function skipsAll(patterns: readonly FilterPattern[], inputs: readonly string[]): boolean {
  if (patterns.length === 0) return false;
  for (const input of inputs) {
    let included = false;
    for (const p of patterns) if (p.match(input)) included = !p.negative;
    if (included) return false;
  }
  return true;
}

/**
 * act's `Filter`, for `branches-ignore`, `tags-ignore` and `paths-ignore`: true when every input is ignored, an input
 * being ignored when some pattern's match differs from its negation (a positive pattern matching it, or a negative
 * one not matching it). No patterns: nothing is ignored.
 */
export function ignoresAll(patterns: readonly FilterPattern[], inputs: readonly string[]): boolean {
  if (patterns.length === 0) return false;
  for (const input of inputs) {
    if (!patterns.some((p) => p.match(input) === !p.negative)) return false;
  }
  return true;
}
