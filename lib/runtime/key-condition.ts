// The key condition of an access pattern from its input. Sort-key bounds are built from
// template prefixes: an incomplete prefix ends at a delimiter, so it never matches a longer value
// (`TENANT#a#` is not a prefix of `TENANT#ab#...`), and range conditions are closed by the
// template's leading literal segments, so `AMOUNT#` >= ... never reaches another entity's keys.
import { SingleTableError } from './errors';
import { compareUtf8 } from './fanout-order';
import { describe } from '../keys/encoding';
import { ComposeFailure, Composer, composerOf, composePrefix } from '../keys/template';
import type { KeyTemplateModel, PatternModel, TableModel } from '../manifest/model';


/** The partition key value and the sort-key condition of one query. */
export interface KeyCondition {
  /** Partition key value before any shard suffix. */
  readonly pk: string;
  /** Sort-key condition with `#sk`, `:lo`, `:hi` placeholders; undefined when there is none. */
  readonly sk?: { readonly expression: string; readonly lo?: string; readonly hi?: string };
  /** For `<` with a literal floor: drop results whose sort key equals this (BETWEEN is inclusive). */
  readonly excludeEqual?: string;
}

type Input = Readonly<Record<string, unknown>>;

/** Builds the key condition; throws INVALID_QUERY_INPUT / MISSING_ATTRIBUTE / INVALID_VALUE. */
export function keyConditionFor(model: TableModel, pattern: PatternModel, input: Input): KeyCondition {
  if (typeof input !== 'object' || input === null) {
    throw new SingleTableError('INVALID_QUERY_INPUT', `the input must be an object, got ${describe(input)}`, { pattern: pattern.name });
  }
  const skNames = pattern.sk?.attributes ?? [];
  const condition = pattern.sortKeyCondition;
  for (const name in input) {
    const allowed = pattern.pk.attributes.includes(name) || (name === 'between' ? condition === 'BETWEEN' : condition !== 'NONE' && condition !== 'BETWEEN' && skNames.includes(name));
    if (!allowed) {
      throw new SingleTableError('INVALID_QUERY_INPUT', `input '${name}' is not used by this pattern (partition key ${pattern.pk.source}${pattern.sk ? `, sort key ${pattern.sk.source}, condition ${condition}` : ''})`, { pattern: pattern.name, attribute: name });
    }
  }
  const keys = patternKeys(model, pattern);
  const pk = keys.pk(input);
  if (typeof pk !== 'string') throw composeError(pattern, pk, `is needed for the partition key ${pattern.pk.source}`);
  if (condition === 'NONE' || !pattern.sk) return { pk };

  const sk = pattern.sk;
  const floor = keys.floor;
  if (condition === 'EQUALS') {
    const full = keys.sk!(input);
    if (typeof full !== 'string') throw composeError(pattern, full, `is needed for the sort key ${sk.source}`);
    return { pk, sk: { expression: '#sk = :lo', lo: full } };
  }
  if (condition === 'BEGINS_WITH') {
    const p = prefixOf(model, pattern, sk, input, input);
    if (p.complete) return { pk, sk: { expression: '#sk = :lo', lo: p.prefix } };
    return p.prefix ? { pk, sk: { expression: 'begins_with(#sk, :lo)', lo: p.prefix } } : { pk };
  }
  if (condition === 'BETWEEN') {
    const between = input.between;
    if (!Array.isArray(between) || between.length !== 2) {
      throw new SingleTableError('INVALID_QUERY_INPUT', 'BETWEEN needs `between: [low, high]`, each with leading sort-key attributes (an empty object leaves that side open)', { pattern: pattern.name });
    }
    const low = prefixOf(model, pattern, sk, between[0] ?? {});
    const high = prefixOf(model, pattern, sk, between[1] ?? {});
    const lo = low.prefix || floor;
    const hi = high.prefix ? (high.complete ? high.prefix : above(high.prefix)) : floor && above(floor);
    // DynamoDB answers an inverted BETWEEN with a ValidationException; say so before sending.
    if (lo && hi && compareUtf8(lo, hi) > 0) {
      throw new SingleTableError('INVALID_QUERY_INPUT', `the low bound ${JSON.stringify(lo)} sorts after the high bound ${JSON.stringify(hi)} in ${sk.source}; swap the bounds`, { pattern: pattern.name });
    }
    return range(pk, lo, hi);
  }
  const p = prefixOf(model, pattern, sk, input, input);
  // No sort-key attribute: the comparison is open, every key of the entity (as without a floor);
  // a template of literals only has one key, the complete prefix.
  if (p.used.length === 0) return p.complete ? range(pk, p.prefix, p.prefix) : range(pk, floor, floor && above(floor));
  // An incomplete prefix stands for the whole group of keys that start with it. No key equals
  // above(prefix) or a complete prefix + U+0000 (both would need an unescaped character in a value).
  switch (condition) {
    case 'GREATER_THAN_OR_EQUAL': return range(pk, p.prefix, floor && above(floor));
    case 'GREATER_THAN': return range(pk, p.complete ? p.prefix + '\u0000' : above(p.prefix), floor && above(floor));
    case 'LESS_THAN_OR_EQUAL': return range(pk, floor, p.complete ? p.prefix : above(p.prefix));
    default: // LESS_THAN
      return floor ? { ...range(pk, floor, p.prefix), excludeEqual: p.prefix } : { pk, sk: { expression: '#sk < :hi', hi: p.prefix } };
  }
}

