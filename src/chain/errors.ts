// The chain's named failures: a chain out of reach (ChainUnavailableError, answered 503 CHAIN_UNAVAILABLE), and
// decoding named revert errors of the project's contracts out of whatever viem threw (a simulate/write/call error,
// an RPC error carrying revert data, or raw revert data), e.g. to log "InvalidOutput" instead of a hex blob.
import { BaseError, ContractFunctionRevertedError, decodeErrorResult, type Hex } from "viem";
import { BaseError as SluiceBaseError } from "../shared/errors.ts";
import {
  adapterFactoryAbi,
  executorAbi,
  liquidLaneAdapterAbi,
  reactorAbi,
  testERC20Abi,
  testERC1271WalletAbi,
  testUSDTAbi,
  testVaultAbi,
} from "./abis.ts";

interface AbiError {
  type: "error";
  name: string;
  inputs: readonly { type: string; name?: string }[];
}

function errorKey(item: AbiError): string {
  return `${item.name}(${item.inputs.map((i) => i.type).join(",")})`;
}

/** Every custom error any of the project's contracts can revert with, once each. */
export const sluiceErrorsAbi: readonly AbiError[] = (() => {
  const seen = new Map<string, AbiError>();
  const abis = [
    reactorAbi,
    executorAbi,
    liquidLaneAdapterAbi,
    adapterFactoryAbi,
    testERC20Abi,
    testUSDTAbi,
    testVaultAbi,
    testERC1271WalletAbi,
  ];
  for (const abi of abis) {
    for (const item of abi) {
      if (item.type !== "error") continue;
      const error = item as unknown as AbiError;
      if (!seen.has(errorKey(error))) seen.set(errorKey(error), error);
    }
  }
  return [...seen.values()];
})();

export interface DecodedRevert {
  /** The error's name: a custom error, `Error` (require message) or `Panic`. */
  name: string;
  args: readonly unknown[];
  data: Hex;
}

function isRevertData(value: unknown): value is Hex {
  return typeof value === "string" && /^0x([0-9a-fA-F]{2})*$/.test(value) && value.length >= 10;
}

/** The raw revert data inside a thrown error (following `cause`), if there is any. */
export function revertData(error: unknown): Hex | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 20; depth++) {
    if (current instanceof ContractFunctionRevertedError && isRevertData(current.raw)) return current.raw;
    if (typeof current === "object") {
      const data = (current as { data?: unknown }).data;
      if (isRevertData(data)) return data;
      if (data && typeof data === "object" && isRevertData((data as { data?: unknown }).data)) {
        return (data as { data: Hex }).data;
      }
    }
    if (isRevertData(current)) return current;
    current =
      current instanceof BaseError || typeof current === "object" ? (current as Error).cause : undefined;
  }
  return undefined;
}

/** Decodes a revert against every error of the project's contracts (plus `Error(string)` and `Panic`). */
export function decodeRevert(errorOrData: unknown): DecodedRevert | undefined {
  const data = revertData(errorOrData);
  if (!data) return undefined;
  try {
    const decoded = decodeErrorResult({ abi: sluiceErrorsAbi, data });
    return { name: decoded.errorName, args: decoded.args ?? [], data };
  } catch {
    return undefined;
  }
}

/** The chain a deployment runs on, as its errors and logs name it. */
export interface ChainName {
  chainId: number;
  name: string;
}

/** A chain outage usually outlasts a second; a client asking again after this long reads a recovered chain at once. */
const CHAIN_RETRY_AFTER_SECONDS = 1;

/**
 * The chain's RPC could not be read (no endpoint answered, or none in time): a request that needs the chain cannot
 * be answered now, and can be shortly. Never "no quotes" nor "database": nothing was judged, nothing was stored.
 */
export class ChainUnavailableError extends SluiceBaseError {
  override name = "ChainUnavailableError";
  readonly retryAfterSeconds = CHAIN_RETRY_AFTER_SECONDS;
  constructor(chain: ChainName, options: { cause?: unknown } = {}) {
    super(
      `The chain ${chain.name} (${chain.chainId}) is unavailable: its RPC did not answer; retry shortly`,
      {
        details: { chainId: chain.chainId, chain: chain.name, retryAfterSeconds: CHAIN_RETRY_AFTER_SECONDS },
        ...(options.cause !== undefined ? { cause: options.cause } : {}),
      },
    );
  }
}
