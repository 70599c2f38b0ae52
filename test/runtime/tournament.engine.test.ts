// AWS's tournament design (a GSI keyed on tournamentId + region, then round, bracket, scheduledAt)
// on DynamoDB Local, with the table created from the synthesized template: every sort-key
// condition over every given prefix of sort attributes answers as DynamoDB evaluates it, and
// BEGINS_WITH compares a prefix of the last one given (a string or a date, never a number).
import { compileManifest } from '../../lib/manifest/compile';
import { createClient } from '../../lib/runtime';
import { buildQueryInput, planQuery } from '../../lib/runtime/query/plan';
import { compileModelFile } from '../../lib/testing';
import { tournamentManifest } from '../fixtures/tournament';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { countRequests } from '../support/requests';

const manifest = tournamentManifest();
let engine: Engine;
let db: ReturnType<typeof createClient>;

const at = (d: number, h = 0) => `2026-03-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:00:00.000Z`;
/** [matchId, round, bracket, scheduledAt] of WINTER2026 in NA-EAST, in index order. */
const MATCHES: [string, number, string, string][] = [
  ['m1', 1, 'LOWER', at(1)], ['m2', 1, 'UPPER', at(1, 9)], ['m3', 1, 'UPPER', at(2)], ['m4', 1, 'UPPER-PLAYIN', at(1)],
  ['m5', 2, 'UPPER', at(5)], ['m6', 10, 'UPPER', at(12)],
];
const inOrder = MATCHES.map(([id]) => id);
const where = { tournamentId: 'WINTER2026', region: 'NA-EAST' };

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: compileModelFile(manifest), client: engine.newClient(), tableName: await engine.createTable() });
  await db.batchWrite([
    // Shuffled, so the order is the index's.
    ...[...MATCHES].reverse().map(([matchId, round, bracket, scheduledAt]) => ({ type: 'put' as const, entity: 'Match', item: { ...where, matchId, round, bracket, scheduledAt } })),
    { type: 'put' as const, entity: 'Match', item: { tournamentId: 'WINTER2026', region: 'EU-WEST', matchId: 'e1', round: 1, bracket: 'UPPER', scheduledAt: at(1) } },
  ]);
});
afterAll(() => engine.stop());

const ids = (page: { items: { item: Record<string, unknown> }[] }) => page.items.map(({ item }) => item.matchId);

test.each([
  ['matches', {}, inOrder],
  ['matches', { round: 1 }, ['m1', 'm2', 'm3', 'm4']],
  ['matches', { round: 1, bracket: 'UPPER' }, ['m2', 'm3']],
  ['matches', { round: 1, bracket: 'UPPER', scheduledAt: at(2) }, ['m3']],
  // begins_with on the last sort attribute given: a string prefix finds every bracket that starts with it.
  ['matchesByPrefix', { round: 1, bracket: 'UPP' }, ['m2', 'm3', 'm4']],
  ['matchesByPrefix', { round: 1, bracket: 'UPPER' }, ['m2', 'm3', 'm4']],
  ['matchesByPrefix', { round: 1, bracket: 'UPPER-' }, ['m4']],
  // A date's prefix is a leading part of its stored ISO-8601 UTC form; a whole date is one.
  ['matchesByPrefix', { round: 1, bracket: 'UPPER', scheduledAt: '2026-03-01' }, ['m2']],
  ['matchesByPrefix', { round: 1, bracket: 'UPPER', scheduledAt: '2026-03' }, ['m2', 'm3']],
  ['matchesByPrefix', { round: 1, bracket: 'UPPER', scheduledAt: new Date(at(2)) }, ['m3']],
  ['matchesByPrefix', {}, inOrder],
  // Numbers compare as numbers: round 10 is above round 2.
  ['matchesFrom', { round: 2 }, ['m5', 'm6']],
  ['matchesFrom', { round: 1, bracket: 'UPPER' }, ['m2', 'm3', 'm4']],
  ['matchesFrom', { round: 1, bracket: 'UPPER', scheduledAt: at(1, 12) }, ['m3']],
  ['matchesBetween', { between: [{ round: 2 }, { round: 10 }] }, ['m5', 'm6']],
  ['matchesBetween', { between: [{ round: 1, bracket: 'L' }, { round: 1, bracket: 'UPPER' }] }, ['m1', 'm2', 'm3']],
])('%s %j', async (pattern, sort, expected) => {
  expect(ids(await db.query(pattern as never, { ...where, ...sort } as never))).toEqual(expected);
});

test('the key condition sent: equality on the leading sort attributes, begins_with on the last one given', () => {
  const model = compileManifest(manifest).model;
  expect(buildQueryInput(model, 'T', planQuery(model, 'matchesByPrefix', { ...where, round: 1, bracket: 'UPP' }), '')).toMatchObject({
    KeyConditionExpression: '#k0 = :k0 AND #k1 = :k1 AND #k2 = :k2 AND begins_with(#k3, :k3)',
    ExpressionAttributeNames: { '#k0': 'tournamentId', '#k1': 'region', '#k2': 'round', '#k3': 'bracket' },
    ExpressionAttributeValues: { ':k2': { N: '1' }, ':k3': { S: 'UPP' } },
  });
});

describe('BEGINS_WITH refused before any request', () => {
  let requests: ReturnType<typeof countRequests>;
  beforeAll(() => {
    requests = countRequests(db.table.dynamodb);
  });
  afterEach(() => expect(requests.total()).toBe(0));

  test.each([
    ['on a NUMBER', { round: 1 }, 'INVALID_QUERY_INPUT', /pattern matchesByPrefix, attribute round: is a NUMBER.*begins_with takes of strings only; give bracket too \(its prefix is compared\), or use an EQUALS pattern/],
    ['a date prefix that is no leading part of a stored date', { round: 1, bracket: 'UPPER', scheduledAt: '03/2026' }, 'INVALID_VALUE', /attribute scheduledAt: must be .*or a leading part of its stored form such as '2026-01', got "03\/2026"/],
    ['an empty prefix', { round: 1, bracket: '' }, 'INVALID_VALUE', /attribute bracket: is an empty string/],
  ])('%s', async (_what, sort, code, message) => {
    const query = () => db.query('matchesByPrefix', { ...where, ...sort } as never);
    await expect(query()).rejects.toMatchObject({ code });
    await expect(query()).rejects.toThrow(message);
  });
});
