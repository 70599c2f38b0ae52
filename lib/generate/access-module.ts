// The typed access module `single-table generate --access` writes beside the model file: the
// runtime's `openTable`, `putItem`, `getItem` and `query` with the same arguments, each entity's
// and pattern's part of the model as data they look up by name, built on the runtime's primitives
// with the kinds of its attributes (so a Lambda's bundle carries slices, not the model), and
// everything else the runtime exports re-exported: a handler moves between it and
// `cdk-single-table/runtime` by its import line. Types come from the manifest's `defineManifest`
// literal (a type-only import). The module is built as a tree (./code.ts) and printed, each kind of
// declaration by a builder of its own (`...Declaration`), the put's item builder by `itemBuilder`.
// Build side: the CLI and tests.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join as joinPath } from 'node:path';
import { AccessValue, Code, code, Declaration, helper, helperType, indented, join, lit as json, Local, local, printModule, runtimeType, runtimeValue, shared, specifier } from './code';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../keys/encoding';
import type { AttributeKind } from '../model/manifest';
import { AttributeModel, EntityModel, KeySegmentModel, KeyTemplateModel, PatternModel, populatesIndex, ShardModel, TABLE_INDEX, TableModel, writtenKeyAttributes } from '../model/model';
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

/** The runtime's object that checks and converts each kind of attribute value. */
const KIND_NAMES: Record<AttributeKind, AccessValue> = {
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
const SEGMENT_ENCODERS: Partial<Record<AttributeKind, AccessValue>> = {
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
  const write = (value: (param: string, literal: string) => string): string => {
    const field = ([key, fieldValue]: [string, unknown]): string => {
      if (key === 'IndexName') return value('IndexName', json(fieldValue));
      if (key !== 'ExpressionAttributeNames') return `${key}: ${json(fieldValue)}`;
      const names = Object.entries(fieldValue as Record<string, string>)
        .map(([name, attribute]) => `${json(name)}: ${name === '#pk' ? value('partitionKey', json(attribute)) : json(attribute)}`);
      return `${key}: { ${names.join(', ')} }`;
    };
    const fields = (keys: string[]) => Object.entries(fixed).filter(([key]) => keys.includes(key)).map(field);
    // In the order of the request's fields, which is the order of the shape's parameters.
    const head = fields(['IndexName', 'KeyConditionExpression', 'ExpressionAttributeNames']);
    const values = ['":pk": { S: pk }', ...Object.entries(typeValues).map(([name, typeValue], i) => `${json(name)}: { S: ${value(`typeValue${i}`, json(typeValue.S!))} }`)];
    const request = [
      'TableName',
      ...head,
      `ExpressionAttributeValues: { ${values.join(', ')} }`,
      'ScanIndexForward',
      ...fields(['Select', 'FilterExpression']),
    ];
    return `(TableName, pk, ScanIndexForward) => ({ ${request.join(', ')} })`;
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

/** JavaScript's reserved words and the globals an item builder calls: no local of the builder is so named. */
const NOT_LOCAL = ['break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends',
  'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try',
  'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface', 'package', 'private', 'protected', 'public', 'await',
  'arguments', 'eval', 'undefined', 'NaN', 'Infinity', 'String'];

/**
 * A namer of one function's locals: each an identifier made of the name of what it holds, the
 * first of them so spelled, a later one with a number after it (the printer also keeps a local
 * from hiding a runtime name the function calls).
 */
function localNamer(taken: readonly string[]): (base: string) => Local {
  const used = new Set([...NOT_LOCAL, ...taken]);
  return (base) => {
    const identifier = base.replace(/[^\w$]/g, '_').replace(/^(?=\d)/, '_');
    let name = identifier;
    for (let n = 2; used.has(name); n++) name = `${identifier}${n}`;
    used.add(name);
    return local(name);
  };
}

/** An attribute's locals in its entity's item builder, and how its value is checked and stored. */
interface AttributeCode {
  readonly attribute: AttributeModel;
  /** The value as the item holds it (a required date or value of a kind with its own check needs none). */
  readonly value?: Local;
  /** The checked value as stored: a date's ISO-8601 text, or another kind's attribute value. */
  readonly checked?: { readonly local: Local; readonly type: string };
  /** The check of the value the operand holds or reads (a required attribute is read and checked in one). */
  readonly check: (operand: Code) => Code;
  /** The attribute value stored. */
  readonly stored: Code;
  /** Its key segment: a local of its encoded text, or the checked value itself (a required date). */
  readonly segment?: { readonly text: Code; readonly local?: Local; readonly alwaysText: boolean };
}

/** The item builder's read of an attribute (`item.name`, or `item["a name"]`). */
const readOf = (name: string): string => `item${/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${json(name)}]`}`;

/** The locals, check, stored value and key segment of each attribute of an entity, in declaration order. */
function attributeCodes(entity: EntityModel, name: (base: string) => Local): AttributeCode[] {
  return Object.values(entity.attributes).map((attribute) => {
    const { required, type } = attribute;
    // A required date or value of another kind is used as checked, its value not again.
    const value = !required || ['STRING', 'NUMBER', 'BOOLEAN'].includes(type) ? name(attribute.name) : undefined;
    const given = (operand: Code) => (required ? readOf(attribute.name) : operand);
    const encoded = () => name(`${attribute.name}Segment`);
    switch (type) {
      case 'STRING':
        return { attribute, value, check: (operand) => code`typeof (${operand}) == "string"`, stored: code`{ S: ${value!} }`, segment: segmentOf(encoded(), false) };
      case 'NUMBER':
        return { attribute, value, check: (operand) => code`${helper('storableNumber')}(${operand})`, stored: code`{ N: String(${value!}) }`, segment: segmentOf(encoded(), required) };
      case 'BOOLEAN':
        return { attribute, value, check: (operand) => code`typeof (${operand}) == "boolean"`, stored: code`{ BOOL: ${value!} }`, segment: segmentOf(encoded(), false) };
      case 'DATE': {
        const iso = name(`${attribute.name}Iso`);
        return {
          attribute,
          value,
          checked: { local: iso, type: 'string | undefined' },
          check: (operand) => code`(${iso} = ${helper('normalizeDate')}(${given(operand)})) !== undefined`,
          stored: code`{ S: ${iso}! }`,
          segment: required ? { text: code`${iso}!`, alwaysText: true } : segmentOf(encoded(), false),
        };
      }
      default: {
        const storedValue = name(`${attribute.name}Stored`);
        return {
          attribute,
          value,
          checked: { local: storedValue, type: 'any' },
          check: (operand) => code`(${storedValue} = ${helper(KIND_NAMES[type])}.value(${given(operand)}))`,
          stored: code`${storedValue} as never`,
        };
      }
    }
  });
}

const segmentOf = (text: Local, alwaysText: boolean) => ({ text, local: text, alwaysText });

/**
 * The item builder's first lines: the declarations of the attributes' locals, and the one test that
 * reads and checks every attribute in declaration order, as convertItem reads and checks them (so
 * the first fault, or a getter's throw, is the one it meets), and finds names that hold a value and
 * are not declared (from the count of the given attributes).
 */
function attributeChecks(codes: readonly AttributeCode[], owner: string, attributes: string): Code[] {
  const declared = [
    ...codes.flatMap((c) => (c.value ? [code`${c.value}: any`] : [])),
    ...codes.flatMap((c) => (c.checked ? [code`${c.checked.local}: ${c.checked.type}`] : [])),
  ];
  // An optional attribute: read, then checked where it holds a value.
  const checks = codes.map(({ attribute, value, check }) => (attribute.required
    ? check(value ? code`${value} = ${readOf(attribute.name)}` : '')
    : code`((${value!} = ${readOf(attribute.name)}) === undefined || ${check(value!)})`));
  const requiredCount = String(codes.filter((c) => c.attribute.required).length);
  const given = join([requiredCount, ...codes.filter((c) => !c.attribute.required).map((c) => code`+(${c.value!} !== undefined)`)], ' + ');
  const valid = join([...checks, code`${helper('declaredOnly')}(item, ${attributes}Names, ${given})`], ' && ');
  return [
    code`if (typeof item != "object" || !item) ${helper('attributeFault')}(${owner}, item, ${attributes});`,
    code`let ${join(declared, ', ')};`,
    code`if (!(${valid})) ${helper('attributeFault')}(${owner}, item, ${attributes});`,
  ];
}

/** The encoded segment of each attribute the keys and shards read, once each, as the runtime encodes it. */
function segmentLines(model: TableModel, entity: EntityModel, codes: ReadonlyMap<string, AttributeCode>): Code[] {
  const keyed = new Set<string>();
  for (const keys of Object.values(entity.keys)) for (const template of [keys.pk, keys.sk]) template?.attributes.forEach((n) => keyed.add(n));
  for (const index of Object.keys(entity.keys)) {
    const shards = model.indexes[index].shards;
    if (shards?.strategy === 'ATTRIBUTE') keyed.add(shards.attribute!);
  }
  return [...keyed].flatMap((name) => {
    const { attribute, value, checked, segment } = codes.get(name)!;
    if (!segment?.local) return [];
    const text = attribute.type === 'STRING' ? code`${helper('textSegment')}(${value!}, ${json(model.escapeChar)})`
      : attribute.type === 'NUMBER' ? code`${attribute.required ? '' : code`${value!} === undefined ? "" : `}${helper('numberSegment')}(${value!}) as string`
        : attribute.type === 'BOOLEAN' ? code`${value!} ? "true" : ""`
          : code`${checked!.local} ?? ""`;
    return [code`const ${segment.local} = ${text};`];
  });
}

/** A key template as written in the manifest, as errors name it. */
const sourceOf = (model: TableModel, template: KeyTemplateModel) => template.segments.map((s) => s.literal ?? `{${s.attribute}}`).join(model.delimiter);

/**
 * The item builder's keys: each joined from its attributes' encoded segments once, its size checked
 * against the smallest limit it is stored under, the table key always, an index key where every
 * segment of the slot holds text (an absent one keeps the item out of the index; an unpaired
 * surrogate is named), a sharded one with its shard. Returns the lines before the stored item, the
 * table keys' entries of it, and the index slots' lines after it.
 */
function keyLines(model: TableModel, entity: EntityModel, codes: ReadonlyMap<string, AttributeCode>, owner: string, name: (base: string) => Local) {
  const segmentOfAttribute = (attribute: string) => codes.get(attribute)!.segment!;
  // A key's text, and the test that every segment it joins holds text (undefined: always).
  const joinKey = (template: KeyTemplateModel) => {
    const { texts, placeholders } = splitTemplate(template, model.delimiter);
    const pieces: Code[] = texts.flatMap((text, i) => [
      ...(text ? [json(text)] : []),
      ...(i < placeholders.length ? [segmentOfAttribute(placeholders[i].attribute!).text] : []),
    ]);
    if (pieces.length === 0) pieces.push(json(''));
    const tested = [...new Set(template.attributes)].map(segmentOfAttribute).filter((s) => !s.alwaysText).map((s) => s.text);
    return { text: join(pieces, ' + '), test: tested.length ? join(tested, ' && ') : undefined };
  };
  const fault = (template: KeyTemplateModel, key?: string) => code`${helper('keyFault')}(${owner}, ${json(sourceOf(model, template))}, ${
    json(template.attributes)}, [${join(template.attributes.map((n) => segmentOfAttribute(n).text), ', ')}]${key ? `, ${json(key)}` : ''})`;
  // Keys joined at the top level, by template source: a key of the same template is that key again.
  const joined = new Map<string, Local>();
  // The smallest limit each key's size was checked against (by its local's name): a larger one needs no check.
  const checked = new Map<string, number>();
  // A table key's check is recorded only at the top level: a check inside an index slot's block
  // may not run (the item is not in that index).
  const sizeCheck = (attribute: string, key: Local, limit: number, record = true): Code[] => {
    if ((checked.get(key.name) ?? Infinity) <= limit) return [];
    if (record) checked.set(key.name, limit);
    return [code`${helper('checkSize')}(${owner}, ${json(attribute)}, ${key}, ${limit});`];
  };

  const before: Code[] = [];
  const stored: Code[] = [];
  const table = model.indexes[TABLE_INDEX];
  const tableKeys: [string, KeyTemplateModel, number][] = [[table.partitionKey, entity.keys[TABLE_INDEX].pk, MAX_PARTITION_KEY_BYTES]];
  if (table.sortKey && entity.keys[TABLE_INDEX].sk) tableKeys.push([table.sortKey, entity.keys[TABLE_INDEX].sk, MAX_SORT_KEY_BYTES]);
  const tableKeyLocals: Local[] = [];
  for (const [attribute, template, limit] of tableKeys) {
    const source = sourceOf(model, template);
    let key = joined.get(source);
    if (!key) {
      const { text, test } = joinKey(template);
      key = name(attribute);
      before.push(test ? code`const ${key} = ${test} ? ${text} : ${fault(template, attribute)} as never;` : code`const ${key} = ${text};`);
      joined.set(source, key);
    }
    before.push(...sizeCheck(attribute, key, limit));
    tableKeyLocals.push(key);
    stored.push(code`${json(attribute)}: { S: ${key} }`);
  }

  const slots: Code[] = [];
  for (const indexName of Object.keys(entity.keys).filter((i) => i !== TABLE_INDEX)) {
    const index = model.indexes[indexName];
    const keys = entity.keys[indexName];
    const sk = index.sortKey && keys.sk ? keys.sk : undefined;
    const body: Code[] = [];
    let sortKeyLocal: Local | undefined;
    // The sort key's lines around the writes, in a block tested for its segments where it has its own.
    const withSortKey = (indent: string, writes: Code[]): Code[] => {
      if (!sk) return writes.map((w) => [indent, w]);
      const known = joined.get(sourceOf(model, sk));
      const { text, test } = joinKey(sk);
      sortKeyLocal = known ?? name(index.sortKey!);
      const all: Code[] = [
        ...(known ? [] : [code`const ${sortKeyLocal} = ${text};`]),
        ...sizeCheck(index.sortKey!, sortKeyLocal, MAX_SORT_KEY_BYTES, !known),
        ...writes,
        code`stored[${json(index.sortKey!)}] = { S: ${sortKeyLocal} };`,
      ];
      if (!test || known) return all.map((w) => [indent, w]);
      return [code`${indent}if (${test}) {`, ...all.map((w) => [`${indent}  `, w]), code`${indent}} else ${fault(sk)};`];
    };
    if (index.type === 'LSI') {
      body.push(...withSortKey('', []));
    } else {
      const pk = keys.pk;
      const known = joined.get(sourceOf(model, pk));
      const { text, test } = joinKey(pk);
      const suffix = index.shards ? code` + ${json(model.delimiter)} + ${shardOf(index.shards, indexName, tableKeyLocals, codes, owner)}` : undefined;
      // The key of a table key's template, unsharded, is that key's local (its size checked).
      const same = known !== undefined && !suffix;
      const partitionKeyLocal = same ? known : name(index.partitionKey);
      const inner: Code[] = [
        ...(same ? [] : [code`const ${partitionKeyLocal} = ${known ?? text}${suffix ?? ''};`]),
        ...sizeCheck(index.partitionKey, partitionKeyLocal, MAX_PARTITION_KEY_BYTES, !same),
      ];
      const write = code`stored[${json(index.partitionKey)}] = { S: ${partitionKeyLocal} };`;
      // The partition key of the same template as a table key, or with no test, is always there.
      if (known || !test) body.push(...inner, ...withSortKey('', [write]));
      else body.push(code`if (${test}) {`, ...inner.map((w) => ['  ', w]), ...withSortKey('  ', [write]), code`} else ${fault(pk)};`);
      // Its local names the key for the size checks of later keys only within this slot.
      if (!same) checked.delete(partitionKeyLocal.name);
    }
    if (sortKeyLocal && !joined.has(sourceOf(model, sk!))) checked.delete(sortKeyLocal.name);
    slots.push(`// ${indexName}`, ...body);
  }
  return { before, stored, slots };
}

