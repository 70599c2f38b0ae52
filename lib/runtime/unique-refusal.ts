// The single-item writes of an entity with unique attributes: a PutItem, UpdateItem or DeleteItem
// alone cannot move the guard items that hold the values, so those operations refuse before
// sending. Kept apart (and short: every put handler carries it) so that handlers pay only this
// check, never the transaction code.
import { SingleTableError } from './errors';
import type { TableModel } from '../manifest/model';

/** Throws UNIQUE_NEEDS_TRANSACTION when `entity` has unique attributes and `touched` (default: any) names one. */
export function refuseUnique(model: TableModel, entity: string, op: string, touched?: (name: string) => unknown): void {
  const unique = model.entities[entity]?.unique;
  if (unique?.some((u) => !touched || touched(u))) {
    throw new SingleTableError('UNIQUE_NEEDS_TRANSACTION', `${op} cannot write the guard items of unique ${unique}: use transactWrite or createClient`, { entity });
  }
}
