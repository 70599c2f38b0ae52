// A design error found at synth is the user's to fix, not a crash inside the library. When it goes
// uncaught (a CDK app run by `cdk synth`), the process prints its findings once, against the
// construct's path, and exits 1: without Node's source excerpt of the throwing line, the stack trace
// into the library and the dump of the error's properties. Caught (a test, a wrapper), it is an
// ordinary error and nothing else changes.

/** Errors thrown this turn of the event loop, with the path of the construct that threw each. */
const pending = new Map<unknown, string>();

/** `error`, to throw; if nothing catches it before the next turn of the event loop, exits cleanly. */
export function exitCleanlyIfUncaught(error: Error, constructPath: string): Error {
  if (pending.size === 0) process.on('uncaughtException', reportUncaught);
  pending.set(error, constructPath);
  setImmediate(() => {
    pending.delete(error);
    if (pending.size === 0) process.removeListener('uncaughtException', reportUncaught);
  }).unref();
  return error;
}

function reportUncaught(thrown: unknown): void {
  const constructPath = pending.get(thrown);
  pending.clear();
  process.removeListener('uncaughtException', reportUncaught);
  if (constructPath === undefined) throw thrown;
  process.stderr.write(`${constructPath}: ${(thrown as Error).message}\n`);
  process.exit(1);
}