/** A pattern's key templates compiled once per pattern (the model is frozen), and its sort key's literal floor. */
interface PatternKeys {
  readonly pk: Composer;
  readonly sk?: Composer;
  readonly floor: string;
}

const compiled = new WeakMap<PatternModel, PatternKeys>();

function patternKeys(model: TableModel, pattern: PatternModel): PatternKeys {
  let keys = compiled.get(pattern);
  if (!keys) {
    const sk = pattern.sk;
    keys = {
      pk: composerOf(pattern.pk, model.delimiter, model.escapeChar),
      sk: sk && composerOf(sk, model.delimiter, model.escapeChar),
      floor: sk ? literalFloor(sk, model.delimiter) : '',
    };
    compiled.set(pattern, keys);
  }
  return keys;
}

function composeError(pattern: PatternModel, r: ComposeFailure, missing: string): SingleTableError {
  return 'absent' in r
    ? new SingleTableError('MISSING_ATTRIBUTE', missing, { pattern: pattern.name, attribute: r.absent })
    : new SingleTableError('INVALID_VALUE', r.error, { pattern: pattern.name, attribute: r.attribute });
}

function range(pk: string, lo: string, hi: string): KeyCondition {
  if (lo && hi) return { pk, sk: { expression: '#sk BETWEEN :lo AND :hi', lo, hi } };
  if (lo) return { pk, sk: { expression: '#sk >= :lo', lo } };
  if (hi) return { pk, sk: { expression: '#sk <= :hi', hi } };
  return { pk };
}

/**
 * The smallest string above every key that starts with `prefix` (which ends with the delimiter):
 * the delimiter swapped for the escape character, the next code point. No key holds the escape
 * character but as an escaped value's first unit (followed by a letter), and no literal holds it,
 * so no key equals the bound and no key of another group falls under it.
 */
function above(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** The template's leading literal segments with their delimiter: every key of the entity starts so. */
function literalFloor(template: KeyTemplateModel, delimiter: string): string {
  let floor = '';
  for (const seg of template.segments) {
    if (seg.literal === undefined) return floor;
    floor += seg.literal + delimiter;
  }
  return floor;
}

function prefixOf(model: TableModel, pattern: PatternModel, sk: KeyTemplateModel, values: Input, input?: Input) {
  if (typeof values !== 'object' || values === null) {
    throw new SingleTableError('INVALID_QUERY_INPUT', `a sort-key bound must be an object, got ${describe(values)}`, { pattern: pattern.name });
  }
  const p = composePrefix(sk, values, model.delimiter, model.escapeChar);
  if ('error' in p) throw new SingleTableError('INVALID_VALUE', p.error, { pattern: pattern.name, attribute: p.attribute });
  for (const name in values) {
    if (values === input && pattern.pk.attributes.includes(name) && !sk.attributes.includes(name)) continue;
    if (!sk.attributes.includes(name)) {
      throw new SingleTableError('INVALID_QUERY_INPUT', `'${name}' is not in the sort key ${sk.source}`, { pattern: pattern.name, attribute: name });
    }
    if (values[name] !== undefined && !p.used.includes(name)) {
      throw new SingleTableError('INVALID_QUERY_INPUT', `'${name}' is given but an attribute before it in ${sk.source} is not; a prefix uses leading attributes only`, { pattern: pattern.name, attribute: name });
    }
  }
  return p;
}
