// Tools the CLI uses only when a user asks for them (ts-node, dynalite) are the user's project's
// dev dependencies, not this package's: resolve them from the project first, then next to the CLI.
// The project's CDK settings are read where the CDK CLI reads them: ./cdk.json and ./cdk.context.json.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, CliIo } from './io';

/** What the CLI reads of ./cdk.json: the app command and the context. */
export interface CdkJson {
  readonly app?: unknown;
  readonly context?: Record<string, unknown>;
}

/** A JSON file of the project's folder (`{}` when absent); a file that is not JSON is an error naming it. */
function projectJson(io: CliIo, file: string): Record<string, unknown> {
  const path = join(io.cwd, file);
  if (!existsSync(path)) return {};
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('expected an object');
    return value as Record<string, unknown>;
  } catch (e) {
    throw new CliError(`./${file}: not valid JSON (${(e as Error).message}); fix the file or remove it`);
  }
}

/** ./cdk.json, or `{}` without one. */
export function cdkJson(io: CliIo): CdkJson {
  return projectJson(io, 'cdk.json') as CdkJson;
}

/**
 * The context the CDK CLI gives an app it synthesizes in this folder: the values cached in
 * ./cdk.context.json and the `context` of ./cdk.json, which wins where both set a key.
 */
export function projectContext(io: CliIo): Record<string, unknown> {
  return { ...projectJson(io, 'cdk.context.json'), ...cdkJson(io).context };
}

/** The path of a package (or one of its files) installed for the project, or undefined. */
export function resolveFromProject(request: string, io: CliIo): string | undefined {
  try {
    return require.resolve(request, { paths: [io.cwd, __dirname] });
  } catch {
    return undefined;
  }
}
