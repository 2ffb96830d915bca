// The local devnet behind `npm start`: anvil (a block a second, an ephemeral port, its state in the data
// directory), the project's contracts deployed once and reused across restarts, a faucet, the two bundled
// reference solvers (alpha internal, beta external) and a demo curator authorized on the tUSD adapter, whose
// discount the service publishes once it listens (src/demo/discount.ts). The result is a Deployment built in memory,
// with the secrets it needs, for the server.
//
// Files, all under `<dataDir>/devnet/` (one data directory per instance, so devnets never share a file):
//   anvil-state.json  the chain (anvil `--state`: loaded at start, written every second and on stop)
//   devnet.json       what was deployed, on which chain: the devnet's identity (record.ts)
//   deployment.json   the Deployment the server runs on, for people to read (rewritten at every start)
//   endpoints.json    where this run's API, internal API and RPC listen, for scripts such as examples/swap.ts
//   added-solvers.json  the solvers `sluice devnet add-solver` added, with their secrets (0600; added-solvers.ts)
//   processes.json    the running anvil and its watchdog, so a start after a SIGKILL stops them (processes.ts)
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { BlockNotFoundError, createTestClient, type Hex, isAddressEqual, type LocalAccount } from "viem";
import {
  type ChainPublicClient,
  createChainPublicClient,
  createChainWalletClient,
  createRpcTransport,
} from "../chain/client.ts";
import { authorizeDemoCurator } from "../demo/discount.ts";
import type { Deployment } from "../deployment/schema.ts";
import type { ChainIdentity } from "../indexer/chain-identity.ts";
import type { Logger } from "../logger.ts";
import { parseSolverConfig } from "../reference-solver/config.ts";
import { type ReferenceSolver, startReferenceSolver } from "../reference-solver/main.ts";
import { writeJsonAtomically } from "../shared/json-file.ts";
import type { AddedSolver } from "../solvers/registry.ts";
import { DEVNET_ACCOUNT_COUNT, type DevnetAccounts, devnetAccounts } from "./accounts.ts";
import { type AnvilInstance, startAnvil } from "./anvil.ts";
import { type CoreDeployment, DEV_MNEMONIC, deployCoreContracts } from "./deploy.ts";
import { BUNDLED_SOLVERS, DEVNET_CHAIN_ID, devnetDeployment, devnetTokens } from "./deployment.ts";
import { DevFaucet, faucetAssetsFor } from "./faucet.ts";
import { deployPointsContracts, type PointsDeployment, plannedPointsContracts } from "./points-deploy.ts";
import { type PointsPlan, pointsPlan } from "./points-plan.ts";
import { clearDevnetProcesses, recordDevnetProcesses, stopLeftoverProcesses } from "./processes.ts";
import { type DevnetRecord, devnetIdentity, readDevnetRecord, writeDevnetRecord } from "./record.ts";

/** tRWA minted to each demo account at deployment. */
export const DEMO_ACCOUNT_RWA = 1_000_000n * 10n ** 18n;

/** How often anvil writes its state file while running, so a crash loses at most this many seconds of chain. */
const STATE_INTERVAL_SECONDS = 1;

export interface DevnetChainOptions {
  dataDir: string;
  logger: Logger;
  /** Seconds between blocks (default 1), so chain time moves on an idle devnet. */
  blockTime?: number;
}

export interface DevnetOptions extends DevnetChainOptions {
  /** Sluice's API base (e.g. `http://127.0.0.1:8080/api/v1`): the bundled solvers poll it for won orders. */
  apiUrl: string;
  /** Sluice's internal API base on its internal listener: the bundled internal solver resolves discounts there. */
  internalApiUrl: string;
  /** Resolves once the API listens: the bundled solvers' first poll waits for it (default: poll at once). */
  apiListening?: Promise<void>;
}

export interface DevnetFiles {
  dir: string;
  anvilState: string;
  record: string;
  deployment: string;
  endpoints: string;
  processes: string;
  addedSolvers: string;
}

