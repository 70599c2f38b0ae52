// What a command may touch: its output streams and working directory, passed in so tests run the
// CLI in-process with captured output, and exit codes that scripts can rely on.

/** Exit codes of `single-table`. */
export const EXIT = {
  /** Done; for `check`, no error found. */
  OK: 0,
  /** The manifest could not be loaded or has errors. */
  FAILED: 1,
  /** Bad command line: unknown command, unknown flag, missing argument. */
  USAGE: 2,
} as const;

/** Output streams and environment of one CLI run. */
export interface CliIo {
  /** Writes to standard output (the result). */
  readonly out: (text: string) => void;
  /** Writes to standard error (errors, progress). */
  readonly err: (text: string) => void;
  /** Directory that relative paths are resolved against. */
  readonly cwd: string;
  /** Whether to print progress lines for slow steps (on standard error; the CLI always does). */
  readonly progress: boolean;
}

/** A failure the CLI reports as one message and an exit code, without a stack trace. */
export class CliError extends Error {
  constructor(message: string, public readonly exitCode: number = EXIT.FAILED) {
    super(message);
    this.name = 'CliError';
  }
}

/** A progress line on standard error, unless the caller turned progress off (tests). */
export function progress(io: CliIo, text: string): void {
  if (io.progress) io.err(`${text}\n`);
}
