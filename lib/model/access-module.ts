// The typed access module `single-table generate --access` writes beside the model file: one
// function per entity operation and per access pattern, each holding only the part of the model
// it reads and calling the runtime's primitives with the kinds of its attributes, so a Lambda's
// bundle carries the model and the code of the functions it calls only. Types come from the
// manifest's `defineManifest` literal (a type-only import). Build side: the CLI and tests.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../keys/encoding';
import { EntityModel, IndexModel, KeySegmentModel, KeyTemplateModel, PatternModel, populatesIndex, ShardModel, TABLE_INDEX, TableModel } from '../manifest/model';
import { buildQueryInput } from '../runtime/query/plan';

/** Where `generate --access` writes the module of a manifest file: `orders.ts` -> `orders.access.ts`, beside it. */
export function defaultAccessFile(manifestFile: string): string {
  return join(dirname(manifestFile), basename(manifestFile, extname(manifestFile)) + '.access.ts');
}

/** Where the module is written, what it imports, and the files it refers to. */
export interface AccessModuleOptions {
  /** The module's own path. */
  readonly file: string;
  /** The manifest module (imported for its type only). */
  readonly manifestFile: string;
  /** The compiled model file (imported by the puts of entities whose attributes the full runtime maintains). */
  readonly modelFile: string;
  /** What the module imports the runtime as. @default 'cdk-single-table/runtime' */
  readonly runtime?: string;
}

/** The runtime's types a module may name; it imports those it does. */
const TYPES = ['ClientOptions', 'EntityName', 'GetOptions', 'ItemOf', 'KeyOf', 'PatternEntities', 'PatternInput', 'PatternName', 'PatternQueryOptions', 'PutOptions', 'QueryPage', 'ResultItemOf',
  'SortKeyCondition', 'SortOrder', 'TableContext', 'TaggedItem'];

/** The types of `cdk-single-table/runtime/access` a module may name. */
const ACCESS_TYPES = ['AccessTable', 'AttributeSlot', 'EntityAccess', 'FetchMode', 'IndexSlot', 'IndexType', 'ItemPut', 'KeyedPattern', 'ModelSlice', 'PatternAccess', 'ShardModel', 'SlicedPatternAccess'];

/** The operations a module calls from the runtime's main entry (the rest come from `/access`). */
const MAIN_VALUES = ['maintainedWrites', 'openTable as openModelFile', 'putItem'];

const KIND_NAMES: Record<string, string> = {
  STRING: 'STRING_KIND',
  NUMBER: 'NUMBER_KIND',
  BOOLEAN: 'BOOLEAN_KIND',
  DATE: 'DATE_KIND',
  LIST: 'LIST_KIND',
  MAP: 'MAP_KIND',
  STRING_SET: 'STRING_SET_KIND',
  NUMBER_SET: 'NUMBER_SET_KIND',
};

/** The runtime's segment encoder of each kind a key template can hold. */
const SEGMENT_ENCODERS: Record<string, string> = {
  STRING: 'stringSegment',
  NUMBER: 'numberSegment',
  DATE: 'dateSegment',
  BOOLEAN: 'booleanSegment',
};

const json = (value: unknown) => JSON.stringify(value);
const capitalized = (name: string) => name[0].toUpperCase() + name.slice(1);

/**
 * A key template as the literal texts around its placeholders (delimiters included): `texts` holds
 * one more entry than `placeholders`, the text before each and the text after the last.
 */
function splitTemplate(template: KeyTemplateModel, delimiter: string): { texts: string[]; placeholders: KeySegmentModel[] } {
  const texts = [''];
  const placeholders: KeySegmentModel[] = [];
  template.segments.forEach((s, n) => {
    if (n > 0) texts[texts.length - 1] += delimiter;
    if (s.literal !== undefined) {
      texts[texts.length - 1] += s.literal;
    } else {
      placeholders.push(s);
      texts.push('');
    }
  });
  return { texts, placeholders };
}

/** A relative module specifier from the module's folder, without the .ts extension of a TypeScript module. */
function specifier(from: string, to: string): string {
  const path = relative(dirname(from), to).replace(/\\/g, '/').replace(/\.ts$/, '');
  return path.startsWith('.') ? path : './' + path;
}

/**
 * Whether a pattern's generated query reads through its slice of the model (sliceReader): a
 * write-sharded index (fan-out), entries fetched with BatchGetItem, or entries of an index that
 * does not project everything, whose attributes partly live in their keys. The others read one
 * partition whose entries carry the type attribute.
 */
export function readsThroughSlice(model: TableModel, pattern: PatternModel): boolean {
  const index = model.indexes[pattern.index];
  return !!index.shards || pattern.fetch === 'BATCH_GET' || (index.projection !== 'ALL' && pattern.fetch === 'NONE');
}

