// One CLI command per file under ./commands; each declares its flags for node:util parseArgs, its
// help text and what it runs. index.ts only dispatches, so a new command (e.g. `local`) is one more
// file and one line in the list.
import { parseArgs, ParseArgsConfig } from 'node:util';
import { CliError, CliIo, EXIT } from './io';

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
    throw new CliError(`${command.name}: ${reason}; options: ${optionList(command)}\nRun 'single-table ${command.name} --help' for usage.`, EXIT.USAGE);
  }
  const { help, ...flags } = parsed.values as FlagValues;
  const { min, max } = command.positionals;
  if (!help && (parsed.positionals.length < min || parsed.positionals.length > max)) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw new CliError(
      `${command.name}: expected ${expected} argument(s), got ${parsed.positionals.length}${parsed.positionals.length ? ` (${parsed.positionals.join(' ')})` : ''}\n` +
        `Run 'single-table ${command.name} --help' for usage.`,
      EXIT.USAGE,
    );
  }
  return { positionals: parsed.positionals, flags, help: help === true };
}

function optionList(command: Command): string {
  const flags = Object.entries(command.options).map(([name, o]) => (o.type === 'string' ? `--${name} VALUE` : `--${name}`));
  return [...flags, '--help'].join(', ');
}
