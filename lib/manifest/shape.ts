// The manifest's shape, checked before anything reads it: every property has the JSON type, enum
// value, number range and name its struct declares. Python, Java and .NET users and JSON files can
// pass anything (`'false'` for a boolean, a string where a list goes, NaN); each such property gets
// one finding that names where it is, what it holds and what it takes, and resolution only runs on
// a manifest of the right shape, so no TypeError and no silent default can follow from it.
import type { DiagnosticSink } from './diagnostics';
import { describeType, describeValue, nameProblem } from './values';
import { closestName, didYouMean } from '../model/closest-name';
import { AttributeKind, ProjectionKind, ShardStrategy, SortKeyCondition, SortOrder } from '../model/manifest';

/** Largest shard count the library fans out over. */
export const MAX_SHARDS = 100;

/** DynamoDB's item size limit (400 KB): no attribute or item is larger. */
export const MAX_ITEM_BYTES = 400 * 1024;

/** Largest rate (per second) a manifest may declare; larger ones are typos, not plans. */
export const MAX_RATE_PER_SECOND = 100_000_000;

/** A property's expected shape. */
export type Shape =
  | { readonly kind: 'string'; readonly code: string; readonly name?: boolean }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'number'; readonly code: string; readonly min: number; readonly max: number; readonly integer: boolean; readonly what: string }
  | { readonly kind: 'enum'; readonly code: string; readonly values: readonly string[]; readonly enumName: string }
  | { readonly kind: 'list'; readonly code: string; readonly of: Shape }
  | {
    readonly kind: 'map';
    readonly code: string;
    readonly entry: string;
    readonly of: Shape;
    readonly nameCode?: string;
    /** What each entry's value is (default: the entry's definition), and an example of the map. */
    readonly holds?: { readonly what: string; readonly example: string };
  }
  | {
    readonly kind: 'struct';
    readonly fields: { readonly [name: string]: Field };
    /** Former or foreign names of properties, each with the fix that replaces it. */
    readonly renamed?: { readonly [name: string]: string };
  }
  /** Any value: one the reader checks itself (a construct, a Duration), for a struct to know the property. */
  | { readonly kind: 'any' };

/** A struct property: its shape and whether it must be present. */
export interface Field {
  readonly shape: Shape;
  readonly required?: boolean;
  /** The code when it is missing (default: the shape's). */
  readonly missingCode?: string;
  /** An example value for the fix when it is missing. */
  readonly example?: string;
}

/** An optional property. */
export const opt = (shape: Shape): Field => ({ shape });
const req = (shape: Shape, missingCode?: string, example?: string): Field => ({ shape, required: true, missingCode, example });
/** A string. */
export const text = (code = 'PROPERTY_TYPE_INVALID'): Shape => ({ kind: 'string', code });
/** A user name: 1-255 bytes, not `__proto__`. */
export const name = (code: string): Shape => ({ kind: 'string', code, name: true });
/** A boolean. */
export const bool: Shape = { kind: 'boolean' };
/** Any value, checked where it is read. */
export const anything: Shape = { kind: 'any' };
/** One of an enum's values. */
export const enumOf = (code: string, enumName: string, values: object): Shape => ({ kind: 'enum', code, enumName, values: Object.values(values) });
/** A whole number in a range. */
export const whole = (code: string, min: number, max: number, what: string): Shape => ({ kind: 'number', code, min, max, integer: true, what });
const amount = (code: string, min: number, max: number, what: string): Shape => ({ kind: 'number', code, min, max, integer: false, what });
const list = (of: Shape, code = 'PROPERTY_TYPE_INVALID'): Shape => ({ kind: 'list', code, of });

const SIZE = whole('SIZE_INVALID', 1, MAX_ITEM_BYTES, `a whole number of bytes from 1 to ${MAX_ITEM_BYTES} (DynamoDB's 400 KB item limit)`);
const RATE = amount('RATE_INVALID', 0, MAX_RATE_PER_SECOND, `a number from 0 to ${MAX_RATE_PER_SECOND}`);
const SHARDS = whole('SHARD_COUNT_INVALID', 1, MAX_SHARDS, `a whole number from 1 to ${MAX_SHARDS}`);

