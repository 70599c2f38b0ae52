import type { DiagnosticSink } from '../diagnostics';
import type { TableModel } from '../model';
import type { SingleTableManifest } from '../structs';

/**
 * One validation rule: reads the resolved (not yet frozen) model and the manifest as written,
 * reports findings. Rules never throw and never change the model.
 */
export type ManifestRule = (model: TableModel, manifest: SingleTableManifest, sink: DiagnosticSink) => void;

/** Entities that populate an index. */
export function entitiesOn(model: TableModel, indexName: string) {
  return Object.values(model.entities).filter((e) => e.keys[indexName] !== undefined);
}
