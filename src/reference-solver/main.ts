// Starts the reference solver: its quote server (solver protocol) and its filler (polls Sluice for won orders and
// fills them through its Executor), on one chain. The CLI (`sluice solver --config …`) and the devnet both use it;
// the devnet passes the secret and key in memory.
import { once } from "node:events";
import { type Address, isAddressEqual } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { executorAbi } from "../chain/abis.ts";
import { createChainPublicClient, createChainWalletClient } from "../chain/client.ts";
import { createLogger, type Logger } from "../logger.ts";
import { SolverChainView } from "./chain-view.ts";
import type { ReferenceSolverConfig, ReferenceSolverSecrets } from "./config.ts";
import { InternalDiscountsClient } from "./discounts-client.ts";
import { OrderFiller } from "./filler.ts";
import { OrderStreamClient } from "./order-stream-client.ts";
import { OrdersClient } from "./orders-client.ts";
import { PollWakeup } from "./poll-wakeup.ts";
import { ReferenceQuoter } from "./quoter.ts";
import { SequentialSender } from "./sender.ts";
import { startQuoteServer } from "./server.ts";

export interface ReferenceSolverOptions extends ReferenceSolverSecrets {
  logger?: Logger;
  /**
   * The filler's first poll waits for this (the devnet starts its solvers moments before its API listens, and a
   * poll refused meanwhile is no news worth a warning). By default it polls at once.
   */
  apiListening?: Promise<void>;
}

export interface ReferenceSolver {
  /** The quote endpoint (`http://host:port{basePath}`), with the real port when bound to port 0. */
  url: string;
  /** The EOA that sends the fills. */
  account: Address;
  /**
   * Stops polling for won orders while quotes are still answered (the devnet, once its API starts draining, so no
   * poll meets the closed API). A fill already broadcast stays in flight.
   */
  stopFilling(): Promise<void>;
  /** Stops polling and serving; a fill already broadcast stays in flight (a restart waits for it). */
  stop(): Promise<void>;
}

/** The solver cannot fill on the configured chain and contracts. */
export class SolverStartupError extends Error {
  override name = "SolverStartupError";
}

export async function startReferenceSolver(
  config: ReferenceSolverConfig,
  options: ReferenceSolverOptions,
): Promise<ReferenceSolver> {
  const logger = (options.logger ?? createLogger()).child({ solver: config.solverId });
  const account = privateKeyToAccount(options.privateKey);
  const clientOptions = {
    chainId: config.chainId,
    rpcUrls: config.rpcUrls,
    pollingIntervalMs: config.pollIntervalMs,
    // Every read must see the newest block: fills are planned from it.
    cacheTimeMs: 0,
    ...(config.multicall3 ? { multicall3: config.multicall3 } : {}),
  };
  const client = createChainPublicClient(clientOptions);
  const wallet = createChainWalletClient({ ...clientOptions, account });

  await checkContracts(config, account.address, client);

  const chain = new SolverChainView(client, {
    executor: config.executor,
    adapters: config.adapters,
    ...(config.multicall3 ? { multicall3: config.multicall3 } : {}),
  });
  // Only an internal solver talks to the internal discount API; an external one never calls it.
  const discounts =
    config.internal && config.internalApiUrl
      ? new InternalDiscountsClient({
          internalApiUrl: config.internalApiUrl,
          solverId: config.solverId,
          sharedSecret: options.sharedSecret,
          chainId: config.chainId,
        })
      : undefined;
  const quotesLogger = logger.child({ component: "quotes" });
  const quoter = new ReferenceQuoter({
    chainId: config.chainId,
    executor: config.executor,
    marginBps: config.marginBps,
    chain,
    ...(discounts ? { discounts } : {}),
    logger: quotesLogger,
  });
  const server = await startQuoteServer({
    host: config.host,
    port: config.port,
    basePath: config.basePath,
    sharedSecret: options.sharedSecret,
    quote: (request) => quoter.quote(request),
    logger: quotesLogger,
  });

  const fillerLogger = logger.child({ component: "filler" });
  // Won orders are pushed on the order stream, which wakes the filler at once; the poll stays the source of truth
  // (and watches the chain for lost fills), at its interval whether or not the stream is up.
  const wakeup = new PollWakeup();
  const stream = new OrderStreamClient({
    apiUrl: config.apiUrl,
    solverId: config.solverId,
    sharedSecret: options.sharedSecret,
    logger: fillerLogger,
    onOrder: () => wakeup.wake(),
  });
  const filler = new OrderFiller({
    wakeup: {
      wait: (ms, signal) => wakeup.wait(ms, signal),
      intervalMs: () => config.pollIntervalMs,
    },
    executor: config.executor,
    reactor: config.reactor,
    pollIntervalMs: config.pollIntervalMs,
    client,
    chain,
    sender: new SequentialSender({
      wallet,
      client,
      logger: fillerLogger,
      pollIntervalMs: config.pollIntervalMs,
    }),
    orders: new OrdersClient({ apiUrl: config.apiUrl, solverId: config.solverId }),
    ...(discounts ? { discounts } : {}),
    logger: fillerLogger,
  });
  const controller = new AbortController();
  const aborted = once(controller.signal, "abort");
  const running = Promise.race([options.apiListening, aborted])
    .then(() => Promise.all([filler.run(controller.signal), stream.run(controller.signal)]))
    .catch((error: unknown) => {
      fillerLogger.fatal({ err: error }, "filler stopped");
    });

  logger.info(
    {
      url: server.url,
      account: account.address,
      executor: config.executor,
      marginBps: config.marginBps,
      apiUrl: config.apiUrl,
      internal: config.internal,
      ...(discounts ? { internalApiUrl: config.internalApiUrl } : {}),
    },
    "reference solver started",
  );
  const stopFilling = async () => {
    controller.abort();
    await running;
  };
  return {
    url: server.url,
    account: account.address,
    stopFilling,
    async stop() {
      await stopFilling();
      await server.close();
      logger.info("reference solver stopped");
    },
  };
}

/** The chain is the configured one, the Executor fills on the configured Reactor, and the EOA may call it. */
async function checkContracts(
  config: ReferenceSolverConfig,
  account: Address,
  client: ReturnType<typeof createChainPublicClient>,
): Promise<void> {
  const chainId = await client.getChainId();
  if (chainId !== config.chainId) {
    throw new SolverStartupError(
      `the RPC serves chain ${chainId}, not the configured chain ${config.chainId}`,
    );
  }
  let reactor: Address;
  let isCaller: boolean;
  try {
    [reactor, isCaller] = await Promise.all([
      client.readContract({ address: config.executor, abi: executorAbi, functionName: "reactor" }),
      client.readContract({
        address: config.executor,
        abi: executorAbi,
        functionName: "isCaller",
        args: [account],
      }),
    ]);
  } catch (error) {
    throw new SolverStartupError(
      `executor ${config.executor} is not an Executor: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (!isAddressEqual(reactor, config.reactor)) {
    throw new SolverStartupError(
      `executor ${config.executor} fills on Reactor ${reactor}, not on ${config.reactor}`,
    );
  }
  if (!isCaller) {
    throw new SolverStartupError(`account ${account} is not a caller of executor ${config.executor}`);
  }
}
