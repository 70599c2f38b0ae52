// What the Python runtime's tests get from the Node.js side: the conformance corpus (corpus.ts),
// and per model the compiled model file, its synthesized template and that table's CreateTable
// input: the example stack's, a manifest whose entity keeps a version, timestamps and a unique
// value, AWS's tournament design (a multi-attribute GSI), and the README quick start's, whose app docs/python.md writes in Python: for it, the cloud
// assembly `cdk synth` writes too (its Python function's model layer with the runtime package). Beside them, the tournament's
// GSI write-sharded several ways: one table definition (the shard count and strategy do not change the key schema) and a model per way.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { maintainedManifest, writeCorpus } from './corpus';
import exampleDocument from '../../examples/manifest.model.json';
import { WriteOperation } from '../../lib/construct/grants/options';
import { SingleTable } from '../../lib/construct/single-table';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { ShardingDefinition, ShardStrategy } from '../../lib/model/manifest';
import * as runtime from '../../lib/runtime';
import { createTableInputFromTemplate } from '../../lib/testing';
import { tournamentManifest } from '../fixtures/tournament';
import { synthesizedTemplate } from '../support/engine';

/**
 * The README quick start's manifest, as its `manifest.ts` block declares it (plain JavaScript once its
 * import line names the runtime module): the design docs/python.md writes as a CDK Python app.
 */
export function quickStartManifest(): runtime.SingleTableManifest {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const block = /<!-- quick-start: file manifest\.ts -->\n```ts\n([\s\S]*?)```/.exec(readme)![1];
  const body = block.replace(/^import \{([^}]*)\} from 'cdk-single-table\/runtime';/m, 'const {$1} = runtime;').replace('export const', 'const');
  return new Function('runtime', `${body}\nreturn manifest;`)(runtime);
}

/**
 * docs/python.md's app as `cdk synth` writes it to `outdir`: the quick start's table and the Python
 * function the page's `orders.py` block holds, connected as the page connects it.
 */
function synthQuickStartApp(manifest: runtime.SingleTableManifest, outdir: string): object {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'python.md'), 'utf8');
  const code = join(outdir, '..', 'lambda');
  mkdirSync(code, { recursive: true });
  writeFileSync(join(code, 'orders.py'), /<!-- check: lambda\/orders\.py -->\n```python\n([\s\S]*?)```/.exec(page)![1]);
  const app = new App({ outdir });
  const stack = new Stack(app, 'Shop');
  const table = new SingleTable(stack, 'Table', { manifest });
  const fn = new LambdaFunction(stack, 'Orders', { runtime: Runtime.PYTHON_3_12, handler: 'orders.handler', code: Code.fromAsset(code) });
  table.connect(fn, { patterns: ['ordersByStatus', 'ordersForCustomer'], writes: [WriteOperation.PUT] });
  app.synth();
  return JSON.parse(readFileSync(join(outdir, 'Shop.template.json'), 'utf8'));
}

/** The tournament's manifest with its multi-attribute GSI write-sharded as `sharding` declares. */
function shardedTournament(sharding: ShardingDefinition): runtime.SingleTableManifest {
  const manifest = tournamentManifest();
  return { ...manifest, globalIndexes: { TournamentRegionIndex: { ...manifest.globalIndexes!.TournamentRegionIndex, sharding } } };
}

/** The tournament's GSI write-sharded: by random shard and by bracket (each before and after a new count), by round, by region. */
const TOURNAMENT_SHARDINGS: Record<string, ShardingDefinition> = {
  random: { shardCount: 5, previousShardCounts: [3] },
  randomOf3: { shardCount: 3 },
  byRound: { shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'round' },
  byBracket: { shardCount: 5, previousShardCounts: [3], strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'bracket' },
  byBracketOf3: { shardCount: 3, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'bracket' },
  byRegion: { shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'region' },
};

/** The environment the Python tests read their fixtures from (python/tests/conftest.py). */
export interface PythonFixtures {
  readonly SINGLE_TABLE_CORPUS: string;
  readonly SINGLE_TABLE_TABLE_DEFINITION: string;
  readonly SINGLE_TABLE_ENDPOINT: string;
}

/** Writes the corpus and the tables' definitions to a new folder; `endpoint` is the engine the Python tests create tables on. */
export async function writePythonFixtures(
  endpoint: string,
): Promise<PythonFixtures & { readonly dir: string; readonly counts: Record<string, number> }> {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-python-'));
  const corpus = join(dir, 'corpus.json');
  const tables = join(dir, 'tables.json');
  try {
    const counts = await writeCorpus(corpus);
    const fixture = (model: object, template: object) => ({ model, template, table: createTableInputFromTemplate(template as never, 'placeholder') });
    const quickStart = quickStartManifest();
    const shardedTemplate = synthesizedTemplate(shardedTournament(TOURNAMENT_SHARDINGS.random));
    const assembly = join(dir, 'quick-start', 'cdk.out');
    writeFileSync(tables, JSON.stringify({
      example: fixture(exampleDocument, synthesizedTemplate()),
      maintained: fixture(modelDocument(resolveModel(maintainedManifest)), synthesizedTemplate(maintainedManifest)),
      tournament: fixture(modelDocument(resolveModel(tournamentManifest())), synthesizedTemplate(tournamentManifest())),
      shardedTournament: {
        template: shardedTemplate,
        table: createTableInputFromTemplate(shardedTemplate as never, 'placeholder'),
        models: Object.fromEntries(Object.entries(TOURNAMENT_SHARDINGS)
          .map(([name, sharding]) => [name, modelDocument(resolveModel(shardedTournament(sharding)))])),
      },
      quickStart: { ...fixture(modelDocument(resolveModel(quickStart)), synthQuickStartApp(quickStart, assembly)), assembly },
    }));
    return { dir, counts, SINGLE_TABLE_CORPUS: corpus, SINGLE_TABLE_TABLE_DEFINITION: tables, SINGLE_TABLE_ENDPOINT: endpoint };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
