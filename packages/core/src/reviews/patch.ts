/**
 * The excerpt of a file's diff a line comment keeps (Forgejo's CutDiffAroundLine): the file header, then the
 * hunk holding the commented line, up to and including it, shortened to its last `contextLines` lines under a
 * recomputed `@@` header.
 */

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function isFileHeader(line: string, inHunk: boolean): boolean {
  return line.startsWith('diff --git ') || (!inHunk && (line.startsWith('---') || line.startsWith('+++')));
}

/**
 * `line` is the commented line's number on its side (`old`: the base's side); 0 gives no excerpt. Returns '' when
 * the diff has no hunk reaching that line.
 */
export function cutDiffAroundLine(diff: string, line: number, old: boolean, contextLines: number): string {
  if (line <= 0 || contextLines <= 0) return '';
  const kept: string[] = [];
  let headerLines = 0;
  // The next line number on the commented side and on the other side; 0 until the right hunk starts.
  let current = 0;
  let other = 0;
  let inHunk = false;
  for (const text of diff.split('\n')) {
    if (isFileHeader(text, inHunk)) {
      kept.push(text);
      headerLines++;
      inHunk = false;
      current = 0;
      continue;
    }
    if (current > line) break;
    const header = HUNK_HEADER.exec(text);
    if (header) {
      const oldStart = Number(header[1]);
      const newStart = Number(header[3]);
      current = old ? oldStart : newStart;
      other = old ? newStart : oldStart;
      inHunk = true;
      // Only the hunk holding the line is kept; an earlier one is dropped.
      kept.length = headerLines;
      kept.push(text);
      continue;
    }
    if (!inHunk || current === 0 || text === '') continue;
    switch (text[0]) {
      case '+':
        if (old) other++;
        else current++;
        break;
      case '-':
        if (old) current++;
        else other++;
        break;
      case '\\':
        break;
      default:
        current++;
        other++;
    }
    kept.push(text);
  }
  if (current === 0 || current <= line || kept.length <= headerLines + 1) return '';
  const body = kept.slice(headerLines + 1);
  if (body.length <= contextLines) return kept.join('\n');
  const tail = body.slice(body.length - contextLines);
  let oldBegin = old ? current : other;
  let newBegin = old ? other : current;
  let oldCount = 0;
  let newCount = 0;
  for (const text of tail) {
    if (text[0] === '+') {
      newBegin--;
      newCount++;
    } else if (text[0] === '-') {
      oldBegin--;
      oldCount++;
    } else if (text[0] !== '\\') {
      oldBegin--;
      newBegin--;
      oldCount++;
      newCount++;
    }
  }
  return [...kept.slice(0, headerLines), `@@ -${oldBegin},${oldCount} +${newBegin},${newCount} @@`, ...tail].join('\n');
}
