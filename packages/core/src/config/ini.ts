/**
 * A small reader for Forgejo's `app.ini` dialect: `[section]` headers, `KEY = value` lines, `;`/`#` comments,
 * values optionally wrapped in double quotes or backticks. Keys before the first section land in the "" section.
 * Section names are case-insensitive (stored lower-case); keys are stored upper-case, as Forgejo reads them.
 */
export type IniData = Map<string, Map<string, string>>;

export function parseIni(text: string): IniData {
  const data: IniData = new Map([['', new Map()]]);
  let section = data.get('')!;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      const end = line.indexOf(']');
      if (end < 0) throw new Error(`app.ini line ${i + 1}: unterminated section header`);
      const name = line.slice(1, end).trim().toLowerCase();
      section = data.get(name) ?? new Map();
      data.set(name, section);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) throw new Error(`app.ini line ${i + 1}: expected KEY = value`);
    const key = line.slice(0, eq).trim().toUpperCase();
    section.set(key, unquote(line.slice(eq + 1).trim()));
  }
  return data;
}

function unquote(value: string): string {
  if (value.length >= 2) {
    const first = value[0];
    if ((first === '"' || first === '`') && value.endsWith(first)) return value.slice(1, -1);
  }
  return value;
}

const ENV_PREFIXES = ['FORGEJO__', 'GITEA__'];

/**
 * Reads `FORGEJO__SECTION__KEY=value` (and the older `GITEA__…` form) from an environment.
 * Section names may encode characters as `_0X2E_` ('.') or `_0X2D_` ('-'), as Forgejo's environment-to-ini does.
 * `FORGEJO__` wins over `GITEA__` when both set the same key.
 */
export function iniFromEnv(env: Record<string, string | undefined>): IniData {
  const data: IniData = new Map();
  for (const prefix of [...ENV_PREFIXES].reverse()) {
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined || !name.toUpperCase().startsWith(prefix)) continue;
      const rest = name.slice(prefix.length);
      const split = rest.lastIndexOf('__');
      const sectionRaw = split < 0 ? '' : rest.slice(0, split);
      const keyRaw = split < 0 ? rest : rest.slice(split + 2);
      if (!keyRaw) continue;
      const section = decodeEnvName(sectionRaw).toLowerCase();
      const key = decodeEnvName(keyRaw).toUpperCase();
      if (!data.has(section)) data.set(section, new Map());
      data.get(section)!.set(key, value);
    }
  }
  return data;
}

function decodeEnvName(name: string): string {
  return name.replace(/_0X([0-9A-F]{2})_/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Layers `over` on top of `base` (in place) and returns `base`. */
export function mergeIni(base: IniData, over: IniData): IniData {
  for (const [section, values] of over) {
    const target = base.get(section) ?? new Map<string, string>();
    for (const [key, value] of values) target.set(key, value);
    base.set(section, target);
  }
  return base;
}
