// The least-privilege plan of a grant, as plain data: which DynamoDB action on which resource (the
// table or one index), and with tenant isolation which partition key patterns. Mirrors what the
// runtime sends: a pattern is a Query on its index, plus BatchGetItem on the table when the index
// lacks attributes it needs (FetchMode.BATCH_GET); an LSI's own fetch happens inside the Query.
import { WriteOperation, SingleTableGrantOptions } from './options';
import { guardKeyPatterns, prefixKeyPattern, tenantKeyPattern } from './tenant';
import { FetchMode, IndexType, KeyTemplateModel, TABLE_INDEX, TableModel } from '../../manifest/model';

/** One action on one resource, with the partition key patterns allowed (tenant isolation). */
export interface AccessNeed {
  /** `table` or an index name. */
  readonly resource: string;
  /** The IAM action, e.g. `dynamodb:Query`. */
  readonly action: string;
  /** LeadingKeys patterns; undefined without tenant isolation. */
  readonly leadingKeys?: string[];
  /**
   * A statement of its own, with its own keys: `guards` for writes of unique-value guard items (on
   * the guards' keys only), `uniqueReads` for the reads of a unique entity's item before its writes
   * without tenant isolation (on that entity's partition key prefix only). @default - the grant's main statement of the resource
   */
  readonly statement?: 'guards' | 'uniqueReads';
}

const WRITE_ACTIONS: Record<WriteOperation, string> = {
  [WriteOperation.PUT]: 'dynamodb:PutItem',
  [WriteOperation.UPDATE]: 'dynamodb:UpdateItem',
  [WriteOperation.DELETE]: 'dynamodb:DeleteItem',
  [WriteOperation.BATCH_WRITE]: 'dynamodb:BatchWriteItem',
  [WriteOperation.CONDITION_CHECK]: 'dynamodb:ConditionCheckItem',
};

/** Every action the options need, merged per resource and action. Throws on names that do not exist. */
export function accessNeeds(model: TableModel, options: SingleTableGrantOptions): AccessNeed[] {
  const patterns = options.patterns ?? [];
  const writes = options.writes ?? [];
  if (patterns.length === 0 && !options.readItems && writes.length === 0 && !options.scan) {
    throw new Error('the grant allows nothing: name access patterns, set readItems or scan, or list writes');
  }
  if (options.scan && options.tenant) {
    throw new Error(`scan reads every partition, so tenant isolation on '${options.tenant.attribute}' cannot restrict it; grant scan without tenant, or query the tenant's patterns instead`);
  }
  const needs = new Needs(model, options);
  for (const name of patterns) {
    const pattern = model.patterns[name];
    if (!pattern) throw new Error(`no access pattern '${name}'; the manifest has ${Object.keys(model.patterns).join(', ')}`);
    const index = model.indexes[pattern.index];
    const key = needs.tenantKeys([{ template: pattern.pk, sharded: index.shards !== undefined, where: `pattern ${name}` }], true);
    needs.add(index.type === IndexType.TABLE ? TABLE_INDEX : index.name, 'dynamodb:Query', key);
    if (pattern.fetch === FetchMode.BATCH_GET) needs.add(TABLE_INDEX, 'dynamodb:BatchGetItem', needs.entityKeys(pattern.entities, true));
  }
  if (options.readItems) {
    const keys = needs.entityKeys(Object.keys(model.entities), false);
    needs.add(TABLE_INDEX, 'dynamodb:GetItem', keys);
    needs.add(TABLE_INDEX, 'dynamodb:BatchGetItem', keys);
  }
  if (options.scan) needs.add(TABLE_INDEX, 'dynamodb:Scan', undefined);
  for (const write of writes) {
    const action = WRITE_ACTIONS[write];
    if (!action) throw new Error(`unknown write operation ${JSON.stringify(write)}; use one of ${Object.keys(WRITE_ACTIONS).join(', ')}`);
    needs.add(TABLE_INDEX, action, needs.entityKeys(Object.keys(model.entities), false));
  }
  needs.addGuards(writes);
  return needs.all();
}