/** The shard of an item in a write-sharded index: by its table key, or by the shard attribute's encoded value. */
function shardOf(shards: ShardModel, indexName: string, tableKeys: readonly Local[], codes: ReadonlyMap<string, AttributeCode>, owner: string): Code {
  if (shards.strategy !== 'ATTRIBUTE') return code`${helper('shardForItem')}(${tableKeys[0]}, ${tableKeys[1] ?? '""'}, ${shards.writeCount})`;
  const segment = codes.get(shards.attribute!)!.segment!;
  const byValue = code`${helper('shardForValue')}(${segment.text}, ${shards.writeCount})`;
  return segment.alwaysText ? byValue
    : code`(${segment.text} ? ${byValue} : ${helper('shardFault')}(${owner}, ${json(indexName)}, ${json(shards.attribute)}, ${segment.text}))`;
}

/**
 * The item builder of an entity's typed put, as the code of an arrow function over the item:
 * straight-line code that stores what entityItem stores for the entity's slice and throws what it
 * throws, in the same order (lib/runtime/access/build.ts). Attributes are read by their names once,
 * checked as their kinds check them (any fault: convertItem names it), each key joined from its
 * attributes' encoded segments and its size checked, index keys written where every segment of
 * the slot holds text, the stored item one object literal. Its locals are named for what they
 * hold: an attribute's value by the attribute's name, its encoded segment `<name>Segment`, a date
 * as stored `<name>Iso`, another kind's stored value `<name>Stored`, a key by its key attribute.
 * `owner` is the constant the builder is the `item` of (it has the entity's name); `attributes`
 * the constant of the slice's attribute list.
 */
