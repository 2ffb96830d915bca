// Helpers of the reference solver's tests: its config on a test chain, its logs captured as JSON (the tests wait
// on what it reports instead of sleeping), a listener that lets Sluice and the solver learn each other's URL, and a
// second tUSD adapter so a fill can split over two legs.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { type Logger, pino } from "pino";
import { type Address, encodeAbiParameters, type Hex, parseEventLogs } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import {
  adapterFactoryAbi,
  liquidLaneAdapterAbi,
  testERC20Abi,
  testVaultAbi,
  testVaultBytecode,
} from "../../../src/chain/abis.ts";
import { DEV_MNEMONIC } from "../../../src/devnet/deploy.ts";
import {
  parseSolverConfig,
  type ReferenceSolverConfig,
  type ReferenceSolverConfigInput,
} from "../../../src/solvers/reference/config.ts";
import type { TestChain } from "../../support/anvil.ts";

export const SOLVER_ID = "sluice_alpha";
export const SOLVER_SECRET = "alpha-secret";

export function solverConfig(
  chain: TestChain,
  overrides: Partial<ReferenceSolverConfigInput> = {},
): ReferenceSolverConfig {
  return parseSolverConfig(
    {
      solverId: SOLVER_ID,
      apiUrl: "http://127.0.0.1:9/api/v1",
      chainId: chain.chainId,
      rpcUrls: [chain.rpcUrl],
      executor: chain.core.executors[0]!,
      reactor: chain.core.reactor,
      adapters: [chain.core.adapters.usd, chain.core.adapters.usdt],
      marginBps: 10,
      sharedSecretEnv: "SLUICE_ALPHA_SECRET",
      privateKeyEnv: "SLUICE_ALPHA_KEY",
      pollIntervalMs: 50,
      ...overrides,
    },
    "test config",
  );
}

/** The private key of anvil's dev account 2 (`chain.accounts.solver`, the test Executor's caller). */
export function solverKey(): Hex {
  const key = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 2 }).getHdKey().privateKey;
  if (!key) throw new Error("no private key");
  return `0x${Buffer.from(key).toString("hex")}`;
}

export type LogEntry = Record<string, unknown> & { msg?: string; level: number };

export interface CapturedLogs {
  logger: Logger;
  entries: LogEntry[];
  /**
   * Resolves with the first matching entry, already written or still to come; with `after`, only entries written
   * after that one count.
   */
  waitFor(
    predicate: (entry: LogEntry) => boolean,
    options?: { what?: string; after?: LogEntry },
  ): Promise<LogEntry>;
}

/** A pino logger whose JSON lines are kept in memory. */
export function captureLogs(timeoutMs = 30_000): CapturedLogs {
  const entries: LogEntry[] = [];
  const waiters = new Set<{ predicate: (entry: LogEntry) => boolean; resolve: (entry: LogEntry) => void }>();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (!line.trim()) continue;
        const entry = JSON.parse(line) as LogEntry;
        entries.push(entry);
        for (const waiter of waiters) {
          if (waiter.predicate(entry)) {
            waiters.delete(waiter);
            waiter.resolve(entry);
          }
        }
      }
      callback();
    },
  });
  return {
    logger: pino({ level: "debug" }, stream),
    entries,
    waitFor(predicate, options = {}) {
      const what = options.what ?? "a matching log entry";
      const from = options.after ? entries.indexOf(options.after) + 1 : 0;
      const seen = entries.slice(from).find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve };
        waiters.add(waiter);
        // A guard against hanging forever, not a timing assertion.
        setTimeout(() => {
          if (!waiters.delete(waiter)) return;
          const tail = entries.slice(-15).map((e) => JSON.stringify(e));
          reject(
            new Error(`no log entry for ${what} within ${timeoutMs} ms; last entries:\n${tail.join("\n")}`),
          );
        }, timeoutMs).unref();
      });
    },
  };
}

export interface LateListener {
  url: string;
  /** Routes every request to `handler` from now on (until then: 503). */
  attach(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  /** While held, `GET …/orders` answers 503: Sluice is unreachable for the solver's poll. */
  holdOrders(held: boolean): void;
  close(): Promise<void>;
}

/**
 * A listener bound before the app it serves exists: Sluice's deployment needs the solver's URL and the solver's
 * config needs Sluice's, so one of them has to listen first.
 */
export async function startLateListener(): Promise<LateListener> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let ordersHeld = false;
  const server = createServer((req, res) => {
    const isOrders = req.method === "GET" && (req.url ?? "").split("?")[0]!.endsWith("/orders");
    if (!handler || (ordersHeld && isOrders)) return void res.writeHead(503).end();
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    attach(next) {
      handler = next;
    },
    holdOrders(held) {
      ordersHeld = held;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A second tUSD adapter on its own vault, created by the factory and configured like the core ones, but with a
 * better oracle price and a release limit, so it is the best leg until its capacity runs out.
 */
export async function deploySecondUsdAdapter(
  chain: TestChain,
  options: { oraclePrice: bigint; limit: bigint; liquidity: bigint },
): Promise<Address> {
  const { core, accounts, publicClient } = chain;
  const deployer = chain.wallet(accounts.deployer);
  const mined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };
  const vaultReceipt = await mined(
    await deployer.deployContract({
      abi: testVaultAbi,
      bytecode: testVaultBytecode,
      args: [core.tokens.usd, "Sluice tUSD Vault 2", "svUSD2"],
    }),
  );
  const vault = vaultReceipt.contractAddress!;
  const createReceipt = await mined(
    await deployer.writeContract({
      address: core.adapterFactory,
      abi: adapterFactoryAbi,
      functionName: "create",
      args: [
        1n,
        accounts.deployer.address,
        encodeAbiParameters([{ type: "address" }, { type: "address" }], [vault, core.protocolSigner]),
      ],
    }),
  );
  const [added] = parseEventLogs({
    abi: adapterFactoryAbi,
    logs: createReceipt.logs,
    eventName: "AddEntity",
  });
  const adapter = added!.args.entity;
  const configure = async (functionName: string, args: readonly unknown[]) =>
    mined(
      await deployer.writeContract({
        address: adapter,
        abi: liquidLaneAdapterAbi,
        functionName,
        args,
      } as Parameters<typeof deployer.writeContract>[0]),
    );
  await configure("addTokenToRedeem", [core.tokens.rwa]);
  await configure("setOraclePrice", [core.tokens.rwa, options.oraclePrice]);
  await configure("setMinDiscount", [core.tokens.rwa, 500n]);
  await configure("setMarketMaker", [core.marketMaker, false]);
  await configure("setLimit", [core.tokens.rwa, options.limit]);
  await mined(
    await deployer.writeContract({
      address: core.tokens.usd,
      abi: testERC20Abi,
      functionName: "mint",
      args: [accounts.deployer.address, options.liquidity],
    }),
  );
  await mined(
    await deployer.writeContract({
      address: core.tokens.usd,
      abi: testERC20Abi,
      functionName: "approve",
      args: [vault, options.liquidity],
    }),
  );
  await mined(
    await deployer.writeContract({
      address: vault,
      abi: testVaultAbi,
      functionName: "deposit",
      args: [options.liquidity, adapter],
    }),
  );
  await mined(
    await chain.wallet(accounts.marketMaker).writeContract({
      address: adapter,
      abi: liquidLaneAdapterAbi,
      functionName: "setFiller",
      args: [core.executors[0]!, true],
    }),
  );
  return adapter;
}
