// `sluice points verify --block <b>`: the points at block b computed twice from the chain alone, by the engine's
// path (the ledger stepped over the stake events) and by the replay's (every block's state read through the
// contracts' views, per-block per-receiver arithmetic), and every difference between them.
import type { ChainPublicClient } from "../chain/client.ts";
import type { PointsEngineConfig } from "../deployment/schema.ts";
import { readStakeEvents } from "./chain/logs.ts";
import { readScope } from "./chain/scope.ts";
import { readChainState } from "./chain/state.ts";
import { PointsLedger } from "./ledger/points-ledger.ts";
import type { Address, ChainStateParticipants, StakeEvent } from "./model.ts";
import { compareWithReplay, type ReplayComparison, replayPoints } from "./replay.ts";

export interface VerifyOptions {
  client: ChainPublicClient;
  config: PointsEngineConfig;
  block: bigint;
  /** Each block the replay has done, and how many it does. */
  onBlock?: (block: bigint, of: { from: bigint; to: bigint }) => void;
}

export async function verifyPointsAt(options: VerifyOptions): Promise<ReplayComparison> {
  const { client, config, block } = options;
  const scope = await readScope(client, config, config.startBlock);
  const history = config.historyFromBlock ?? config.startBlock;
  const accrualStart = config.startBlock - 1n;
  const origin = await client.getBlock({ blockNumber: history - 1n });
  const ledger = PointsLedger.create(scope, {
    block: origin.number,
    timestamp: origin.timestamp,
    accrualStartBlock: accrualStart,
  });
  const events = await readStakeEvents(client, scope, history, block);
  const participants = participantsOf(
    scope.vaults,
    events.flatMap((b) => b.events),
  );
  const header = async (number: bigint) => (await client.getBlock({ blockNumber: number })).timestamp;
  // The engine's path: the ledger stepped at the accrual start, at every event block and at b.
  const points = new Map(events.map((b) => [b.number, b]));
  if (accrualStart >= history && !points.has(accrualStart))
    points.set(accrualStart, {
      number: accrualStart,
      hash: "0x",
      timestamp: await header(accrualStart),
      events: [],
    });
  if (!points.has(block))
    points.set(block, { number: block, hash: "0x", timestamp: await header(block), events: [] });
  for (const step of [...points.values()].sort((a, b) => (a.number < b.number ? -1 : 1)))
    ledger.step({ number: step.number, timestamp: step.timestamp, events: step.events });
  const receivers = scope.vaults.flatMap((vault) => ledger.receivers(vault.address));
  const replay = await replayPoints({
    scope,
    fromBlock: accrualStart,
    toBlock: block,
    readState: (at) => readChainState(client, scope, participants, at),
    ...(options.onBlock
      ? { onBlock: (at: bigint) => options.onBlock!(at, { from: accrualStart, to: block }) }
      : {}),
  });
  return compareWithReplay({ snapshot: ledger.snapshot(), receivers }, replay);
}

/** Every staker that ever held shares in a vault, and every operator that could hold stake, by the events. */
function participantsOf(
  vaults: ReadonlyArray<{ address: Address; operator?: Address }>,
  events: readonly StakeEvent[],
): ChainStateParticipants {
  const stakers = new Map<Address, Set<Address>>(vaults.map((vault) => [vault.address, new Set()]));
  const operators = new Set<Address>(vaults.flatMap((vault) => (vault.operator ? [vault.operator] : [])));
  for (const event of events) {
    if (event.kind === "deposit") stakers.get(event.vault)?.add(event.staker);
    else if (event.kind === "shareTransfer") {
      stakers.get(event.vault)?.add(event.to);
      stakers.get(event.vault)?.add(event.from);
    } else if (event.kind === "operatorNetworkShares" || event.kind === "optIn")
      operators.add(event.operator);
  }
  return {
    stakers: [...stakers].map(([vault, set]) => ({ vault, stakers: [...set] })),
    operators: [...operators],
  };
}
