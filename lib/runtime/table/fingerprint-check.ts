// Cold-start guard: a function bundled with one manifest must not run against a table deployed
// from another, where keys, indexes or patterns may differ and writes would corrupt data quietly.
// The stack puts the deployed manifest's fingerprint in the function's environment
// (SingleTable.connect); without that variable (a function wired by hand, a local run) there is
// nothing to compare and the check is skipped.
import { SingleTableError } from './errors';
import { FINGERPRINT_ENV } from '../../model/environment';

/** Throws MANIFEST_MISMATCH when the environment names a different manifest than the bundled one. */
export function checkFingerprint(bundled: string, env: Readonly<Record<string, string | undefined>> = process.env): void {
  const deployed = env[FINGERPRINT_ENV];
  // Unset or empty: nothing to compare.
  if (deployed && deployed !== bundled) {
    throw new SingleTableError(
      'MANIFEST_MISMATCH',
      `this function was bundled with manifest ${bundled}, its table deployed from manifest ${deployed} (${FINGERPRINT_ENV}); deploy both from the same manifest`,
    );
  }
}
