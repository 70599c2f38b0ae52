// The key condition of an access pattern from its input. Sort-key bounds are built from
// template prefixes: an incomplete prefix ends at a delimiter, so it never matches a longer value
// (`TENANT#a#` is not a prefix of `TENANT#ab#...`), and range conditions are closed by the
// template's leading literal segments, so `AMOUNT#` >= ... never reaches another entity's keys.
// A pattern over several entities composes the prefix their sort keys share (resolve.ts), so a
// parent `X#a` and its children `X#a#CHILD#...` come back from one query.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { compareUtf8 } from './fanout-order';
import { mustBe, stringSegment } from '../../keys/encoding';
import { composeParts, composePrefix, TemplateParts, templateParts } from '../../keys/template';
import { KeyTemplateModel, PatternModel, SortKeyCoverage, TableModel } from '../../model/model';
import { keyError } from '../attributes/item-keys';
import { valuesText } from '../attributes/values';
import { SingleTableError } from '../table/errors';


/** One comparison of a key attribute in a query of a multi-attribute GSI. */
export interface AttributeComparison {
  readonly attribute: string;
  /** `=`, `<`, `<=`, `>`, `>=`, `begins_with`, or `BETWEEN` (with two values). */
  readonly operator: string;
  readonly values: readonly AttributeValue[];
}

/** The partition key value and the sort-key condition of one query. */
export interface KeyCondition {
  /** Partition key value before any shard suffix ('' on a multi-attribute GSI, whose condition is `attributes`). */
  readonly pk: string;
  /** Sort-key condition with `#sk`, `:lo`, `:hi` placeholders; undefined when there is none. */
  readonly sk?: { readonly expression: string; readonly lo?: string; readonly hi?: string };
  /** For `<` with a literal floor: drop results whose sort key equals this (BETWEEN is inclusive). */
  readonly excludeEqual?: string;
  /** On a multi-attribute GSI: every comparison, in key order. @default - a composed key condition */
  readonly attributes?: readonly AttributeComparison[];
}

type Input = Readonly<Record<string, unknown>>;

/** What the key condition reads of a pattern (its keys' templates as parts are its PatternKeys). */
export type KeyedPattern = InputPattern & Pick<PatternModel, 'skCoverage'>;

/** Throws INVALID_QUERY_INPUT unless the input is an object naming only attributes the pattern's key condition uses. */
export function checkInput(pattern: InputPattern, input: Input): void {
  const condition = pattern.sortKeyCondition;
  checkNames(pattern, input, (name) =>
    pattern.pk.attributes.includes(name) || (name === 'between' ? condition === 'BETWEEN' : condition !== 'NONE' && condition !== 'BETWEEN' && !!pattern.sk?.attributes.includes(name)));
}

/** What checkInput reads of a pattern. */
export type InputPattern = Pick<PatternModel, 'name' | 'sortKeyCondition'> & {
  readonly pk: Pick<KeyTemplateModel, 'source' | 'attributes'>;
  readonly sk?: Pick<KeyTemplateModel, 'source' | 'attributes'>;
};

/** What checkNames reads of a pattern: the key templates' sources its message names. */
export type NamedPattern = Pick<PatternModel, 'name' | 'sortKeyCondition'> & {
  readonly pk: Pick<KeyTemplateModel, 'source'>;
  readonly sk?: Pick<KeyTemplateModel, 'source'>;
};

/** checkInput with the names a pattern uses given as `used` (a pattern that knows them needs none of the generic rule). */
export function checkNames(pattern: NamedPattern, input: Input, used: (name: string) => boolean): void {
  if (typeof input !== 'object' || input === null) throw invalid(pattern, 'the input ' + mustBe('an object', input));
  for (const name in input) {
    if (!used(name)) {
      throw invalid(pattern, `input '${name}' is not used by this pattern (partition key ${pattern.pk.source}${
        pattern.sk ? `, sort key ${pattern.sk.source}, condition ${pattern.sortKeyCondition}` : ''})`, name);
    }
  }
}

/** INVALID_QUERY_INPUT of a pattern (and the input attribute at fault). */
function invalid(pattern: Pick<PatternModel, 'name'>, message: string, attribute?: string): SingleTableError {
  return new SingleTableError('INVALID_QUERY_INPUT', message, { pattern: pattern.name, attribute });
}

