// Writing and comparing compiled model files (build side: the CLI and tests; never a Lambda).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { MODEL_FORMAT, MODEL_FORMAT_VERSION, ModelDocument } from './format';
import type { TableModel } from './model';

/** The document of a compiled model. */
export function modelDocument(model: TableModel): ModelDocument {
  return { format: MODEL_FORMAT, formatVersion: MODEL_FORMAT_VERSION, model };
}

/** The file's text: indented JSON (it is committed and reviewed; bundlers minify it), one final newline. */
export function modelJson(model: TableModel): string {
  return JSON.stringify(modelDocument(model), null, 2) + '\n';
}

/** Where `generate` writes the model of a manifest file: `orders.ts` -> `orders.model.json`, beside it. */
export function defaultModelFile(manifestFile: string): string {
  return join(dirname(manifestFile), basename(manifestFile, extname(manifestFile)) + '.model.json');
}

/** How a model file on disk relates to the model a manifest compiles to. */
export type ModelFileState =
  | { readonly state: 'current' }
  | { readonly state: 'missing' }
  | { readonly state: 'stale'; readonly reason: string };

/** Compares a model file with the model it should hold. */
export function modelFileState(file: string, model: TableModel): ModelFileState {
  if (!existsSync(file)) return { state: 'missing' };
  const text = readFileSync(file, 'utf8');
  if (text === modelJson(model)) return { state: 'current' };
  let found: Partial<ModelDocument> | undefined;
  try {
    found = JSON.parse(text);
  } catch {
    return { state: 'stale', reason: 'it is not valid JSON' };
  }
  if (found?.format !== MODEL_FORMAT || found.formatVersion !== MODEL_FORMAT_VERSION) {
    return { state: 'stale', reason: `it has format ${JSON.stringify(found?.format)} version ${found?.formatVersion}, this package writes ${MODEL_FORMAT} version ${MODEL_FORMAT_VERSION}` };
  }
  const fingerprint = found.model?.fingerprint;
  return {
    state: 'stale',
    reason: fingerprint === model.fingerprint
      ? 'it differs from what this package compiles the same manifest to'
      : `it was compiled from the manifest fingerprinted ${fingerprint}, the manifest is now ${model.fingerprint}`,
  };
}
