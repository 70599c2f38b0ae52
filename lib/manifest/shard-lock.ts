// The shard lock: every shard count and strategy each sharded GSI was ever deployed with, kept in a
// committed JSON file because the manifest alone cannot show what was deployed before. Items keep
// the shard they were written to, so a count missing from `shardCount` + `previousShardCounts`, or a
// strategy missing from `strategy` + `previousStrategies`, hides them from queries.
// Pure text in, text out: the construct and the CLI read and write the file, both through here.
import { DiagnosticLevel, ManifestDiagnostic } from './diagnostics';
import { strategyLabel } from './resolve';
import { MAX_SHARDS } from './shape';
import { IndexType, ShardModel, shardKeyAttributeName, TableModel } from '../model/model';

/** What the lock holds of one sharded GSI: counts ascending, strategies (`RANDOM`, `ATTRIBUTE:<attribute>`) sorted. */
export interface IndexLock {
  readonly counts: number[];
  readonly strategies: string[];
}

/** One table's entry, by GSI name. */
export type ShardLockEntry = { [index: string]: IndexLock };

/** A lock file: entries by lock name (by default the SingleTable's construct path). */
export type ShardLock = { [name: string]: ShardLockEntry };

/** What applying the lock found, and the file to write when something is new. */
export interface ShardLockResult {
  /** Errors: counts or strategies the manifest no longer declares, indexes no longer sharded, a malformed file. */
  readonly diagnostics: ManifestDiagnostic[];
  /** Counts and strategies the lock did not hold yet, by index (empty when nothing is new). */
  readonly recorded: ShardLockEntry;
  /** The file's new text when `recorded` is not empty and there is no error. @default - unchanged */
  readonly text?: string;
}

/**
 * Checks the model against the lock entry `name` of the file text (undefined: no file yet) and
 * records the model's new counts and strategies. Every locked count must still be declared (RANDOM
 * readers fan out over the largest, ATTRIBUTE readers ask a value's shard under each), and every
 * locked strategy too (a query that knows the shard attribute reads one shard only while no other
 * strategy was ever declared). An index recorded as a bare list of counts (files written before
 * strategies were recorded) has no strategy history yet: the current one is recorded.
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
        `the shard lock '${name}' records shard counts ${locked.counts.join(', ')}, but the manifest ${model.indexes[index] ? 'no longer shards it' : 'no longer declares it'}; ` +
          (model.indexes[index]?.partitionAttributes
            ? `items written since hold the shard attribute ${shardKeyAttributeName(index)}, which the index's key no longer has: a deployed GSI's key cannot change`
            : `items written since keep shard-suffixed ${index} partition keys, which unsharded queries never match`),
        `keep the sharding with shardCount and previousShardCounts: [${locked.counts.join(', ')}]; only once no item holds a suffixed key any more, delete '${index}' from the entry '${name}' of the lock file deliberately`));
      continue;
    }
    const missing = locked.counts.filter((n) => !shards.counts.includes(n));
    if (missing.length > 0) {
      diagnostics.push(lockError('SHARD_LOCK_COUNT_MISSING', index,
        `the shard lock '${name}' records shard count(s) ${missing.join(', ')}, which shardCount and previousShardCounts (${shards.counts.join(', ')}) do not declare; ` +
          'queries would miss the items written under them',
        `add ${missing.join(', ')} to previousShardCounts: previousShardCounts: [${[...new Set([...shards.counts.filter((n) => n !== shards.writeCount), ...missing])].sort(ascending).join(', ')}]`));
    }
    const missingStrategies = locked.strategies.filter((s) => !shards.strategies.includes(s));
    if (missingStrategies.length > 0) {
      diagnostics.push(lockError('SHARD_LOCK_STRATEGY_MISSING', index,
        `the shard lock '${name}' records strategy ${missingStrategies.join(', ')}, which strategy and previousStrategies (${shards.strategies.join(', ')}) do not declare; ` +
          'items written under it can be on any shard, and a query that knows the shard attribute would read only one',
        `add it to previousStrategies: previousStrategies: [${previousStrategies(shards, missingStrategies)}]`));
    }
  }
  const recorded = newEntries(model, entry);
  if (diagnostics.length > 0 || Object.keys(recorded).length === 0) return { diagnostics, recorded };
  const merged: ShardLockEntry = { ...entry };
  for (const [index, fresh] of Object.entries(recorded)) {
    const old = entry[index] ?? { counts: [], strategies: [] };
    merged[index] = { counts: [...old.counts, ...fresh.counts], strategies: [...old.strategies, ...fresh.strategies] };
  }
  return { diagnostics, recorded, text: formatShardLock({ ...lock, [name]: merged }) };
}

/** Lock text: names, indexes, counts and strategies sorted, two-space JSON, one trailing newline. */
export function formatShardLock(lock: ShardLock): string {
  const sorted: ShardLock = {};
  for (const name of Object.keys(lock).sort()) {
    sorted[name] = {};
    for (const index of Object.keys(lock[name]).sort()) {
      const { counts, strategies } = lock[name][index];
      sorted[name][index] = { counts: [...counts].sort(ascending), strategies: [...strategies].sort() };
    }
  }
  return JSON.stringify(sorted, null, 2) + '\n';
}

