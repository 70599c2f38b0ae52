import { attributeKeyShardsAreFree, attributeKeysAreTyped, attributeKeysAreWellFormed } from './attribute-keys';
import { lowCardinalityKeysAreSharded, lsiCollectionsAreBounded } from './hot-partitions';
import { maintainedAttributesFit } from './maintained-attributes';
import {
  atMostTwentyGlobalIndexes,
  dataAttributesDoNotClash,
  indexNamesAreValid,
  keyAttributeNamesAreUnique,
  typeAttributeIsValid,
  typeValuesAreUnique,
} from './names';
import { collectionsSharePartitionKey, collectionsShareSortKeyPrefix, patternAttributesAreDeclared, patternQueriesArePossible, patternsNameWhatExists } from './patterns';
import { atMostHundredProjectedAttributes, atMostTwentyProjectedPerIndex, includeListsAreValid } from './projection';
import type { ManifestRule } from './rule';
import { shardSettingsArePossible, shardsCoverDeclaredPeak } from './sharding';
import { entityKeysDoNotCollide, literalKeyTextFits, tableKeysAreAlwaysComposable } from './templates';
import { uniqueAttributesAreKeyable } from './unique';

/** Every manifest rule, in the order their findings are reported. */
export const ALL_RULES: readonly ManifestRule[] = [
  indexNamesAreValid,
  atMostTwentyGlobalIndexes,
  keyAttributeNamesAreUnique,
  typeAttributeIsValid,
  dataAttributesDoNotClash,
  maintainedAttributesFit,
  typeValuesAreUnique,
  includeListsAreValid,
  attributeKeysAreWellFormed,
  attributeKeysAreTyped,
  attributeKeyShardsAreFree,
  atMostTwentyProjectedPerIndex,
  atMostHundredProjectedAttributes,
  tableKeysAreAlwaysComposable,
  literalKeyTextFits,
  entityKeysDoNotCollide,
  patternsNameWhatExists,
  collectionsSharePartitionKey,
  collectionsShareSortKeyPrefix,
  patternQueriesArePossible,
  patternAttributesAreDeclared,
  shardSettingsArePossible,
  shardsCoverDeclaredPeak,
  lowCardinalityKeysAreSharded,
  lsiCollectionsAreBounded,
  uniqueAttributesAreKeyable,
];
