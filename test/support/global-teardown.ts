// Stops the run's engine (the engine's own watchdog also stops it if this process dies first) and
// removes the run's temporary folder, the synthesized templates with it. TMPDIR is given back its
// value (jest --watch runs the setup again in this process).
import { rmSync } from 'fs';

export default async function globalTeardown(): Promise<void> {
  const run = globalThis as { singleTableEngine?: { stop(): Promise<void> }; singleTableTemporary?: string; singleTableTmpdirBefore?: string };
  await run.singleTableEngine?.stop();
  if (run.singleTableTemporary) rmSync(run.singleTableTemporary, { recursive: true, force: true });
  if (run.singleTableTmpdirBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = run.singleTableTmpdirBefore;
}
