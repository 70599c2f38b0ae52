// A design error caught by the app (here, a test) is an ordinary ManifestError and leaves nothing
// behind; uncaught, `cdk synth` prints it once (test/examples/cdk-synth.test.ts runs that).
import { inspect } from 'node:util';
import { App, Stack } from 'aws-cdk-lib';
import { synthError } from './synth';
import { SingleTable } from '../../lib/construct/single-table';
import { ManifestError } from '../../lib/manifest/diagnostics';
import { edited } from '../fixtures/valid-manifest';

const misspelled = edited((m) => { m.entities.Order.sk = 'ORDER#{ordrId}'; });

test('caught, the error lists every finding in its message and its diagnostics, which printing it does not dump', () => {
  let error: unknown;
  try {
    new SingleTable(new Stack(new App(), 'Test'), 'Table', { manifest: misspelled });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ManifestError);
  expect((error as ManifestError).diagnostics.map((d) => d.code)).toEqual(['TEMPLATE_INVALID']);
  expect(synthError({}, misspelled)).toContain("Fix: did you mean 'orderId'?");
  expect(inspect(error)).not.toContain('diagnostics');
});
