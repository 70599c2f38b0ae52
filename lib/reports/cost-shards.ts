// Shard sizing for write-sharded GSIs: shards = ceil(peak index write units per second
// / 800), 800 being the safe margin under a partition's ~1,000 write units per second.
import { peakEntryWriteUnits, SAFE_WRITES_PER_PARTITION, shardsFor } from '../manifest/sizes';
import { IndexType, TableModel } from '../model/model';

/** The shards a sharded GSI needs and has. */
export interface ShardSizing {
  /** The GSI. */
  readonly index: string;
  /**
   * Declared peak writes per second on the hottest partition key value.
   * @default - none declared (a fixed shard count)
   */
  readonly peakWritesPerSecond?: number;
  /** Write units of the largest entry written to the index. */
  readonly unitsPerWrite: number;
  /**
   * Index write units per second at the peak.
   * @default - no peak declared
   */
  readonly peakUnitsPerSecond?: number;
  /**
   * Shards the peak needs.
   * @default - no peak declared
   */
  readonly shardsNeeded?: number;
  /** Shards new writes go to. */
  readonly writeShards: number;
  /** Shards readers fan out over. */
  readonly readShards: number;
  /** Write units per second the write shards take safely. */
  readonly capacityUnitsPerSecond: number;
}

/** Sizing of every sharded GSI, in model order. */
export function shardSizing(model: TableModel): ShardSizing[] {
  return Object.values(model.indexes)
    .filter((index) => index.type === IndexType.GSI && index.shards)
    .map((index) => {
      const shards = index.shards!;
      const unitsPerWrite = peakEntryWriteUnits(index, model.entities, model.indexes, model.typeAttribute);
      const sizing: ShardSizing = {
        index: index.name,
        unitsPerWrite,
        writeShards: shards.writeCount,
        readShards: shards.readCount,
        capacityUnitsPerSecond: shards.writeCount * SAFE_WRITES_PER_PARTITION,
      };
      if (shards.peakWritesPerSecond === undefined) return sizing;
      const peakUnitsPerSecond = shards.peakWritesPerSecond * unitsPerWrite;
      return { ...sizing, peakWritesPerSecond: shards.peakWritesPerSecond, peakUnitsPerSecond, shardsNeeded: shardsFor(peakUnitsPerSecond) };
    });
}
