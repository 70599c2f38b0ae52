// The least-privilege plan of a grant, as plain data: which DynamoDB action on which resource (the
// table or one index), on which partition key patterns. Mirrors what the runtime sends: a pattern
// is a Query on its index for the partitions its key template composes, plus BatchGetItem on the
// table, for its entities' items, when the index lacks attributes it needs (FetchMode.BATCH_GET);
// an LSI's own fetch happens inside the Query.
import { WriteOperation, SingleTableGrantOptions } from './options';
import { guardKeyPatterns, shapeKeyPattern, tenantKeyPattern } from './tenant';
import { DiagnosticSink, ManifestError } from '../../manifest/diagnostics';
import { bool, checkShape, enumOf, opt, Shape, text } from '../../manifest/shape';
import { didYouMean } from '../../model/closest-name';
import { FetchMode, IndexType, KeyTemplateModel, TABLE_INDEX, TableModel } from '../../model/model';
import { finding } from '../design-error';

/** One action on one resource, with the partition key patterns allowed. */
export interface AccessNeed {
  /** `table` or an index name. */
  readonly resource: string;
  /** The IAM action, e.g. `dynamodb:Query`. */
  readonly action: string;
  /** LeadingKeys patterns, each matching partition key values the action may be sent with; undefined for any partition key. */
  readonly leadingKeys?: string[];
}

const WRITE_ACTIONS: Record<WriteOperation, string> = {
  [WriteOperation.PUT]: 'dynamodb:PutItem',
  [WriteOperation.UPDATE]: 'dynamodb:UpdateItem',
  [WriteOperation.DELETE]: 'dynamodb:DeleteItem',
  [WriteOperation.BATCH_WRITE]: 'dynamodb:BatchWriteItem',
  [WriteOperation.CONDITION_CHECK]: 'dynamodb:ConditionCheckItem',
};

/** Where grant findings are: the options of `grantAccess`, `grantPatterns` or `connect`. */
export const GRANT_LOCATION = 'grant options';

const TENANT: Shape = { kind: 'struct', fields: { attribute: { shape: text(), required: true, example: "'tenantId'" }, value: { shape: text(), required: true, example: "'${aws:PrincipalTag/tenantId}'" } } };
const GRANT_OPTIONS: Shape = {
  kind: 'struct',
  fields: {
    patterns: opt({ kind: 'list', code: 'PROPERTY_TYPE_INVALID', of: text() }),
    readItems: opt(bool),
    scan: opt(bool),
    writes: opt({ kind: 'list', code: 'PROPERTY_TYPE_INVALID', of: enumOf('GRANT_WRITE_UNKNOWN', 'WriteOperation', WriteOperation) }),
    tenant: opt(TENANT),
  },
};

/**
 * Findings on the options' shape (unknown options, wrong types, unknown writes), the access
 * patterns they name that the manifest does not declare, and combinations that allow nothing or
 * cannot be narrowed: all of them at once.
 */
function checkGrantOptions(model: TableModel, options: SingleTableGrantOptions): void {
  const sink = new DiagnosticSink();
  const shaped = checkShape(options, GRANT_OPTIONS, { location: GRANT_LOCATION, path: '' }, sink);
  const declared = Object.keys(model.patterns);
  for (const name of Array.isArray(options?.patterns) ? options.patterns : []) {
    if (typeof name === 'string' && !Object.hasOwn(model.patterns, name)) {
      sink.error('GRANT_PATTERN_UNKNOWN', GRANT_LOCATION, `patterns names '${name}', which the manifest does not declare`, `${didYouMean(name, declared)}use one of ${declared.join(', ')}`);
    }
  }
  if (shaped) {
    if (!options.patterns?.length && !options.readItems && !options.writes?.length && !options.scan) {
      sink.error('GRANT_EMPTY', GRANT_LOCATION, 'the grant allows nothing', 'name access patterns, set readItems or scan, or list writes');
    }
    if (options.scan && options.tenant) {
      sink.error('GRANT_SCAN_TENANT', GRANT_LOCATION, `scan reads every partition, so tenant isolation on '${options.tenant.attribute}' cannot restrict it`,
        "grant scan without tenant, or query the tenant's patterns instead");
    }
  }
  if (sink.hasErrors) throw new ManifestError(sink.all);
}

