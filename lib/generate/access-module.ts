// The typed access module `single-table generate --access` writes beside the model file: the
// runtime's `openTable`, `putItem`, `getItem` and `query` with the same arguments, each entity's
// and pattern's part of the model as data they look up by name, built on the runtime's primitives
// with the kinds of its attributes (so a Lambda's bundle carries slices, not the model), and the
// runtime's other operations re-exported: a handler moves between it and `cdk-single-table/runtime`
// by its import line. Types come from the manifest's `defineManifest` literal (a type-only import).
// The module is built as a tree (./code.ts) and printed. Build side: the CLI and tests.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join as joinPath } from 'node:path';
import { Code, code, Declaration, helper, helperType, indented, join, lit as json, printModule, runtimeType, runtimeValue, shared, specifier } from './code';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../keys/encoding';
import { EntityModel, KeySegmentModel, KeyTemplateModel, PatternModel, populatesIndex, ShardModel, TABLE_INDEX, TableModel, writtenKeyAttributes } from '../model/model';
import { buildQueryInput } from '../runtime/query/plan';

/** Where `generate --access` writes the module of a manifest file: `orders.ts` -> `orders.access.ts`, beside it. */
export function defaultAccessFile(manifestFile: string): string {
  return joinPath(dirname(manifestFile), basename(manifestFile, extname(manifestFile)) + '.access.ts');
}

/** Where the module is written, and what it imports. */
export interface AccessModuleOptions {
  /** The module's own path. */
  readonly file: string;
  /** The manifest module (imported for its type only). */
  readonly manifestFile: string;
  /** What the module imports the runtime as. @default 'cdk-single-table/runtime' */
  readonly runtime?: string;
}

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
function modelSlice(model: TableModel, pattern: PatternModel, template: (t: KeyTemplateModel) => Code): Code {
  const index = model.indexes[pattern.index];
  const shards = index.shards;
  const keys = (slot: EntityModel['keys'][string]) => code`[${template(slot.pk)}${slot.sk ? code`, ${template(slot.sk)}` : ''}]`;
  const entities = pattern.entities.map((name) => {
    const entity = model.entities[name];
    const onIndex = pattern.index === TABLE_INDEX ? '' : code`, ${keys(entity.keys[pattern.index])}`;
    return code`${json(name)}: [${json(entity.typeValue)}, ${keys(entity.keys[TABLE_INDEX])}${onIndex}]`;
  });
  const table = model.indexes[TABLE_INDEX];
  const parts: Code[] = [
    `projection: ${json(index.projection)}`,
    `table: ${json([table.partitionKey, ...table.sortKey ? [table.sortKey] : []])}`,
    code`entities: { ${join(entities, ', ')} }`,
  ];
  if (pattern.fetch === 'BATCH_GET') parts.push('fetch: true');
  // The fan-out only where there are shards, so that a fetched or key-decoded pattern does not bring it.
  if (shards) parts.push(code`fanOut: ${helper('readShards')}`);
  // Where reads are pinned to the shard attribute value's shard: the shard choice, and what it reads
  // (the pattern's key attributes and condition, the shard attribute's type).
  if (shards?.pinnedReads) {
    const types = Object.fromEntries(pattern.entities.map((e) => [e, model.entities[e].attributes[shards.attribute!].type]));
    const sk = pattern.sk && { sk: pattern.sk.attributes };
    const pinned = json({ sortKeyCondition: pattern.sortKeyCondition, pk: pattern.pk!.attributes, ...sk, types });
    parts.push(code`pinned: { ${pinned.slice(1, -1)}, choose: ${helper('shardsToQuery')} }`);
  }
  return code`{ ${join(parts, ', ')} }`;
}

