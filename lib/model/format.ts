// The compiled model as a file: the frozen TableModel of a manifest (model.ts in this folder),
// wrapped with a format name and version so the runtime, and tools in other languages, know what
// they read. `single-table generate` writes it next to the manifest; a Lambda imports it and never
// resolves the manifest. schema.json in this folder is its JSON Schema. No imports but types: the
// runtime reads the version and the check of a file from here, and so does the construct.
import type { SingleTableManifest } from './manifest';
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
 * read as plain strings): what `openTable` and `createClient` accept; they check the rest. `M` is
 * the type of the manifest it was compiled from, when the file says it (`compileModelFile` of
 * `cdk-single-table/testing` does): `openTable` and `createClient` then take their types from it.
 */
export interface ModelFile<M = SingleTableManifest> {
  readonly format: string;
  readonly formatVersion: number;
  readonly model: object;
  /** Carries the manifest's type; never set. */
  readonly manifestType?: M;
}

/** A compiled model file. */
export interface ModelDocument<M = SingleTableManifest> extends ModelFile<M> {
  /** Always MODEL_FORMAT. */
  readonly format: string;
  /** The layout version (MODEL_FORMAT_VERSION of the package that wrote it). */
  readonly formatVersion: number;
  /** The model; its `fingerprint` names the manifest it was compiled from. */
  readonly model: TableModel;
}

/** Whether a value is a compiled model file rather than a manifest. */
export function isModelDocument(value: unknown): value is ModelDocument {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === MODEL_FORMAT;
}

/** Why a value is not a compiled model file this package reads, or undefined when it is one. */
export function modelDocumentProblem(document: unknown): string | undefined {
  if (!isModelDocument(document)) {
    return `expected a compiled model file (format ${MODEL_FORMAT}); write one with \`single-table generate <manifest>\` and import the .model.json it writes`;
  }
  if (document.formatVersion !== MODEL_FORMAT_VERSION || typeof document.model?.fingerprint !== 'string') {
    return `the compiled model file has format version ${document.formatVersion}; this runtime reads version ${MODEL_FORMAT_VERSION}. `
      + 'Regenerate it with this package\'s `single-table generate <manifest>`';
  }
  return undefined;
}