export function itemBuilder(model: TableModel, entity: EntityModel, owner: string, attributes: string): Code {
  const name = localNamer(['item', 'stored', owner, attributes, `${attributes}Names`]);
  const codes = attributeCodes(entity, name);
  const byName = new Map(codes.map((c) => [c.attribute.name, c]));
  const keys = keyLines(model, entity, byName, owner, name);
  const stored = [
    ...codes.filter((c) => c.attribute.required).map((c) => code`${json(c.attribute.name)}: ${c.stored}`),
    ...keys.stored,
    `${json(model.typeAttribute)}: { S: ${json(entity.typeValue)} }`,
  ];
  const optional = codes.filter((c) => !c.attribute.required).map((c) => code`if (${c.value!} !== undefined) stored[${json(c.attribute.name)}] = ${c.stored};`);
  const lines: Code[] = [
    ...attributeChecks(codes, owner, attributes),
    ...segmentLines(model, entity, byName),
    ...keys.before,
    code`const stored: ReturnType<${helperType('ItemPut')}["item"]> = { ${join(stored, ', ')} };`,
    ...optional,
    ...keys.slots,
    'return stored;',
  ];
  return join(['(item: any) => {', ...lines.map((line) => ['  ', line]), '}'], '\n');
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

/** The manifest's type, as the module's declarations name it. */
const MANIFEST = 'Manifest';
/** The table the module's functions take. */
const tableType = (manifest: string): Code => code`${runtimeType('Table')}<${manifest}>`;

/** A function's first statement: the table's model is this module's (MANIFEST_MISMATCH otherwise), before it reads or sends anything. */
const checkTable = (): Code => code`  ${helper('checkModuleTable')}(table, FINGERPRINT);`;

/** What the declarations of one model's module share: its key templates as parts, attribute lists, index slots and requests. */
interface ModuleParts {
  readonly model: TableModel;
  /** A template as its literal text around one encoder per placeholder (TemplateParts), shared where written more than once. */
  readonly partsOf: (template: KeyTemplateModel) => Code;
  /** The entity's attributes (those named, or all) as the slots that check their kinds. */
  readonly kindsOf: (entity: EntityModel, names?: readonly string[]) => Code;
  /** The constant of each index patterns query, by index name. */
  readonly slotNames: ReadonlyMap<string, string>;
  /** Whether the queries of each index read its sort key, by index name. */
  readonly slotSortKeys: ReadonlyMap<string, boolean>;
  /** The request of each one-partition pattern, by pattern name, and the shapes two or more share. */
  readonly requests: QueryRequests;
}

function moduleParts(model: TableModel): ModuleParts {
  // A template written more than once (a key on several slots, a pattern's partition key) is one
  // constant: a bundle holds its parts once, and a put composes them from the same array.
  const partsOf = (template: KeyTemplateModel) => {
    const { texts, placeholders } = splitTemplate(template, model.delimiter);
    const parts = placeholders.flatMap((p, i) => [json(texts[i]), json(p.attribute), helper(SEGMENT_ENCODERS[p.kind!]!)]);
    const key = JSON.stringify([texts, placeholders.map((p) => [p.attribute, p.kind])]);
    return shared('parts', key, code`[${join([...parts, json(texts[placeholders.length])], ', ')}]`);
  };
  const kindsOf = (entity: EntityModel, names?: readonly string[]) => code`[${join(Object.values(entity.attributes).filter((a) => !names || names.includes(a.name))
    .map((a) => code`[${json(a.name)}, ${helper(KIND_NAMES[a.type])}${a.required ? '' : ', true'}]`), ', ')}]`;
  // The indexes patterns query, each written once (name, type, keys, the shards a fan-out reads).
  // One partition reads the sort key for a sort-key condition only; a fan-out merges by it.
  const slotSortKeys = new Map<string, boolean>();
  for (const pattern of Object.values(model.patterns)) {
    const reads = readsThroughSlice(model, pattern) || pattern.sortKeyCondition !== 'NONE';
    slotSortKeys.set(pattern.index, (slotSortKeys.get(pattern.index) ?? false) || reads);
  }
  const slotName = localNamer([]);
  const slotNames = new Map([...slotSortKeys.keys()].map((name) => [name, slotName(`${name}Slot`).name]));
  return { model, partsOf, kindsOf, slotNames, slotSortKeys, requests: queryRequests(model) };
}

/** The requests of one-partition patterns, and how a pattern's is written. */
interface QueryRequests {
  /** Each shape two or more patterns share: its constant, parameters and text. */
  readonly shapes: readonly { readonly constant: string; readonly params: readonly string[]; readonly text: string }[];
  /** The request of a pattern: a call of its shape's constant with its values, or its own literal. */
  readonly requestOf: (pattern: string) => string;
}

/**
 * The requests of one-partition patterns: a shape that two or more share is one function of the
 * values that differ (a bundle holds its literal once); a shape of one pattern stays inline.
 */
function queryRequests(model: TableModel): QueryRequests {
  const requests = new Map<string, QueryRequestCode>();
  const uses = new Map<string, { params: string[]; count: number }>();
  for (const pattern of Object.values(model.patterns)) {
    if (readsThroughSlice(model, pattern)) continue;
    const request = queryRequest(model, pattern, typeFilterOf(model, pattern));
    requests.set(pattern.name, request);
    uses.set(request.shape, { params: request.params, count: (uses.get(request.shape)?.count ?? 0) + 1 });
  }
  const shapes = [...uses].filter(([, use]) => use.count > 1).map(([text, { params }], i) => ({ constant: `request${i + 1}`, params, text }));
  const constants = new Map(shapes.map((s) => [s.text, s.constant]));
  return {
    shapes,
    requestOf: (pattern) => {
      const request = requests.get(pattern)!;
      const constant = constants.get(request.shape);
      return constant ? `/* @__PURE__ */ ${constant}(${request.args.join(', ')})` : request.inline;
    },
  };
}

/** The attributes of an entity's item builder, and the list of their names it checks the item's against. */
function entityAttributesDeclaration(parts: ModuleParts, entity: EntityModel): Declaration {
  return {
    doc: `${entity.name}'s attributes as its item builder checks them.`,
    code: [
      code`const ${entity.name}Attributes: readonly ${helperType('AttributeSlot')}[] = ${parts.kindsOf(entity)};\n`,
      `const ${entity.name}AttributesNames = /* @__PURE__ */ ${entity.name}Attributes.map((attribute) => attribute[0]);`,
    ],
  };
}

/** What the put of an entity reads: its name, table key attributes and item builder. */
function entityPutDeclaration(model: TableModel, entity: EntityModel): Declaration {
  const name = entity.name;
  const tableKeys = entity.keys[TABLE_INDEX];
  return {
    doc: `What the put of ${name} reads: its item builder stores what the runtime's \`putItem\` stores, with the same errors (\`itemPutRequest\` builds its request without sending it).`,
    code: [
      code`export const ${name}Put: ${helperType('ItemPut')} = {\n`,
      `  name: ${json(name)},\n`,
      `  partitionKey: ${json(model.indexes[TABLE_INDEX].partitionKey)},\n`,
      `  keys: ${json([...new Set([...tableKeys.pk.attributes, ...tableKeys.sk?.attributes ?? []])])},\n`,
      code`  item: ${indented(itemBuilder(model, entity, `${name}Put`, `${name}Attributes`))},\n`,
      '};',
    ],
  };
}

/** What the get of an entity reads: the table key only, its slice the key attributes and the table slot. */
function entityKeyDeclaration(parts: ModuleParts, entity: EntityModel): Declaration {
  const { model, partsOf } = parts;
  const { pk, sk } = entity.keys[TABLE_INDEX];
  const table = model.indexes[TABLE_INDEX];
  const slot = [code`pk: [${json(table.partitionKey)}, ${partsOf(pk)}]`, ...table.sortKey && sk ? [code`sk: [${json(table.sortKey)}, ${partsOf(sk)}]`] : []];
  return {
    doc: `What the get of ${entity.name} reads: its key attributes and table key.`,
    code: [
      code`const ${entity.name}Key: ${helperType('EntityAccess')} = {\n`,
      `  name: ${json(entity.name)},\n`,
      `  typeValue: ${json(entity.typeValue)},\n`,
      code`  attributes: ${parts.kindsOf(entity, [...pk.attributes, ...sk?.attributes ?? []])},\n`,
      code`  slots: [{ ${join(slot, ', ')} }],\n`,
      '};',
    ],
  };
}

/** An index as its patterns' queries read it: name, type, partition key, the sort key where read, the shards a fan-out reads. */
function indexSlotDeclaration(parts: ModuleParts, indexName: string): Declaration {
  const index = parts.model.indexes[indexName];
  const sortKey = index.sortKey && parts.slotSortKeys.get(indexName) ? `, sortKey: ${json(index.sortKey)}` : '';
  // The fan-out and the key size check read these of the shards.
  const shards = index.shards ? code`, shards: ${json(pickShards(index.shards))} as ${helperType('ShardModel')}` : '';
  return {
    doc: `The ${index.type === 'TABLE' ? 'table' : `index ${indexName}`} as its patterns' queries read it.`,
    code: code`const ${parts.slotNames.get(indexName)!}: ${helperType('IndexSlot')} = { name: ${json(index.name)}, type: ${json(index.type)} as ${
      helperType('IndexType')}, partitionKey: ${json(index.partitionKey)}${sortKey}${shards} };`,
  };
}

/** The Query request of one-partition patterns of one shape, as a function of what differs between them. */
function requestShapeDeclaration(shape: QueryRequests['shapes'][number]): Declaration {
  return {
    doc: 'The Query request of the one-partition patterns of one shape (their `request`), from what differs between them.',
    code: code`const ${shape.constant} = (${shape.params.map((p) => `${p}: string`).join(', ')}): ${helperType('PatternAccess')}["request"] => ${shape.text};`,
  };
}

/** The key condition of a pattern with a composed partition key, as the runtime's condition builders make it. */
function patternCondition(parts: ModuleParts, pattern: PatternModel): Code {
  if (pattern.sortKeyCondition === 'NONE') {
    return code`/* @__PURE__ */ ${helper('partitionCondition')}(${parts.partsOf(pattern.pk!)}${pattern.sk ? `, ${json(pattern.sk.source)}` : ''})`;
  }
  const args: Code[] = [json(pattern.sortKeyCondition), parts.partsOf(pattern.pk!)];
  if (pattern.sk || pattern.skCoverage) args.push(pattern.sk ? parts.partsOf(pattern.sk) : 'undefined');
  if (pattern.skCoverage) args.push(json(pattern.skCoverage));
  return code`/* @__PURE__ */ ${helper('sortKeyCondition')}(${join(args, ', ')})`;
}

/** What the query of a pattern with a composed partition key reads: its slot and condition, and its request or slice reader. */
function patternDeclaration(parts: ModuleParts, pattern: PatternModel): Declaration {
  const { model } = parts;
  const name = pattern.name;
  const slice = readsThroughSlice(model, pattern);
  const typeFilter = typeFilterOf(model, pattern);
  const types = `{ ${pattern.entities.map((e) => `${json(model.entities[e].typeValue)}: ${json(e)}`).join(', ')} }`;
  const description = pattern.description ? `: ${pattern.description.replace(/\*\//g, '* /')}` : '';
  return {
    doc: `What the query of ${name} reads of the model${slice ? '' : ' (`patternRequest` builds its request without sending it)'}${description}.`,
    code: join([
      code`export const ${name}Pattern: ${helperType(slice ? 'SlicedPatternAccess' : 'PatternAccess')} = {`,
      `  name: ${json(name)},`,
      // The runtime's defaults (ascending, eventually consistent) go without saying.
      ...(pattern.order === 'DESCENDING' ? [code`  order: ${json(pattern.order)} as ${runtimeType('SortOrder')},`] : []),
      ...(pattern.consistentRead ? ['  consistentRead: true,'] : []),
      `  slot: ${parts.slotNames.get(pattern.index)!},`,
      code`  condition: ${patternCondition(parts, pattern)},`,
      ...(slice ? [
        ...(typeFilter ? [`  typeFilter: ${json(typeFilter)},`] : []),
        code`  read: /* @__PURE__ */ ${helper('sliceReader')}(${modelSlice(model, pattern, parts.partsOf)}),`,
      ] : [
        `  types: ${types},`,
        `  request: ${parts.requests.requestOf(name)},`,
        ...(pattern.sortKeyCondition !== 'NONE' ? [code`  withSortKey: ${helper('sortKeyRequest')},`] : []),
      ]),
      '};',
    ], '\n'),
  };
}

/** The records the functions look names up in: what each entity's put and get, and each pattern's query, read. */
function lookupDeclarations(model: TableModel, patterns: readonly PatternModel[], attributeKeyed: readonly string[]): Declaration[] {
  const entities = Object.values(model.entities);
  const maintained = entities.some((e) => putByRuntime(model, e));
  const record = (items: string[]) => `{ ${items.join(', ')} }`;
  return [
    {
      doc: maintained ? 'What the put of each entity reads, by entity name (none for those the runtime\'s putItem writes).' : 'What the put of each entity reads, by entity name.',
      code: `const puts = ${record(entities.map((e) => `${json(e.name)}: ${putByRuntime(model, e) ? 'undefined' : `${e.name}Put`}`))};`,
    },
    { doc: 'What the get of each entity reads, by entity name.', code: `const keys = ${record(entities.map((e) => `${json(e.name)}: ${e.name}Key`))};` },
    ...patterns.length ? [{
      doc: attributeKeyed.length ? 'What the query of each access pattern reads, by pattern name (none for those the runtime\'s query runs).'
        : 'What the query of each access pattern reads, by pattern name.',
      code: `const patterns = ${record([...patterns.map((p) => `${json(p.name)}: ${p.name}Pattern`), ...attributeKeyed.map((name) => `${json(name)}: undefined`)])};`,
    }] : [],
  ];
}

/** The module's putItem: an entity's put with its item builder, or the runtime's for an entity whose attributes it maintains. */
function putItemDeclaration(model: TableModel): Declaration {
  const maintained = Object.values(model.entities).some((e) => putByRuntime(model, e));
  const put = code`${helper('putWith')}(table, put, item, options as never${model.localIndexesEnabled ? code`, ${helper('collectionsOf')}` : ''})`;
  const itemOf = code`${runtimeType('ItemOf')}<${MANIFEST}, E>`;
  return {
    doc: [
      'Writes a whole item: `mode` `upsert` (default), `create` (fails if it exists) or `replace` (fails if it does not), and',
      'a `condition` made with `where`; UNKNOWN_ENTITY when the manifest declares no entity so named.',
      ...maintained ? ['Entities with a version, timestamps or unique values are written by the runtime\'s putItem, which keeps them (open the table with `maintainedWrites`);',
        'so are those on a sharded multi-attribute index, whose shard it writes.'] : [],
    ],
    code: join([
      code`export async function putItem<E extends ${runtimeType('EntityName')}<${MANIFEST}>>(table: ${tableType(MANIFEST)}, entity: E, item: ${itemOf}, options?: ${
        runtimeType('PutItemOptions')}<${itemOf}>): Promise<void> {`,
      checkTable(),
      code`  const put = ${helper('named')}("entity", puts, entity);`,
      maintained ? code`  return put ? ${put} : ${runtimeValue('putItem', 'runtimePutItem')}(table, entity, item, options);` : code`  return ${put};`,
      '}',
    ], '\n'),
  };
}

/** The module's getItem: the entity's key slice, read by the runtime's get of an entity. */
function getItemDeclaration(): Declaration {
  return {
    doc: 'Reads one item by its table key; undefined when there is none; UNKNOWN_ENTITY when the manifest declares no entity so named.',
    code: join([
      code`export async function getItem<E extends ${runtimeType('EntityName')}<${MANIFEST}>>(table: ${tableType(MANIFEST)}, entity: E, key: ${
        runtimeType('KeyOf')}<${MANIFEST}, E>, options?: ${runtimeType('GetItemOptions')}): Promise<${runtimeType('ResultItemOf')}<${MANIFEST}, E> | undefined> {`,
      checkTable(),
      code`  return ${helper('getEntity')}(table, ${helper('named')}("entity", keys, entity), key, options) as never;`,
      '}',
    ], '\n'),
  };
}

/**
 * The module's query: a pattern's own access, read by its request (queryPattern) or its slice
 * (readPattern); a pattern without a composed key by the runtime's query over the whole model.
 */
function queryDeclaration(model: TableModel, patterns: readonly PatternModel[], attributeKeyed: readonly string[]): Declaration {
  const sliced = patterns.filter((p) => readsThroughSlice(model, p)).length;
  // A sliced pattern's access has the slice reader; a one-partition pattern's has its request.
  const read = sliced === 0 ? helper('queryPattern') : sliced === patterns.length ? helper('readPattern')
    : code`((table: any, access: any, input: any, options: any) => ("read" in access ? ${helper('readPattern')} : ${helper('queryPattern')})(table, access, input, options))`;
  const entitiesOf = code`${runtimeType('PatternEntities')}<${MANIFEST}, P>`;
  const runtimeQuery = code`${runtimeValue('query', 'runtimeQuery')}(table, pattern, input, options) as never;`;
  return {
    doc: [
      'Runs an access pattern: `await` it for one page of typed results (and a cursor when there may be more),',
      'or iterate it with `for await` for every page; UNKNOWN_PATTERN when the manifest declares no pattern so named.',
    ],
    code: join([
      code`export function query<P extends ${runtimeType('PatternName')}<${MANIFEST}>, A extends ${runtimeType('AttributeNameOf')}<${MANIFEST}, ${entitiesOf}> = never>(`,
      code`  table: ${tableType(MANIFEST)}, pattern: P, input: ${runtimeType('PatternInput')}<${MANIFEST}, P>, options?: ${runtimeType('QueryOptions')}<${MANIFEST}, P, A>,`,
      code`): ${runtimeType('Paged')}<${runtimeType('SelectedItem')}<${MANIFEST}, ${entitiesOf}, A>> {`,
      checkTable(),
      ...!patterns.length ? [code`  return ${runtimeQuery}`] : [
        ...attributeKeyed.length ? [code`  if (pattern in patterns && !(patterns as Record<string, unknown>)[pattern]) return ${runtimeQuery}`] : [],
        code`  return ${helper('pagedQuery')}(table, () => ${helper('named')}("pattern", patterns, pattern)${attributeKeyed.length ? '!' : ''}, input as never, options as never, ${read}) as never;`,
      ],
      '}',
    ], '\n'),
  };
}

/** The module's first declarations: the manifest's type, the fingerprint, and openTable over the model's table-wide facts. */
function headDeclarations(model: TableModel): Declaration[] {
  return [
    { code: `type ${MANIFEST} = typeof manifest;` },
    {
      doc: [
        'The fingerprint of the manifest this module was generated from: the table\'s model is checked against it when the table',
        'is opened, and by each function of this module before it reads the table (MANIFEST_MISMATCH).',
      ],
      code: `export const FINGERPRINT = ${json(model.fingerprint)};`,
    },
    {
      doc: [
        'Opens the table (once, outside the handler), as the runtime\'s `openTable` does: the table name (TABLE_NAME, or',
        '`tableName`), the SDK client, and the check that the stack deployed the same manifest (SINGLE_TABLE_FINGERPRINT).',
        'This module\'s functions read their own parts of the model; the runtime\'s operations it re-exports (updateItem,',
        'scan, ...) read the whole model the stack deployed (SINGLE_TABLE_MODEL), or `model`, when they first need it.',
      ],
      code: join([
        code`export function openTable<T extends ${MANIFEST} = ${MANIFEST}>(options?: ${runtimeType('OpenTableOptions')}): ${tableType('T')} {`,
        code`  return ${helper('openAccess')}<T>({ fingerprint: FINGERPRINT, delimiter: ${json(model.delimiter)}, escapeChar: ${json(model.escapeChar)}, typeAttribute: ${
          json(model.typeAttribute)}, keyAttributes: ${json(writtenKeyAttributes(model))}${model.localIndexesEnabled ? ', localIndexesEnabled: true' : ''} }, options);`,
        '}',
      ], '\n'),
    },
  ];
}

/** The type-only import of the manifest: a JSON manifest is its default export (its types are not literal: names and items are loosely typed). */
function manifestImport(options: AccessModuleOptions): string {
  const from = json(specifier(options.file, options.manifestFile));
  return options.manifestFile.endsWith('.json') ? `import type manifest from ${from};` : `import type { manifest } from ${from};`;
}

/** The TypeScript text of the access module of a model. */
export function accessModule(model: TableModel, options: AccessModuleOptions): string {
  const parts = moduleParts(model);
  const entities = Object.values(model.entities);
  // A pattern on a GSI keyed on the items' own attributes has no key to compose: the runtime's query
  // serves it, over the whole model (loaded when the table first needs it).
  const patterns = Object.values(model.patterns).filter((p) => p.pk);
  const attributeKeyed = Object.values(model.patterns).filter((p) => !p.pk).map((p) => p.name);
  const body: Declaration[] = [
    // A version, timestamps or unique values: the runtime's putItem keeps them (or refuses, for unique values), with openTable's maintainedWrites.
    ...entities.flatMap((entity) => [
      ...putByRuntime(model, entity) ? [] : [entityAttributesDeclaration(parts, entity), entityPutDeclaration(model, entity)],
      entityKeyDeclaration(parts, entity),
    ]),
    ...[...parts.slotNames.keys()].map((indexName) => indexSlotDeclaration(parts, indexName)),
    ...parts.requests.shapes.map(requestShapeDeclaration),
    ...patterns.map((pattern) => patternDeclaration(parts, pattern)),
    ...lookupDeclarations(model, patterns, attributeKeyed),
    putItemDeclaration(model),
    getItemDeclaration(),
    ...patterns.length || attributeKeyed.length ? [queryDeclaration(model, patterns, attributeKeyed)] : [],
  ];
  return printModule({
    header: [
      `// Generated by \`single-table generate --access\` from ${basename(options.manifestFile)} (manifest ${model.fingerprint}). Do not edit:`,
      '// regenerate after every change of the manifest (`single-table check` and `generate --check` report a stale file).',
      '// The functions of `cdk-single-table/runtime` with the same arguments, each entity\'s and pattern\'s part of the model',
      '// as data, so a bundle carries the parts and the code of the functions a handler calls.',
      '/* eslint-disable */',
    ],
    runtime: options.runtime ?? 'cdk-single-table/runtime',
    imports: [manifestImport(options)],
    // Every name of the runtime, so a handler moves between the module and the runtime by its import line.
    reexportsRuntime: true,
    head: headDeclarations(model),
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
