// The function of an entity or pattern named at run time (an event's field): the generated
// module's `put` and `query` look names up here, with the errors `putItem` and `query` raise.
import { didYouMean } from '../../model/closest-name';
import { SingleTableError } from '../table/errors';

/** The member of `record` called `name` (own members only), or UNKNOWN_ENTITY / UNKNOWN_PATTERN listing the known ones. */
export function named<T>(kind: 'entity' | 'pattern', record: Readonly<Record<string, T>>, name: string): T {
  // Own properties only: a name such as 'constructor' must not find Object.prototype's member.
  if (Object.hasOwn(record, name)) return record[name];
  const entity = kind === 'entity';
  throw new SingleTableError(entity ? 'UNKNOWN_ENTITY' : 'UNKNOWN_PATTERN', `is not declared in the manifest; ${didYouMean(name, Object.keys(record))}known ${entity ? 'entities' : 'patterns'}: ${
    Object.keys(record).join(', ')}`, { [kind]: String(name) });
}
