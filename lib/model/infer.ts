// TypeScript-only types inferred from a manifest literal: item types per entity and input types
// per access pattern, so a typo in an attribute, entity or pattern name is a compile error.
// Not part of the jsii surface (generics); exported from `cdk-single-table/runtime`.
import type { AttributeKind, SingleTableManifest, SortKeyCondition } from './manifest';

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

/**
 * The literal type a `TypedManifest` carries. A manifest or model typed `any` (read with
 * `JSON.parse`) is any manifest: its names are strings.
 */
export type LiteralOf<T> = 0 extends 1 & T
  ? SingleTableManifest
  : T extends { readonly __literal?: infer M } ? (unknown extends M ? SingleTableManifest : NonNullable<M>) : T;

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

/**
 * The type of a value of an attribute kind as the runtime returns it: as `ValueOf`, but a DATE
 * comes back as the ISO-8601 UTC string it is stored as, never a Date.
 */
export type ResultValueOf<K> = K extends `${AttributeKind.DATE}` ? string : ValueOf<K>;

type KindOf<A> = A extends { readonly type: infer T } ? T : never;
/** One attribute's type: as written (`ValueOf`) or as returned (`ResultValueOf`). */
type AttributeValueOf<A, Returned extends boolean> = Returned extends true ? ResultValueOf<KindOf<A>> : ValueOf<KindOf<A>>;
type ItemShape<M, E extends EntityName<M>, Returned extends boolean> = Simplify<
  { [K in Extract<RequiredNames<AttributesOf<M, E>>, string>]: AttributeValueOf<AttributesOf<M, E>[K], Returned> } & {
    [K in Exclude<Extract<keyof AttributesOf<M, E>, string>, RequiredNames<AttributesOf<M, E>>>]?: AttributeValueOf<AttributesOf<M, E>[K], Returned>;
  } & (Returned extends true ? Maintained<EntitiesOf<M>[E], true> : Partial<Maintained<EntitiesOf<M>[E], false>>)
>;

/** The version attribute's name of an entity with `version`. */
export type VersionAttributeOf<D> = D extends { readonly version: infer V } ? (V extends { readonly attribute: infer A extends string } ? A : 'version') : never;
type CreatedAtOf<D> = D extends { readonly timestamps: infer T } ? (T extends { readonly createdAt: infer A extends string } ? A : 'createdAt') : never;
type UpdatedAtOf<D> = D extends { readonly timestamps: infer T } ? (T extends { readonly updatedAt: infer A extends string } ? A : 'updatedAt') : never;
/**
 * The attributes the runtime maintains (version, timestamps): in every result it returns, optional
 * in what a caller writes (a put may give createdAt; an update or replace gives the version it read).
 */
type Maintained<D, Returned extends boolean> = { [K in VersionAttributeOf<D>]: number } & {
  [K in CreatedAtOf<D> | UpdatedAtOf<D>]: Returned extends true ? string : string | Date;
};

/** The item type of an entity as written: required attributes required, the others optional; a DATE may be a Date or a string. */
export type ItemOf<M, E extends EntityName<M>> = ItemShape<M, E, false>;

/** The item type of an entity as the runtime returns it (get, update, delete, query): DATE attributes are ISO-8601 strings. */
export type ResultItemOf<M, E extends EntityName<M>> = ItemShape<M, E, true>;

/** The union of the result item types of several entities, each tagged with its entity name. */
export type TaggedItem<M, E extends EntityName<M>> = E extends EntityName<M> ? { readonly entity: E; readonly item: ResultItemOf<M, E> } : never;

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

// {} without a literal `globalIndexes`: `never` here would make every index look keyed on attributes.
type IndexesOf<M> = LiteralOf<M> extends { readonly globalIndexes: infer G } ? G : {};
type IndexDef<M, I extends string> = I extends keyof IndexesOf<M> ? IndexesOf<M>[I] : {};
/** A multi-attribute GSI's partition attribute names (never for a composed index). */
type PartitionAttributeNames<M, I extends string> = IndexDef<M, I> extends { readonly partitionAttributes: readonly (infer A)[] } ? A : never;
type SortAttributeNames<M, I extends string> = IndexDef<M, I> extends { readonly sortAttributes: readonly (infer A)[] } ? A : never;
type KeyedOnAttributes<M, I extends string> = [PartitionAttributeNames<M, I>] extends [never] ? false : true;

/** The partition key attributes a pattern's query needs: its template's, or a multi-attribute GSI's partition attributes. */
export type PatternKeyInput<M, P extends PatternName<M>> = Values<
  M,
  FirstEntity<M, P>,
  KeyedOnAttributes<M, PatternIndex<M, P>> extends true
    ? PartitionAttributeNames<M, PatternIndex<M, P>>
    : Placeholders<PkTemplate<M, FirstEntity<M, P>, PatternIndex<M, P>>>
>;

type Delimiter<M> = LiteralOf<M> extends { readonly delimiter: infer D extends string } ? D : '#';
/** A template's segments: `ORDER#{orderId}` -> ['ORDER', '{orderId}']. */
type Segments<S, D extends string> = S extends `${infer H}${D}${infer T}` ? [H, ...Segments<T, D>] : [S];
type CommonSegments<A, B> = A extends [infer X, ...infer RA]
  ? B extends [infer Y, ...infer RB] ? ([X] extends [Y] ? ([Y] extends [X] ? [X, ...CommonSegments<RA, RB>] : []) : []) : []
  : [];
/** The leading segments the sort keys of all these entities share on an index (the runtime composes those). */
type SharedSegments<M, Es, I extends string> = Es extends readonly [infer F extends EntityName<M>, ...infer R]
  ? R extends readonly []
    ? Segments<SkTemplate<M, F, I>, Delimiter<M>>
    : CommonSegments<Segments<SkTemplate<M, F, I>, Delimiter<M>>, SharedSegments<M, R, I>>
  : Segments<SkTemplate<M, Es extends readonly (infer E extends EntityName<M>)[] ? E : never, I>, Delimiter<M>>;
type PatternEntityList<M, P extends PatternName<M>> = PatternDef<M, P> extends { readonly entities: infer Es } ? Es : never;

/**
 * The sort key attributes of a pattern's condition (all optional: leading ones make a prefix):
 * those of the sort-key prefix all its entities share on its index, or a multi-attribute GSI's
 * sort attributes.
 */
export type PatternSortInput<M, P extends PatternName<M>> = Partial<
  Values<M, FirstEntity<M, P>, KeyedOnAttributes<M, PatternIndex<M, P>> extends true
    ? SortAttributeNames<M, PatternIndex<M, P>>
    : Placeholders<SharedSegments<M, PatternEntityList<M, P>, PatternIndex<M, P>>[number]>>
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