/** A one-partition pattern's request: the function that builds it, with its values or as its shape. */
interface QueryRequestCode {
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
 * A one-partition pattern's Query request as buildQueryInput writes it, as the code of a function
 * of the table name, the partition key value and the order that builds it as one literal (the
 * generated query adds consistency, limit and start, so the request is the runtime's own). The
 * index name, the partition key attribute and the type values of the filter differ between
 * patterns whose requests have the same shape (table or index, filter of as many types, select):
 * written once with those values, once with parameters in their place.
 */
function queryRequest(model: TableModel, pattern: PatternModel, typeFilter: string[] | undefined): QueryRequestCode {
  const plan = { pattern, index: model.indexes[pattern.index], condition: { pk: '' }, descending: false, consistent: false, typeFilter };
  const { TableName, ScanIndexForward, ExpressionAttributeValues, ...fixed } = buildQueryInput(model, '', plan, '');
  const { ':pk': pk, ...typeValues } = ExpressionAttributeValues!;
  const params: string[] = [];
  const args: string[] = [];
  // The request, each value that differs between patterns written by `value` (its parameter, its literal).
  const write = (value: (param: string, literal: string) => string) => {
    const field = ([k, v]: [string, unknown]): string => {
      if (k === 'IndexName') return `, ${value('IndexName', json(v))}`;
      if (k !== 'ExpressionAttributeNames') return `, ${k}: ${json(v)}`;
      const names = Object.entries(v as Record<string, string>).map(([n, a]) => `${json(n)}: ${n === '#pk' ? value('partitionKey', json(a)) : json(a)}`);
      return `, ${k}: { ${names.join(', ')} }`;
    };
    const fields = (keys: string[]) => Object.entries(fixed).filter(([k]) => keys.includes(k)).map(field).join('');
    const head = fields(['IndexName', 'KeyConditionExpression', 'ExpressionAttributeNames']);
    const filter = Object.entries(typeValues).map(([k, v], i) => `, ${json(k)}: { S: ${value(`t${i}`, json(v.S!))} }`).join('');
    return `(TableName, pk, ScanIndexForward) => ({ TableName${head}, `
      + `ExpressionAttributeValues: { ":pk": { S: pk }${filter} }, ScanIndexForward${fields(['Select', 'FilterExpression'])} })`;
  };
  // The shape names its parameter as the field: `IndexName` (shorthand) there, `IndexName: "GSI1"` inline.
  const shape = write((param, literal) => {
    params.push(param);
    args.push(literal);
    return param;
  });
  const inline = write((param, literal) => (param === 'IndexName' ? `IndexName: ${literal}` : literal));
  return { inline, shape, params, args };
}

/**
 * The item builder of an entity's typed put, as the code of an arrow function over the item:
 * straight-line code that stores what entityItem stores for the entity's slice and throws what it
 * throws, in the same order (lib/runtime/access/build.ts). Attributes are read by their names once,
 * checked as their kinds check them (any fault: convertItem names it), each key joined from its
 * attributes' encoded segments and its size checked, index keys written where every segment of
 * the slot holds text (an absent one keeps the item out of the index; an unpaired surrogate is
 * named), the stored item one object literal. `owner` is the constant the builder is the `item`
 * of (it has the entity's name); `attributes` the constant of the slice's attribute list.
 */
export function itemBuilder(model: TableModel, entity: EntityModel, owner: string, attributes: string): Code {
  const esc = json(model.escapeChar);
  const attrs = Object.values(entity.attributes);
  const index = new Map(attrs.map((a, j) => [a.name, j]));
  const lines: Code[] = [];
  const checks: Code[] = [];
  const stored: Code[] = [];
  const optional: Code[] = [];
  // The value, the checked value's form and its key segment of each attribute; a segment that is
  // text whenever the attribute's checks pass needs no test before a key is joined.
  const segment = new Map<string, { text: string; alwaysText: boolean }>();
  lines.push(code`if (typeof i != "object" || !i) ${helper('attributeFault')}(${owner}, i, ${attributes});`);
  // Each attribute is read and checked in declaration order, as convertItem reads and checks them,
  // so the first fault (or a getter's throw) is the one it meets.
  const read = (a: { name: string }) => `i${/^[A-Za-z_$][\w$]*$/.test(a.name) ? `.${a.name}` : `[${json(a.name)}]`}`;
  // A required date or value of another kind is used as checked (d, x), its value not again.
  const declared: string[] = attrs.flatMap((a, j) => (a.required && !['STRING', 'NUMBER', 'BOOLEAN'].includes(a.type) ? [] : [`v${j}: any`]));
  attrs.forEach((a, j) => {
    const v = `v${j}`;
    // The check of the value `operand` holds or reads (a required attribute is read and checked in one).
    let check: (operand: string) => Code;
    let value: string;
    switch (a.type) {
      case 'STRING':
        check = (operand) => `typeof (${operand}) == "string"`;
        value = `{ S: ${v} }`;
        segment.set(a.name, { text: `s${j}`, alwaysText: false });
        break;
      case 'NUMBER':
        check = (operand) => code`${helper('storableNumber')}(${operand})`;
        value = `{ N: String(${v}) }`;
        segment.set(a.name, { text: `s${j}`, alwaysText: a.required });
        break;
      case 'BOOLEAN':
        check = (operand) => `typeof (${operand}) == "boolean"`;
        value = `{ BOOL: ${v} }`;
        segment.set(a.name, { text: `s${j}`, alwaysText: false });
        break;
      case 'DATE':
        declared.push(`d${j}: string | undefined`);
        check = () => code`(d${j} = ${helper('normalizeDate')}(${a.required ? read(a) : v})) !== undefined`;
        value = `{ S: d${j}! }`;
        segment.set(a.name, { text: a.required ? `d${j}!` : `s${j}`, alwaysText: a.required });
        break;
      default:
        declared.push(`x${j}: any`);
        check = () => code`(x${j} = ${helper(KIND_NAMES[a.type])}.value(${a.required ? read(a) : v}))`;
        value = `x${j} as never`;
    }
    // An optional attribute: read, then checked where it holds a value.
    checks.push(a.required ? check(`${v} = ${read(a)}`) : code`((${v} = ${read(a)}) === undefined || ${check(v)})`);
    (a.required ? stored : optional).push(a.required ? `${json(a.name)}: ${value}` : `if (${v} !== undefined) o[${json(a.name)}] = ${value};`);
  });
  // Names that hold a value and are not declared, found as convertItem finds them (from the count of the given attributes).
  const given = [String(attrs.filter((a) => a.required).length), ...attrs.map((a, j) => (a.required ? '' : `+(v${j} !== undefined)`)).filter(Boolean)].join(' + ');
  lines.push(`let ${declared.join(', ')};`);
  const valid = join([...checks, code`${helper('declaredOnly')}(i, ${attributes}Names, ${given})`], ' && ');
  lines.push(code`if (!(${valid})) ${helper('attributeFault')}(${owner}, i, ${attributes});`);
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
    const text = a.type === 'STRING' ? code`${helper('textSegment')}(${v}, ${esc})`
      : a.type === 'NUMBER' ? code`${a.required ? '' : `${v} === undefined ? "" : `}${helper('numberSegment')}(${v}) as string`
        : a.type === 'BOOLEAN' ? `${v} ? "true" : ""`
          : a.required ? undefined : `d${j} ?? ""`;
    if (text) lines.push(code`const s${j} = ${text};`);
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
    code`${helper('keyFault')}(${owner}, ${json(sourceOf(t))}, ${json(t.attributes)}, [${t.attributes.map((n) => segment.get(n)!.text).join(', ')}]${key ? `, ${json(key)}` : ''})`;
  // Keys joined at the top level, by template source: a key of the same template is that key again.
  const joined = new Map<string, string>();
  // The smallest limit each key's size was checked against: a larger one needs no check.
  const checked = new Map<string, number>();
  // A table key's variable is recorded only at the top level: a check inside an index slot's block
  // may not run (the item is not in that index).
  const sized = (attribute: string, key: string, limit: number, record = true): Code => {
    if ((checked.get(key) ?? Infinity) <= limit) return key;
    if (record) checked.set(key, limit);
    return code`${helper('checkSize')}(${owner}, ${json(attribute)}, ${key}, ${limit})`;
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
      lines.push(test ? code`const ${k} = ${test} ? ${text} : ${fault(t, attribute)} as never;` : `const ${k} = ${text};`);
      joined.set(source, k);
    }
    const check = sized(attribute, k, limit);
    if (check !== k) lines.push(code`${check};`);
    tableVars.push(k);
    stored.push(`${json(attribute)}: { S: ${k} }`);
  });
  stored.push(`${json(model.typeAttribute)}: { S: ${json(entity.typeValue)} }`);
  const slots: Code[] = [];
  let n = 0;
  for (const name of Object.keys(entity.keys).filter((i) => i !== TABLE_INDEX)) {
    const idx = model.indexes[name];
    const keys = entity.keys[name];
    const sk = idx.sortKey && keys.sk ? keys.sk : undefined;
    const body: Code[] = [];
    let skVar: string | undefined;
    const sortKey = (indent: string, writes: Code[]): Code[] => {
      if (!sk) return writes.map((w) => [indent, w]);
      const known = joined.get(sourceOf(sk));
      const { text, test } = joinKey(sk);
      skVar = known ?? `k${tableVars.length + ++n}`;
      const lead = known ? [] : [`const ${skVar} = ${text};`];
      const check = sized(idx.sortKey!, skVar, MAX_SORT_KEY_BYTES, !known);
      const all: Code[] = [...lead, ...(check !== skVar ? [code`${check};`] : []), ...writes, `o[${json(idx.sortKey!)}] = { S: ${skVar} };`];
      if (!test || known) return all.map((w) => [indent, w]);
      return [`${indent}if (${test}) {`, ...all.map((w) => [`${indent}  `, w]), code`${indent}} else ${fault(sk)};`];
    };
    if (idx.type === 'LSI') {
      body.push(...sortKey('', []));
    } else {
      const pk = keys.pk;
      const known = joined.get(sourceOf(pk));
      const { text, test } = joinKey(pk);
      const shards = idx.shards;
      let suffix: Code | undefined;
      if (shards) {
        const shard = shards.strategy === 'ATTRIBUTE' ? segment.get(shards.attribute!)! : undefined;
        const by = !shard ? code`${helper('shardForItem')}(${tableVars[0]}, ${tableVars[1] ?? '""'}, ${shards.writeCount})`
          : shard.alwaysText ? code`${helper('shardForValue')}(${shard.text}, ${shards.writeCount})`
            : code`(${shard.text} ? ${helper('shardForValue')}(${shard.text}, ${shards.writeCount}) : ${helper('shardFault')}(${owner}, ${json(name)}, ${json(shards.attribute)}, ${shard.text}))`;
        suffix = code` + ${json(model.delimiter)} + ${by}`;
      }
      // The key of a table key's template, unsharded, is that key's variable (its size checked).
      const alias = known !== undefined && !suffix;
      const pkVar = alias ? known : `k${tableVars.length + ++n}`;
      const check = sized(idx.partitionKey, pkVar, MAX_PARTITION_KEY_BYTES, !alias);
      const inner: Code[] = [...(alias ? [] : [code`const ${pkVar} = ${known ?? text}${suffix ?? ''};`]), ...(check !== pkVar ? [code`${check};`] : [])];
      const write = `o[${json(idx.partitionKey)}] = { S: ${pkVar} };`;
      // The partition key of the same template as a table key, or with no test, is always there.
      if (known || !test) body.push(...inner, ...sortKey('', [write]));
      else body.push(`if (${test}) {`, ...inner.map((w) => ['  ', w]), ...sortKey('  ', [write]), code`} else ${fault(pk)};`);
      // Its variable names the key for the size checks of later keys only within this slot.
      if (!alias) checked.delete(pkVar);
    }
    if (skVar && !joined.has(sourceOf(sk!))) checked.delete(skVar);
    slots.push(`// ${name}`, ...body);
  }
  return join([
    '(i: any) => {',
    ...[...lines, code`const o: ReturnType<${helperType('ItemPut')}["item"]> = { ${join(stored, ', ')} };`, ...optional, ...slots, 'return o;'].map((l) => ['  ', l]),
    '}',
  ], '\n');
}


