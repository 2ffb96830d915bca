// The backfill's hot path: every stake event of the scope in a block range, read with ONE eth_getLogs filter per
// range (all the scope's contracts, all the event topics), decoded by hand (every field is a static word), grouped
// by block in log order. A range the RPC refuses ("too many results", "block range too large", …) is halved until
// it is accepted, and the ranges after it start at the accepted size. A block's timestamp comes with its logs where
// the node adds `blockTimestamp` (anvil, recent geth and reth); otherwise its header is read by hash, and only for
// blocks that have events. Blocks without events are never read.
//
// What is kept: vault Deposit/Withdraw/OnSlash; a tokenized vault's Transfer between two holders (its mint and burn
// Transfers repeat a Deposit or Withdraw); the delegators' SetMaxNetworkLimit/SetNetworkLimit/
// SetOperatorNetworkShares for the scope's subnetworks; OptIn/OptOut into the scope's networks and vaults; the
// feeds' AnswerUpdated.
import { type Address, BaseError, type Hex, toEventSelector } from "viem";
import type { ChainPublicClient } from "../../chain/client.ts";
import type { BlockEvents, StakeEvent } from "../model.ts";
import {
  networkRestakeDelegatorAbi,
  optInServiceAbi,
  priceFeedAbi,
  vaultAbi,
  vaultTokenizedAbi,
} from "./abis.ts";
import { BlockReorganisedError, LogRangeRefusedError } from "./errors.ts";
import type { ChainScope } from "./scope.ts";

const topicOf = (abi: readonly unknown[], name: string): Hex => {
  const event = (abi as { type: string; name?: string }[]).find(
    (item) => item.type === "event" && item.name === name,
  );
  if (!event) throw new Error(`no event ${name} in the ABI`);
  return toEventSelector(event as never);
};

export const STAKE_EVENT_TOPICS = {
  deposit: topicOf(vaultAbi, "Deposit"),
  withdraw: topicOf(vaultAbi, "Withdraw"),
  onSlash: topicOf(vaultAbi, "OnSlash"),
  transfer: topicOf(vaultTokenizedAbi, "Transfer"),
  setMaxNetworkLimit: topicOf(networkRestakeDelegatorAbi, "SetMaxNetworkLimit"),
  setNetworkLimit: topicOf(networkRestakeDelegatorAbi, "SetNetworkLimit"),
  setOperatorNetworkShares: topicOf(networkRestakeDelegatorAbi, "SetOperatorNetworkShares"),
  optIn: topicOf(optInServiceAbi, "OptIn"),
  optOut: topicOf(optInServiceAbi, "OptOut"),
  answerUpdated: topicOf(priceFeedAbi, "AnswerUpdated"),
} as const;

/** Every stake event's topic: one filter position matching any of them. */
const STAKE_TOPICS = Object.values(STAKE_EVENT_TOPICS);

export interface ReadStakeEventsOptions {
  /** The widest range one eth_getLogs asks for (default 10,000 blocks); a refused range is halved. */
  maxBlockRange?: bigint;
  /** eth_getLogs requests in flight at once (default 4). */
  concurrency?: number;
}

/** A log as eth_getLogs answers it (the fields read here). */
interface RpcLog {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  blockTimestamp?: Hex;
  logIndex: Hex;
}

/** The scope turned into lookups: which contract plays which part. */
interface Roles {
  addresses: Address[];
  vaults: Set<string>;
  delegatorVault: Map<string, Address>;
  feedCollateral: Map<string, Address>;
  networkService: string;
  vaultService: string;
  networks: Set<string>;
  subnetworks: Set<string>;
}

function rolesOf(scope: ChainScope): Roles {
  const lower = (a: string) => a.toLowerCase() as Address;
  const vaults = new Set(scope.vaults.map((v) => lower(v.address)));
  const delegatorVault = new Map(scope.delegators.map((d) => [lower(d.delegator), lower(d.vault)]));
  const feedCollateral = new Map(scope.priceFeeds.map((f) => [lower(f.feed), lower(f.collateral)]));
  const networkService = lower(scope.optInServices.network);
  const vaultService = lower(scope.optInServices.vault);
  return {
    addresses: [
      ...vaults,
      ...delegatorVault.keys(),
      ...feedCollateral.keys(),
      networkService,
      vaultService,
    ] as Address[],
    vaults,
    delegatorVault,
    feedCollateral,
    networkService,
    vaultService,
    networks: new Set(scope.networks.map((n) => lower(n.address))),
    subnetworks: new Set(scope.networks.flatMap((n) => n.subnetworks.map((s) => s.toLowerCase()))),
  };
}

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
const addressOfTopic = (topic: Hex) => `0x${topic.slice(26)}`.toLowerCase() as Address;
const wordOf = (data: Hex, index: number) => BigInt(`0x${data.slice(2 + 64 * index, 2 + 64 * (index + 1))}`);