/** `GSI2: shard counts 3, 5, strategy RANDOM; GSI4: shard counts 2`, for messages. */
export function describeRecorded(entry: ShardLockEntry): string {
  return Object.entries(entry).map(([index, { counts, strategies }]) => {
    const parts = [
      counts.length ? `shard count${counts.length > 1 ? 's' : ''} ${counts.join(', ')}` : '',
      strategies.length ? `strateg${strategies.length > 1 ? 'ies' : 'y'} ${strategies.join(', ')}` : '',
    ];
    return `${index}: ${parts.filter(Boolean).join(', ')}`;
  }).join('; ');
}

/** The lock names a file holds (the CLI picks the only one when none is given); undefined when malformed. */
export function lockNames(text: string): string[] | undefined {
  const lock = parseShardLock(text, []);
  return lock ? Object.keys(lock) : undefined;
}

function newEntries(model: TableModel, entry: ShardLockEntry): ShardLockEntry {
  const recorded: ShardLockEntry = {};
  for (const index of Object.values(model.indexes)) {
    if (!index.shards) continue;
    const locked = entry[index.name] ?? { counts: [], strategies: [] };
    const counts = index.shards.counts.filter((n) => !locked.counts.includes(n));
    const strategies = index.shards.strategies.filter((s) => !locked.strategies.includes(s));
    if (counts.length > 0 || strategies.length > 0) recorded[index.name] = { counts, strategies };
  }
  return recorded;
}

/** The `previousStrategies` to write: what the manifest declares before, plus what the lock misses. */
function previousStrategies(shards: ShardModel, missing: string[]): string {
  const current = strategyLabel(shards.strategy, shards.attribute);
  return [...new Set([...shards.strategies.filter((s) => s !== current), ...missing])].sort().map((s) => s === 'RANDOM'
    ? '{ strategy: ShardStrategy.RANDOM }'
    : `{ strategy: ShardStrategy.ATTRIBUTE, shardAttribute: '${s.slice('ATTRIBUTE:'.length)}' }`).join(', ');
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
  const lock: ShardLock = {};
  for (const [name, entry] of Object.entries(value)) {
    if (!isObject(entry)) {
      diagnostics.push(invalid(`entry '${name}' is not an object of index names`));
      continue;
    }
    lock[name] = {};
    for (const [index, recorded] of Object.entries(entry)) {
      // A bare list of counts: a file written before strategies were recorded.
      const { counts, strategies } = Array.isArray(recorded) ? { counts: recorded, strategies: [] } : isObject(recorded) ? recorded : {};
      const countsValid = distinct(counts) && counts.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_SHARDS);
      const strategiesValid = distinct(strategies) && strategies.every((s) => s === 'RANDOM' || (typeof s === 'string' && /^ATTRIBUTE:./.test(s)));
      if (!countsValid || !strategiesValid) {
        diagnostics.push(invalid(`entry '${name}', index '${index}' is not { counts, strategies } with distinct whole numbers from 1 to ${MAX_SHARDS} and distinct strategies (RANDOM, ATTRIBUTE:<attribute>): ${JSON.stringify(recorded)}`));
        continue;
      }
      lock[name][index] = { counts: counts as number[], strategies: strategies as string[] };
    }
  }
  return diagnostics.length > 0 ? undefined : lock;
}

const ascending = (a: number, b: number) => a - b;

const distinct = (v: unknown): v is unknown[] => Array.isArray(v) && new Set(v).size === v.length;

const isObject = (v: unknown): v is { [key: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);

function lockError(code: string, index: string, message: string, fix: string): ManifestDiagnostic {
  return { level: DiagnosticLevel.ERROR, code, location: `index ${index}`, message, fix };
}

function invalid(message: string): ManifestDiagnostic {
  return { level: DiagnosticLevel.ERROR, code: 'SHARD_LOCK_INVALID', location: 'shard lock', message: `the lock file ${message}`, fix: 'restore it from version control; it lists, per lock name and index, every shard count and strategy deployed' };
}
