// The segment function's code: the handler bundled when the package is compiled
// (out/backfill-segment/index.js, built from lib/migrate/lambda.ts with @aws-sdk/* left to the
// Lambda runtime), staged with the table's compiled model files beside it. No bundling at synth:
// no esbuild or Docker is needed, in any jsii language.
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FileSystem } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { BACKFILL_MODEL_FILE, BACKFILL_PREVIOUS_MODEL_FILE } from '../../migrate/lambda-environment';
import { modelJson } from '../../model/document';
import type { TableModel } from '../../model/model';

/**
 * Where the compile writes the bundle. lib/ and out/ sit at the same depth in the package, so
 * the path is the same from the TypeScript sources and from the compiled files.
 */
export const SEGMENT_BUNDLE = resolve(__dirname, '..', '..', '..', 'out', 'backfill-segment', 'index.js');

/** The function's code for backfilling to `next` from `previous`. */
export function segmentCode(next: TableModel, previous: TableModel | undefined): Code {
  if (!existsSync(SEGMENT_BUNDLE)) {
    throw new Error(`the backfill's Lambda bundle ${SEGMENT_BUNDLE} is missing: this package was not compiled (run npx projen compile)`);
  }
  // The asset's hash is its content's: the same models and bundle give the same asset.
  const dir = FileSystem.mkdtemp('single-table-backfill-');
  copyFileSync(SEGMENT_BUNDLE, join(dir, 'index.js'));
  writeFileSync(join(dir, BACKFILL_MODEL_FILE), modelJson(next));
  if (previous) writeFileSync(join(dir, BACKFILL_PREVIOUS_MODEL_FILE), modelJson(previous));
  return Code.fromAsset(dir);
}