/** The stake event a log is, or undefined when it is none of the scope's. */
function decodeStakeLog(
  log: Pick<RpcLog, "address" | "topics" | "data">,
  roles: Roles,
): StakeEvent | undefined {
  const address = log.address.toLowerCase() as Address;
  const [topic, t1, t2] = log.topics;
  const T = STAKE_EVENT_TOPICS;
  if (roles.vaults.has(address)) {
    if (topic === T.deposit)
      return {
        kind: "deposit",
        vault: address,
        staker: addressOfTopic(t2!),
        amount: wordOf(log.data, 0),
        shares: wordOf(log.data, 1),
      };
    if (topic === T.withdraw)
      return {
        kind: "withdraw",
        vault: address,
        staker: addressOfTopic(t1!),
        amount: wordOf(log.data, 0),
        burnedShares: wordOf(log.data, 1),
      };
    if (topic === T.onSlash) return { kind: "slash", vault: address, slashedAmount: wordOf(log.data, 2) };
    if (topic === T.transfer) {
      const from = addressOfTopic(t1!);
      const to = addressOfTopic(t2!);
      if (from === ZERO_ADDRESS || to === ZERO_ADDRESS) return undefined;
      return { kind: "shareTransfer", vault: address, from, to, shares: wordOf(log.data, 0) };
    }
    return undefined;
  }
  const delegated = roles.delegatorVault.get(address);
  if (delegated) {
    const subnetwork = t1?.toLowerCase() as Hex | undefined;
    if (!subnetwork || !roles.subnetworks.has(subnetwork)) return undefined;
    if (topic === T.setMaxNetworkLimit)
      return { kind: "maxNetworkLimit", vault: delegated, subnetwork, amount: wordOf(log.data, 0) };
    if (topic === T.setNetworkLimit)
      return { kind: "networkLimit", vault: delegated, subnetwork, amount: wordOf(log.data, 0) };
    if (topic === T.setOperatorNetworkShares)
      return {
        kind: "operatorNetworkShares",
        vault: delegated,
        subnetwork,
        operator: addressOfTopic(t2!),
        shares: wordOf(log.data, 0),
      };
    return undefined;
  }
  const collateral = roles.feedCollateral.get(address);
  if (collateral) {
    if (topic !== T.answerUpdated) return undefined;
    // The answer is an indexed int256 (a feed's answer may be negative).
    return { kind: "price", collateral, answer: BigInt.asIntN(256, BigInt(t1!)) };
  }
  const service =
    address === roles.networkService ? "network" : address === roles.vaultService ? "vault" : undefined;
  if (service && (topic === T.optIn || topic === T.optOut)) {
    const target = addressOfTopic(t2!);
    if (!(service === "network" ? roles.networks : roles.vaults).has(target)) return undefined;
    return { kind: topic === T.optIn ? "optIn" : "optOut", service, operator: addressOfTopic(t1!), target };
  }
  return undefined;
}

/** Whether an RPC error says the range (or its answer) is too large, rather than that the node is down. */
export function isRangeRefusal(error: unknown): boolean {
  const pattern =
    /too many|more than \d+|limit (exceeded|reached)|exceeds? (the )?(max|limit)|block range|range (is )?too (large|wide|big)|response (size|is too)|query timeout|max(imum)? (results|range|block)/i;
  const texts: string[] = [];
  let code: number | undefined;
  const visit = (e: unknown) => {
    if (!e || typeof e !== "object") return;
    const record = e as { message?: unknown; details?: unknown; shortMessage?: unknown; code?: unknown };
    for (const text of [record.message, record.details, record.shortMessage])
      if (typeof text === "string") texts.push(text);
    if (typeof record.code === "number") code ??= record.code;
  };
  if (error instanceof BaseError)
    error.walk((e) => {
      visit(e);
      return false;
    });
  else visit(error);
  return code === -32005 || texts.some((text) => pattern.test(text));
}

