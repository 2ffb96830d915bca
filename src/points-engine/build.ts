// The points engine of a deployment, built once: the chain source over the node (scope read once, stake events by
// eth_getLogs), the ledger factory over that scope, the follower and the running engine. Building reads nothing from
// the chain: the scope is read by the first step that needs it (and again after a failed read).
import type { ChainPublicClient } from "../chain/client.ts";
import type { HeadSource } from "../chain/heads.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { PointsEngineConfig } from "../deployment/schema.ts";
import type { Logger } from "../logger.ts";
import { readBlockStakeEvents, readStakeEvents } from "./chain/logs.ts";
import { type ChainScope, readScope } from "./chain/scope.ts";
import { type PointsChainSource, rpcChainSource } from "./chain-source.ts";
import { PointsEngine } from "./engine.ts";
import { type LedgerFactory, PointsFollower } from "./follower.ts";
import { PointsLedger } from "./ledger/points-ledger.ts";
import { EnginePositionWatch } from "./position-watch.ts";
import { OwnPoints } from "./serving.ts";
import { readStoredScope, scopeConfigKey, storeScope } from "./store/scope.ts";

export interface PointsEngineSetup {
  config: PointsEngineConfig;
  /** The deployment's confirmation depth: the engine's unless its section names its own. */
  confirmationDepth: number;
  finalityDepth: number;
  client: ChainPublicClient;
  database: Database;
  clock: Clock;
  logger: Logger;
  heads?: HeadSource;
  pollIntervalMs?: number;
  /** Blocks per step (and per transaction) at most during a backfill. */
  maxBlocksPerStep?: number;
}

export interface PointsEngineParts {
  config: PointsEngineConfig;
  confirmations: number;
  /** The scope as read from the chain (once). */
  scope(): Promise<ChainScope>;
  chain: PointsChainSource;
  /** Ledgers over the scope (restored from records: the serving side values receivers with them). */
  ledgers(): Promise<LedgerFactory>;
  follower: PointsFollower;
  engine: PointsEngine;
  /** The committed position as the serving routes read it (started before the listeners). */
  position: EnginePositionWatch;
  /** The own type as /points/* reads it. */
  own: OwnPoints;
}

export function buildPointsEngine(setup: PointsEngineSetup): PointsEngineParts {
  const { config, client } = setup;
  const confirmations = config.confirmations ?? setup.confirmationDepth;
  let scoped: Promise<ChainScope> | undefined;
  const configKey = scopeConfigKey(config);
  const storedOrRead = async (): Promise<ChainScope> => {
    const stored = await readStoredScope(setup.database, configKey);
    if (stored) return stored;
    const read = await readScope(client, config, config.startBlock);
    await storeScope(setup.database, configKey, read);
    return read;
  };
  const scope = () => {
    // Read at the start block, so every process and every restart counts with the same scope and initial prices; and
    // read there once: kept in the database, since a chain may not answer reads that far back later.
    scoped ??= storedOrRead().catch((error: unknown) => {
      scoped = undefined;
      throw error;
    });
    return scoped;
  };
  const ledgers = async (): Promise<LedgerFactory> => {
    const read = await scope();
    return {
      create: (start) => PointsLedger.create(read, start),
      restore: (records) => PointsLedger.restore(read, records),
    };
  };
  const chain = rpcChainSource(
    client,
    async (from, to) => readStakeEvents(client, await scope(), from, to),
    async (header) => readBlockStakeEvents(client, await scope(), header),
  );
  const follower = new PointsFollower({
    database: setup.database,
    clock: setup.clock,
    logger: setup.logger,
    chain,
    ledgers,
    startBlock: config.startBlock,
    ...(config.historyFromBlock === undefined ? {} : { historyFromBlock: config.historyFromBlock }),
    confirmations,
    finalityDepth: Math.max(setup.finalityDepth, confirmations),
    snapshotEveryBlocks: config.snapshotEveryBlocks,
    ...(setup.maxBlocksPerStep === undefined ? {} : { maxBlocksPerStep: setup.maxBlocksPerStep }),
  });
  const engine = new PointsEngine({
    database: setup.database,
    follower,
    logger: setup.logger,
    ...(setup.heads ? { heads: setup.heads } : {}),
    ...(setup.pollIntervalMs === undefined ? {} : { pollIntervalMs: setup.pollIntervalMs }),
  });
  const position = new EnginePositionWatch(setup.database, setup.logger);
  const own = new OwnPoints(
    setup.database,
    config.pointsType,
    new Set(config.vaults.map((vault) => vault.address)),
    ledgers,
    position,
  );
  return { config, confirmations, scope, chain, ledgers, follower, engine, position, own };
}
