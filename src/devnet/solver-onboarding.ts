// The devnet's side of adding a solver (`sluice devnet add-solver`), done on the chain by the command itself before it
// registers the solver with the running server: a fresh filling account (funded through anvil), an Executor owned and
// called by it on the devnet's Reactor, and the adapters' market maker naming that Executor a filler (`setFiller`) on
// every adapter. Removing a solver takes the authorization back. Only the devnet's public dev keys sign here.
import { type Address, createTestClient, type Hex, isAddressEqual, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { executorAbi, executorBytecode, liquidLaneAdapterAbi } from "../chain/abis.ts";
import { createChainPublicClient, createChainWalletClient, createRpcTransport } from "../chain/client.ts";
import { devnetAccounts } from "./accounts.ts";
import type { CoreDeployment } from "./deploy.ts";
import { TransactionSender } from "./deploy.ts";

/** ETH given to a new solver's filling account: gas for a great many fills on the devnet. */
export const SOLVER_CALLER_ETH = parseEther("100");

export interface DevnetChainTarget {
  rpcUrl: string;
  chainId: number;
  core: CoreDeployment;
}

export interface SolverChainAccount {
  /** The solver's Executor: the `filler` of its quotes. */
  executor: Address;
  /** The key of the account allowed to call `Executor.fill` (its owner too). */
  callerKey: Hex;
  caller: Address;
}

function clients(target: DevnetChainTarget) {
  const options = { chainId: target.chainId, rpcUrls: target.rpcUrl, pollingIntervalMs: 100, cacheTimeMs: 0 };
  return {
    options,
    publicClient: createChainPublicClient(options),
  };
}

/**
 * A funded filling account and its Executor, authorized on every adapter; resolves once all of it is mined. The
 * Executor's deployment and the authorizations are sent together (setFiller records an address; it needs no code).
 */
export async function deploySolverAccount(target: DevnetChainTarget): Promise<SolverChainAccount> {
  const { options, publicClient } = clients(target);
  const callerKey = generatePrivateKey();
  const caller = privateKeyToAccount(callerKey);
  const testClient = createTestClient({ mode: "anvil", transport: createRpcTransport(target.rpcUrl) });
  await testClient.setBalance({ address: caller.address, value: SOLVER_CALLER_ETH });

  const deployer = new TransactionSender(
    createChainWalletClient({ ...options, account: caller }),
    publicClient,
    100,
  );
  await deployer.init();
  const executor = await deployer.deploy("Executor", executorAbi, executorBytecode, [
    target.core.reactor,
    caller.address,
    [caller.address],
  ]);
  const authorizing = setExecutorAuthorization(target, executor, true);
  await Promise.all([deployer.settle(), authorizing]);
  return {
    executor: executor.toLowerCase() as Address,
    callerKey,
    caller: caller.address.toLowerCase() as Address,
  };
}

/** The market maker names `executor` a filler of every adapter (or stops naming it); resolves once mined. */
export async function setExecutorAuthorization(
  target: DevnetChainTarget,
  executor: Address,
  allowed: boolean,
): Promise<void> {
  const { options, publicClient } = clients(target);
  const { marketMaker } = devnetAccounts();
  if (!isAddressEqual(marketMaker.account.address, target.core.marketMaker))
    throw new Error(
      `the devnet's adapters name market maker ${target.core.marketMaker}, not the dev account ${marketMaker.account.address}`,
    );
  const sender = new TransactionSender(
    createChainWalletClient({ ...options, account: marketMaker.account }),
    publicClient,
    100,
  );
  await sender.init();
  for (const adapter of Object.values(target.core.adapters)) {
    await sender.write(`setFiller ${adapter}`, adapter, liquidLaneAdapterAbi, "setFiller", [
      executor,
      allowed,
    ]);
  }
  await sender.settle();
}