export async function readStakeEvents(
  client: ChainPublicClient,
  scope: ChainScope,
  fromBlock: bigint,
  toBlock: bigint,
  options: ReadStakeEventsOptions = {},
): Promise<BlockEvents[]> {
  if (toBlock < fromBlock) return [];
  const roles = rolesOf(scope);
  let range = options.maxBlockRange ?? 10_000n;
  if (range < 1n) range = 1n;

  const getLogs = (from: bigint, to: bigint) =>
    client.request({
      method: "eth_getLogs",
      params: [
        {
          fromBlock: `0x${from.toString(16)}`,
          toBlock: `0x${to.toString(16)}`,
          address: roles.addresses,
          topics: [STAKE_TOPICS],
        },
      ],
    } as never) as Promise<RpcLog[]>;

  /** The logs of [from, to], halving on refusal; later ranges start at the size that was accepted. */
  const logsOf = async (from: bigint, to: bigint): Promise<RpcLog[]> => {
    try {
      return await getLogs(from, to);
    } catch (error) {
      if (!isRangeRefusal(error)) throw error;
      if (from === to) throw new LogRangeRefusedError(from, { cause: error });
      const half = (to - from + 1n) / 2n;
      if (half < range) range = half;
      const mid = from + half - 1n;
      const first = await logsOf(from, mid);
      const second = await logsOf(mid + 1n, to);
      return first.concat(second);
    }
  };

  // Ranges are taken in order by a few workers; each result lands in its own slot, so order is kept.
  const results: RpcLog[][] = [];
  let next = fromBlock;
  const takeRange = (): { index: number; from: bigint; to: bigint } | undefined => {
    if (next > toBlock) return undefined;
    const from = next;
    const to = from + range - 1n < toBlock ? from + range - 1n : toBlock;
    next = to + 1n;
    results.push([]);
    return { index: results.length - 1, from, to };
  };
  const worker = async () => {
    for (let task = takeRange(); task; task = takeRange())
      results[task.index] = await logsOf(task.from, task.to);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));

  const blocks: BlockEvents[] = [];
  const needHeader: BlockEvents[] = [];
  let current: BlockEvents | undefined;
  for (const chunk of results) {
    for (const log of chunk) {
      const event = decodeStakeLog(log, roles);
      if (!event) continue;
      const number = BigInt(log.blockNumber);
      if (!current || current.number !== number) {
        current = {
          number,
          hash: log.blockHash,
          timestamp: log.blockTimestamp ? BigInt(log.blockTimestamp) : -1n,
          events: [],
        };
        blocks.push(current);
        if (!log.blockTimestamp) needHeader.push(current);
      } else if (current.hash !== log.blockHash) {
        throw new BlockReorganisedError(number, log.blockHash);
      }
      current.events.push(event);
    }
  }
  await readTimestamps(client, needHeader, options.concurrency ?? 4);
  return blocks;
}

/**
 * The stake events of one block, read by its hash (`eth_getLogs` with `blockHash`): a node that does not have the
 * block refuses the filter, where a range reaching past its head may answer with the blocks it has and no error
 * (older clients, a load balancer's lagging node). Read so for every block not yet final.
 */
export async function readBlockStakeEvents(
  client: ChainPublicClient,
  scope: ChainScope,
  block: { number: bigint; hash: Hex },
): Promise<StakeEvent[]> {
  const roles = rolesOf(scope);
  const logs = (await client.request({
    method: "eth_getLogs",
    params: [{ blockHash: block.hash, address: roles.addresses, topics: [STAKE_TOPICS] }],
  } as never)) as RpcLog[];
  const events: StakeEvent[] = [];
  for (const log of logs) {
    if (log.blockHash !== block.hash || BigInt(log.blockNumber) !== block.number)
      throw new BlockReorganisedError(block.number, log.blockHash);
    const event = decodeStakeLog(log, roles);
    if (event) events.push(event);
  }
  return events;
}

/** Fills in the timestamps the logs did not carry, from each block's header read by hash. */
async function readTimestamps(
  client: ChainPublicClient,
  blocks: BlockEvents[],
  concurrency: number,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < blocks.length) {
      const block = blocks[next++]!;
      const header = (await client.request({
        method: "eth_getBlockByHash",
        params: [block.hash, false],
      } as never)) as { timestamp: Hex } | null;
      if (!header) throw new BlockReorganisedError(block.number, block.hash);
      block.timestamp = BigInt(header.timestamp);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
}