/**
 * A template of one string attribute (`ORDER#{status}`, the usual partition key) given an input of
 * that attribute alone, as non-empty text with nothing to escape, is the text between the literals:
 * the key composeParts gives, without the name check's and the general composition's detours.
 * Undefined for any other template or input, which then takes the checked path that names what is
 * wrong (reading the value again: a getter with effects, unlike plain data, can tell the two apart).
 */
export function plainKey(parts: TemplateParts, input: unknown, escapeChar: string): string | undefined {
  if (parts.length !== 4 || parts[2] !== stringSegment || typeof input !== 'object' || !input) return undefined;
  const only = parts[1] as string;
  // Names first, then the value, as the checked path reads them.
  for (const k in input) if (k !== only) return undefined;
  const v = (input as Input)[only];
  // An escaped value is a new string; one that cannot be a key is an error object.
  return v && stringSegment(v, escapeChar) === v ? parts[0] as string + v + (parts[3] as string) : undefined;
}

/** Builds the key condition; throws INVALID_QUERY_INPUT / MISSING_ATTRIBUTE / INVALID_VALUE. */
export function keyConditionFor(model: Pick<TableModel, 'delimiter' | 'escapeChar'>, pattern: KeyedPattern, input: Input, keys: PatternKeys): KeyCondition {
  if (pattern.sortKeyCondition === 'NONE' || !pattern.sk) {
    const plain = plainKey(keys.pk, input, model.escapeChar);
    if (plain !== undefined) return { pk: plain };
  }
  checkInput(pattern, input);
  const condition = pattern.sortKeyCondition;
  const pk = composeParts(keys.pk, input, model.escapeChar);
  if (typeof pk !== 'string') throw keyError({ pattern: pattern.name }, pk, `is needed for the partition key ${pattern.pk.source}`);
  if (condition === 'NONE' || !pattern.sk) return { pk };

  const sk = pattern.sk;
  const floor = keys.floor;
  const group = (p: { prefix: string; complete: boolean }) => groupOf(p, pattern.skCoverage, model.delimiter);
  if (condition === 'EQUALS') {
    const full = composeParts(keys.sk!, input, model.escapeChar);
    if (typeof full !== 'string') throw keyError({ pattern: pattern.name }, full, `is needed for the sort key ${sk.source}`);
    return groupCondition(pk, group({ prefix: full, complete: true }));
  }
  if (condition === 'BEGINS_WITH') {
    const p = prefixOf(model, pattern, keys, input, input);
    return p.prefix ? groupCondition(pk, group(p)) : { pk };
  }
  // Above every key of the entity (with no floor, that side of the comparison stays open).
  const ceiling = floor && above(floor);
  if (condition === 'BETWEEN') {
    const between = input.between;
    if (!Array.isArray(between) || between.length !== 2) {
      throw invalid(pattern, 'BETWEEN needs `between: [low, high]`, each with leading sort-key attributes (an empty object leaves that side open)');
    }
    const low = prefixOf(model, pattern, keys, between[0] ?? {});
    const high = prefixOf(model, pattern, keys, between[1] ?? {});
    const lo = low.prefix ? group(low).lo : floor;
    const hi = high.prefix ? group(high).hi : ceiling;
    // DynamoDB answers an inverted BETWEEN with a ValidationException; say so before sending,
    // with the values as given (their key encoding means nothing to the caller).
    if (lo && hi && compareUtf8(lo, hi) > 0) {
      throw invalid(pattern, `the low bound ${boundText(between[0], low.used)} is above the high bound ${boundText(between[1], high.used)} in ${sk.source}; swap the bounds`);
    }
    return range(pk, lo, hi);
  }
  const p = prefixOf(model, pattern, keys, input, input);
  // No sort-key attribute: the comparison is open, every key of the entity (as without a floor);
  // a template of literals only has one key (and, on a collection, the keys under it).
  if (p.used.length === 0) {
    if (!p.complete) return range(pk, floor, ceiling);
    const g = group(p);
    return range(pk, g.lo, g.hi);
  }
  // An incomplete prefix stands for the whole group of keys that start with it. No key equals
  // above(prefix) or a complete prefix + U+0000 (both would need an unescaped character in a value).
  const g = group(p);
  switch (condition) {
    case 'GREATER_THAN_OR_EQUAL': return range(pk, g.lo, ceiling);
    case 'GREATER_THAN': return range(pk, g.exact ? g.lo + '\u0000' : g.hi, ceiling);
    case 'LESS_THAN_OR_EQUAL': return range(pk, floor, g.hi);
    default: // LESS_THAN
      return floor ? { ...range(pk, floor, g.lo), excludeEqual: g.lo } : { pk, sk: { expression: '#sk < :hi', hi: g.lo } };
  }
}