/** Every action the options need, merged per resource and action. Throws the findings of options that do not hold. */
export function accessNeeds(model: TableModel, options: SingleTableGrantOptions, warn: (message: string) => void = () => {}): AccessNeed[] {
  checkGrantOptions(model, options);
  const patterns = options.patterns ?? [];
  const writes = options.writes ?? [];
  const needs = new Needs(model, options);
  for (const name of patterns) {
    const pattern = model.patterns[name];
    const index = model.indexes[pattern.index];
    let key: string[] | undefined;
    if (!pattern.pk) {
      // The IAM condition key matches one partition key value; a multi-attribute key has several.
      const attributes = index.partitionAttributes!.map((a) => a.name).join(', ');
      if (options.tenant) {
        throw finding('TENANT_NOT_NARROWABLE', `pattern ${name}`,
          `tenant isolation cannot narrow a Query on ${index.name}, whose partition key is the attributes ${attributes} (dynamodb:LeadingKeys matches one composed partition key value)`,
          `grant this pattern without tenant, or query an index with a composed key that starts with the tenant, e.g. pk: 'TENANT#{${options.tenant.attribute}}#...'`);
      }
      warn(`pattern ${name}: ${index.name}'s partition key is the attributes ${attributes}, so dynamodb:LeadingKeys cannot narrow its grant `
        + `and it allows Query on every partition of ${index.name}; to narrow it, query an index with a composed key that has a literal segment`);
    } else {
      key = needs.keysOf([{ template: pattern.pk, sharded: index.shards !== undefined, where: `pattern ${name}` }], true);
      if (!key) {
        warn(`pattern ${name}: its partition key template ${pattern.pk.source} holds no literal segment, so dynamodb:LeadingKeys cannot narrow its grant `
          + `and it allows Query on every partition of ${index.name}; give the template a literal segment, e.g. ${pattern.entities[0].toUpperCase()}${model.delimiter}${pattern.pk.source}`);
      }
    }
    needs.add(index.type === IndexType.TABLE ? TABLE_INDEX : index.name, 'dynamodb:Query', key);
    if (pattern.fetch === FetchMode.BATCH_GET) needs.add(TABLE_INDEX, 'dynamodb:BatchGetItem', needs.keysOf(needs.tableKeys(pattern.entities), true));
  }
  // Item reads and writes reach every entity: without tenant isolation, the whole table.
  const everyItem = () => options.tenant && needs.keysOf(needs.tableKeys(Object.keys(model.entities)), false);
  if (options.readItems) {
    needs.add(TABLE_INDEX, 'dynamodb:GetItem', everyItem());
    needs.add(TABLE_INDEX, 'dynamodb:BatchGetItem', everyItem());
  }
  if (options.scan) needs.add(TABLE_INDEX, 'dynamodb:Scan', undefined);
  for (const write of writes) {
    needs.add(TABLE_INDEX, WRITE_ACTIONS[write], everyItem());
  }
  needs.addGuards(writes);
  return needs.all();
}

/** A partition key template the runtime composes keys from; `where` names its owner in errors. */
interface PartitionTemplate {
  readonly template: KeyTemplateModel;
  readonly sharded: boolean;
  readonly where: string;
}

class Needs {
  private readonly byKey = new Map<string, { resource: string; action: string; keys?: Set<string> }>();

  constructor(private readonly model: TableModel, private readonly options: SingleTableGrantOptions) {}

  /** Adds an action; its keys join those of earlier adds, and an add for any partition key widens the action to any. */
  public add(resource: string, action: string, leadingKeys: string[] | undefined): void {
    const id = resource + ' ' + action;
    const earlier = this.byKey.get(id);
    const keys = earlier && !earlier.keys ? undefined : leadingKeys && new Set([...earlier?.keys ?? [], ...leadingKeys]);
    this.byKey.set(id, { resource, action, keys });
  }

  /**
   * A put, update or delete of an entity with unique values is a transaction that first reads the
   * item's values (GetItem) and puts and deletes guard items (an upsert may move a value, so a put
   * deletes too; a delete only deletes). The guard writes are allowed on the guard keys only, and
   * the read on the unique entities' partitions only, so neither widens what the grant's own
   * writes allow: a grant of writes does not read every item of the table through them.
   */
  public addGuards(writes: WriteOperation[]): void {
    const moves = (w: WriteOperation) => writes.includes(w);
    if (!moves(WriteOperation.PUT) && !moves(WriteOperation.UPDATE) && !moves(WriteOperation.DELETE)) return;
    const reached = Object.values(this.model.entities)
      .filter((e) => e.unique)
      .flatMap((e) => guardKeyPatterns(this.model, e, this.options.tenant).map((key) => ({ entity: e.name, key })));
    if (reached.length === 0) return;
    const keys = [...new Set(reached.map((g) => g.key))];
    if (moves(WriteOperation.PUT) || moves(WriteOperation.UPDATE)) this.add(TABLE_INDEX, 'dynamodb:PutItem', keys);
    this.add(TABLE_INDEX, 'dynamodb:DeleteItem', keys);
    this.add(TABLE_INDEX, 'dynamodb:GetItem', this.keysOf(this.tableKeys(reached.map((g) => g.entity)), false));
  }

  /** The table partition key templates of entities. */
  public tableKeys(entities: string[]): PartitionTemplate[] {
    return entities.map((e) => ({ template: this.model.entities[e].keys[TABLE_INDEX].pk, sharded: false, where: `entity ${e}` }));
  }

  /**
   * The LeadingKeys patterns of templates: each one's shape, or under tenant isolation the tenant's
   * keys of it. Without tenant isolation, undefined (any partition key) when a template cannot be
   * narrowed. `every`: each template must hold the tenant id (a pattern's); otherwise templates
   * without it are simply out of the tenant's reach.
   */
  public keysOf(templates: PartitionTemplate[], every: boolean): string[] | undefined {
    const tenant = this.options.tenant;
    if (!tenant) {
      const shapes = templates.map((t) => shapeKeyPattern(this.model, t.template, t.sharded));
      return shapes.includes(undefined) ? undefined : [...new Set(shapes as string[])];
    }
    const keys = new Set<string>();
    for (const t of templates) {
      const key = tenantKeyPattern(this.model, t.template, tenant, t.sharded, t.where);
      if (key !== undefined) {keys.add(key);} else if (every) {
        throw finding('TENANT_ATTRIBUTE_MISSING', t.where, `tenant isolation needs the tenant attribute '${tenant.attribute}' in the partition key ${t.template.source}`,
          `grant it without tenant, or put {${tenant.attribute}} in the partition key template`);
      }
    }
    if (keys.size === 0) {
      throw finding('TENANT_ATTRIBUTE_MISSING', GRANT_LOCATION, `tenant isolation: no entity has the tenant attribute '${tenant.attribute}' in its table partition key`,
        'name the attribute that holds the tenant id in the partition key templates');
    }
    return [...keys];
  }

  public all(): AccessNeed[] {
    return [...this.byKey.values()].map((n) => ({ resource: n.resource, action: n.action, leadingKeys: n.keys && [...n.keys].sort() }));
  }
}