/** anvil with the contracts deployed (or reused), and the faucet on it. */
export interface DevnetChain {
  rpcUrl: string;
  chainId: number;
  /** The genesis hash anvil reported when the contracts were deployed (for people; not the identity). */
  genesisHash: Hex;
  /** What the stored swap state belongs to: the chain id and the hash of the block that deployed the Reactor. */
  identity: ChainIdentity;
  core: CoreDeployment;
  /** The points contracts (registries, vaults, delegators, feeds) and where they were deployed. */
  points: DevnetPoints;
  accounts: DevnetAccounts;
  /** The deployment's protocol signer (a dev account: local only). */
  protocolSigner: LocalAccount;
  faucet: DevFaucet;
  /** True when this start deployed the contracts (a new or lost chain), false when it reused them. */
  deployedNow: boolean;
  files: DevnetFiles;
  /** How long the start took, in milliseconds. */
  startupMs: number;
  /** Stops anvil, which writes its state file on the way out. */
  stop(): Promise<void>;
}

/** The devnet's points contracts: the plan (addresses, actors, initial state) and the block they start at. */
export interface DevnetPoints extends PointsDeployment {
  plan: PointsPlan;
  /** True when this start deployed them. */
  deployedNow: boolean;
}

/** The two bundled reference solvers running on a devnet chain, and the Deployment that names them. */
export interface BundledSolvers {
  solvers: ReferenceSolver[];
  /** Generated for this run, by solver id (and the added solvers' stored ones); passed in memory only. */
  solverSecrets: Map<string, string>;
  /** Each bundled solver's base URL, by solver id. */
  solverEndpoints: ReadonlyMap<string, string>;
  /** The bundled solvers, then the added ones. */
  deployment: Deployment;
  /** Stops their polling for won orders; their quote servers answer on until stop(). */
  stopFilling(): Promise<void>;
  stop(): Promise<void>;
}

export function devnetFiles(dataDir: string): DevnetFiles {
  const dir = join(dataDir, "devnet");
  return {
    dir,
    anvilState: join(dir, "anvil-state.json"),
    record: join(dir, "devnet.json"),
    deployment: join(dir, "deployment.json"),
    endpoints: join(dir, "endpoints.json"),
    processes: join(dir, "processes.json"),
    addedSolvers: join(dir, "added-solvers.json"),
  };
}

export async function startDevnetChain(options: DevnetChainOptions): Promise<DevnetChain> {
  const started = performance.now();
  const { logger } = options;
  const files = devnetFiles(options.dataDir);
  mkdirSync(files.dir, { recursive: true });
  const accounts = devnetAccounts();
  const blockTime = options.blockTime ?? 1;
  await stopLeftoverProcesses(files.processes, files.dir, logger);
  const anvil = await startDevnetAnvil(files, blockTime, logger);
  recordDevnetProcesses(files.processes, [
    { role: "anvil", stopSignal: "SIGINT", pid: anvil.process.pid },
    { role: "anvil watchdog", stopSignal: "SIGKILL", pid: anvil.watchdogPid },
  ]);
  const stopAnvil = async () => {
    await anvil.stop();
    clearDevnetProcesses(files.processes);
  };
  try {
    const publicClient = createChainPublicClient({
      chainId: DEVNET_CHAIN_ID,
      rpcUrls: anvil.rpcUrl,
      pollingIntervalMs: 100,
      cacheTimeMs: 0,
    });
    const { record, deployedNow, pointsDeployedNow } = await deployOrReuse(
      publicClient,
      anvil.rpcUrl,
      files,
      accounts,
      blockTime,
      logger,
    );
    const faucet = new DevFaucet({
      chainId: record.chainId,
      rpcUrl: anvil.rpcUrl,
      owner: accounts.deployer.account,
      assets: faucetAssetsFor(devnetTokens(record.core)),
    });
    const startupMs = Math.round(performance.now() - started);
    logger.info(
      {
        rpcUrl: anvil.rpcUrl,
        chainId: record.chainId,
        genesisHash: record.genesisHash,
        reactorBlock: Number(record.core.reactorBlock),
        reactorBlockHash: record.reactorBlockHash,
        reactor: record.core.reactor,
        deployedNow,
        pointsStartBlock: Number(record.points!.startBlock),
        startupMs,
        stateFile: files.anvilState,
        // anvil's well-known dev keys: public knowledge, for a local chain only.
        demoAccounts: accounts.demo.map((demo) => ({
          address: demo.account.address,
          privateKey: demo.privateKey,
        })),
      },
      "devnet chain ready",
    );
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: record.chainId,
      genesisHash: record.genesisHash,
      identity: devnetIdentity(record),
      core: record.core,
      points: { plan: pointsPlan(), startBlock: record.points!.startBlock, deployedNow: pointsDeployedNow },
      accounts,
      protocolSigner: accounts.protocol.account,
      faucet,
      deployedNow,
      files,
      startupMs,
      stop: stopAnvil,
    };
  } catch (error) {
    await stopAnvil();
    throw error;
  }
}

