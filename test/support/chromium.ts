// Headless Chromium for browser tests: the Debian package `chromium` (browser downloads through npm
// do not work offline), installed by apt-get when missing and the process may (root). Where it
// cannot be installed, `chromiumPath()` says why: a suite then skips with that reason, never
// silently, except in CI (the CI environment variable set, as .ci/run sets it), where it fails.
import { execFileSync } from 'child_process';
import { existsSync } from 'fs';

export const CHROMIUM = '/usr/bin/chromium';

/** Whether this is a CI run: there a browser suite fails when its browser is missing, because a skipped suite reads as a green run. */
export const IN_CI = !!process.env.CI && process.env.CI !== 'false';

/** Flags for a quiet, offline, throwaway browser. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The browser's path, installing it first if needed; or the reason it is unavailable. */
export function chromiumPath(): { path: string } | { skip: string } {
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  if (process.getuid?.() !== 0) return { skip: `${CHROMIUM} is missing and only root can install it (apt-get install -y chromium)` };
  try {
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], { stdio: 'pipe', timeout: 600_000 });
  } catch (e) {
    return { skip: `apt-get install chromium failed: ${String((e as { stderr?: Buffer }).stderr ?? e).trim().split('\n').slice(-2).join(' ')}` };
  }
  return existsSync(CHROMIUM) ? { path: CHROMIUM } : { skip: `apt-get installed chromium but ${CHROMIUM} is not there` };
}
