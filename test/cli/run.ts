// Runs the CLI in-process with captured output, the way a shell would see it.
import { join } from 'node:path';
import { main } from '../../lib/cli';

export const ROOT = join(__dirname, '..', '..');
export const FIXTURES = join(__dirname, 'fixtures');

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function run(...argv: string[]): Promise<Run> {
  return runIn(ROOT, ...argv);
}

/** The same, with another working directory (a user's project). */
export async function runIn(cwd: string, ...argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), cwd, progress: false });
  return { code, stdout, stderr };
}
