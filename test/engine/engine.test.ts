// The embedded engine: which one starts and why, that it answers, and that no DynamoDB Local JVM
// outlives what started it (stopped, or killed outright).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../../lib/engine/dynamodb-local';
import { startEmbeddedEngine } from '../../lib/engine/engine';
import { connectLocalEngine } from '../../lib/testing';

const ROOT = join(__dirname, '..', '..');

/** Pids of DynamoDB Local JVMs listening on `port` (the java process, not its watchdog shell). */
function jvmsOn(port: string): string[] {
  const ps = spawnSync('pgrep', ['-f', `^[^ ]*java .*DynamoDBLocal.jar .*-port ${port}$`], { encoding: 'utf8' });
  return ps.stdout.split('\n').filter(Boolean);
}

async function gone(port: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (jvmsOn(port).length === 0) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return jvmsOn(port).length === 0;
}

test('auto starts AWS\'s DynamoDB Local when java is here, answers, and stop() ends its JVM', async () => {
  const engine = await startEmbeddedEngine();
  const port = new URL(engine.endpoint).port;
  try {
    expect(engine.kind).toBe('dynamodb-local');
    expect(engine.description).toMatch(/^DynamoDB Local 3\.\d+\.\d+ \(AWS's engine, in memory, http:\/\/127\.0\.0\.1:\d+\)$/);
    expect(jvmsOn(port)).toHaveLength(1);
    const local = connectLocalEngine(engine);
    await expect(local.dynamodb.send(new ListTablesCommand({}))).resolves.toMatchObject({ TableNames: [] });
    local.dynamodb.destroy();
  } finally {
    await engine.stop();
    await engine.stop(); // twice is fine
  }
  expect(await gone(port, 5_000)).toBe(true);
});

test('a process that dies without stopping its engine leaves no JVM behind', async () => {
  // A child Node process starts DynamoDB Local, prints the endpoint and is then killed with SIGKILL
  // (no handler can run): the watchdog sees its pipe close and stops the JVM.
  const script = `require('ts-node/register/transpile-only');
    require(${JSON.stringify(join(ROOT, 'lib/engine/engine.ts'))}).startEmbeddedEngine({ engine: 'dynamodb-local' })
      .then((e) => { console.log(e.endpoint); setInterval(() => {}, 1000); });`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
  const port = new URL(endpoint).port;
  expect(jvmsOn(port)).toHaveLength(1);
  child.kill('SIGKILL');
  expect(await gone(port, 10_000)).toBe(true);
});

test('dynalite when asked for, and as the fallback without java, saying why', async () => {
  const asked = await startEmbeddedEngine({ engine: 'dynalite' });
  try {
    expect(asked.kind).toBe('dynalite');
    expect(asked.description).toMatch(/^dynalite \(pure Node, in memory, http:\/\/127\.0\.0\.1:\d+; asked for\)$/);
  } finally {
    await asked.stop();
  }
  // A PATH without java, and no JAVA_HOME: auto falls back, dynamodb-local refuses with the reason.
  const script = `require('ts-node/register/transpile-only');
    const { startEmbeddedEngine } = require(${JSON.stringify(join(ROOT, 'lib/engine/engine.ts'))});
    (async () => {
      const e = await startEmbeddedEngine(); console.log(e.kind + ' | ' + e.description); await e.stop();
      try { await startEmbeddedEngine({ engine: 'dynamodb-local' }); } catch (err) { console.log(err.message); }
    })();`;
  const env = { ...process.env, PATH: '/nonexistent', JAVA_HOME: '' };
  const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, env, encoding: 'utf8' });
  const [fallback, refused] = run.stdout.trim().split('\n');
  expect(fallback).toMatch(/^dynalite \| dynalite \(pure Node, in memory, .*; DynamoDB Local unavailable: no `java` found \(set JAVA_HOME or put java 17\+ on the PATH\)\)$/);
  expect(refused).toBe('DynamoDB Local cannot run: no `java` found (set JAVA_HOME or put java 17+ on the PATH)');
});

test('an unknown engine name is refused with the names that exist', async () => {
  await expect(startEmbeddedEngine({ engine: 'dynamo' as never })).rejects.toThrow("unknown engine 'dynamo': use 'dynamodb-local', 'dynalite' or 'auto'");
});

test('Ctrl-C in a terminal (SIGINT to the whole process group) leaves no JVM behind', async () => {
  // The child leads its own process group, as a shell's foreground job does; the group's SIGINT
  // reaches Node, the watchdog shell and the JVM alike.
  const script = `require('ts-node/register/transpile-only');
    require(${JSON.stringify(join(ROOT, 'lib/engine/engine.ts'))}).startEmbeddedEngine({ engine: 'dynamodb-local' })
      .then((e) => { console.log(e.endpoint); setInterval(() => {}, 1000); });`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
  const port = new URL(endpoint).port;
  expect(jvmsOn(port)).toHaveLength(1);
  process.kill(-child.pid!, 'SIGINT');
  expect(await gone(port, 10_000)).toBe(true);
});

test('a JVM that ends while starting is reported at once with its output, not after the start timeout', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-java-'));
  const java = join(dir, 'java');
  writeFileSync(java, '#!/bin/sh\necho "Error: could not open the jar"\nexit 3\n');
  chmodSync(java, 0o755);
  const started = Date.now();
  await expect(startDynamoDbLocal({ java, jarDir: dir }, 100_000)).rejects.toThrow(/^DynamoDB Local exited \(3\) before it answered on port \d+: Error: could not open the jar$/);
  expect(Date.now() - started).toBeLessThan(50_000);
});