/**
 * Starts the bundled reference solvers on the devnet chain (ephemeral ports, EOAs from the dev accounts, secrets
 * generated now) and builds the Deployment with their endpoints, also written to deployment.json.
 */
export async function startBundledSolvers(
  chain: DevnetChain,
  options: Pick<DevnetOptions, "apiUrl" | "internalApiUrl" | "apiListening" | "logger"> & {
    /** Solvers `sluice devnet add-solver` added (already checked against this chain): in the Deployment too. */
    added?: readonly AddedSolver[];
  },
): Promise<BundledSolvers> {
  const { core } = chain;
  const solverSecrets = new Map(
    BUNDLED_SOLVERS.map((solver) => [solver.id, randomBytes(32).toString("hex")]),
  );
  const started = await Promise.allSettled(
    BUNDLED_SOLVERS.map((bundled, index) => {
      const config = parseSolverConfig(
        {
          solverId: bundled.id,
          apiUrl: options.apiUrl,
          chainId: chain.chainId,
          rpcUrls: [chain.rpcUrl],
          executor: core.executors[index],
          reactor: core.reactor,
          adapters: [core.adapters.usd, core.adapters.usdt],
          marginBps: bundled.marginBps,
          // An internal solver resolves discounts on Sluice's internal listener.
          internal: bundled.internal,
          ...(bundled.internal ? { internalApiUrl: options.internalApiUrl } : {}),
          port: 0,
          host: "127.0.0.1",
          sharedSecretEnv: bundled.sharedSecretEnv,
          privateKeyEnv: bundled.privateKeyEnv,
        },
        `devnet solver ${bundled.id}`,
      );
      return startReferenceSolver(config, {
        sharedSecret: solverSecrets.get(bundled.id)!,
        privateKey: chain.accounts.solvers[index]!.privateKey,
        logger: options.logger,
        ...(options.apiListening ? { apiListening: options.apiListening } : {}),
      });
    }),
  );
  const solvers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const stop = async () => {
    await Promise.all(solvers.splice(0).map((solver) => solver.stop()));
  };
  const stopFilling = async () => {
    await Promise.all(solvers.map((solver) => solver.stopFilling()));
  };
  const failure = started.find((result) => result.status === "rejected");
  if (failure) {
    await stop();
    throw failure.reason;
  }

  const endpoints = new Map(BUNDLED_SOLVERS.map((bundled, index) => [bundled.id, solvers[index]!.url]));
  const added = options.added ?? [];
  for (const solver of added) solverSecrets.set(solver.id, solver.sharedSecret);
  const deployment = devnetDeployment({ core, points: chain.points, solverEndpoints: endpoints, added });
  writeJsonAtomically(chain.files.deployment, deployment);
  options.logger.info(
    {
      solvers: deployment.solvers.map((solver) => ({
        id: solver.id,
        endpoint: solver.endpoint,
        filler: solver.filler,
      })),
      deploymentFile: chain.files.deployment,
    },
    "devnet solvers ready",
  );
  return { solvers: [...solvers], solverSecrets, solverEndpoints: endpoints, deployment, stopFilling, stop };
}

