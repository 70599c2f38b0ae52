#!/usr/bin/env node
// `single-table`: design reports and checks for an access-pattern manifest, from the command line.
// A plain node tool: it never loads aws-cdk-lib. `main` takes the arguments and streams so tests
// run it in-process; only the last lines touch the real process.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Command, parseCommandArgs } from './command';
import { adviseCommand } from './commands/advise';
import { backfillCommand } from './commands/backfill';
import { checkCommand } from './commands/check';
import { costCommand } from './commands/cost';
import { docsCommand } from './commands/docs';
import { generateCommand } from './commands/generate';
import { localCommand } from './commands/local';
import { lockCommand } from './commands/lock';
import { CliError, CliIo, EXIT } from './io';
import { didYouMean } from '../model/closest-name';

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [
  docsCommand, costCommand, adviseCommand, checkCommand, lockCommand, generateCommand, localCommand, backfillCommand,
];

const HELP = `Usage: single-table <command> <manifest> [options]

Design reports and checks for a cdk-single-table access-pattern manifest. The manifest is a .json
file, or a .js/.ts module exporting it (as \`manifest\`, the default export, or its only export);
.ts modules need ts-node installed.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`).join('\n')}

Run 'single-table <command> --help' for a command's options, 'single-table --version' for the
version. Exit codes: 0 done, 1 the manifest cannot be loaded or has errors, 2 bad arguments.
`;

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.err(HELP);
    return EXIT.USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return EXIT.OK;
  }
  if (name === '--version' || name === '-v') {
    io.out(`${packageVersion()}\n`);
    return EXIT.OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  try {
    if (!command) {
      const names = COMMANDS.map((c) => c.name);
      throw new CliError(`unknown command '${name}'; ${didYouMean(name, names)}commands: ${names.join(', ')}\nRun 'single-table --help' for usage.`, EXIT.USAGE);
    }
    const { positionals, flags, help } = parseCommandArgs(command, args);
    if (help) {
      io.out(command.help);
      return EXIT.OK;
    }
    return await command.run(positionals, flags, io);
  } catch (e) {
    if (e instanceof CliError) {
      io.err(`single-table: ${e.message}\n`);
      return e.exitCode;
    }
    io.err(`single-table: ${(e as Error).message ?? String(e)}\n`);
    return EXIT.FAILED;
  }
}

/** This package's version, from the package.json above the CLI (lib/cli or out/cli). */
function packageVersion(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'cdk-single-table') return pkg.version ?? 'unknown';
  }
  return 'unknown';
}

if (require.main === module) {
  const io: CliIo = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    // Also without a terminal (CI, npm scripts): a slow step is never silent.
    progress: true,
  };
  void main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
