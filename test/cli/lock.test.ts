// `check --lock` and `lock`: the construct's shard lock check from the command line, exit codes
// and the file they leave.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './run';
import { ShardingDefinition } from '../../lib/model/manifest';
import { edited } from '../fixtures/valid-manifest';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'single-table-cli-lock-')); });

/** The fixture manifest with GSI2 sharded so, as a JSON file. */
function manifestFile(sharding: ShardingDefinition): string {
  const file = join(dir, 'manifest.json');
  writeFileSync(file, JSON.stringify(edited((m) => { m.globalIndexes!.GSI2.sharding = sharding; })));
  return file;
}

function lockFile(content?: object): string {
  const file = join(dir, 'single-table.lock.json');
  if (content) writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('check --lock', () => {
  test('a lowered count without history: exit 1 with SHARD_LOCK_COUNT_MISSING and the fix', async () => {
    const r = await run('check', manifestFile({ shardCount: 5 }), '--lock', lockFile({ 'App/Table': { GSI2: [10] } }));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error [SHARD_LOCK_COUNT_MISSING] index GSI2: the shard lock 'App/Table' records shard count(s) 10");
    expect(r.stdout).toContain('  fix: add 10 to previousShardCounts: previousShardCounts: [10]');
  });

  test('the lowered count with history: exit 0; a count not recorded yet is a warning, and the file is not changed', async () => {
    const lock = lockFile({ 'App/Table': { GSI2: [10] } });
    const r = await run('check', manifestFile({ shardCount: 5, previousShardCounts: [10] }), '--lock', lock);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`warning [SHARD_LOCK_OUTDATED] shard lock 'App/Table': GSI2: shard count 5, strategy RANDOM not recorded in ${lock} yet`);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toEqual({ 'App/Table': { GSI2: [10] } });
  });

  test('an up-to-date lock: exit 0, valid without warnings', async () => {
    const manifest = manifestFile({ shardCount: 3 });
    const r = await run('check', manifest, '--lock', lockFile({ 'App/Table': { GSI2: { counts: [3], strategies: ['RANDOM'] } } }), '--json');
    expect(JSON.parse(r.stdout)).toEqual({ valid: true, errors: [], warnings: [] });
    expect(r.code).toBe(0);
  });

  test('a recorded index no longer sharded: exit 1', async () => {
    const r = await run('check', manifestFile(undefined as unknown as ShardingDefinition), '--lock', lockFile({ 'App/Table': { GSI2: [3] } }));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('error [SHARD_LOCK_INDEX_UNSHARDED] index GSI2');
  });

  test('a missing lock file is exit 1; several entries without --lock-name exit 2, with it the named entry is checked', async () => {
    const manifest = manifestFile({ shardCount: 3 });
    expect(await run('check', manifest, '--lock', join(dir, 'nope.json'))).toMatchObject({ code: 1, stderr: expect.stringContaining('nope.json: no such file') });
    const lock = lockFile({ 'A/Table': { GSI2: [3] }, 'B/Table': { GSI2: [4] } });
    expect(await run('check', manifest, '--lock', lock)).toMatchObject({ code: 2, stderr: expect.stringContaining('records several tables (A/Table, B/Table); name the entry with --lock-name') });
    expect((await run('check', manifest, '--lock', lock, '--lock-name', 'A/Table')).code).toBe(0);
    expect((await run('check', manifest, '--lock', lock, '--lock-name', 'B/Table')).code).toBe(1);
  });
});

test('check --lock on a malformed file without --lock-name: exit 1 with SHARD_LOCK_INVALID', async () => {
  const lock = lockFile();
  writeFileSync(lock, '{"App/Table": {"GSI2": "3"}}');
  const r = await run('check', manifestFile({ shardCount: 3 }), '--lock', lock);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("error [SHARD_LOCK_INVALID] shard lock: the lock file entry 'App/Table', index 'GSI2' is not { counts, strategies }");
});

describe('lock', () => {
  test('creates the file with the declared counts, then reports it up to date', async () => {
    const manifest = manifestFile({ shardCount: 4, previousShardCounts: [2] });
    const lock = lockFile();
    const first = await run('lock', manifest, '--lock', lock, '--lock-name', 'App/Table');
    expect(first).toEqual({ code: 0, stdout: `${lock}: created, recording GSI2: shard counts 2, 4, strategy RANDOM for 'App/Table'; commit it\n`, stderr: '' });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toEqual({ 'App/Table': { GSI2: { counts: [2, 4], strategies: ['RANDOM'] } } });
    const again = await run('lock', manifest, '--lock', lock);
    expect(again).toEqual({ code: 0, stdout: `${lock}: already records GSI2: shard counts 2, 4, strategy RANDOM for 'App/Table'; not changed\n`, stderr: '' });
  });

  test('a manifest without a sharded GSI: says there is nothing to record and creates no file', async () => {
    const manifest = manifestFile(undefined as unknown as ShardingDefinition);
    const lock = lockFile();
    const r = await run('lock', manifest, '--lock', lock, '--lock-name', 'App/Table');
    expect(r).toEqual({ code: 0, stdout: `${lock}: no GSI of the manifest is sharded, so there is nothing to record for 'App/Table'; the file was not written\n`, stderr: '' });
    expect(existsSync(lock)).toBe(false);
  });

  test('--json: what was done, what was recorded and what the manifest declares', async () => {
    const lock = lockFile({ 'App/Table': { GSI2: { counts: [2], strategies: ['RANDOM'] } } });
    const manifest = manifestFile({ shardCount: 4, previousShardCounts: [2] });
    const r = await run('lock', manifest, '--lock', lock, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      file: lock,
      entry: 'App/Table',
      action: 'updated',
      written: true,
      recorded: { GSI2: { counts: [4], strategies: [] } },
      sharded: { GSI2: { counts: [2, 4], strategies: ['RANDOM'] } },
      errors: [],
    });
    expect(JSON.parse((await run('lock', manifest, '--lock', lock, '--json')).stdout)).toMatchObject({ action: 'unchanged', written: false, recorded: {} });
    const refused = await run('lock', manifestFile({ shardCount: 3 }), '--lock', lock, '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ action: 'refused', written: false, errors: [{ code: 'SHARD_LOCK_COUNT_MISSING' }] });
  });

  test('a violation: exit 1 and the file is left as it was', async () => {
    const lock = lockFile({ 'App/Table': { GSI2: [10] } });
    const r = await run('lock', manifestFile({ shardCount: 5 }), '--lock', lock);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('error [SHARD_LOCK_COUNT_MISSING] index GSI2');
    expect(readFileSync(lock, 'utf8')).toBe(JSON.stringify({ 'App/Table': { GSI2: [10] } }));
  });

  test('without --lock, or a new file without --lock-name: exit 2 and no file', async () => {
    const manifest = manifestFile({ shardCount: 3 });
    expect(await run('lock', manifest)).toMatchObject({ code: 2, stderr: expect.stringContaining('lock: --lock FILE is required') });
    const lock = lockFile();
    expect(await run('lock', manifest, '--lock', lock)).toMatchObject({ code: 2, stderr: expect.stringContaining('records no table yet; name the entry with --lock-name') });
    expect(existsSync(lock)).toBe(false);
  });
});