/** The largest capacity (units per second) a manifest or props may declare. */
export const MAX_CAPACITY_UNITS = 1_000_000;
/** Provisioned read or write capacity units. */
export const CAPACITY: Shape = whole('CAPACITY_INVALID', 1, MAX_CAPACITY_UNITS, `a whole number of capacity units from 1 to ${MAX_CAPACITY_UNITS}`);

const ATTRIBUTE: Shape = {
  kind: 'struct',
  fields: {
    type: req(enumOf('ATTRIBUTE_TYPE_INVALID', 'AttributeKind', AttributeKind), undefined, 'AttributeKind.STRING'),
    required: opt(bool),
    typicalSizeBytes: opt(SIZE),
    distinctValues: opt(whole('DISTINCT_VALUES_INVALID', 1, Number.MAX_SAFE_INTEGER, 'a whole number of at least 1')),
  },
};

const INDEX_KEYS: Shape = { kind: 'struct', fields: { pk: opt(text('TEMPLATE_INVALID')), sk: opt(text('TEMPLATE_INVALID')) } };

const ENTITY: Shape = {
  kind: 'struct',
  fields: {
    typeValue: opt(text()),
    attributes: req({ kind: 'map', code: 'PROPERTY_TYPE_INVALID', entry: 'attribute', of: ATTRIBUTE, nameCode: 'ATTRIBUTE_NAME_INVALID' }),
    pk: req(text('TEMPLATE_INVALID'), 'TABLE_KEY_MISSING', "pk: 'CUSTOMER#{username}'"),
    sk: req(text('TEMPLATE_INVALID'), 'TABLE_KEY_MISSING', "sk: 'ORDER#{orderId}'"),
    indexes: opt({ kind: 'map', code: 'PROPERTY_TYPE_INVALID', entry: 'index', of: INDEX_KEYS }),
    typicalItemSizeBytes: opt(SIZE),
    writesPerSecond: opt(RATE),
    maxItemsPerPartition: opt(whole('MAX_ITEMS_INVALID', 1, Number.MAX_SAFE_INTEGER, 'a whole number of at least 1')),
    version: opt({ kind: 'struct', fields: { attribute: opt(name('VERSION_ATTRIBUTE_INVALID')) } }),
    timestamps: opt({ kind: 'struct', fields: { createdAt: opt(name('TIMESTAMP_ATTRIBUTE_INVALID')), updatedAt: opt(name('TIMESTAMP_ATTRIBUTE_INVALID')) } }),
    unique: opt(list(text('UNIQUE_ATTRIBUTE_UNDECLARED'))),
    uniqueScope: opt({
      kind: 'map',
      code: 'PROPERTY_TYPE_INVALID',
      entry: 'unique attribute',
      of: text('UNIQUE_SCOPE_NOT_LEADING'),
      holds: { what: 'the attribute its values are unique within', example: "{ email: 'tenantId' }" },
    }),
    description: opt(text()),
  },
};

const PREVIOUS_STRATEGY: Shape = {
  kind: 'struct',
  fields: {
    strategy: req(enumOf('PREVIOUS_SHARD_STRATEGY_INVALID', 'ShardStrategy', ShardStrategy)),
    shardAttribute: opt(name('PREVIOUS_SHARD_STRATEGY_INVALID')),
  },
};

const SHARDING: Shape = {
  kind: 'struct',
  fields: {
    shardCount: opt(SHARDS),
    peakWritesPerSecond: opt(amount('PEAK_WRITES_INVALID', Number.MIN_VALUE, MAX_RATE_PER_SECOND, `a positive number of writes per second up to ${MAX_RATE_PER_SECOND}`)),
    strategy: opt(enumOf('SHARD_STRATEGY_INVALID', 'ShardStrategy', ShardStrategy)),
    shardAttribute: opt(name('SHARD_ATTRIBUTE_INVALID')),
    previousShardCounts: opt(list(whole('PREVIOUS_SHARD_COUNT_INVALID', 1, MAX_SHARDS, `a whole number from 1 to ${MAX_SHARDS}`))),
    previousStrategies: opt(list(PREVIOUS_STRATEGY)),
  },
};

