/**
 * Text git itself would produce or read, shared by both git backends (the native one and the in-memory one), so
 * that the two write identical commits and read `.gitmodules` alike.
 */

/** git's `whitespace` cleanup of a message given on the command line: trailing spaces and extra blank lines go. */
export function cleanCommitMessage(message: string): string {
  const lines = message.replace(/\r\n/g, '\n').split('\n').map((l) => l.trimEnd());
  const kept: string[] = [];
  for (const line of lines) {
    if (line === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}

/** `[submodule "x"] path = … url = …` sections of a `.gitmodules` file: path → url. */
export function parseGitmodules(text: string): Map<string, string> {
  const urls = new Map<string, string>();
  let current: { path?: string; url?: string } | undefined;
  const flush = () => {
    if (current?.path !== undefined && current.url !== undefined) urls.set(current.path, current.url);
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      flush();
      current = /^\[submodule\s/.test(line) ? {} : undefined;
      continue;
    }
    // The value starts at a non-space: `\s*(.*)$` backtracked over a run of spaces before a line separator.
    const match = /^([A-Za-z]+)\s*=\s*(\S.*)?$/.exec(line);
    if (!current || !match) continue;
    const value = (match[2] ?? '').replace(/^"(.*)"$/, '$1');
    if (match[1]!.toLowerCase() === 'path') current.path = value;
    else if (match[1]!.toLowerCase() === 'url') current.url = value;
  }
  flush();
  return urls;
}
