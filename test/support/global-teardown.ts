// Stops the run's engine (the engine's own watchdog also stops it if this process dies first) and
// removes the run's synthesized templates.
import { rmSync } from 'fs';
import { TEMPLATE_CACHE_ENV } from './shared-engine';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { singleTableEngine?: { stop(): Promise<void> } }).singleTableEngine?.stop();
  const templates = process.env[TEMPLATE_CACHE_ENV];
  if (templates) rmSync(templates, { recursive: true, force: true });
}