/**
 * Whether the full runtime's putItem writes the entity: it maintains attributes of it (a version,
 * timestamps or unique values), or writes the shard of a sharded multi-attribute GSI it is on.
 */
const putByRuntime = (model: TableModel, entity: EntityModel) =>
  entity.version !== undefined || entity.timestamps !== undefined || entity.unique !== undefined
  || Object.values(model.indexes).some((i) => i.shards?.keyAttribute && i.entities!.includes(entity.name));

/** The type values a pattern's query filters on: where entities it does not return have entries in its index, which carry the type attribute. */
function typeFilterOf(model: TableModel, pattern: PatternModel): string[] | undefined {
  const index = model.indexes[pattern.index];
  return index.projection !== 'KEYS_ONLY' && Object.values(model.entities).some((e) => populatesIndex(e, index) && !pattern.entities.includes(e.name))
    ? pattern.entities.map((e) => model.entities[e].typeValue) : undefined;
}

/** The runtime's operations and helpers a generated module re-exports, so that one import serves a handler. */
const REEXPORTED = ['updateItem', 'deleteItem', 'scan', 'batchGet', 'batchWrite', 'transactWrite', 'transactGet', 'decodeStream', 'releaseUniqueValues', 'where',
  'maintainedWrites', 'SingleTableError', 'ConditionFailedError', 'TransactionCanceledError', 'UnprocessedError'];

