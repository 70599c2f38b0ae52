// The HTML view's content as data: the entries of each index (sparse, projected), the examples of
// the access patterns (the same items a real engine returns for the same query), made-up samples,
// escaping, and the Mermaid diagram.
import fc from 'fast-check';
import { localData } from '../../examples/local-data';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, SingleTableManifest } from '../../lib/model/manifest';
import { htmlView, renderHtmlView } from '../../lib/reports/html';
import { escapeHtml } from '../../lib/reports/html/page';
import { mermaidDiagram, mermaidText } from '../../lib/reports/mermaid';
import { createClient } from '../../lib/runtime';
import { tableKey } from '../../lib/runtime/attributes/item-keys';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';
import { propertyRuns } from '../support/property-runs';

const model = compileManifest(manifest).model;
const view = htmlView(model, localData);
const table = (name: string) => view.tables.find((t) => t.index.name === name)!;
const entries = (name: string) => table(name).partitions.flatMap((p) => p.entries);

describe('index tables', () => {
  test('every sample item is on the table once, grouped by partition key in byte order, sorted by sort key', () => {
    const count = Object.values(localData.items).reduce((n, items) => n + items.length, 0);
    expect(entries('table')).toHaveLength(count);
    const ann = table('table').partitions.find((p) => p.pk === 'CUSTOMER#ann')!;
    expect(ann.entries.map((e) => e.sk)).toEqual(['CUSTOMER#ann', 'GROUP#g-1', 'ORDER#o-1', 'ORDER#o-2', 'ORDER#o-3']);
    const pks = table('table').partitions.map((p) => p.pk);
    expect(pks).toEqual([...pks].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });

  test('sparse: an item without the index key is not in the index (the task that is not running is not in GSI3)', () => {
    expect(entries('GSI3').map((e) => e.item.attributes.taskId.S)).toEqual(['t-1']);
  });

  test('projection: KEYS_ONLY holds only the table keys, INCLUDE only its attributes and the keys', () => {
    expect(entries('GSI3')[0].attributes.map((a) => a.name).sort()).toEqual(['PK', 'SK']);
    const include = new Set([...model.indexes.GSI2.nonKeyAttributes, 'PK', 'SK']);
    for (const e of entries('GSI2')) {
      expect(e.attributes.map((a) => a.name).filter((n) => !include.has(n))).toEqual([]);
    }
    expect(entries('GSI2').find((e) => e.item.attributes.orderId.S === 'o-1')!.attributes.map((a) => a.name)).not.toContain('lines');
    expect(entries('LSI2').every((e) => e.attributes.every((a) => a.managed))).toBe(true);
  });

  test('physical keys are the runtime\'s: the shard suffix on GSI2, order-preserving numbers on LSI2', () => {
    expect(entries('GSI2').map((e) => e.pk).every((pk) => /^ORDER#(OPEN|SHIPPED)#[0-2]$/.test(pk))).toBe(true);
    expect(entries('LSI2').map((e) => e.sk)).toContain('AMOUNT#P5019999');
  });
});

describe('access pattern examples agree with a real engine', () => {
  let engine: Engine;

  beforeAll(async () => {
    engine = await startEngine();
  });

  afterAll(async () => {
    await engine.stop();
  });

  test('every pattern of the sample data returns, in order, the items the runtime gets from dynalite', async () => {
    const tableName = await engine.createTable();
    const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
    for (const [entity, items] of Object.entries(localData.items)) {
      for (const item of items) await db.putItem(entity as never, item as never);
    }
    for (const example of view.examples) {
      const input = localData.queries[example.pattern.name as keyof typeof localData.queries];
      const page = await db.query(example.pattern.name as never, input as never, { limit: 100 });
      const fromEngine = page.items.map(({ entity, item }) => [entity, tableKey(model, model.entities[entity], item as never)]);
      const fromView = example.results.map((r) => [r.entity, { pk: r.item.attributes.PK.S, sk: r.item.attributes.SK.S }]);
      expect({ pattern: example.pattern.name, items: fromView }).toEqual({ pattern: example.pattern.name, items: fromEngine });
    }
  });
});

describe('made-up samples', () => {
  test('without sample data every entity gets items and every pattern an input that returns one', () => {
    const made = htmlView(model);
    expect(made.generated).toEqual([...Object.keys(model.entities), ...Object.keys(model.patterns)]);
    for (const e of made.examples) {
      const outcome = { pattern: e.pattern.name, error: e.error, found: e.results.length > 0 };
      expect(outcome).toEqual({ pattern: e.pattern.name, error: undefined, found: true });
    }
  });

  test('given samples are kept; an entity or pattern that does not exist is an error naming it', () => {
    expect(htmlView(model, { items: { Task: localData.items.Task } }).generated).not.toContain('Task');
    expect(() => htmlView(model, { items: { Tasks: [] } })).toThrow("sample items for 'Tasks': no such entity");
    expect(() => htmlView(model, { queries: { running: {} } })).toThrow("sample query for 'running': no such access pattern");
  });

  test('a query input the runtime refuses is shown with the runtime\'s reason, not thrown', () => {
    const example = htmlView(model, { ...localData, queries: { ...localData.queries, runningTasks: { running: true, taskId: 't-1' } } })
      .examples.find((e) => e.pattern.name === 'runningTasks')!;
    expect(example.error).toContain("input 'taskId' is not used by this pattern");
    expect(example.results).toEqual([]);
  });
});

describe('escaping', () => {
  test('names and descriptions cannot inject markup', () => {
    const m: SingleTableManifest = {
      entities: {
        Note: {
          description: '<script>alert(1)</script>',
          attributes: { id: { type: AttributeKind.STRING, required: true } },
          pk: 'NOTE#{id}',
          sk: 'NOTE',
        },
      },
      accessPatterns: { '<img src=x onerror=alert(1)>': { entities: ['Note'], description: '"quoted" & <b>bold</b>' } },
      localIndexes: { enabled: false },
    };
    const page = renderHtmlView(compileManifest(m).model, { items: { Note: [{ id: '</td><script>' }] } });
    expect(page).not.toMatch(/<script|<img|<b>bold|<\/td><script/);
    expect(page).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });

  test('chart text written for Markdown shows no backticks: a code span is <code>, escaped', () => {
    const page = renderHtmlView(model, localData);
    expect(page).toContain('every item carries its entity type in <code>Type</code>.');
    expect(page).not.toContain('`');
    const m: SingleTableManifest = {
      entities: { Note: { description: 'holds `<b>` and a lone ` tick', attributes: { id: { type: AttributeKind.STRING, required: true } }, pk: 'NOTE#{id}', sk: 'NOTE' } },
      localIndexes: { enabled: false },
    };
    expect(renderHtmlView(compileManifest(m).model)).toContain('holds <code>&#60;b&#62;</code> and a lone ` tick');
  });

  test('escapeHtml leaves no markup character and loses nothing (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      const escaped = escapeHtml(s);
      expect(escaped).not.toMatch(/[<>"']/);
      expect(escaped.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c)))).toBe(s);
    }), { numRuns: propertyRuns(100) });
  });
});