/**
 * Starts anvil on the devnet's state file. A state file anvil cannot parse (a crash while it was being written)
 * is moved aside, with a warning, and the devnet starts on a fresh chain rather than not at all.
 */
async function startDevnetAnvil(
  files: DevnetFiles,
  blockTime: number,
  logger: Logger,
): Promise<AnvilInstance> {
  const start = () =>
    startAnvil({
      blockTime,
      stateFile: files.anvilState,
      chainId: DEVNET_CHAIN_ID,
      mnemonic: DEV_MNEMONIC,
      accounts: DEVNET_ACCOUNT_COUNT,
      args: ["--state-interval", String(STATE_INTERVAL_SECONDS)],
      onOutput: (line) => logger.trace({ anvil: line }, "anvil"),
    });
  try {
    return await start();
  } catch (error) {
    const unreadableState = existsSync(files.anvilState) && /--state|state file|parse/i.test(String(error));
    if (!unreadableState) throw error;
    const aside = `${files.anvilState}.unreadable-${Date.now()}`;
    renameSync(files.anvilState, aside);
    logger.warn(
      { movedTo: aside, err: error },
      "anvil could not load its state file; starting a fresh chain",
    );
    return start();
  }
}

/**
 * Reuses what devnet.json records when it describes the chain anvil is running (same chain id and genesis hash,
 * code at every contract); otherwise deploys everything and records it. A lost or replaced chain therefore
 * always gets a complete deployment, and a kept one is never deployed twice. The points contracts are a part of
 * their own: a kept chain recorded before them (or whose points contracts are gone) gets them alone, once.
 */
async function deployOrReuse(
  publicClient: ChainPublicClient,
  rpcUrl: string,
  files: DevnetFiles,
  accounts: DevnetAccounts,
  blockTime: number,
  logger: Logger,
): Promise<{ record: DevnetRecord; deployedNow: boolean; pointsDeployedNow: boolean }> {
  const chainId = await publicClient.getChainId();
  const clientOptions = { chainId, rpcUrls: rpcUrl, pollingIntervalMs: 100, cacheTimeMs: 0 };
  const wallet = (account: LocalAccount) => createChainWalletClient({ ...clientOptions, account });
  // The demo curator signs the discount published at every start (src/demo/discount.ts).
  const authorizeCurator = (core: CoreDeployment) =>
    authorizeDemoCurator({
      publicClient,
      marketMaker: wallet(accounts.marketMaker.account),
      adapter: core.adapters.usd,
      curator: accounts.curator.account.address,
      logger,
    });
  const plan = pointsPlan();
  // Every transaction mines at once while deploying (interval mining would add a second per dependent step);
  // the block time comes back right after.
  const testClient = createTestClient({ mode: "anvil", transport: createRpcTransport(rpcUrl) });
  const withAutomine = async <T>(work: () => Promise<T>): Promise<T> => {
    await testClient.setAutomine(true);
    try {
      return await work();
    } finally {
      if (blockTime > 0) await testClient.setIntervalMining({ interval: blockTime });
    }
  };
  const deployPoints = async () => {
    const started = performance.now();
    const points = await deployPointsContracts({ publicClient, rpcUrl, plan, pollingIntervalMs: 20 });
    logger.info(
      { startBlock: Number(points.startBlock), ms: Math.round(performance.now() - started) },
      "devnet: points contracts deployed",
    );
    return points;
  };

  const previous = readDevnetRecord(files.record);
  if (previous) {
    const problem = await reuseProblem(publicClient, previous, chainId, accounts);
    if (!problem) {
      logger.info(
        { deployedAt: previous.deployedAt, reactor: previous.core.reactor },
        "devnet: reusing the deployed contracts",
      );
      // A chain deployed before the demo curator existed gets it now (one transaction, once).
      await authorizeCurator(previous.core);
      const pointsProblem = await pointsReuseProblem(publicClient, previous, plan);
      if (!pointsProblem) return { record: previous, deployedNow: false, pointsDeployedNow: false };
      logger.info({ reason: pointsProblem }, "devnet: deploying the points contracts");
      const points = await withAutomine(deployPoints);
      return {
        record: writeDevnetRecord(files.record, { ...previous, points }),
        deployedNow: false,
        pointsDeployedNow: true,
      };
    }
    logger.warn({ reason: problem }, "devnet: devnet.json does not describe this chain; deploying again");
  }

  // The core and the points contracts have their own senders: they deploy side by side.
  const [core, points] = await withAutomine(() =>
    Promise.all([
      (async () => {
        const deployed = await deployCoreContracts({
          publicClient,
          deployer: wallet(accounts.deployer.account),
          protocolSigner: accounts.protocol.account.address,
          marketMaker: wallet(accounts.marketMaker.account),
          executors: accounts.solvers.map((solver) => ({ callers: [solver.account.address] })),
          swappers: accounts.demo.map((demo) => ({
            address: demo.account.address,
            amount: DEMO_ACCOUNT_RWA,
          })),
          pollingIntervalMs: 20,
        });
        await authorizeCurator(deployed);
        return deployed;
      })(),
      deployPoints(),
    ]),
  );
  // A chain deployed on now is new: it has one genesis block, and the Reactor's block is on it.
  const [genesis, reactorBlock] = await Promise.all([
    publicClient.getBlock({ blockNumber: 0n }),
    publicClient.getBlock({ blockNumber: core.reactorBlock }),
  ]);
  const record = writeDevnetRecord(files.record, {
    chainId,
    genesisHash: genesis.hash,
    reactorBlockHash: reactorBlock.hash,
    deployedAt: new Date().toISOString(),
    core,
    points,
  });
  logger.info(
    { reactor: record.core.reactor, startBlock: Number(core.startBlock) },
    "devnet: contracts deployed",
  );
  return { record, deployedNow: true, pointsDeployedNow: true };
}

