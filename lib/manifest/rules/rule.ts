import type { SingleTableManifest } from '../../model/manifest';
import { populatesIndex, TableModel } from '../../model/model';
import type { DiagnosticSink } from '../diagnostics';

/**
 * One validation rule: reads the resolved (not yet frozen) model and the manifest as written,
 * reports findings. Rules never throw and never change the model.
 */
export type ManifestRule = (model: TableModel, manifest: SingleTableManifest, sink: DiagnosticSink) => void;

/** Entities that populate an index. */
export function entitiesOn(model: TableModel, indexName: string) {
  const index = model.indexes[indexName];
  return Object.values(model.entities).filter((e) => index ? populatesIndex(e, index) : e.keys[indexName] !== undefined);
}