const GLOBAL_INDEX: Shape = {
  kind: 'struct',
  fields: {
    projection: opt(enumOf('PROJECTION_INVALID', 'ProjectionKind', ProjectionKind)),
    include: opt(list(name('INCLUDE_ATTRIBUTE_INVALID'))),
    partitionAttributes: opt(list(name('KEY_ATTRIBUTE_NAME_INVALID'))),
    sortAttributes: opt(list(name('KEY_ATTRIBUTE_NAME_INVALID'))),
    partitionKeyName: opt(text('KEY_ATTRIBUTE_NAME_INVALID')),
    sortKeyName: opt(text('KEY_ATTRIBUTE_NAME_INVALID')),
    hasSortKey: opt(bool),
    sharding: opt(SHARDING),
    readCapacity: opt(CAPACITY),
    writeCapacity: opt(CAPACITY),
    description: opt(text()),
  },
};

const PATTERN: Shape = {
  kind: 'struct',
  fields: {
    entities: req(list(text('PATTERN_ENTITY_UNKNOWN')), 'PATTERN_NO_ENTITY', "['Order']"),
    index: opt(text('PATTERN_INDEX_UNKNOWN')),
    sortKeyCondition: opt(enumOf('PATTERN_CONDITION_INVALID', 'SortKeyCondition', SortKeyCondition)),
    order: opt(enumOf('PATTERN_ORDER_INVALID', 'SortOrder', SortOrder)),
    consistentRead: opt(bool),
    attributes: opt(list(text('PATTERN_ATTRIBUTE_UNDECLARED'))),
    description: opt(text()),
    readsPerSecond: opt(RATE),
  },
};

/** The whole manifest's shape. */
export const MANIFEST_SHAPE: Shape = {
  kind: 'struct',
  fields: {
    entities: req({ kind: 'map', code: 'MANIFEST_SHAPE', entry: 'entity', of: ENTITY, nameCode: 'ENTITY_NAME_INVALID' }),
    // GSI names have a stricter rule of their own (rules/names.ts).
    globalIndexes: opt({ kind: 'map', code: 'PROPERTY_TYPE_INVALID', entry: 'index', of: GLOBAL_INDEX }),
    localIndexes: opt({ kind: 'struct', fields: { enabled: opt(bool) } }),
    accessPatterns: opt({ kind: 'map', code: 'PROPERTY_TYPE_INVALID', entry: 'pattern', of: PATTERN, nameCode: 'PATTERN_NAME_INVALID' }),
    typeAttribute: opt(text('TYPE_ATTRIBUTE_INVALID')),
    delimiter: opt(text('DELIMITER_INVALID')),
  },
};

/** Where a value is: the located thing (`entity Order`) and the property path inside it. */
interface Place {
  readonly location: string;
  readonly path: string;
}

