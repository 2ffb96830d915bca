// A scripted chain for the points engine's tests: blocks with stake events, generated from a seed (so a child process
// rebuilds the same chain), served through the engine's chain-source interface; a reorg replaces its newest blocks.
import { keccak256, toHex } from "viem";
import type { BlockHeader, PointsChainSource } from "../../src/points-engine/chain-source.ts";
import type { LedgerFactory } from "../../src/points-engine/follower.ts";
import { PointsLedger } from "../../src/points-engine/ledger/points-ledger.ts";
import type { Address, BlockEvents, Hex, LedgerScope, StakeEvent } from "../../src/points-engine/model.ts";
import { mulberry32 } from "../../src/shared/seeded-random.ts";

const at = (prefix: string, n: number) =>
  `0x${prefix}${n.toString(16).padStart(40 - prefix.length, "0")}` as Address;

export const NETWORK = at("a1", 1);
export const SUBNETWORK = `${NETWORK}${"0".repeat(24)}` as Hex;
export const OPERATORS = [at("b2", 1), at("b2", 2)];
export const VAULTS = [at("d4", 1), at("d4", 2)];
export const COLLATERALS = [at("c3", 1), at("c3", 2)];
export const STAKERS = Array.from({ length: 5 }, (_, i) => at("99", i + 1));
export const CURATOR = at("e5", 1);

export const SCOPE: LedgerScope = {
  networks: [
    {
      address: NETWORK,
      subnetworks: [SUBNETWORK],
      ratePerUsdHour: 25n * 10n ** 44n,
      operatorFeeBps: 300,
      networkShareBps: 100,
    },
  ],
  vaults: [
    {
      address: VAULTS[0]!,
      collateral: COLLATERALS[0]!,
      collateralDecimals: 6,
      delegatorType: "networkRestake",
      curatorFeeBps: 0,
    },
    {
      address: VAULTS[1]!,
      collateral: COLLATERALS[1]!,
      collateralDecimals: 18,
      delegatorType: "networkRestake",
      curator: CURATOR,
      curatorFeeBps: 500,
    },
  ],
  priceFeeds: [
    { collateral: COLLATERALS[0]!, feed: at("f6", 1), decimals: 8, initialAnswer: 100_000_000n },
    { collateral: COLLATERALS[1]!, feed: at("f6", 2), decimals: 8, initialAnswer: 250_000_000_000n },
  ],
};

export const scopedLedgers: LedgerFactory = {
  create: (start) => PointsLedger.create(SCOPE, start),
  restore: (records) => PointsLedger.restore(SCOPE, records),
};

/** Opt-ins, limits and shares that make every vault's stake count for the network. */
export function setupEvents(): StakeEvent[] {
  const events: StakeEvent[] = [];
  for (const operator of OPERATORS) {
    events.push({ kind: "optIn", service: "network", operator, target: NETWORK });
    for (const vault of VAULTS) events.push({ kind: "optIn", service: "vault", operator, target: vault });
  }
  for (const [index, vault] of VAULTS.entries()) {
    const limit = 10n ** (index === 0 ? 15n : 27n);
    events.push({ kind: "maxNetworkLimit", vault, subnetwork: SUBNETWORK, amount: limit });
    events.push({ kind: "networkLimit", vault, subnetwork: SUBNETWORK, amount: limit });
    for (const [i, operator] of OPERATORS.entries())
      events.push({
        kind: "operatorNetworkShares",
        vault,
        subnetwork: SUBNETWORK,
        operator,
        shares: BigInt(i + 1),
      });
  }
  return events;
}

interface ScriptedBlock {
  number: bigint;
  hash: Hex;
  timestamp: bigint;
  events: StakeEvent[];
}

export class ScriptedPointsChain implements PointsChainSource {
  readonly blocks: ScriptedBlock[] = [];
  #salt = 0;
  /** Shares held per vault and staker, to script withdrawals that are possible. */
  readonly #shares = new Map<string, bigint>();
  /** Calls of each kind, for tests that count reads. */
  readonly calls = { header: 0, events: 0, blockEvents: 0 };

