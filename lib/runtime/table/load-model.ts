// Loading a compiled model file (lib/model/format.ts, which says what one is) at cold start: a
// check of its format and version, and a deep freeze (the builders cache compiled keys per model
// object). No resolution, no validation rule: the file holds the model the stack compiled and
// validated from the same manifest. `deployedModel` reads the file the model layer put in a
// connected function; code that carries its own file is checked against the stack's fingerprint.
import { readFileSync } from 'node:fs';
import { SingleTableError } from './errors';
import { MODEL_PATH_ENV } from '../../model/environment';
import { ModelDocument, modelDocumentProblem } from '../../model/format';
import { deepFreeze } from '../../model/freeze';
import type { TableModel } from '../../model/model';

/** The model a compiled model file holds; throws INVALID_MODEL, after `where` the file is, when it is not one this runtime reads. */
export function loadModel(document: unknown, where = ''): TableModel {
  const problem = modelDocumentProblem(document);
  if (problem) throw new SingleTableError('INVALID_MODEL', where + problem);
  return deepFreeze((document as ModelDocument).model);
}

/**
 * The model of the table a function is connected to: the compiled model file that
 * `SingleTable.connect` puts in the function's model layer, at the path in SINGLE_TABLE_MODEL.
 * Throws MODEL_MISSING when the variable is unset, INVALID_MODEL when the file cannot be read or
 * is not a compiled model file.
 */
export function deployedModel(): TableModel {
  const path = process.env[MODEL_PATH_ENV];
  if (!path) {
    throw new SingleTableError('MODEL_MISSING', `${MODEL_PATH_ENV} is not set, so there is no deployed model to read. `
      + 'In a Lambda, connect the function to its table with `table.connect(fn, ...)` (it adds the model layer and sets the variable); '
      + 'in tests and scripts, pass `model` (a compiled model file) to `openTable`');
  }
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new SingleTableError('INVALID_MODEL', `the compiled model file ${path} (${MODEL_PATH_ENV}) cannot be read as JSON: ${(e as Error).message}`, { cause: e });
  }
  return loadModel(document, `${path} (${MODEL_PATH_ENV}): `);
}
