// Tools the CLI uses only when a user asks for them (ts-node, dynalite) are the user's project's
// dev dependencies, not this package's: resolve them from the project first, then next to the CLI.
import { CliIo } from './io';

/** The path of a package (or one of its files) installed for the project, or undefined. */
export function resolveFromProject(request: string, io: CliIo): string | undefined {
  try {
    return require.resolve(request, { paths: [io.cwd, __dirname] });
  } catch {
    return undefined;
  }
}