const pick = <T extends object, K extends keyof T>(o: T, ...keys: K[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Pick<T, K>;
const pickShards = (shards: ShardModel) => pick(shards, 'readCount', 'counts', 'pinnedReads', 'attribute');

/**
 * The part of the model a pattern's slice reader reads (see ModelSlice in
 * lib/runtime/access/slice-read.ts), its key templates as the parts `template` writes.
 */
function modelSlice(model: TableModel, pattern: PatternModel, template: (t: KeyTemplateModel) => string, values: Set<string>): string {
  const index = model.indexes[pattern.index];
  const shards = index.shards;
  const keys = (slot: EntityModel['keys'][string]) => `[${template(slot.pk)}${slot.sk ? `, ${template(slot.sk)}` : ''}]`;
  const entities = pattern.entities.map((name) => {
    const entity = model.entities[name];
    const onIndex = pattern.index === TABLE_INDEX ? '' : `, ${keys(entity.keys[pattern.index])}`;
    return `${json(name)}: [${json(entity.typeValue)}, ${keys(entity.keys[TABLE_INDEX])}${onIndex}]`;
  });
  const table = model.indexes[TABLE_INDEX];
  const parts = [
    `projection: ${json(index.projection)}`,
    `table: ${json([table.partitionKey, ...table.sortKey ? [table.sortKey] : []])}`,
    `entities: { ${entities.join(', ')} }`,
  ];
  if (pattern.fetch === 'BATCH_GET') parts.push('fetch: true');
  // The fan-out only where there are shards, so that a fetched or key-decoded pattern does not bring it.
  if (shards) {
    parts.push('fanOut: readShards');
    values.add('readShards');
  }
  // Where reads are pinned to the shard attribute value's shard: the shard choice, and what it reads
  // (the pattern's key attributes and condition, the shard attribute's type).
  if (shards?.pinnedReads) {
    const types = Object.fromEntries(pattern.entities.map((e) => [e, model.entities[e].attributes[shards.attribute!].type]));
    const sk = pattern.sk && { sk: pattern.sk.attributes };
    const pinned = json({ sortKeyCondition: pattern.sortKeyCondition, pk: pattern.pk!.attributes, ...sk, types });
    parts.push(`pinned: { ${pinned.slice(1, -1)}, choose: shardsToQuery }`);
    values.add('shardsToQuery');
  }
  return `{ ${parts.join(', ')} }`;
}

/** A one-partition pattern's request: the function that builds it, with its values or as its shape. */
interface QueryRequestText {
  /** The function with the pattern's values written in. */
  readonly inline: string;
  /** The function with parameters for the values that differ between patterns of the same shape. */
  readonly shape: string;
  /** The shape's parameters. */
  readonly params: string[];
  /** The pattern's values of the parameters, as literals. */
  readonly args: string[];
}

/**
 * A one-partition pattern's Query request as buildQueryInput writes it, as the text of a function
 * of the table name, the partition key value and the order that builds it as one literal (the
 * generated query adds consistency, limit and start, so the request is the runtime's own). The
 * index name, the partition key attribute and the type values of the filter differ between
 * patterns whose requests have the same shape (table or index, filter of as many types, select).
 */
function queryRequest(model: TableModel, pattern: PatternModel, typeFilter: string[] | undefined): QueryRequestText {
  const plan = { pattern, index: model.indexes[pattern.index], condition: { pk: '' }, descending: false, consistent: false, typeFilter };
  const { TableName, ScanIndexForward, ExpressionAttributeValues, ...fixed } = buildQueryInput(model, '', plan, '');
  const { ':pk': pk, ...typeValues } = ExpressionAttributeValues!;
  const params: string[] = [];
  const args: string[] = [];
  // A value that differs between patterns: a placeholder, filled in below.
  const param = (name: string, value: string) => {
    params.push(name);
    args.push(json(value));
    return `\u0001${params.length - 1}\u0001`;
  };
  const field = ([k, v]: [string, unknown]): string => {
    // The shape names its parameter as the field: `IndexName` (shorthand) there, `IndexName: "GSI1"` inline.
    if (k === 'IndexName') return `, ${param('IndexName', v as string)}`;
    if (k !== 'ExpressionAttributeNames') return `, ${k}: ${json(v)}`;
    const names = Object.entries(v as Record<string, string>).map(([n, a]) => `${json(n)}: ${n === '#pk' ? param('partitionKey', a) : json(a)}`);
    return `, ${k}: { ${names.join(', ')} }`;
  };
  const fields = (keys: string[]) => Object.entries(fixed).filter(([k]) => keys.includes(k)).map(field).join('');
  const head = fields(['IndexName', 'KeyConditionExpression', 'ExpressionAttributeNames']);
  const filter = Object.entries(typeValues).map(([k, v], i) => `, ${json(k)}: { S: ${param(`t${i}`, v.S!)} }`).join('');
  const text = `(TableName, pk, ScanIndexForward) => ({ TableName${head}, `
    + `ExpressionAttributeValues: { ":pk": { S: pk }${filter} }, ScanIndexForward${fields(['Select', 'FilterExpression'])} })`;
  const fill = (values: string[]) => text.replace(/\u0001(\d+)\u0001/g, (_, i) => values[Number(i)]);
  const inline = fill(args.map((a, i) => (params[i] === 'IndexName' ? `IndexName: ${a}` : a)));
  return { inline, shape: fill(params), params, args };
}

/**
 * The item builder of an entity's typed put, as the text of an arrow function over the item:
 * straight-line code that stores what entityItem stores for the entity's slice and throws what it
 * throws, in the same order (lib/runtime/access/build.ts). Attributes are read by their names once,
 * checked as their kinds check them (any fault: convertItem names it), each key joined from its
 * attributes' encoded segments and its size checked, index keys written where every segment of
 * the slot holds text (an absent one keeps the item out of the index; an unpaired surrogate is
 * named), the stored item one object literal. `owner` is the constant the builder is the `item`
 * of (it has the entity's name); `attributes` the constant of the slice's attribute list.
 */
export function itemBuilder(model: TableModel, entity: EntityModel, owner: string, attributes: string, values: Set<string>): string {
  const use = (...names: string[]) => names.forEach((n) => values.add(n));
  const esc = json(model.escapeChar);
  const attrs = Object.values(entity.attributes);
  const index = new Map(attrs.map((a, j) => [a.name, j]));
  const lines: string[] = [];
  const checks: string[] = [];
  const stored: string[] = [];
  const optional: string[] = [];
  // The value, the checked value's form and its key segment of each attribute; a segment that is
  // text whenever the attribute's checks pass needs no test before a key is joined.
  const segment = new Map<string, { text: string; alwaysText: boolean }>();
  lines.push(`if (typeof i != "object" || !i) attributeFault(${owner}, i, ${attributes});`);
  // Each attribute is read and checked in declaration order, as convertItem reads and checks them,
  // so the first fault (or a getter's throw) is the one it meets.
  const read = (a: { name: string }) => `i${/^[A-Za-z_$][\w$]*$/.test(a.name) ? `.${a.name}` : `[${json(a.name)}]`}`;
  // A required date or value of another kind is used as checked (d, x), its value not again.
  const declared: string[] = attrs.flatMap((a, j) => (a.required && !['STRING', 'NUMBER', 'BOOLEAN'].includes(a.type) ? [] : [`v${j}: any`]));
  use('attributeFault', 'declaredOnly');
  attrs.forEach((a, j) => {
    const v = `v${j}`;
    let check: string;
    let value: string;
    switch (a.type) {
      case 'STRING':
        check = `typeof (${v} = ${read(a)}) == "string"`;
        value = `{ S: ${v} }`;
        use('textSegment');
        segment.set(a.name, { text: `s${j}`, alwaysText: false });
        break;
      case 'NUMBER':
        check = `storableNumber(${v} = ${read(a)})`;
        value = `{ N: String(${v}) }`;
        use('storableNumber');
        segment.set(a.name, { text: `s${j}`, alwaysText: a.required });
        break;
      case 'BOOLEAN':
        check = `typeof (${v} = ${read(a)}) == "boolean"`;
        value = `{ BOOL: ${v} }`;
        segment.set(a.name, { text: `s${j}`, alwaysText: false });
        break;
      case 'DATE':
        declared.push(`d${j}: string | undefined`);
        use('normalizeDate');
        check = `(d${j} = normalizeDate(${a.required ? read(a) : v})) !== undefined`;
        value = `{ S: d${j}! }`;
        segment.set(a.name, { text: a.required ? `d${j}!` : `s${j}`, alwaysText: a.required });
        break;
      default:
        declared.push(`x${j}: any`);
        use(KIND_NAMES[a.type]);
        check = `(x${j} = ${KIND_NAMES[a.type]}.value(${a.required ? read(a) : v}))`;
        value = `x${j} as never`;
    }
    // An optional attribute: read, then checked where it holds a value.
    checks.push(a.required || a.type === 'STRING' || a.type === 'NUMBER' || a.type === 'BOOLEAN'
      ? (a.required ? check : `((${v} = ${read(a)}) === undefined || ${check.replace(`${v} = ${read(a)}`, v)})`)
      : `((${v} = ${read(a)}) === undefined || ${check})`);
    (a.required ? stored : optional).push(a.required ? `${json(a.name)}: ${value}` : `if (${v} !== undefined) o[${json(a.name)}] = ${value};`);
  });
  // Names that hold a value and are not declared, found as convertItem finds them (from the count of the given attributes).
  const given = [String(attrs.filter((a) => a.required).length), ...attrs.map((a, j) => (a.required ? '' : `+(v${j} !== undefined)`)).filter(Boolean)].join(' + ');
  lines.push(`let ${declared.join(', ')};`);
  lines.push(`if (!(${[...checks, `declaredOnly(i, ${attributes}Names, ${given})`].join(' && ')})) attributeFault(${owner}, i, ${attributes});`);
  // Segments of the attributes the keys and shards read, once each.
  const keyed = new Set<string>();
  for (const keys of Object.values(entity.keys)) for (const t of [keys.pk, keys.sk]) t?.attributes.forEach((n) => keyed.add(n));
  for (const i of Object.keys(entity.keys)) {
    const shards = model.indexes[i].shards;
    if (shards?.strategy === 'ATTRIBUTE') keyed.add(shards.attribute!);
  }
  for (const name of keyed) {
    const j = index.get(name)!;
    const a = attrs[j];
    const v = `v${j}`;
    const text = a.type === 'STRING' ? `textSegment(${v}, ${esc})`
      : a.type === 'NUMBER' ? `${a.required ? '' : `${v} === undefined ? "" : `}numberSegment(${v}) as string`
        : a.type === 'BOOLEAN' ? `${v} ? "true" : ""`
          : a.required ? undefined : `d${j} ?? ""`;
    if (a.type === 'NUMBER') use('numberSegment');
    if (text) lines.push(`const s${j} = ${text};`);
  }
  const sourceOf = (t: KeyTemplateModel) => t.segments.map((s) => s.literal ?? `{${s.attribute}}`).join(model.delimiter);
  // A key's text, and the test that every segment it joins holds text (undefined: always).
  const joinKey = (t: KeyTemplateModel) => {
    const { texts, placeholders } = splitTemplate(t, model.delimiter);
    const pieces = texts.flatMap((text, i) => [
      ...(text ? [json(text)] : []),
      ...(i < placeholders.length ? [segment.get(placeholders[i].attribute!)!.text] : []),
    ]);
    if (pieces.length === 0) pieces.push(json(''));
    const tested = t.attributes.map((n) => segment.get(n)!).filter((g) => !g.alwaysText).map((g) => g.text);
    return { text: pieces.join(' + '), test: tested.length ? [...new Set(tested)].join(' && ') : undefined };
  };
  const fault = (t: KeyTemplateModel, key?: string) =>
    `keyFault(${owner}, ${json(sourceOf(t))}, ${json(t.attributes)}, [${t.attributes.map((n) => segment.get(n)!.text).join(', ')}]${key ? `, ${json(key)}` : ''})`;
  use('keyFault', 'checkSize');
  // Keys joined at the top level, by template source: a key of the same template is that key again.
  const joined = new Map<string, string>();
  // The smallest limit each key's size was checked against: a larger one needs no check.
  const checked = new Map<string, number>();
  // A table key's variable is recorded only at the top level: a check inside an index slot's block
  // may not run (the item is not in that index).
  const sized = (attribute: string, key: string, limit: number, record = true) => {
    if ((checked.get(key) ?? Infinity) <= limit) return key;
    if (record) checked.set(key, limit);
    return `checkSize(${owner}, ${json(attribute)}, ${key}, ${limit})`;
  };
  const table = model.indexes[TABLE_INDEX];
  const tableKeys: [string, KeyTemplateModel, number][] = [[table.partitionKey, entity.keys[TABLE_INDEX].pk, MAX_PARTITION_KEY_BYTES]];
  if (table.sortKey && entity.keys[TABLE_INDEX].sk) tableKeys.push([table.sortKey, entity.keys[TABLE_INDEX].sk, MAX_SORT_KEY_BYTES]);
  const tableVars: string[] = [];
  tableKeys.forEach(([attribute, t, limit], n) => {
    const source = sourceOf(t);
    let k = joined.get(source);
    if (!k) {
      const { text, test } = joinKey(t);
      k = `k${n}`;
      lines.push(`const ${k} = ${test ? `${test} ? ${text} : ${fault(t, attribute)} as never` : text};`);
      joined.set(source, k);
    }
    const check = sized(attribute, k, limit);
    if (check !== k) lines.push(`${check};`);
    tableVars.push(k);
    stored.push(`${json(attribute)}: { S: ${k} }`);
  });
  stored.push(`${json(model.typeAttribute)}: { S: ${json(entity.typeValue)} }`);
  const slots: string[] = [];
  let n = 0;
  for (const name of Object.keys(entity.keys).filter((i) => i !== TABLE_INDEX)) {
    const idx = model.indexes[name];
    const keys = entity.keys[name];
    const sk = idx.sortKey && keys.sk ? keys.sk : undefined;
    const body: string[] = [];
    let skVar: string | undefined;
    const sortKey = (indent: string, writes: string[]) => {
      if (!sk) return writes.map((w) => indent + w);
      const known = joined.get(sourceOf(sk));
      const { text, test } = joinKey(sk);
      skVar = known ?? `k${tableVars.length + ++n}`;
      const lead = known ? [] : [`const ${skVar} = ${text};`];
      const check = sized(idx.sortKey!, skVar, MAX_SORT_KEY_BYTES, !known);
      const all = [...lead, ...(check !== skVar ? [`${check};`] : []), ...writes, `o[${json(idx.sortKey!)}] = { S: ${skVar} };`];
      if (!test || known) return all.map((w) => indent + w);
      return [`${indent}if (${test}) {`, ...all.map((w) => `${indent}  ${w}`), `${indent}} else ${fault(sk)};`];
    };
    if (idx.type === 'LSI') {
      body.push(...sortKey('', []));
    } else {
      const pk = keys.pk;
      const known = joined.get(sourceOf(pk));
      const { text, test } = joinKey(pk);
      const shards = idx.shards;
      let suffix = '';
      if (shards) {
        const shard = shards.strategy === 'ATTRIBUTE' ? segment.get(shards.attribute!)! : undefined;
        use(shard ? 'shardForValue' : 'shardForItem');
        const by = !shard ? `shardForItem(${tableVars[0]}, ${tableVars[1] ?? '""'}, ${shards.writeCount})`
          : shard.alwaysText ? `shardForValue(${shard.text}, ${shards.writeCount})`
            : `(${shard.text} ? shardForValue(${shard.text}, ${shards.writeCount}) : shardFault(${owner}, ${json(name)}, ${json(shards.attribute)}, ${shard.text}))`;
        if (shard && !shard.alwaysText) use('shardFault');
        suffix = ` + ${json(model.delimiter)} + ${by}`;
      }
      // The key of a table key's template, unsharded, is that key's variable (its size checked).
      const alias = known !== undefined && !suffix;
      const pkVar = alias ? known : `k${tableVars.length + ++n}`;
      const check = sized(idx.partitionKey, pkVar, MAX_PARTITION_KEY_BYTES, !alias);
      const inner = [...(alias ? [] : [`const ${pkVar} = ${(known ?? text) + suffix};`]), ...(check !== pkVar ? [`${check};`] : [])];
      const write = `o[${json(idx.partitionKey)}] = { S: ${pkVar} };`;
      // The partition key of the same template as a table key, or with no test, is always there.
      if (known || !test) body.push(...inner, ...sortKey('', [write]));
      else body.push(`if (${test}) {`, ...inner.map((w) => `  ${w}`), ...sortKey('  ', [write]), `} else ${fault(pk)};`);
      // Its variable names the key for the size checks of later keys only within this slot.
      if (!alias) checked.delete(pkVar);
    }
    if (skVar && !joined.has(sourceOf(sk!))) checked.delete(skVar);
    slots.push(`// ${name}`, ...body);
  }
  return [
    '(i: any) => {',
    ...lines.map((l) => `  ${l}`),
    `  const o: ReturnType<ItemPut["item"]> = { ${stored.join(', ')} };`,
    ...optional.map((l) => `  ${l}`),
    ...slots.map((l) => `  ${l}`),
    '  return o;',
    '}',
  ].join('\n');
}

/** Whether the full runtime's putItem maintains attributes of the entity: a version, timestamps or unique values. */
const maintainsAttributes = (entity: EntityModel) => entity.version !== undefined || entity.timestamps !== undefined || entity.unique !== undefined;

/** The type values a pattern's query filters on: where entities it does not return have entries in its index, which carry the type attribute. */
function typeFilterOf(model: TableModel, pattern: PatternModel): string[] | undefined {
  const index = model.indexes[pattern.index];
  return index.projection !== 'KEYS_ONLY' && Object.values(model.entities).some((e) => populatesIndex(e, index) && !pattern.entities.includes(e.name))
    ? pattern.entities.map((e) => model.entities[e].typeValue) : undefined;
}

/** The TypeScript text of the access module of a model. */
export function accessModule(model: TableModel, options: AccessModuleOptions): string {
  const attributeKeyed = Object.values(model.patterns).filter((p) => !p.pk);
  if (attributeKeyed.length) {
    throw new Error(`the access module cannot serve ${attributeKeyed.map((p) => `pattern ${p.name} (on ${p.index})`).join(', ')}: `
      + 'its functions compose keys, and a GSI keyed on the items\' own attributes has none to compose; '
      + 'query such patterns with the runtime\'s query (openTable), or generate without --access');
  }
  const runtime = options.runtime ?? 'cdk-single-table/runtime';
  const values = new Set<string>(['openAccess']);
  const out: string[] = [];
  const kindsOf = (entity: EntityModel, names?: readonly string[]) => `[${Object.values(entity.attributes).filter((a) => !names || names.includes(a.name)).map((a) => {
    values.add(KIND_NAMES[a.type]);
    return `[${json(a.name)}, ${KIND_NAMES[a.type]}${a.required ? '' : ', true'}]`;
  }).join(', ')}]`;
  // A template as its literal text around one encoder per placeholder (TemplateParts).
  const encoder = (kind: string) => {
    const name = SEGMENT_ENCODERS[kind];
    values.add(name);
    return name;
  };
  const partsOf = (template: KeyTemplateModel) => {
    const { texts, placeholders } = splitTemplate(template, model.delimiter);
    const parts = placeholders.flatMap((p, i) => [json(texts[i]), json(p.attribute), encoder(p.kind!)]);
    return share(`[${[...parts, json(texts[placeholders.length])].join(', ')}]`);
  };
  // A template's parts written more than once (a key on several slots, a pattern's partition key)
  // are one constant: a bundle holds them once, and a put composes them from the same array.
  const shared = new Map<string, string>();
  const share = (parts: string) => {
    if (!shared.has(parts)) shared.set(parts, `\u0000${shared.size}\u0000`);
    return shared.get(parts)!;
  };
  let needsModelFile = false;
  // The indexes patterns query, each written once (name, type, keys, the shards a fan-out reads).
  // One partition reads the sort key for a sort-key condition only; a fan-out merges by it.
  const indexSlots = new Map<string, { constant: string; sortKey: boolean }>();
  const slotOf = (index: IndexModel, sortKey: boolean) => {
    const slot = indexSlots.get(index.name) ?? { constant: `slot${indexSlots.size + 1}`, sortKey: false };
    indexSlots.set(index.name, { ...slot, sortKey: slot.sortKey || sortKey });
    return slot.constant;
  };

  for (const entity of Object.values(model.entities)) {
    // The table slot first: the functions read the table key from it.
    const slots = [TABLE_INDEX, ...Object.keys(entity.keys).filter((i) => i !== TABLE_INDEX)].map((i) => {
      const k = entity.keys[i];
      const index = model.indexes[i];
      const parts: string[] = [];
      if (index.type !== 'LSI') parts.push(`pk: [${json(index.partitionKey)}, ${partsOf(k.pk)}]`);
      if (index.sortKey && k.sk) parts.push(`sk: [${json(index.sortKey)}, ${partsOf(k.sk)}]`);
      if (index.shards) {
        values.add('shardedBy');
        const attribute = index.shards.strategy === 'ATTRIBUTE' ? entity.attributes[index.shards.attribute!] : undefined;
        const by = attribute ? `, ${json(attribute.name)}, ${encoder(attribute.type)}` : '';
        parts.push(`shard: /* @__PURE__ */ shardedBy(${json(index.name)}, ${index.shards.writeCount}${by})`);
      }
      return `{ ${parts.join(', ')} }`;
    });
    const name = entity.name;
    // A version, timestamps or unique values: the full runtime's putItem keeps them (or refuses, for unique values), with its maintainedWrites.
    const maintained = maintainsAttributes(entity);
    if (maintained) {
      needsModelFile = true;
      values.add('putItem').add('openTable as openModelFile').add('maintainedWrites');
    }
    values.add(maintained ? 'getEntity' : 'putWith').add('getEntity');
    if (model.localIndexesEnabled) values.add('collectionsOf');
    const tableKeys = entity.keys[TABLE_INDEX];
    const built = maintained ? [] : [
      `/** ${name}'s attributes as its slice and its item builder check them. */`,
      `const ${name}Attributes: readonly AttributeSlot[] = ${kindsOf(entity)};`,
      `const ${name}AttributesNames = /* @__PURE__ */ ${name}Attributes.map((a) => a[0]);`,
      '',
      `/** What the typed put of ${name} reads: its item builder stores what \`${name}Entity\` stores, with the same errors (\`itemPutRequest\` builds its request without sending it). */`,
      `export const ${name}Put: ItemPut = {`,
      `  name: ${json(name)},`,
      `  partitionKey: ${json(model.indexes[TABLE_INDEX].partitionKey)},`,
      `  keys: ${json([...new Set([...tableKeys.pk.attributes, ...tableKeys.sk?.attributes ?? []])])},`,
      `  item: ${itemBuilder(model, entity, `${name}Put`, `${name}Attributes`, values).replace(/\n/g, '\n  ')},`,
      '};',
      '',
    ];
    out.push(
      ...built,
      `/** What the put of ${name} by name reads of the model (\`putRequest\` builds its request without sending it). */`,
      `export const ${name}Entity: EntityAccess = {`,
      `  name: ${json(name)},`,
      `  typeValue: ${json(entity.typeValue)},`,
      `  attributes: ${maintained ? kindsOf(entity) : `${name}Attributes`},`,
      `  slots: [${slots.join(', ')}],`,
      '};',
      '',
      `/** Writes a whole ${name}: \`upsert\` (default), \`create\` (fails if it exists) or \`replace\` (fails if it does not). */`,
      `export function put${name}(table: AccessTable<M>, item: ItemOf<M, ${json(name)}>, options?: PutOptions): Promise<void> {`,
      maintained
        ? `  return putItem(fullRuntime(table), ${json(name)}, item, options);`
        : `  return putWith(table, ${name}Put, item, options${model.localIndexesEnabled ? ', collectionsOf' : ''});`,
      '}',
      '',
      // A get reads the table key only: its slice holds the key attributes and the table slot.
      `const ${name}Key: EntityAccess = {`,
      `  name: ${json(name)},`,
      `  typeValue: ${json(entity.typeValue)},`,
      `  attributes: ${kindsOf(entity, [...entity.keys[TABLE_INDEX].pk.attributes, ...entity.keys[TABLE_INDEX].sk?.attributes ?? []])},`,
      `  slots: [${slots[0]}],`,
      '};',
      '',
      `/** Reads one ${name} by its table key; undefined when there is none. */`,
      `export function get${name}(table: AccessTable<M>, key: KeyOf<M, ${json(name)}>, options?: GetOptions): Promise<ResultItemOf<M, ${json(name)}> | undefined> {`,
      `  return getEntity(table, ${name}Key, key, options) as Promise<ResultItemOf<M, ${json(name)}> | undefined>;`,
      '}',
      '',
    );
  }

  // The requests of one-partition patterns: a shape that two or more share is one function of the
  // values that differ (a bundle holds its literal once); a shape of one pattern stays inline.
  const requests = new Map<string, QueryRequestText>();
  const shapes = new Map<string, { constant?: string; params: string[]; uses: number }>();
  for (const pattern of Object.values(model.patterns)) {
    if (readsThroughSlice(model, pattern)) continue;
    const request = queryRequest(model, pattern, typeFilterOf(model, pattern));
    requests.set(pattern.name, request);
    const shape = shapes.get(request.shape) ?? { params: request.params, uses: 0 };
    shapes.set(request.shape, { ...shape, uses: shape.uses + 1 });
  }
  let shapeCount = 0;
  for (const shape of shapes.values()) if (shape.uses > 1) shape.constant = `request${++shapeCount}`;
  const requestOf = (name: string) => {
    const request = requests.get(name)!;
    const constant = shapes.get(request.shape)!.constant;
    return constant ? `/* @__PURE__ */ ${constant}(${request.args.join(', ')})` : request.inline;
  };

  const patternsStart = out.length;
  for (const pattern of Object.values(model.patterns)) {
    const name = pattern.name;
    const signature = `export function query${capitalized(name)}(\n  table: AccessTable<M>, input: PatternInput<M, ${json(name)}>, options?: PatternQueryOptions<M, ${json(name)}>,\n)`
      + `: Promise<QueryPage<TaggedItem<M, PatternEntities<M, ${json(name)}>>>> {`;
    const doc = `/** ${pattern.description ? pattern.description.replace(/\*\//g, '* /') + ': the' : 'The'} access pattern ${name}: one page of typed results, and a cursor when there may be more. */`;
    const index: IndexModel = model.indexes[pattern.index];
    const slice = readsThroughSlice(model, pattern);
    if (slice) values.add('sliceReader');
    const types = `{ ${pattern.entities.map((e) => `${json(model.entities[e].typeValue)}: ${json(e)}`).join(', ')} }`;
    const typeFilter = typeFilterOf(model, pattern);
    let condition: string;
    if (pattern.sortKeyCondition === 'NONE') {
      values.add('partitionCondition');
      condition = `/* @__PURE__ */ partitionCondition(${partsOf(pattern.pk!)}${pattern.sk ? `, ${json(pattern.sk.source)}` : ''})`;
    } else {
      values.add('sortKeyCondition');
      const args = [json(pattern.sortKeyCondition), partsOf(pattern.pk!)];
      if (pattern.sk || pattern.skCoverage) args.push(pattern.sk ? partsOf(pattern.sk) : 'undefined');
      if (pattern.skCoverage) args.push(json(pattern.skCoverage));
      condition = `/* @__PURE__ */ sortKeyCondition(${args.join(', ')})`;
    }
    const run = slice ? 'readPattern' : 'queryPattern';
    values.add(run);
    if (!slice && pattern.sortKeyCondition !== 'NONE') values.add('sortKeyRequest');
    out.push(
      `/** What the query of ${name} reads of the model${slice ? '' : ' (\`patternRequest\` builds its request without sending it)'}. */`,
      `export const ${name}Pattern: ${slice ? 'SlicedPatternAccess' : 'PatternAccess'} = {`,
      `  name: ${json(name)},`,
      // The runtime's defaults (ascending, eventually consistent) go without saying.
      ...(pattern.order === 'DESCENDING' ? [`  order: ${json(pattern.order)} as SortOrder,`] : []),
      ...(pattern.consistentRead ? ['  consistentRead: true,'] : []),
      `  slot: ${slotOf(index, slice || pattern.sortKeyCondition !== 'NONE')},`,
      `  condition: ${condition},`,
      ...(slice ? [
        ...(typeFilter ? [`  typeFilter: ${json(typeFilter)},`] : []),
        `  read: /* @__PURE__ */ sliceReader(${modelSlice(model, pattern, partsOf, values)}),`,
      ] : [
        `  types: ${types},`,
        `  request: ${requestOf(name)},`,
        ...(pattern.sortKeyCondition !== 'NONE' ? ['  withSortKey: sortKeyRequest,'] : []),
      ]),
      '};',
      '',
      doc,
      signature,
      `  return ${run}(table, ${name}Pattern, input, options) as never;`,
      '}',
      '',
    );
  }

  const shapeConstants = [...shapes].filter(([, shape]) => shape.constant).flatMap(([text, { constant, params }]) => [
    '/** The Query request of the one-partition patterns of one shape (their `request`), from what differs between them. */',
    `const ${constant} = (${params.map((p) => `${p}: string`).join(', ')}): PatternAccess["request"] => ${text};`,
    '',
  ]);
  out.splice(patternsStart, 0, ...shapeConstants);
  out.splice(patternsStart, 0, ...[...indexSlots].flatMap(([indexName, { constant, sortKey: readsSortKey }]) => {
    const index = model.indexes[indexName];
    const sortKey = index.sortKey && readsSortKey ? `, sortKey: ${json(index.sortKey)}` : '';
    // The fan-out and the key size check read these of the shards.
    const shards = index.shards ? `, shards: ${json(pickShards(index.shards))} as ShardModel` : '';
    return [
      `/** The ${index.type === 'TABLE' ? 'table' : `index ${indexName}`} as its patterns' queries read it. */`,
      `const ${constant}: IndexSlot = { name: ${json(index.name)}, type: ${json(index.type)} as IndexType, partitionKey: ${json(index.partitionKey)}${sortKey}${shards} };`,
      '',
    ];
  }));

  // By name, for code that names the entity or pattern at run time (an event's field): the records
  // hold what each put and query reads, so a handler that names them carries no typed wrapper.
  values.add('named');
  const entities = Object.values(model.entities);
  const kept = entities.filter(maintainsAttributes).map((e) => e.name);
  if (kept.length < entities.length) values.add('putEntity');
  const smallPut = (access: string) => `putEntity(table, ${access}, item as never, options${model.localIndexesEnabled ? ', collectionsOf' : ''})`;
  const fullPut = 'putItem(fullRuntime(table), entity, item as never, options)';
  out.push(
    '/** What the put of each entity reads, by entity name. */',
    `export const puts = { ${entities.map((e) => `${json(e.name)}: ${e.name}Entity`).join(', ')} };`,
    '',
    '/** Writes a whole item of the entity named (UNKNOWN_ENTITY when the manifest declares none so named). */',
    'export function put<E extends EntityName<M>>(table: AccessTable<M>, entity: E, item: ItemOf<M, E>, options?: PutOptions): Promise<void> {',
    ...kept.length === 0 ? [`  return ${smallPut('named(\'entity\', puts, entity)')};`]
      // putItem reads the entity of the name itself; the lookup gives the error of an unknown name first.
      : kept.length === entities.length ? ['  named(\'entity\', puts, entity);', `  return ${fullPut};`]
        : ['  const access = named(\'entity\', puts, entity);', `  return ${kept.map((e) => `entity === ${json(e)}`).join(' || ')} ? ${fullPut} : ${smallPut('access')};`],
    '}',
    '',
  );
  const patterns = Object.values(model.patterns);
  if (patterns.length) {
    const sliced = patterns.filter((p) => readsThroughSlice(model, p)).length;
    const run = (fn: string, access = 'access') => `${fn}(table, ${access}, input as never, options as never)`;
    const lookup = 'named(\'pattern\', patterns, pattern)';
    out.push(
      '/** What the query of each access pattern reads, by pattern name. */',
      `export const patterns = { ${patterns.map((p) => `${json(p.name)}: ${p.name}Pattern`).join(', ')} };`,
      '',
      '/** Runs the access pattern named (UNKNOWN_PATTERN when the manifest declares none so named): one page of typed results, and a cursor when there may be more. */',
      'export function query<P extends PatternName<M>>(',
      '  table: AccessTable<M>, pattern: P, input: PatternInput<M, P>, options?: PatternQueryOptions<M, P>,',
      '): Promise<QueryPage<TaggedItem<M, PatternEntities<M, P>>>> {',
      ...sliced === 0 ? [`  return ${run('queryPattern', lookup)} as never;`]
        : sliced === patterns.length ? [`  return ${run('readPattern', lookup)} as never;`]
          // A sliced pattern's access has the slice reader; a one-partition pattern's has its request.
          : [`  const access = ${lookup};`, `  return ('read' in access ? ${run('readPattern')} : ${run('queryPattern')}) as never;`],
      '}',
      '',
    );
  }

  const full = needsModelFile ? [
    'const full = new WeakMap<AccessTable<M>, TableContext<M>>();',
    '',
    '/** The full runtime\'s table, for the puts of entities whose attributes it maintains (version, timestamps, unique values). */',
    'function fullRuntime(table: AccessTable<M>): TableContext<M> {',
    '  let context = full.get(table);',
    `  if (!context) full.set(table, context = openModelFile<M>({ ...table.options, model: modelFile, client: table.dynamodb, tableName: table.tableName${
      values.has('maintainedWrites') ? ', maintainedWrites' : ''} }));`,
    '  return context;',
    '}',
    '',
  ] : [];
  // The header's openTable names these two.
  const body = [...full, ...out, 'AccessTable ClientOptions'].join('\n');
  const header = [
    `// Generated by \`single-table generate --access\` from ${basename(options.manifestFile)} (manifest ${model.fingerprint}). Do not edit:`,
    '// regenerate after every change of the manifest (`single-table check` and `generate --check` report a stale file).',
    '// Each function holds only the part of the model it reads, so a bundle carries the functions a handler calls.',
    '/* eslint-disable */',
    // The full runtime's operations from its main entry; the generated code's helpers from `/access`.
    ...[...values].some((v) => MAIN_VALUES.includes(v)) ? [`import { ${[...values].filter((v) => MAIN_VALUES.includes(v)).sort().join(', ')} } from ${json(runtime)};`] : [],
    `import { ${[...values].filter((v) => !MAIN_VALUES.includes(v)).sort().join(', ')} } from ${json(`${runtime}/access`)};`,
    `import type { ${TYPES.filter((t) => new RegExp(`\\b${t}\\b`).test(body)).join(', ')} } from ${json(runtime)};`,
    ...ACCESS_TYPES.some((t) => new RegExp(`\\b${t}\\b`).test(body))
      ? [`import type { ${ACCESS_TYPES.filter((t) => new RegExp(`\\b${t}\\b`).test(body)).join(', ')} } from ${json(`${runtime}/access`)};`] : [],
    ...(needsModelFile ? [`import modelFile from ${json(specifier(options.file, options.modelFile))};`] : []),
    // A JSON manifest is its default export (its types are not literal: names and items are loosely typed).
    options.manifestFile.endsWith('.json')
      ? `import type manifest from ${json(specifier(options.file, options.manifestFile))};`
      : `import type { manifest } from ${json(specifier(options.file, options.manifestFile))};`,
    '',
    'type M = typeof manifest;',
    '',
    '/** The fingerprint of the manifest this module was generated from; the table\'s is checked against it when it is opened. */',
    `export const FINGERPRINT = ${json(model.fingerprint)};`,
    '',
    '/**',
    ' * Opens the table (once, outside the handler): the table name (TABLE_NAME, or `tableName`), the SDK client,',
    ' * and the check that the stack deployed the same manifest (SINGLE_TABLE_FINGERPRINT).',
    ' */',
    'export function openTable(options?: ClientOptions): AccessTable<M> {',
    `  return openAccess<M>({ fingerprint: FINGERPRINT, delimiter: ${json(model.delimiter)}, escapeChar: ${json(model.escapeChar)}, typeAttribute: ${json(model.typeAttribute)},`
      + ` keyAttributes: ${json(model.keyAttributes)}${model.localIndexesEnabled ? ', localIndexesEnabled: true' : ''} }, options);`,
    '}',
    '',
  ];
  const text = [...header, ...full, ...out].join('\n');
  const constants: string[] = [];
  for (const [parts, token] of shared) {
    if (text.split(token).length > 2) {
      const name = `parts${constants.length + 1}`;
      constants.push(`const ${name} = ${parts};`);
      shared.set(parts, name);
    } else {
      shared.set(parts, parts);
    }
  }
  const constantsText = constants.length ? ['/** Key templates as their parts (TemplateParts), each written once. */', ...constants, ''].join('\n') + '\n' : '';
  const filled = text.replace(/\u0000(\d+)\u0000/g, (_, n) => [...shared.values()][Number(n)]);
  // The constants go after the header (before the first function).
  const at = filled.indexOf('\n', filled.indexOf('export function openTable('));
  const end = filled.indexOf('\n}\n', at) + 3;
  return (filled.slice(0, end) + '\n' + constantsText + filled.slice(end + 1)).replace(/\n*$/, '\n');
}

/** The runtime specifier an access module on disk imports, so regenerating and checking it keep it. */
export function accessModuleRuntime(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  return /^import \{[^}]*\} from "([^"]+)\/access";$/m.exec(readFileSync(file, 'utf8'))?.[1];
}

/** How an access module on disk relates to the one a model generates. */
export function accessFileState(file: string, expected: string): { state: 'current' | 'missing' } | { state: 'stale'; reason: string } {
  if (!existsSync(file)) return { state: 'missing' };
  const text = readFileSync(file, 'utf8');
  if (text === expected) return { state: 'current' };
  const found = /\(manifest ([0-9a-f]+)\)/.exec(text)?.[1];
  const wanted = /\(manifest ([0-9a-f]+)\)/.exec(expected)?.[1];
  return { state: 'stale', reason: found === wanted ? 'it differs from what this package generates for the same manifest' : `it was generated from the manifest fingerprinted ${found}, the manifest is now ${wanted}` };
}
