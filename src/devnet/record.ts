// `<DATA_DIR>/devnet/devnet.json`: what the devnet deployed, on which chain. A restart on the same anvil state
// reads it back instead of deploying again; the chain id and genesis hash say whether it still describes the chain.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Hex } from "viem";
import { z } from "zod";
import { AddressSchema, Bytes32Schema } from "../http/wire.ts";
import type { CoreDeployment } from "./deploy.ts";

const RECORD_VERSION = 1;

const DevnetRecordSchema = z
  .object({
    version: z.literal(RECORD_VERSION),
    chainId: z.number().int().min(1),
    genesisHash: Bytes32Schema,
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
      startBlock: z.string().regex(/^\d+$/),
    }),
  })
  .strict();

type RecordJson = z.input<typeof DevnetRecordSchema>;

export interface DevnetRecord {
  chainId: number;
  genesisHash: Hex;
  deployedAt: string;
  core: CoreDeployment;
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
    deployedAt: record.deployedAt,
    core: { ...record.core, startBlock: record.core.startBlock.toString() },
  };
  const normalized = DevnetRecordSchema.parse(json);
  writeJsonAtomically(path, normalized);
  return fromJson(normalized);
}

function fromJson({ core, ...rest }: z.output<typeof DevnetRecordSchema>): DevnetRecord {
  return {
    chainId: rest.chainId,
    genesisHash: rest.genesisHash as Hex,
    deployedAt: rest.deployedAt,
    core: { ...core, startBlock: BigInt(core.startBlock) },
  };
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file behind. */
export function writeJsonAtomically(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, path);
}
