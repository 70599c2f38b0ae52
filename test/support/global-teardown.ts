// Stops the run's engine (the engine's own watchdog also stops it if this process dies first).
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { singleTableEngine?: { stop(): Promise<void> } }).singleTableEngine?.stop();
}
