// TypeScript-only types inferred from a manifest literal: item types per entity and input types
// per access pattern, so a typo in an attribute, entity or pattern name is a compile error.
// Not part of the jsii surface (generics); exported from `cdk-single-table/runtime`.
import type { AttributeKind, SingleTableManifest, SortKeyCondition } from './structs';

/** A manifest type with every array readonly, so `const` inference can match it. */
export type ManifestLiteral<T = SingleTableManifest> = T extends readonly (infer U)[]
  ? readonly ManifestLiteral<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ManifestLiteral<T[K]> }
    : T;

/** A manifest that remembers its literal type `M` for inference; at run time the manifest itself. */
export type TypedManifest<M> = SingleTableManifest & { readonly __literal?: M };

/**
 * Declares a manifest and keeps its literal type. Pass the result to `SingleTable` (it is a
 * plain `SingleTableManifest`) and to `createClient` (which infers item and pattern types).
 */
export function defineManifest<const M extends ManifestLiteral>(manifest: M): TypedManifest<M> {
  return manifest as unknown as TypedManifest<M>;
}

/** The literal type a `TypedManifest` carries. */
export type LiteralOf<T> = T extends { readonly __literal?: infer M } ? (unknown extends M ? SingleTableManifest : NonNullable<M>) : T;

/** The TypeScript type of a value of an attribute kind. */
export type ValueOf<K> = K extends `${AttributeKind.STRING}`
  ? string
  : K extends `${AttributeKind.NUMBER}`
    ? number
    : K extends `${AttributeKind.BOOLEAN}`
      ? boolean
      : K extends `${AttributeKind.DATE}`
        ? string | Date
        : K extends `${AttributeKind.LIST}`
          ? unknown[]
          : K extends `${AttributeKind.MAP}`
            ? { [key: string]: unknown }
            : K extends `${AttributeKind.STRING_SET}`
              ? Set<string>
              : K extends `${AttributeKind.NUMBER_SET}`
                ? Set<number>
                : unknown;

type EntitiesOf<M> = LiteralOf<M> extends { readonly entities: infer E } ? E : never;
type PatternsOf<M> = LiteralOf<M> extends { readonly accessPatterns?: infer P } ? NonNullable<P> : never;

/** Entity names of a manifest. */
export type EntityName<M> = Extract<keyof EntitiesOf<M>, string>;
/** Access pattern names of a manifest. */
export type PatternName<M> = Extract<keyof PatternsOf<M>, string>;

type AttributesOf<M, E extends EntityName<M>> = EntitiesOf<M>[E] extends { readonly attributes: infer A } ? A : never;
type RequiredNames<A> = { [K in keyof A]: A[K] extends { readonly required: true } ? K : never }[keyof A];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The item type of an entity: required attributes required, the others optional. */
export type ItemOf<M, E extends EntityName<M>> = Simplify<
  { [K in Extract<RequiredNames<AttributesOf<M, E>>, string>]: ValueOf<AttributesOf<M, E>[K] extends { readonly type: infer T } ? T : never> } & {
    [K in Exclude<Extract<keyof AttributesOf<M, E>, string>, RequiredNames<AttributesOf<M, E>>>]?: ValueOf<
      AttributesOf<M, E>[K] extends { readonly type: infer T } ? T : never
    >;
  }
>;

/** The union of the item types of several entities, each tagged with its entity name. */
export type TaggedItem<M, E extends EntityName<M>> = E extends EntityName<M> ? { readonly entity: E; readonly item: ItemOf<M, E> } : never;

/** Attribute names inside `{...}` placeholders of a template literal type. */
export type Placeholders<T> = T extends `${string}{${infer N}}${infer Rest}` ? N | Placeholders<Rest> : never;

type PatternDef<M, P extends PatternName<M>> = PatternsOf<M>[P];
type PatternIndex<M, P extends PatternName<M>> = PatternDef<M, P> extends { readonly index: infer I extends string } ? I : 'table';
type FirstEntity<M, P extends PatternName<M>> = PatternDef<M, P> extends { readonly entities: readonly [infer F extends string, ...unknown[]] }
  ? Extract<F, EntityName<M>>
  : EntityName<M>;
type KeysOn<M, E extends EntityName<M>, I extends string> = I extends 'table'
  ? EntitiesOf<M>[E]
  : EntitiesOf<M>[E] extends { readonly indexes?: infer X }
    ? NonNullable<X> extends { readonly [K in I]?: infer T }
      ? T
      : never
    : never;
type PkTemplate<M, E extends EntityName<M>, I extends string> = I extends `LSI${number}`
  ? EntitiesOf<M>[E] extends { readonly pk: infer T } ? T : never
  : KeysOn<M, E, I> extends { readonly pk?: infer T } ? T : never;
type SkTemplate<M, E extends EntityName<M>, I extends string> = KeysOn<M, E, I> extends { readonly sk?: infer T } ? T : never;
type Condition<M, P extends PatternName<M>> = PatternDef<M, P> extends { readonly sortKeyCondition: infer C } ? C : `${SortKeyCondition.NONE}`;

type Values<M, E extends EntityName<M>, Names> = {
  [K in Extract<Names, string>]: K extends keyof AttributesOf<M, E>
    ? ValueOf<AttributesOf<M, E>[K] extends { readonly type: infer T } ? T : never>
    : never;
};

/** The partition key attributes a pattern's query needs. */
export type PatternKeyInput<M, P extends PatternName<M>> = Values<
  M,
  FirstEntity<M, P>,
  Placeholders<PkTemplate<M, FirstEntity<M, P>, PatternIndex<M, P>>>
>;

/** The sort key attributes of a pattern's index template (all optional: leading ones make a prefix). */
export type PatternSortInput<M, P extends PatternName<M>> = Partial<
  Values<M, FirstEntity<M, P>, Placeholders<SkTemplate<M, FirstEntity<M, P>, PatternIndex<M, P>>>>
>;

/** The input of a pattern's query: its partition key attributes, then its sort-key condition. */
export type PatternInput<M, P extends PatternName<M>> = Simplify<
  PatternKeyInput<M, P> &
    (Condition<M, P> extends `${SortKeyCondition.BETWEEN}`
      ? { readonly between: readonly [PatternSortInput<M, P>, PatternSortInput<M, P>] }
      : Condition<M, P> extends `${SortKeyCondition.NONE}`
        ? {}
        : PatternSortInput<M, P>)
>;

/** The entity names a pattern returns. */
export type PatternEntities<M, P extends PatternName<M>> = PatternDef<M, P> extends { readonly entities: readonly (infer E)[] }
  ? Extract<E, EntityName<M>>
  : EntityName<M>;
