/**
 * The command table: every command declares its flags once, with their help, and this module parses them, prints
 * the usage a command answers to `--help`/`-h` (before running anything) and finds subcommands, as Gitea's CLI
 * (urfave/cli) does for every level.
 */
import { parseArgs } from 'node:util';
import type { GlobalOptions } from './config.js';
import { UsageError, type CliIo } from './io.js';

export interface Flag {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  default?: string;
  /** The value's name in the usage (`--port PORT`); strings only. */
  value?: string;
  /** One line (or a few) of help. */
  help: string;
}

export type Flags = Record<string, Flag>;
export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Parsed {
  values: Values;
  positionals: string[];
}

export interface LeafCommand {
  name: string;
  /** Other names it answers to (Forgejo's spellings beside Gitea's). */
  aliases?: readonly string[];
  summary: string;
  /** Positional arguments in the usage line (`key-<ID>`, `[USERNAME...]`); none are accepted without it. */
  args?: string;
  /** Text printed under the usage line. */
  description?: string;
  flags?: Flags;
  run(input: Parsed, global: GlobalOptions, io: CliIo): Promise<number> | number;
}

export interface GroupCommand {
  name: string;
  aliases?: readonly string[];
  summary: string;
  description?: string;
  /** Text printed after the list of commands (the root's global options). */
  footer?: string;
  commands: readonly Command[];
}

export type Command = LeafCommand | GroupCommand;

const isGroup = (command: Command): command is GroupCommand => 'commands' in command;
const HELP_WORDS = new Set(['--help', '-h']);

function columns(rows: [string, string][], indent = '  ', width = 24): string {
  return rows
    .map(([left, right]) => {
      const lines = right.split('\n');
      const head = left.length + indent.length < width ? `${indent}${left.padEnd(width - indent.length)}${lines[0]}` : `${indent}${left}\n${' '.repeat(width)}${lines[0]}`;
      return [head, ...lines.slice(1).map((line) => `${' '.repeat(width)}${line}`)].join('\n') + '\n';
    })
    .join('');
}

function flagLabel(name: string, flag: Flag): string {
  const value = flag.type === 'string' ? ` ${flag.value ?? 'VALUE'}` : '';
  return `--${name}${flag.short ? `, -${flag.short}` : ''}${value}`;
}

/** The usage of a command at `path` (`['admin', 'user', 'create']`). */
export function usage(command: Command, path: readonly string[]): string {
  const name = ['repohost', ...path].join(' ');
  const about = command.description ? `${command.description.trimEnd()}\n` : `${command.summary}.\n`;
  if (isGroup(command)) {
    const rows = command.commands.map((c): [string, string] => [[c.name, ...(c.aliases ?? [])].join(', '), c.summary]);
    const more = `\nRun "${name} <command> --help" for the flags of a command.\n`;
    return `Usage: ${name} <command> [options]\n\n${about}\nCommands:\n${columns(rows)}${command.footer ? `\n${command.footer}` : ''}${more}`;
  }
  const flags = Object.entries(command.flags ?? {});
  const rows = flags.map(([flagName, flag]): [string, string] => [flagLabel(flagName, flag), flag.help]);
  rows.push(['--help, -h', 'show this help']);
  const line = `Usage: ${name}${flags.length ? ' [options]' : ''}${command.args ? ` ${command.args}` : ''}`;
  return `${line}\n\n${about}\nOptions:\n${columns(rows, '  ', 30)}`;
}

/** Parses flags; booleans also take Gitea's `--flag=true|false` form, and `--no-flag`. */
export function parseFlags(args: string[], flags: Flags, allowPositionals: boolean): Parsed {
  const normalized = args.map((arg) => {
    const m = /^--([\w-]+)=(true|false)$/i.exec(arg);
    if (!m || flags[m[1]!]?.type !== 'boolean') return arg;
    return m[2]!.toLowerCase() === 'true' ? `--${m[1]}` : `--no-${m[1]}`;
  });
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, { type, short, multiple, default: value }]) => [
      name,
      { type, ...(short ? { short } : {}), ...(multiple ? { multiple } : {}), ...(value !== undefined ? { default: value } : {}) },
    ]),
  );
  try {
    const parsed = parseArgs({ args: normalized, options, strict: true, allowPositionals, allowNegative: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A usage mistake inside the command at `path`: its help is named in the message the top level prints. */
export class CommandUsageError extends UsageError {
  constructor(
    message: string,
    readonly path: readonly string[],
  ) {
    super(message);
  }
}

/**
 * Runs the command `argv` names under `command` (at `path`). A group without a command prints its usage (exit 1),
 * with `--help`, `-h` or `help` prints it (exit 0); a leaf given `--help` or `-h` (before `--`) prints its usage
 * and does nothing else.
 */
export async function dispatch(command: Command, path: readonly string[], argv: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  if (isGroup(command)) {
    const [word, ...rest] = argv;
    if (word === undefined || HELP_WORDS.has(word) || word === 'help') {
      io.stdout(usage(command, path));
      return word === undefined ? 1 : 0;
    }
    const next = command.commands.find((c) => c.name === word || c.aliases?.includes(word));
    if (!next) throw new CommandUsageError(`unknown command "${[...path, word].join(' ')}"`, path);
    return dispatch(next, [...path, next.name], rest, global, io);
  }
  const end = argv.indexOf('--');
  if ((end < 0 ? argv : argv.slice(0, end)).some((arg) => HELP_WORDS.has(arg))) {
    io.stdout(usage(command, path));
    return 0;
  }
  try {
    return await command.run(parseFlags(argv, command.flags ?? {}, command.args !== undefined), global, io);
  } catch (error) {
    if (error instanceof UsageError && !(error instanceof CommandUsageError)) throw new CommandUsageError(error.message, path);
    throw error;
  }
}

/** Every leaf under `command`, with its path (tests walk the table). */
export function leaves(command: Command, path: readonly string[] = []): { path: string[]; command: LeafCommand }[] {
  if (!isGroup(command)) return [{ path: [...path], command }];
  return command.commands.flatMap((c) => leaves(c, [...path, c.name]));
}

/** Every group under `command`, itself included, with its path. */
export function groups(command: Command, path: readonly string[] = []): { path: string[]; command: GroupCommand }[] {
  if (!isGroup(command)) return [];
  return [{ path: [...path], command }, ...command.commands.flatMap((c) => groups(c, [...path, c.name]))];
}

/** A string flag's value, or undefined. */
export function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}