class Needs {
  private readonly byKey = new Map<string, { resource: string; action: string; keys?: Set<string>; statement?: AccessNeed['statement'] }>();

  constructor(private readonly model: TableModel, private readonly options: SingleTableGrantOptions) {}

  public add(resource: string, action: string, leadingKeys: string[] | undefined, statement?: AccessNeed['statement']): void {
    const id = resource + ' ' + action + (statement ? ' ' + statement : '');
    const need = this.byKey.get(id) ?? { resource, action, keys: leadingKeys && new Set<string>(), statement };
    leadingKeys?.forEach((k) => need.keys!.add(k));
    this.byKey.set(id, need);
  }

  /**
   * A put, update or delete of an entity with unique values is a transaction that first reads the
   * item's values (GetItem) and puts and deletes guard items (an upsert may move a value, so a put
   * deletes too; a delete only deletes). The guard writes get a statement restricted to the guard
   * keys, so they never widen what the grant's own writes allow. Without tenant isolation the read
   * gets a statement restricted to the unique entities' partition key prefixes, so a grant of
   * writes does not read every item of the table through it.
   */
  public addGuards(writes: WriteOperation[]): void {
    const moves = (w: WriteOperation) => writes.includes(w);
    if (!moves(WriteOperation.PUT) && !moves(WriteOperation.UPDATE) && !moves(WriteOperation.DELETE)) return;
    const reached = Object.values(this.model.entities)
      .filter((e) => e.unique)
      .flatMap((e) => guardKeyPatterns(this.model, e, this.options.tenant).map((key) => ({ entity: e.name, key })));
    if (reached.length === 0) return;
    const keys = [...new Set(reached.map((g) => g.key))];
    if (moves(WriteOperation.PUT) || moves(WriteOperation.UPDATE)) this.add(TABLE_INDEX, 'dynamodb:PutItem', keys, 'guards');
    this.add(TABLE_INDEX, 'dynamodb:DeleteItem', keys, 'guards');
    const entities = [...new Set(reached.map((g) => g.entity))];
    if (this.options.tenant) {
      this.add(TABLE_INDEX, 'dynamodb:GetItem', this.entityKeys(entities, false));
      return;
    }
    // Item reads the grant already allows on the whole table need no statement of their own.
    if (this.options.readItems) return;
    const prefixes = entities.map((e) => prefixKeyPattern(this.model, this.model.entities[e].keys[TABLE_INDEX].pk));
    if (prefixes.includes(undefined)) this.add(TABLE_INDEX, 'dynamodb:GetItem', undefined);
    else this.add(TABLE_INDEX, 'dynamodb:GetItem', [...new Set(prefixes as string[])], 'uniqueReads');
  }

  /**
   * Table partition key patterns of entities. `every`: each entity must hold the tenant id (a
   * pattern's entities); otherwise entities without it are simply out of the tenant's reach.
   */
  public entityKeys(entities: string[], every: boolean): string[] | undefined {
    return this.tenantKeys(entities.map((e) => ({ template: this.model.entities[e].keys[TABLE_INDEX].pk, sharded: false, where: `entity ${e}` })), every);
  }

  public tenantKeys(templates: { template: KeyTemplateModel; sharded: boolean; where: string }[], every: boolean): string[] | undefined {
    const tenant = this.options.tenant;
    if (!tenant) return undefined;
    const keys = new Set<string>();
    for (const t of templates) {
      const key = tenantKeyPattern(this.model, t.template, tenant, t.sharded, t.where);
      if (key !== undefined) keys.add(key);
      else if (every) throw new Error(`${t.where}: tenant isolation needs the tenant attribute '${tenant.attribute}' in the partition key ${t.template.source}`);
    }
    if (keys.size === 0) throw new Error(`tenant isolation: no entity has the tenant attribute '${tenant.attribute}' in its table partition key`);
    return [...keys];
  }

  public all(): AccessNeed[] {
    return [...this.byKey.values()].map((n) => ({
      resource: n.resource, action: n.action, leadingKeys: n.keys && [...n.keys].sort(), ...(n.statement && { statement: n.statement }),
    }));
  }
}