  constructor(genesisTimestamp = 1_700_000_000n) {
    this.#push([], genesisTimestamp);
  }

  /** A chain of `count` blocks after genesis: setup at block 1, then random deposits and withdrawals. */
  static generate(seed: number, count: number): ScriptedPointsChain {
    const chain = new ScriptedPointsChain();
    const random = mulberry32(seed);
    chain.mine(setupEvents());
    for (let i = 1; i < count; i++)
      chain.mine(random() < 0.3 ? [chain.randomEvent(random)] : [], 1 + Math.floor(random() * 20));
    return chain;
  }

  get head(): bigint {
    return this.blocks.at(-1)!.number;
  }

  mine(events: StakeEvent[] = [], seconds = 12): ScriptedBlock {
    for (const event of events) this.#track(event);
    return this.#push(events, this.blocks.at(-1)!.timestamp + BigInt(seconds));
  }

  /** Replaces the newest `depth` blocks with `replacement` (each a block's events): new hashes from the fork on. */
  reorg(depth: number, replacement: StakeEvent[][]): void {
    this.#salt++;
    this.blocks.splice(this.blocks.length - depth, depth);
    this.#shares.clear();
    for (const block of this.blocks) for (const event of block.events) this.#track(event);
    for (const events of replacement) this.mine(events, 7);
  }

  randomEvent(random: () => number): StakeEvent {
    const vault = VAULTS[Math.floor(random() * VAULTS.length)]!;
    const staker = STAKERS[Math.floor(random() * STAKERS.length)]!;
    const held = this.#shares.get(`${vault}:${staker}`) ?? 0n;
    const unit = vault === VAULTS[0] ? 10n ** 6n : 10n ** 18n;
    if (held > 0n && random() < 0.35) {
      const burnedShares = held / 2n + 1n;
      return { kind: "withdraw", vault, staker, amount: burnedShares, burnedShares };
    }
    const amount = BigInt(1 + Math.floor(random() * 5_000)) * unit;
    return { kind: "deposit", vault, staker, amount, shares: amount };
  }

  async headNumber(): Promise<bigint> {
    return this.head;
  }

  async header(number: bigint): Promise<BlockHeader | undefined> {
    this.calls.header++;
    const block = this.blocks[Number(number)];
    return block && { number: block.number, hash: block.hash, timestamp: block.timestamp };
  }

  async events(from: bigint, to: bigint): Promise<BlockEvents[]> {
    this.calls.events++;
    return this.blocks
      .slice(Number(from), Number(to) + 1)
      .filter((block) => block.events.length > 0)
      .map((block) => ({
        number: block.number,
        hash: block.hash,
        timestamp: block.timestamp,
        events: block.events,
      }));
  }

  /** A block's events by its header's hash, as `eth_getLogs` with `blockHash` reads them: refused for a block not on the chain. */
  async blockEvents(header: BlockHeader): Promise<StakeEvent[]> {
    this.calls.blockEvents++;
    const block = this.blocks[Number(header.number)];
    if (!block || block.hash !== header.hash) throw new Error(`unknown block ${header.hash}`);
    return block.events;
  }

  #push(events: StakeEvent[], timestamp: bigint): ScriptedBlock {
    const number = BigInt(this.blocks.length);
    const block = { number, hash: keccak256(toHex(`${number}:${this.#salt}`)), timestamp, events };
    this.blocks.push(block);
    return block;
  }

  #track(event: StakeEvent): void {
    if (event.kind === "deposit") {
      const key = `${event.vault}:${event.staker}`;
      this.#shares.set(key, (this.#shares.get(key) ?? 0n) + event.shares);
    } else if (event.kind === "withdraw") {
      const key = `${event.vault}:${event.staker}`;
      this.#shares.set(key, (this.#shares.get(key) ?? 0n) - event.burnedShares);
    }
  }
}
