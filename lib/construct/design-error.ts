// A design error found at synth is the user's to fix, not a crash inside the library. When it goes
// uncaught (a CDK app run by `cdk synth`), the process prints its findings once, against the
// construct's path, and exits 1: without Node's source excerpt of the throwing line, the stack trace
// into the library and the dump of the error's properties. Caught (a test, a wrapper), it is an
// ordinary error and nothing else changes.

/** `error`, to throw; if nothing catches it before the next turn of the event loop, exits cleanly. */
export function exitCleanlyIfUncaught(error: Error, constructPath: string): Error {
  const report = (thrown: unknown) => {
    process.removeListener('uncaughtException', report);
    if (thrown !== error) throw thrown;
    process.stderr.write(`${constructPath}: ${error.message}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', report);
  setImmediate(() => process.removeListener('uncaughtException', report)).unref();
  return error;
}
