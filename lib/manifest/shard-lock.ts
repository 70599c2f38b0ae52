// The shard lock: every shard count each sharded GSI was ever deployed with, kept in a committed
// JSON file because the manifest alone cannot show what was deployed before. Items keep the shard
// they were written to, so a count missing from `shardCount` + `previousShardCounts` hides them.
// Pure text in, text out: the construct and the CLI read and write the file, both through here.
import { DiagnosticLevel, ManifestDiagnostic } from './diagnostics';
import { IndexType, TableModel } from './model';
import { MAX_SHARDS } from './rules/sharding';

/** One table's entry: shard counts ever deployed, by GSI name, distinct and ascending. */
export type ShardLockEntry = { [index: string]: number[] };

/** A lock file: entries by lock name (by default the SingleTable's construct path). */
export type ShardLock = { [name: string]: ShardLockEntry };

/** What applying the lock found, and the file to write when counts are new. */
export interface ShardLockResult {
  /** Errors: counts the manifest no longer declares, indexes no longer sharded, a malformed file. */
  readonly diagnostics: ManifestDiagnostic[];
  /** Counts the lock did not hold yet, by index (empty when nothing is new). */
  readonly recorded: ShardLockEntry;
  /** The file's new text when `recorded` is not empty and there is no error. @default - unchanged */
  readonly text?: string;
}

/**
 * Checks the model against the lock entry `name` of the file text (undefined: no file yet) and
 * records the model's new counts. Every locked count must still be declared: RANDOM readers fan
 * out over the largest, ATTRIBUTE readers ask a value's shard under each.
 */
export function applyShardLock(model: TableModel, name: string, text: string | undefined): ShardLockResult {
  const diagnostics: ManifestDiagnostic[] = [];
  const lock = text === undefined ? {} : parseShardLock(text, diagnostics);
  if (!lock) return { diagnostics, recorded: {} };
  const entry = lock[name] ?? {};
  for (const [index, locked] of Object.entries(entry)) {
    const shards = model.indexes[index]?.type === IndexType.GSI ? model.indexes[index].shards : undefined;
    if (!shards) {
      diagnostics.push(lockError('SHARD_LOCK_INDEX_UNSHARDED', index,
        `the shard lock '${name}' records shard counts ${locked.join(', ')}, but the manifest ${model.indexes[index] ? 'no longer shards it' : 'no longer declares it'}; ` +
          `items written since keep shard-suffixed ${index} partition keys, which unsharded queries never match`,
        `keep the sharding with shardCount and previousShardCounts: [${locked.join(', ')}]; only once no item holds a suffixed key any more, delete '${index}' from the entry '${name}' of the lock file deliberately`));
      continue;
    }
    const missing = locked.filter((n) => !shards.counts.includes(n));
    if (missing.length > 0) {
      diagnostics.push(lockError('SHARD_LOCK_COUNT_MISSING', index,
        `the shard lock '${name}' records shard count(s) ${missing.join(', ')}, which shardCount and previousShardCounts (${shards.counts.join(', ')}) do not declare; ` +
          'queries would miss the items written under them',
        `add ${missing.join(', ')} to previousShardCounts: previousShardCounts: [${[...new Set([...shards.counts.filter((n) => n !== shards.writeCount), ...missing])].sort(ascending).join(', ')}]`));
    }
  }
  const recorded = newCounts(model, entry);
  if (diagnostics.length > 0 || Object.keys(recorded).length === 0) return { diagnostics, recorded };
  const merged: ShardLockEntry = { ...entry };
  for (const [index, counts] of Object.entries(recorded)) merged[index] = [...(entry[index] ?? []), ...counts].sort(ascending);
  return { diagnostics, recorded, text: formatShardLock({ ...lock, [name]: merged }) };
}

/** Lock text: names, indexes and counts sorted, two-space JSON, one trailing newline. */
export function formatShardLock(lock: ShardLock): string {
  const sorted: ShardLock = {};
  for (const name of Object.keys(lock).sort()) {
    sorted[name] = {};
    for (const index of Object.keys(lock[name]).sort()) sorted[name][index] = [...lock[name][index]].sort(ascending);
  }
  return JSON.stringify(sorted, null, 2) + '\n';
}

/** `GSI2: 3, 5; GSI4: 2`, for messages. */
export function describeCounts(entry: ShardLockEntry): string {
  return Object.entries(entry).map(([index, counts]) => `${index}: ${counts.join(', ')}`).join('; ');
}

/** The lock names a file holds (the CLI picks the only one when none is given); undefined when malformed. */
export function lockNames(text: string): string[] | undefined {
  const lock = parseShardLock(text, []);
  return lock ? Object.keys(lock) : undefined;
}

function newCounts(model: TableModel, entry: ShardLockEntry): ShardLockEntry {
  const recorded: ShardLockEntry = {};
  for (const index of Object.values(model.indexes)) {
    const fresh = index.shards?.counts.filter((n) => !(entry[index.name] ?? []).includes(n)) ?? [];
    if (fresh.length > 0) recorded[index.name] = fresh;
  }
  return recorded;
}

/** The lock, or undefined with a SHARD_LOCK_INVALID error: a hand edit must not pass unnoticed. */
function parseShardLock(text: string, diagnostics: ManifestDiagnostic[]): ShardLock | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    diagnostics.push(invalid(`is not valid JSON: ${(e as Error).message}`));
    return undefined;
  }
  if (!isObject(value)) {
    diagnostics.push(invalid('is not an object of lock names'));
    return undefined;
  }
  for (const [name, entry] of Object.entries(value)) {
    if (!isObject(entry)) {
      diagnostics.push(invalid(`entry '${name}' is not an object of index names`));
      continue;
    }
    for (const [index, counts] of Object.entries(entry)) {
      const valid = Array.isArray(counts) && counts.every((n) => Number.isInteger(n) && n >= 1 && n <= MAX_SHARDS);
      if (!valid || new Set(counts).size !== counts.length) diagnostics.push(invalid(`entry '${name}', index '${index}' is not a list of distinct whole numbers from 1 to ${MAX_SHARDS}: ${JSON.stringify(counts)}`));
    }
  }
  return diagnostics.length > 0 ? undefined : (value as ShardLock);
}

const ascending = (a: number, b: number) => a - b;

const isObject = (v: unknown): v is { [key: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);

function lockError(code: string, index: string, message: string, fix: string): ManifestDiagnostic {
  return { level: DiagnosticLevel.ERROR, code, location: `index ${index}`, message, fix };
}

function invalid(message: string): ManifestDiagnostic {
  return { level: DiagnosticLevel.ERROR, code: 'SHARD_LOCK_INVALID', location: 'shard lock', message: `the lock file ${message}`, fix: 'restore it from version control; it lists, per lock name and index, every shard count deployed' };
}