const at = (place: Place, property: string): Place => ({ location: place.location, path: place.path ? `${place.path}.${property}` : property });
const subject = (place: Place) => (place.path ? `\`${place.path}\`` : 'the definition');
const isPlainObject = (v: unknown): v is { [k: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * An object literal's prototype (of any realm: its own prototype is null), or none. Anything else
 * (a Map, a class instance, a literal with a `__proto__` key) holds entries Object.entries never sees.
 */
function hasPlainPrototype(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Checks a value against a shape, reporting one error per wrong property. Returns whether the
 * value has the shape (so the caller may read it).
 */
export function checkShape(value: unknown, shape: Shape, place: Place, sink: DiagnosticSink): boolean {
  switch (shape.kind) {
    case 'any':
      return true;
    case 'string': {
      const problem = shape.name ? nameProblem(value) : typeof value === 'string' ? undefined : `is ${describeType(value)}, not a string`;
      if (problem === undefined) return true;
      sink.error(shape.code, place.location, `${subject(place)} ${problem}`, shape.name ? 'use a declared name of 1-255 bytes' : 'write a string (in quotes)');
      return false;
    }
    case 'boolean':
      if (typeof value === 'boolean') return true;
      sink.error('PROPERTY_TYPE_INVALID', place.location, `${subject(place)} is ${describeType(value)}, not a boolean`, 'write true or false, without quotes');
      return false;
    case 'enum':
      if (typeof value === 'string' && shape.values.includes(value)) return true;
      sink.error(shape.code, place.location, `${subject(place)} is ${describeType(value)}, not ${/^[AEIOU]/.test(shape.enumName) ? 'an' : 'a'} ${shape.enumName}`,
        `${typeof value === 'string' ? didYouMean(value, shape.values) : ''}use one of ${shape.values.join(', ')}`);
      return false;
    case 'number': {
      const ok = typeof value === 'number' && Number.isFinite(value) && value >= shape.min && value <= shape.max && (!shape.integer || Number.isInteger(value));
      if (ok) return true;
      sink.error(shape.code, place.location, `${subject(place)} is ${describeType(value)}, not ${shape.what}`, `set ${subject(place)} to ${shape.what}`);
      return false;
    }
    case 'list': {
      if (!Array.isArray(value)) {
        sink.error(shape.code, place.location, `${subject(place)} is ${describeType(value)}, not a list`, `write a list, e.g. [${typeof value === 'string' ? describeValue(value) : '...'}]`);
        return false;
      }
      let ok = true;
      value.forEach((item, i) => {
        ok = checkShape(item, shape.of, { location: place.location, path: `${place.path}[${i}]` }, sink) && ok;
      });
      return ok;
    }
    case 'map': {
      if (!isPlainObject(value)) {
        const holds = shape.holds;
        sink.error(shape.code, place.location, `${subject(place)} is ${describeType(value)}, not an object ${holds ? `mapping each ${shape.entry} to ${holds.what}` : `of ${shape.entry} definitions by name`}`,
          holds ? `write an object mapping each ${shape.entry} to ${holds.what}, e.g. ${holds.example}` : `write an object mapping each ${shape.entry} name to its definition`);
        return false;
      }
      if (!hasPlainPrototype(value)) {
        sink.error(shape.code, place.location, `${subject(place)} has a prototype other than Object's, so entries can be hidden in it (an object literal with a \`__proto__\` key makes that entry the prototype)`,
          `write a plain object; a ${shape.entry} cannot be named '__proto__'`);
        return false;
      }
      let ok = true;
      for (const [key, entry] of Object.entries(value)) {
        const label = `${shape.entry} ${key === '' ? "''" : key}`;
        const location = place.location === 'manifest' ? label : `${place.location}, ${label}`;
        const problem = shape.nameCode ? nameProblem(key) : undefined;
        if (problem !== undefined) {
          sink.error(shape.nameCode!, location, `the ${shape.entry} name ${problem}`, `rename the ${shape.entry}: 1-255 bytes, not '__proto__'`);
          ok = false;
          continue;
        }
        ok = checkShape(entry, shape.of, { location, path: '' }, sink) && ok;
      }
      return ok;
    }
    case 'struct': {
      if (!isPlainObject(value)) {
        sink.error('PROPERTY_TYPE_INVALID', place.location, `${subject(place)} is ${describeType(value)}, not an object`, `write an object with ${Object.keys(shape.fields).join(', ')}`);
        return false;
      }
      let ok = true;
      const unknown = Object.keys(value).filter((field) => !Object.prototype.hasOwnProperty.call(shape.fields, field));
      // A misspelled required property is one mistake: the unknown one, with the name it meant.
      const meant = new Set(unknown.map((field) => closestName(field, Object.keys(shape.fields))));
      for (const [field, def] of Object.entries(shape.fields)) {
        const v = value[field];
        if (v === undefined) {
          if (meant.has(field)) {
            ok = false;
          } else if (def.required) {
            sink.error(def.missingCode ?? codeWhenMissing(def.shape), place.location, `${subject(at(place, field))} is missing`, def.example ? `set ${field}, e.g. ${def.example}` : `set ${field}`);
            ok = false;
          }
          continue;
        }
        ok = checkShape(v, def.shape, at(place, field), sink) && ok;
      }
      for (const field of unknown) {
        const renamed = shape.renamed && Object.hasOwn(shape.renamed, field) ? shape.renamed[field] : undefined;
        sink.error('PROPERTY_UNKNOWN', place.location, `${subject(at(place, field))} is not a property here`,
          renamed ?? `${didYouMean(field, Object.keys(shape.fields))}remove it, or use one of ${Object.keys(shape.fields).join(', ')}`);
        ok = false;
      }
      return ok;
    }
  }
}

function codeWhenMissing(shape: Shape): string {
  return shape.kind === 'map' || !('code' in shape) ? 'PROPERTY_MISSING' : shape.code;
}
