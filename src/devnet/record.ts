// `<DATA_DIR>/devnet/devnet.json`: what the devnet deployed, on which chain. A restart on the same anvil state
// reads it back instead of deploying again. The devnet's identity is the chain id and the hash of the block that
// deployed the Reactor: anvil's genesis cannot name it, because anvil builds a new genesis block (stamped with the
// current time) at every start and keeps it beside the loaded ones in its state file, so across reloads
// `eth_getBlockByNumber(0)` answers any of them. The genesis hash is kept for people to read.
import { existsSync, readFileSync } from "node:fs";
import type { Hex } from "viem";
import { z } from "zod";
import type { ChainIdentity } from "../indexer/chain-identity.ts";
import { writeJsonAtomically } from "../shared/json-file.ts";
import { AddressSchema, Bytes32Schema } from "../shared/wire.ts";
import type { CoreDeployment } from "./deploy.ts";
import type { PointsDeployment } from "./points-deploy.ts";

/** Version 1 named the chain by its genesis hash; such a record is not read (the devnet deploys once more). */
const RECORD_VERSION = 2;

const BlockNumberSchema = z.string().regex(/^\d+$/);

const DevnetRecordSchema = z
  .object({
    version: z.literal(RECORD_VERSION),
    chainId: z.number().int().min(1),
    genesisHash: Bytes32Schema,
    /** The hash of block `core.reactorBlock`. */
    reactorBlockHash: Bytes32Schema,
    deployedAt: z.iso.datetime(),
    core: z.object({
      chainId: z.number().int().min(1),
      deployer: AddressSchema,
      protocolSigner: AddressSchema,
      marketMaker: AddressSchema,
      tokens: z.object({ rwa: AddressSchema, usd: AddressSchema, usdt: AddressSchema }),
      vaults: z.object({ usd: AddressSchema, usdt: AddressSchema }),
      adapters: z.object({ usd: AddressSchema, usdt: AddressSchema }),
      adapterFactory: AddressSchema,
      reactor: AddressSchema,
      executors: z.array(AddressSchema),
      startBlock: BlockNumberSchema,
      reactorBlock: BlockNumberSchema,
    }),
    /** The points contracts (src/devnet/points-plan.ts: their addresses follow from the plan); absent before them. */
    points: z.object({ startBlock: BlockNumberSchema }).strict().optional(),
  })
  .strict();

type RecordJson = z.input<typeof DevnetRecordSchema>;

export interface DevnetRecord {
  chainId: number;
  /** The genesis block anvil reported when the contracts were deployed (for people; not the identity). */
  genesisHash: Hex;
  reactorBlockHash: Hex;
  deployedAt: string;
  core: CoreDeployment;
  /** Where the points contracts were deployed; undefined on a record written before they existed. */
  points?: PointsDeployment;
}

/** The devnet's chain identity: its chain id and the hash of the block that deployed the Reactor. */
export function devnetIdentity(record: DevnetRecord): ChainIdentity {
  return { chainId: record.chainId, blockHash: record.reactorBlockHash };
}

/** The record at `path`, or undefined when there is none or it cannot be read (then the devnet deploys anew). */
export function readDevnetRecord(path: string): DevnetRecord | undefined {
  if (!existsSync(path)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  const parsed = DevnetRecordSchema.safeParse(json);
  return parsed.success ? fromJson(parsed.data) : undefined;
}

/** Writes the record and returns it as a later read will (addresses lowercase, like everywhere in Sluice). */
export function writeDevnetRecord(path: string, record: DevnetRecord): DevnetRecord {
  const json: RecordJson = {
    version: RECORD_VERSION,
    chainId: record.chainId,
    genesisHash: record.genesisHash,
    reactorBlockHash: record.reactorBlockHash,
    deployedAt: record.deployedAt,
    core: {
      ...record.core,
      startBlock: record.core.startBlock.toString(),
      reactorBlock: record.core.reactorBlock.toString(),
    },
    ...(record.points ? { points: { startBlock: record.points.startBlock.toString() } } : {}),
  };
  const normalized = DevnetRecordSchema.parse(json);
  writeJsonAtomically(path, normalized);
  return fromJson(normalized);
}

function fromJson({ core, points, ...rest }: z.output<typeof DevnetRecordSchema>): DevnetRecord {
  return {
    chainId: rest.chainId,
    genesisHash: rest.genesisHash as Hex,
    reactorBlockHash: rest.reactorBlockHash as Hex,
    deployedAt: rest.deployedAt,
    core: { ...core, startBlock: BigInt(core.startBlock), reactorBlock: BigInt(core.reactorBlock) },
    ...(points ? { points: { startBlock: BigInt(points.startBlock) } } : {}),
  };
}
