// The compiled model as a Lambda layer: the JSON file (lib/model/format.ts, as `single-table
// generate` writes it) that `connect` adds to every function it connects. Layers unpack under
// /opt in every Lambda runtime, so a Node.js or a Python handler reads the same file, named by
// SINGLE_TABLE_MODEL. A Python function's layer also holds the Python runtime package, in the
// folder Lambda puts on Python's import path (/opt/python): the handler imports it with no
// packaging step, and its version is always the one that reads this construct's model format.
// Node.js functions carry the runtime in their bundle; their layer holds the model file only.
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { FileSystem } from 'aws-cdk-lib';
import { Code, ILayerVersion, LayerVersion, Runtime, RuntimeFamily } from 'aws-cdk-lib/aws-lambda';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { ISingleTable } from './i-single-table';
import { modelJson } from '../model/document';
import type { TableModel } from '../model/model';

/** The folder Lambda unpacks a function's layers into. */
export const LAYER_ROOT = '/opt';

/** The Python runtime package's import name. */
export const PYTHON_PACKAGE = 'single_table_runtime';

/** The package's folder inside a layer: Lambda's Python runtimes import from /opt/python. */
export const PYTHON_PACKAGE_IN_LAYER = `python/${PYTHON_PACKAGE}`;

/**
 * The package's sources: `python/` beside `lib/` in the repository and beside `out/` in the npm
 * package, which ships the package's modules and nothing else of that folder.
 */
const PYTHON_SOURCES = join(__dirname, '..', '..', 'python', PYTHON_PACKAGE);

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

/** Whether functions of this runtime get the Python package in their layer. */
export function isPython(runtime: Runtime | undefined): boolean {
  return runtime?.family === RuntimeFamily.PYTHON;
}

/**
 * A layer holding the model file and, with `python`, the Python runtime package. Its content is
 * written to a fresh folder at synth and staged as an asset, so its hash (and the layer version)
 * changes only when the model or the package does.
 */
export function createModelLayer(scope: Construct, id: string, model: TableModel, python: boolean): LayerVersion {
  const dir = FileSystem.mkdtemp('single-table-model-');
  const file = join(dir, modelPathInLayer(model));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, modelJson(model));
  if (python) copyPythonPackage(join(dir, PYTHON_PACKAGE_IN_LAYER));
  return new LayerVersion(scope, id, {
    code: Code.fromAsset(dir),
    description: `cdk-single-table compiled model ${model.fingerprint} at ${deployedModelPath(model)}`
      + (python ? `, and the Python runtime package (${LAYER_ROOT}/${PYTHON_PACKAGE_IN_LAYER})` : ''),
  });
}

/** Copies the package's modules and its py.typed marker (no bytecode caches, tests or other files) to `target`. */
function copyPythonPackage(target: string): void {
  if (!existsSync(join(PYTHON_SOURCES, '__init__.py'))) {
    throw new Error(`the Python runtime package is missing from ${PYTHON_SOURCES}; reinstall cdk-single-table (its npm package ships it)`);
  }
  const modules = readdirSync(PYTHON_SOURCES, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && (e.name.endsWith('.py') || e.name === 'py.typed') && !e.parentPath.split(/[\\/]/).includes('__pycache__'))
    .map((e) => relative(PYTHON_SOURCES, join(e.parentPath, e.name)))
    .sort();
  for (const module of modules) {
    mkdirSync(dirname(join(target, module)), { recursive: true });
    copyFileSync(join(PYTHON_SOURCES, module), join(target, module));
  }
}

/** The functions each layer was added to: connecting a function twice adds the layer once. */
const added = new WeakMap<ILayerVersion, WeakSet<LambdaFunction>>();

/**
 * Gives a function the table's model layer for its runtime (`modelLayer`) and environment (table
 * name, fingerprint, model path).
 */
export function deliverModel(table: ISingleTable, fn: LambdaFunction): void {
  const layer = table.modelLayer(fn.runtime);
  const functions = added.get(layer) ?? new WeakSet();
  added.set(layer, functions);
  if (!functions.has(fn)) fn.addLayers(layer);
  functions.add(fn);
  for (const [name, value] of Object.entries(table.functionEnvironment())) fn.addEnvironment(name, value);
}