/** The TypeScript text of the access module of a model. */
export function accessModule(model: TableModel, options: AccessModuleOptions): string {
  const runtime = options.runtime ?? 'cdk-single-table/runtime';
  const AccessTable = helperType('AccessTable');
  const kindsOf = (entity: EntityModel, names?: readonly string[]) => code`[${join(Object.values(entity.attributes).filter((a) => !names || names.includes(a.name))
    .map((a) => code`[${json(a.name)}, ${helper(KIND_NAMES[a.type])}${a.required ? '' : ', true'}]`), ', ')}]`;
  // A template as its literal text around one encoder per placeholder (TemplateParts). Written more
  // than once (a key on several slots, a pattern's partition key), its parts are one constant: a
  // bundle holds them once, and a put composes them from the same array.
  const partsOf = (template: KeyTemplateModel) => {
    const { texts, placeholders } = splitTemplate(template, model.delimiter);
    const parts = placeholders.flatMap((p, i) => [json(texts[i]), json(p.attribute), helper(SEGMENT_ENCODERS[p.kind!])]);
    const key = JSON.stringify([texts, placeholders.map((p) => [p.attribute, p.kind])]);
    return shared('parts', key, code`[${join([...parts, json(texts[placeholders.length])], ', ')}]`);
  };
  // The indexes patterns query, each written once (name, type, keys, the shards a fan-out reads).
  // One partition reads the sort key for a sort-key condition only; a fan-out merges by it.
  const slotSortKey = new Map<string, boolean>();
  for (const pattern of Object.values(model.patterns)) {
    const reads = readsThroughSlice(model, pattern) || pattern.sortKeyCondition !== 'NONE';
    slotSortKey.set(pattern.index, (slotSortKey.get(pattern.index) ?? false) || reads);
  }
  const slotNames = new Map([...slotSortKey.keys()].map((name, i) => [name, `slot${i + 1}`]));
  const body: Declaration[] = [];

  const entities = Object.values(model.entities);
  for (const entity of entities) {
    const name = entity.name;
    // A version, timestamps or unique values (the runtime's putItem keeps them, with openTable's maintainedWrites), or a multi-attribute index's shard: the runtime's putItem writes it.
    if (!putByRuntime(model, entity)) {
      const tableKeys = entity.keys[TABLE_INDEX];
      body.push(
        {
          doc: `${name}'s attributes as its item builder checks them.`,
          code: [
            code`const ${name}Attributes: readonly ${helperType('AttributeSlot')}[] = ${kindsOf(entity)};\n`,
            `const ${name}AttributesNames = /* @__PURE__ */ ${name}Attributes.map((a) => a[0]);`,
          ],
        },
        {
          doc: `What the put of ${name} reads: its item builder stores what the runtime's \`putItem\` stores, with the same errors (\`itemPutRequest\` builds its request without sending it).`,
          code: [
            code`export const ${name}Put: ${helperType('ItemPut')} = {\n`,
            `  name: ${json(name)},\n`,
            `  partitionKey: ${json(model.indexes[TABLE_INDEX].partitionKey)},\n`,
            `  keys: ${json([...new Set([...tableKeys.pk.attributes, ...tableKeys.sk?.attributes ?? []])])},\n`,
            code`  item: ${indented(itemBuilder(model, entity, `${name}Put`, `${name}Attributes`))},\n`,
            '};',
          ],
        },
      );
    }
    // A get reads the table key only: its slice holds the key attributes and the table slot.
    const { pk, sk } = entity.keys[TABLE_INDEX];
    const table = model.indexes[TABLE_INDEX];
    const slot = [code`pk: [${json(table.partitionKey)}, ${partsOf(pk)}]`, ...table.sortKey && sk ? [code`sk: [${json(table.sortKey)}, ${partsOf(sk)}]`] : []];
    body.push({
      doc: `What the get of ${name} reads: its key attributes and table key.`,
      code: [
        code`const ${name}Key: ${helperType('EntityAccess')} = {\n`,
        `  name: ${json(name)},\n`,
        `  typeValue: ${json(entity.typeValue)},\n`,
        code`  attributes: ${kindsOf(entity, [...pk.attributes, ...sk?.attributes ?? []])},\n`,
        code`  slots: [{ ${join(slot, ', ')} }],\n`,
        '};',
      ],
    });
  }

  // The requests of one-partition patterns: a shape that two or more share is one function of the
  // values that differ (a bundle holds its literal once); a shape of one pattern stays inline.
  const requests = new Map<string, QueryRequestCode>();
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

  for (const [indexName, readsSortKey] of slotSortKey) {
    const index = model.indexes[indexName];
    const sortKey = index.sortKey && readsSortKey ? `, sortKey: ${json(index.sortKey)}` : '';
    // The fan-out and the key size check read these of the shards.
    const shards = index.shards ? code`, shards: ${json(pickShards(index.shards))} as ${helperType('ShardModel')}` : '';
    body.push({
      doc: `The ${index.type === 'TABLE' ? 'table' : `index ${indexName}`} as its patterns' queries read it.`,
      code: code`const ${slotNames.get(indexName)!}: ${helperType('IndexSlot')} = { name: ${json(index.name)}, type: ${json(index.type)} as ${helperType('IndexType')}, partitionKey: ${
        json(index.partitionKey)}${sortKey}${shards} };`,
    });
  }
  for (const [text, { constant, params }] of shapes) {
    if (!constant) continue;
    body.push({
      doc: 'The Query request of the one-partition patterns of one shape (their `request`), from what differs between them.',
      code: code`const ${constant} = (${params.map((p) => `${p}: string`).join(', ')}): ${helperType('PatternAccess')}["request"] => ${text};`,
    });
  }

  // A pattern on a GSI keyed on the items' own attributes has no key to compose: the runtime's query
  // serves it, over the whole model (loaded when the table first needs it).
  const attributeKeyed = Object.values(model.patterns).filter((p) => !p.pk).map((p) => p.name);
  const patterns = Object.values(model.patterns).filter((p) => p.pk);
  for (const pattern of patterns) {
    const name = pattern.name;
    const slice = readsThroughSlice(model, pattern);
    const types = `{ ${pattern.entities.map((e) => `${json(model.entities[e].typeValue)}: ${json(e)}`).join(', ')} }`;
    const typeFilter = typeFilterOf(model, pattern);
    let condition: Code;
    if (pattern.sortKeyCondition === 'NONE') {
      condition = code`/* @__PURE__ */ ${helper('partitionCondition')}(${partsOf(pattern.pk!)}${pattern.sk ? `, ${json(pattern.sk.source)}` : ''})`;
    } else {
      const args: Code[] = [json(pattern.sortKeyCondition), partsOf(pattern.pk!)];
      if (pattern.sk || pattern.skCoverage) args.push(pattern.sk ? partsOf(pattern.sk) : 'undefined');
      if (pattern.skCoverage) args.push(json(pattern.skCoverage));
      condition = code`/* @__PURE__ */ ${helper('sortKeyCondition')}(${join(args, ', ')})`;
    }
    const description = pattern.description ? `: ${pattern.description.replace(/\*\//g, '* /')}` : '';
    body.push({
      doc: `What the query of ${name} reads of the model${slice ? '' : ' (`patternRequest` builds its request without sending it)'}${description}.`,
      code: join([
        code`export const ${name}Pattern: ${helperType(slice ? 'SlicedPatternAccess' : 'PatternAccess')} = {`,
        `  name: ${json(name)},`,
        // The runtime's defaults (ascending, eventually consistent) go without saying.
        ...(pattern.order === 'DESCENDING' ? [code`  order: ${json(pattern.order)} as ${runtimeType('SortOrder')},`] : []),
        ...(pattern.consistentRead ? ['  consistentRead: true,'] : []),
        `  slot: ${slotNames.get(pattern.index)!},`,
        code`  condition: ${condition},`,
        ...(slice ? [
          ...(typeFilter ? [`  typeFilter: ${json(typeFilter)},`] : []),
          code`  read: /* @__PURE__ */ ${helper('sliceReader')}(${modelSlice(model, pattern, partsOf)}),`,
        ] : [
          `  types: ${types},`,
          `  request: ${requestOf(name)},`,
          ...(pattern.sortKeyCondition !== 'NONE' ? [code`  withSortKey: ${helper('sortKeyRequest')},`] : []),
        ]),
        '};',
      ], '\n'),
    });
  }

  // The records the functions look names up in: what each entity's put and get, and each pattern's query, read.
  const maintained = entities.filter((e) => putByRuntime(model, e)).map((e) => e.name);
  const record = (items: string[]) => `{ ${items.join(', ')} }`;
  body.push(
    {
      doc: maintained.length ? 'What the put of each entity reads, by entity name (none for those the runtime\'s putItem writes).' : 'What the put of each entity reads, by entity name.',
      code: `const puts = ${record(entities.map((e) => `${json(e.name)}: ${maintained.includes(e.name) ? 'undefined' : `${e.name}Put`}`))};`,
    },
    { doc: 'What the get of each entity reads, by entity name.', code: `const keys = ${record(entities.map((e) => `${json(e.name)}: ${e.name}Key`))};` },
  );
  if (patterns.length) {
    body.push({
      doc: attributeKeyed.length ? 'What the query of each access pattern reads, by pattern name (none for those the runtime\'s query runs).'
        : 'What the query of each access pattern reads, by pattern name.',
      code: `const patterns = ${record([...patterns.map((p) => `${json(p.name)}: ${p.name}Pattern`), ...attributeKeyed.map((name) => `${json(name)}: undefined`)])};`,
    });
  }

  const M = 'M';
  const put = code`${helper('putWith')}(table, put, item, options as never${model.localIndexesEnabled ? code`, ${helper('collectionsOf')}` : ''})`;
  body.push({
    doc: [
      'Writes a whole item: `mode` `upsert` (default), `create` (fails if it exists) or `replace` (fails if it does not), and',
      'a `condition` made with `where`; UNKNOWN_ENTITY when the manifest declares no entity so named.',
      ...maintained.length ? ['Entities with a version, timestamps or unique values are written by the runtime\'s putItem, which keeps them (open the table with `maintainedWrites`);',
        'so are those on a sharded multi-attribute index, whose shard it writes.'] : [],
    ],
    code: join([
      code`export async function putItem<E extends ${runtimeType('EntityName')}<${M}>>(table: ${AccessTable}<${M}>, entity: E, item: ${runtimeType('ItemOf')}<${M}, E>, options?: ${
        runtimeType('PutOptions')}<${runtimeType('ItemOf')}<${M}, E>>): Promise<void> {`,
      code`  const put = ${helper('named')}("entity", puts, entity);`,
      maintained.length ? code`  return put ? ${put} : ${runtimeValue('putItem', 'runtimePutItem')}(table, entity, item, options);` : code`  return ${put};`,
      '}',
    ], '\n'),
  });
  body.push({
    doc: 'Reads one item by its table key; undefined when there is none; UNKNOWN_ENTITY when the manifest declares no entity so named.',
    code: join([
      code`export async function getItem<E extends ${runtimeType('EntityName')}<${M}>>(table: ${AccessTable}<${M}>, entity: E, key: ${runtimeType('KeyOf')}<${M}, E>, options?: ${
        runtimeType('GetOptions')}): Promise<${runtimeType('ResultItemOf')}<${M}, E> | undefined> {`,
      code`  return ${helper('getEntity')}(table, ${helper('named')}("entity", keys, entity), key, options) as never;`,
      '}',
    ], '\n'),
  });
  if (patterns.length || attributeKeyed.length) {
    const sliced = patterns.filter((p) => readsThroughSlice(model, p)).length;
    // A sliced pattern's access has the slice reader; a one-partition pattern's has its request.
    const read = sliced === 0 ? helper('queryPattern') : sliced === patterns.length ? helper('readPattern')
      : code`((t: any, a: any, i: any, o: any) => ("read" in a ? ${helper('readPattern')} : ${helper('queryPattern')})(t, a, i, o))`;
    const entitiesOf = code`${runtimeType('PatternEntities')}<${M}, P>`;
    body.push({
      doc: [
        'Runs an access pattern: `await` it for one page of typed results (and a cursor when there may be more),',
        'or iterate it with `for await` for every page; UNKNOWN_PATTERN when the manifest declares no pattern so named.',
      ],
      code: join([
        code`export function query<P extends ${runtimeType('PatternName')}<${M}>, A extends ${runtimeType('AttributeNameOf')}<${M}, ${entitiesOf}> = never>(`,
        code`  table: ${AccessTable}<${M}>, pattern: P, input: ${runtimeType('PatternInput')}<${M}, P>, options?: ${runtimeType('QueryOptionsOf')}<${M}, P, A>,`,
        code`): ${runtimeType('Paged')}<${runtimeType('SelectedItem')}<${M}, ${entitiesOf}, A>> {`,
        ...!patterns.length ? [code`  return ${runtimeValue('query', 'runtimeQuery')}(table, pattern, input, options) as never;`] : [
          ...attributeKeyed.length ? [code`  if (pattern in patterns && !(patterns as Record<string, unknown>)[pattern]) return ${runtimeValue('query', 'runtimeQuery')}(table, pattern, input, options) as never;`] : [],
          code`  return ${helper('pagedQuery')}(table, () => ${helper('named')}("pattern", patterns, pattern)${attributeKeyed.length ? '!' : ''}, input as never, options as never, ${read}) as never;`,
        ],
        '}',
      ], '\n'),
    });
  }

  const head: Declaration[] = [
    { code: 'type M = typeof manifest;' },
    { doc: 'The fingerprint of the manifest this module was generated from; the table\'s is checked against it when it is opened.', code: `export const FINGERPRINT = ${json(model.fingerprint)};` },
    {
      doc: [
        'Opens the table (once, outside the handler), as the runtime\'s `openTable` does: the table name (TABLE_NAME, or',
        '`tableName`), the SDK client, and the check that the stack deployed the same manifest (SINGLE_TABLE_FINGERPRINT).',
        'This module\'s functions read their own parts of the model; the runtime\'s operations it re-exports (updateItem,',
        'scan, ...) read the whole model the stack deployed (SINGLE_TABLE_MODEL), or `model`, when they first need it.',
      ],
      code: join([
        code`export function openTable<T extends ${M} = ${M}>(options?: ${runtimeType('ClientOptions')}): ${AccessTable}<T> {`,
        code`  return ${helper('openAccess')}<T>({ fingerprint: FINGERPRINT, delimiter: ${json(model.delimiter)}, escapeChar: ${json(model.escapeChar)}, typeAttribute: ${
          json(model.typeAttribute)}, keyAttributes: ${json(writtenKeyAttributes(model))}${model.localIndexesEnabled ? ', localIndexesEnabled: true' : ''} }, options);`,
        '}',
      ], '\n'),
    },
  ];
  return printModule({
    header: [
      `// Generated by \`single-table generate --access\` from ${basename(options.manifestFile)} (manifest ${model.fingerprint}). Do not edit:`,
      '// regenerate after every change of the manifest (`single-table check` and `generate --check` report a stale file).',
      '// The functions of `cdk-single-table/runtime` with the same arguments, each entity\'s and pattern\'s part of the model',
      '// as data, so a bundle carries the parts and the code of the functions a handler calls.',
      '/* eslint-disable */',
    ],
    runtime,
    // A JSON manifest is its default export (its types are not literal: names and items are loosely typed).
    imports: [options.manifestFile.endsWith('.json')
      ? `import type manifest from ${json(specifier(options.file, options.manifestFile))};`
      : `import type { manifest } from ${json(specifier(options.file, options.manifestFile))};`],
    reexports: { values: REEXPORTED, types: true },
    head,
    sharedDocs: { parts: 'Key templates as their parts (TemplateParts), each written once.' },
    body,
  });
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
