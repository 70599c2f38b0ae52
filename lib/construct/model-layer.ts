// The compiled model as a Lambda layer: one JSON file (lib/model/format.ts, as `single-table
// generate` writes it) that `connect` adds to every function it connects. Layers unpack under
// /opt in every Lambda runtime, so a Node.js or a Python handler reads the same file, named by
// SINGLE_TABLE_MODEL. No code in the layer: nothing to load, only a file to read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FileSystem } from 'aws-cdk-lib';
import { Code, ILayerVersion, LayerVersion } from 'aws-cdk-lib/aws-lambda';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { ISingleTable } from './single-table-base';
import type { TableModel } from '../manifest/model';
import { modelJson } from '../model/document';

/** The folder Lambda unpacks a function's layers into. */
export const LAYER_ROOT = '/opt';

/**
 * The model file's path inside its layer. The fingerprint keeps the files of two tables with
 * different manifests apart when both layers unpack into one function's /opt; two tables with one
 * manifest write the same bytes to the same path.
 */
export function modelPathInLayer(model: TableModel): string {
  return `cdk-single-table/model-${model.fingerprint}.json`;
}

/** The model file's absolute path in a function that has the layer: what SINGLE_TABLE_MODEL holds. */
export function deployedModelPath(model: TableModel): string {
  return `${LAYER_ROOT}/${modelPathInLayer(model)}`;
}

/**
 * A layer holding the model file. Its content is written to a fresh folder at synth and staged
 * as an asset, so its hash (and the layer version) changes only when the model does.
 */
export function createModelLayer(scope: Construct, id: string, model: TableModel): LayerVersion {
  const dir = FileSystem.mkdtemp('single-table-model-');
  const file = join(dir, modelPathInLayer(model));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, modelJson(model));
  return new LayerVersion(scope, id, {
    code: Code.fromAsset(dir),
    description: `cdk-single-table compiled model ${model.fingerprint} at ${deployedModelPath(model)}`,
  });
}

/** The functions each layer was added to: connecting a function twice adds the layer once. */
const added = new WeakMap<ILayerVersion, WeakSet<LambdaFunction>>();

/** Gives a function the table's model layer and environment (table name, fingerprint, model path). */
export function deliverModel(table: ISingleTable, fn: LambdaFunction): void {
  const layer = table.modelLayer();
  const functions = added.get(layer) ?? new WeakSet();
  added.set(layer, functions);
  if (!functions.has(fn)) fn.addLayers(layer);
  functions.add(fn);
  for (const [name, value] of Object.entries(table.functionEnvironment())) fn.addEnvironment(name, value);
}