/**
 * The stored sort keys a composed prefix stands for, as inclusive bounds: one key (`exact`), or a
 * group. An incomplete prefix (ending at a delimiter) stands for every key that starts with it. On
 * a collection (several entities sharing the prefix) a complete prefix stands for the keys under
 * it (prefix + delimiter + ...) and, where some entity's key ends there, for the key itself: a
 * parent and its children.
 */
interface SortKeyGroup {
  readonly lo: string;
  readonly hi: string;
  readonly exact: boolean;
}

function groupOf(p: { prefix: string; complete: boolean }, coverage: SortKeyCoverage | undefined, delimiter: string): SortKeyGroup {
  if (!p.complete) return { lo: p.prefix, hi: above(p.prefix), exact: false };
  if (coverage === undefined || coverage === SortKeyCoverage.KEY) return { lo: p.prefix, hi: p.prefix, exact: true };
  const below = p.prefix + delimiter;
  return { lo: coverage === SortKeyCoverage.BELOW ? below : p.prefix, hi: above(below), exact: false };
}

/** The condition that selects exactly a group: `=` for one key, begins_with for the keys under a prefix, else a range. */
function groupCondition(pk: string, g: SortKeyGroup): KeyCondition {
  if (g.exact) return { pk, sk: { expression: '#sk = :lo', lo: g.lo } };
  if (g.hi === above(g.lo)) return { pk, sk: { expression: 'begins_with(#sk, :lo)', lo: g.lo } };
  return range(pk, g.lo, g.hi);
}

/** A sort-key bound as the caller wrote it: `(price: 100)`. */
function boundText(values: Input, used: readonly string[]): string {
  return used.length === 0 ? '(open)' : valuesText(values, used);
}

/** A pattern's key templates as their parts (TemplateParts), and its sort key's literal floor. */
export interface PatternKeys {
  readonly pk: TemplateParts;
  readonly sk?: TemplateParts;
  readonly floor: string;
}

/**
 * The keys of a pattern from its templates' parts. The floor is the sort key template's leading
 * literal segments with their delimiter, where every key of the entity starts: the text before its
 * first attribute, or the whole template and a delimiter where it has none.
 */
export function keysOf(pk: TemplateParts, sk: TemplateParts | undefined, delimiter: string): PatternKeys {
  return { pk, sk, floor: !sk ? '' : sk.length === 1 ? sk[0] + delimiter : sk[0] as string };
}

/** A pattern on a composed key: one with templates (not on a multi-attribute GSI). */
export type ComposedPattern = Pick<PatternModel, 'sk'> & { readonly pk: KeyTemplateModel };

const compiled = new WeakMap<object, PatternKeys>();

/** The keys of a pattern of the model, worked out once per pattern (the model is frozen). */
export function patternKeys(model: Pick<TableModel, 'delimiter'>, pattern: ComposedPattern): PatternKeys {
  let keys = compiled.get(pattern);
  if (!keys) {
    const sk = pattern.sk;
    keys = keysOf(templateParts(pattern.pk, model.delimiter), sk && templateParts(sk, model.delimiter), model.delimiter);
    compiled.set(pattern, keys);
  }
  return keys;
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

function prefixOf(model: Pick<TableModel, 'escapeChar'>, pattern: KeyedPattern, keys: PatternKeys, values: Input, input?: Input) {
  const sk = pattern.sk!;
  if (typeof values !== 'object' || values === null) throw invalid(pattern, 'a sort-key bound ' + mustBe('an object', values));
  const p = composePrefix(keys.sk!, values, model.escapeChar);
  if ('error' in p) throw keyError({ pattern: pattern.name }, p, '');
  for (const name in values) {
    if (values === input && pattern.pk.attributes.includes(name) && !sk.attributes.includes(name)) continue;
    if (!sk.attributes.includes(name)) throw invalid(pattern, `'${name}' is not in the sort key ${sk.source}`, name);
    if (values[name] !== undefined && !p.used.includes(name)) {
      throw invalid(pattern, `'${name}' is given but an attribute before it in ${sk.source} is not; a prefix uses leading attributes only`, name);
    }
  }
  return p;
}
