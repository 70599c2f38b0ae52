// Loading a compiled model file (lib/model/format.ts) at cold start: a check of its format and
// version, and a deep freeze (the builders cache compiled keys per model object). No resolution,
// no validation rule: the file holds the model the stack compiled and validated from the same
// manifest, and the fingerprint check proves that at cold start.
import { readFileSync } from 'node:fs';
import { MODEL_PATH_ENV } from './environment';
import { SingleTableError } from './errors';
import type { TableModel } from '../manifest/model';
import { MODEL_FORMAT, MODEL_FORMAT_VERSION, ModelDocument } from '../model/format';
import { deepFreeze } from '../model/freeze';

/** Whether a value is a compiled model file rather than a manifest. */
export function isModelDocument(value: unknown): value is ModelDocument {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === MODEL_FORMAT;
}

/** The model a compiled model file holds; throws INVALID_MODEL when it is not one this runtime reads. */
export function loadModel(document: unknown): TableModel {
  if (!isModelDocument(document)) {
    throw new SingleTableError('INVALID_MODEL', `expected a compiled model file (format ${MODEL_FORMAT}); write one with \`single-table generate <manifest>\` and import the .model.json it writes`);
  }
  if (document.formatVersion !== MODEL_FORMAT_VERSION || typeof document.model?.fingerprint !== 'string') {
    throw new SingleTableError('INVALID_MODEL', `the compiled model file has format version ${document.formatVersion}; this runtime reads version ${MODEL_FORMAT_VERSION}. `
      + 'Regenerate it with this package\'s `single-table generate <manifest>`');
  }
  return deepFreeze(document.model);
}

/** The model the stack deployed: the file SINGLE_TABLE_MODEL names, which `SingleTable.connect` ships with the function. */
export function deployedModel(): TableModel {
  const path = process.env[MODEL_PATH_ENV];
  if (!path) {
    throw new SingleTableError('MODEL_MISSING', `${MODEL_PATH_ENV} is not set: connect the function to its table with \`table.connect(fn)\`, `
      + 'which ships the model with it, or pass `model` (a compiled model file) to openTable in tests and scripts');
  }
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new SingleTableError('INVALID_MODEL', `cannot read the model file ${path} that ${MODEL_PATH_ENV} names: ${(cause as Error).message}`, { cause });
  }
  return loadModel(document);
}
