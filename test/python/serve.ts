// The fixtures of a Python test run started on its own (`/usr/bin/python3 -m pytest python/tests`):
// starts DynamoDB Local, writes the corpus and the table definition, prints them as one JSON line,
// and stops the engine when its standard input closes (the Python run ends).
import { rmSync } from 'node:fs';
import { writePythonFixtures } from './fixtures';
import { startEmbeddedEngine } from '../../lib/engine/engine';

async function main(): Promise<void> {
  const engine = await startEmbeddedEngine();
  let fixtures: Awaited<ReturnType<typeof writePythonFixtures>>;
  try {
    fixtures = await writePythonFixtures(engine.endpoint);
  } catch (error) {
    await engine.stop();
    throw error;
  }
  process.stdout.write(JSON.stringify({ corpus: fixtures.SINGLE_TABLE_CORPUS, table: fixtures.SINGLE_TABLE_TABLE_DEFINITION, endpoint: engine.endpoint }) + '\n');
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await engine.stop();
    rmSync(fixtures.dir, { recursive: true, force: true });
  });
}

void main();
