// Updates of an entity on a write-sharded multi-attribute GSI: every update that sets one of the
// index's key attributes (or the shard attribute) writes the shard attribute again, computed as a
// put computes it; with the ATTRIBUTE strategy it needs the shard attribute's value, and an update
// without it is refused before any request naming what to pass, like a composed key's inputs.
import { shardForItem, shardForValue } from '../../lib/keys/shard';
import { compileManifest } from '../../lib/manifest/compile';
import { ShardStrategy } from '../../lib/model/manifest';
import { buildPut } from '../../lib/runtime/items/requests';
import { buildUpdate } from '../../lib/runtime/items/update';
import { buildTransactWrite } from '../../lib/runtime/transact/plan';
import { shardedTournamentManifest } from '../fixtures/tournament';

const random = compileManifest(shardedTournamentManifest({ shardCount: 4 })).model;
const byBracket = compileManifest(shardedTournamentManifest({ shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'bracket' })).model;
type Update = { UpdateExpression?: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> };
/** The value an update sets ByStatusShard to, if it does. */
const shardSet = (input: Update) => {
  const ref = Object.entries(input.ExpressionAttributeNames!).find(([, name]) => name === 'ByStatusShard')?.[0];
  const value = ref && new RegExp(`${ref} = (:v\\d+)`).exec(input.UpdateExpression!)?.[1];
  return value ? input.ExpressionAttributeValues![value] : undefined;
};

test('RANDOM: an update of a key attribute writes the shard of the table key; one of no key attribute leaves it', () => {
  const shard = { N: String(shardForItem('MATCH#m1', 'MATCH', 4)) };
  expect(shardSet(buildUpdate(random, 'T', 'Match', { matchId: 'm1', status: 'CLOSED' }))).toEqual(shard);
  expect(shardSet(buildUpdate(random, 'T', 'Match', { matchId: 'm1', round: 3 }))).toEqual(shard);
  expect(shardSet(buildUpdate(random, 'T', 'Match', { matchId: 'm1', note: 'late' }))).toBeUndefined();
  // A put writes the same.
  expect(buildPut(random, 'T', 'Match', { matchId: 'm1', status: 'OPEN', round: 1, bracket: 'A' }).Item!.ByStatusShard).toEqual(shard);
});

test('ATTRIBUTE: the shard of the bracket; an update of another key attribute without it names it, at once with every other', () => {
  expect(shardSet(buildUpdate(byBracket, 'T', 'Match', { matchId: 'm1', bracket: 'UPPER' }))).toEqual({ N: String(shardForValue('UPPER', 4)) });
  expect(shardSet(buildUpdate(byBracket, 'T', 'Match', { matchId: 'm1', status: 'CLOSED', bracket: 'UPPER' }))).toEqual({ N: String(shardForValue('UPPER', 4)) });
  expect(() => buildUpdate(byBracket, 'T', 'Match', { matchId: 'm1', status: 'CLOSED' })).toThrow(
    "[PARTIAL_INDEX_UPDATE] entity Match, attribute bracket: changes status but not bracket, which the index keys it moves are also composed from (ByStatus's shard: bracket); "
    + 'pass bracket too, with their current values: { matchId, status, bracket }; or let the update read them with { readMissing: true }');
  // A transaction cannot read it first.
  expect(() => buildTransactWrite(byBracket, 'T', [{ type: 'update', entity: 'Match', changes: { matchId: 'm1', round: 2 } }], [undefined], [false], { now: '2024-01-01T00:00:00.000Z' })).toThrow(/PARTIAL_INDEX_UPDATE.*action 0 changes round but not bracket/);
  // Read from the stored item, it stands in for the one not given, on the condition that it still holds.
  const read = buildUpdate(byBracket, 'T', 'Match', { matchId: 'm1', status: 'CLOSED' }, [], { bracket: { S: 'LOWER' } });
  expect(shardSet(read)).toEqual({ N: String(shardForValue('LOWER', 4)) });
  expect(read.ConditionExpression).toMatch(/ AND #a\d+ = :r0$/);
});

test('an operator may change a key attribute DynamoDB keys on, not the shard attribute the runtime computes from', () => {
  expect(() => buildUpdate(random, 'T', 'Match', { matchId: 'm1' }, [], undefined, { operators: { add: { round: 1 } } })).not.toThrow();
  expect(() => buildUpdate(byBracket, 'T', 'Match', { matchId: 'm1' }, [], undefined, { operators: { setIfMissing: { bracket: 'A' } } }))
    .toThrow(/PARTIAL_INDEX_UPDATE.*attribute bracket: is part of index ByStatus's key/);
});