/** Why the recorded points contracts cannot be reused on this (kept) chain, or undefined when they can. */
async function pointsReuseProblem(
  publicClient: ChainPublicClient,
  record: DevnetRecord,
  plan: PointsPlan,
): Promise<string | undefined> {
  if (!record.points) return "devnet.json records no points contracts";
  const contracts = plannedPointsContracts(plan);
  const codes = await Promise.all(contracts.map((address) => publicClient.getCode({ address })));
  const missing = contracts.filter((_, index) => !codes[index] || codes[index] === "0x");
  return missing.length > 0 ? `no code at ${missing.join(", ")}` : undefined;
}

async function reuseProblem(
  publicClient: ChainPublicClient,
  record: DevnetRecord,
  chainId: number,
  accounts: DevnetAccounts,
): Promise<string | undefined> {
  if (record.chainId !== chainId) return `recorded chain id ${record.chainId}, running ${chainId}`;
  const { core } = record;
  const reactorBlock = await publicClient
    .getBlock({ blockNumber: core.reactorBlock })
    .catch((error: unknown) => {
      if (error instanceof BlockNotFoundError) return undefined;
      throw error;
    });
  if (!reactorBlock) return `the chain ends before block ${core.reactorBlock}, which deployed the Reactor`;
  if (reactorBlock.hash !== record.reactorBlockHash)
    return "the chain was replaced (the block that deployed the Reactor differs)";
  if (!isAddressEqual(core.deployer, accounts.deployer.account.address)) return "a different deployer";
  if (!isAddressEqual(core.protocolSigner, accounts.protocol.account.address))
    return "a different protocol signer";
  if (core.executors.length !== BUNDLED_SOLVERS.length) return "a different number of bundled solvers";
  const contracts = [
    ...Object.values(core.tokens),
    ...Object.values(core.vaults),
    ...Object.values(core.adapters),
    core.adapterFactory,
    core.reactor,
    ...core.executors,
  ];
  const codes = await Promise.all(contracts.map((address) => publicClient.getCode({ address })));
  const missing = contracts.filter((_, index) => !codes[index] || codes[index] === "0x");
  return missing.length > 0 ? `no code at ${missing.join(", ")}` : undefined;
}
