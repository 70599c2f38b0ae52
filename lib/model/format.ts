// The compiled model as a file: the frozen TableModel of a manifest (model.ts in this folder),
// wrapped with a format name and version so the runtime, and tools in other languages, know what
// they read. `single-table generate` writes it next to the manifest; a Lambda imports it and never
// resolves the manifest. schema.json in this folder is its JSON Schema. No imports but types: the
// runtime reads the version from here.
import type { TableModel } from './model';

/** The `format` of every compiled model file. */
export const MODEL_FORMAT = 'cdk-single-table/model';

/**
 * The version of the file's layout. Raised when a field changes meaning or a field the runtime
 * needs is added; a runtime refuses a file of another version rather than misreading it.
 */
export const MODEL_FORMAT_VERSION = 4;

/**
 * What a compiled model file looks like to TypeScript when a handler imports it as JSON (its enums
 * read as plain strings): what `openTable` and `createClient` accept; they check the rest.
 */
export interface ModelFile {
  readonly format: string;
  readonly formatVersion: number;
  readonly model: object;
}

/** A compiled model file. */
export interface ModelDocument {
  /** Always MODEL_FORMAT. */
  readonly format: string;
  /** The layout version (MODEL_FORMAT_VERSION of the package that wrote it). */
  readonly formatVersion: number;
  /** The model; its `fingerprint` names the manifest it was compiled from. */
  readonly model: TableModel;
}
