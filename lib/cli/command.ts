// One CLI command per file under ./commands; each declares its flags for node:util parseArgs, its
// help text and what it runs. index.ts only dispatches, so a new command (e.g. `local`) is one more
// file and one line in the list.
import { parseArgs, ParseArgsConfig } from 'node:util';
import { CliError, CliIo, EXIT } from './io';
import { didYouMean } from '../model/closest-name';

/** Parsed flag values. */
export type FlagValues = { [name: string]: string | boolean | undefined };

/** A `single-table` command. */
export interface Command {
  /** The word that selects it. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Full help text, usage first. */
  readonly help: string;
  /** Flags (besides --help), as parseArgs options. */
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** How many positional arguments it takes. */
  readonly positionals: { readonly min: number; readonly max: number };
  /** Runs it; resolves to the exit code. */
  run(positionals: string[], flags: FlagValues, io: CliIo): Promise<number>;
}

/** Parses a command's arguments; a bad flag or argument count is a usage error. */
export function parseCommandArgs(command: Command, args: string[]): { positionals: string[]; flags: FlagValues; help: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    // parseArgs names the bad flag in its first sentence; the rest is advice about '--'.
    const reason = (e as Error).message.split('. ')[0];
    const unknown = /^Unknown option '--?([^']+)'/.exec(reason)?.[1];
    const meant = unknown === undefined ? '' : didYouMean(unknown, [...Object.keys(command.options), 'help']).replace(/'([^']+)'/, "'--$1'");
    throw new CliError(`${command.name}: ${reason}; ${meant}options: ${optionList(command)}\nRun 'single-table ${command.name} --help' for usage.`, EXIT.USAGE);
  }
  const { help, ...flags } = parsed.values as FlagValues;
  const { min, max } = command.positionals;
  const given = parsed.positionals.length;
  if (!help && (given < min || given > max)) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    const missing = given < min ? argumentNames(command)[given] : undefined;
    const problem = missing
      ? `missing ${missing}${argumentDescription(command, missing)}`
      : `expected ${expected} argument(s), got ${given}${given ? ` (${parsed.positionals.join(' ')})` : ''}`;
    throw new CliError(`${command.name}: ${problem}\n${usageOf(command)}\nRun 'single-table ${command.name} --help' for more.`, EXIT.USAGE);
  }
  return { positionals: parsed.positionals, flags, help: help === true };
}

/** The usage lines of a command: its help up to the first blank line. */
export function usageOf(command: Command): string {
  return command.help.split('\n\n')[0];
}

/** The positional arguments the usage names, in order: `<manifest>`, `[manifest]`. */
function argumentNames(command: Command): string[] {
  return usageOf(command).split(/\s+/).slice(3).filter((word) => /^(<[a-z-]+>|\[[a-z-]+\])$/.test(word));
}

/** `: what it is`, from the help's Arguments section (with its continuation lines), when the help describes the argument. */
function argumentDescription(command: Command, name: string): string {
  const lines = command.help.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`  ${name} `));
  if (start < 0) return '';
  const text = [lines[start].slice(name.length + 2)];
  for (let i = start + 1; i < lines.length && /^\s{5,}\S/.test(lines[i]); i++) text.push(lines[i]);
  return `: ${text.map((t) => t.trim()).join(' ')}`;
}

function optionList(command: Command): string {
  const flags = Object.entries(command.options).map(([name, o]) => (o.type === 'string' ? `--${name} VALUE` : `--${name}`));
  return [...flags, '--help'].join(', ');
}