describe('mermaid', () => {
  const diagram = mermaidDiagram(model);

  test('a node for every entity, every index in use and every pattern; an edge per entity slot and per pattern', () => {
    for (const name of Object.keys(model.entities)) expect(diagram).toContain(`["${name}"]`);
    for (const name of ['table', 'GSI1 (GSI)', 'GSI2 (GSI)', 'GSI3 (GSI)', 'LSI1 (LSI)', 'LSI2 (LSI)']) expect(diagram).toContain(`[("${name}<br/>`);
    expect(diagram).not.toContain('LSI3');
    for (const name of Object.keys(model.patterns)) expect(diagram).toContain(`(["${name}"])`);
    const slots = Object.values(model.entities).reduce((n, e) => n + Object.keys(e.keys).length, 0);
    expect(diagram.match(/^ {2}E\d+ -- /gm)).toHaveLength(slots);
    expect(diagram.match(/^ {2}P\d+ -- /gm)).toHaveLength(Object.keys(model.patterns).length);
    expect(diagram).toContain('E1 -- "ORDER#{status}#[0-2] / {createdAt}" --> I2');
    expect(diagram).toContain('"CUSTOMER#{username}');
  });

  test('label text reads back as written: no quote or markup, and every entity code Mermaid decodes is one written for a character (property)', () => {
    const texts = fc.oneof(fc.string(), fc.array(fc.constantFrom('#', ';', 'a', '1', '"', '<', '>', '{', '}', '\n', 'br/'), { maxLength: 12 }).map((a) => a.join('')));
    fc.assert(fc.property(texts, (s) => {
      const text = mermaidText(s);
      expect(text.replace(/<br\/>/g, '')).not.toMatch(/["<>\n]/);
      // What Mermaid does to a quoted label: `#name;` / `#123;` are entity codes, `<br/>` a line break.
      const read = text.replace(/<br\/>/g, '\n').replace(/#(\w+);/g, (_m, code: string) => {
        expect(code).toMatch(/^\d+$/);
        return String.fromCharCode(Number(code));
      });
      expect(read).toBe(s);
    }), { numRuns: propertyRuns(100) });
  });
});
