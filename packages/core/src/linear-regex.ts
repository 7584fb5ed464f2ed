/**
 * Regular expressions that come from users (tag protection patterns) or are built from what users write
 * (EditorConfig sections, the unadopted-repository search), run on RE2 (re2js): time linear in the input, as Go's
 * regexp, which Forgejo uses. V8's engine backtracks, so `.*a.*a.*a…c` or `(a|aa)*b` over a long name would hold
 * the event loop for seconds or hours. Loaded on first use: re2js costs ~15 ms to load, which a server that
 * matches no such pattern should not pay at start-up.
 */

export interface LinearRegex {
  /** Whether the pattern matches somewhere in `text` (Go's `MatchString`). */
  test(text: string): boolean;
}

export interface LinearRegexOptions {
  ignoreCase?: boolean;
}

type Engine = typeof import('re2js');
let engine: Promise<Engine> | undefined;

/** Compiles an RE2 pattern; throws (a SyntaxError-like RE2JS exception) when it does not compile. */
export async function compileLinearRegex(source: string, options: LinearRegexOptions = {}): Promise<LinearRegex> {
  const { RE2JS } = await (engine ??= import('re2js'));
  const re = RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  return { test: (text) => re.matcher(text).find() };
}
