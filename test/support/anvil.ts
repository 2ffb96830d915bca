// One anvil per test file (vitest runs files in separate forked workers, so also one per worker at a time), with
// the core contracts deployed once, and `evm_snapshot`/`evm_revert` around every test:
//
//   const chain = useTestChain();            // registers beforeAll/afterAll/beforeEach/afterEach
//   it("…", async () => { chain.core.reactor; await chain.increaseTime(60); … });
//
// Tests that move chain time or mine are isolated by the revert after each test.
import { type Address, createTestClient, type Hex, http, type LocalAccount, publicActions } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import {
  type ChainPublicClient,
  type ChainWalletClient,
  createChainPublicClient,
  createChainWalletClient,
} from "../../src/chain/client.ts";
import { type AnvilInstance, type AnvilOptions, startAnvil } from "../../src/devnet/anvil.ts";
import { type CoreDeployment, DEV_MNEMONIC, deployCoreContracts } from "../../src/devnet/deploy.ts";
import { lateProxy } from "./late.ts";

export const TEST_CHAIN_ID = 31337;

const accountCache = new Map<number, LocalAccount>();
/** anvil's dev account `index` (funded with ETH at genesis). */
export function devAccount(index: number): LocalAccount {
  let account = accountCache.get(index);
  if (!account) {
    account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
    accountCache.set(index, account);
  }
  return account;
}

/** The roles the tests use, each a dev account. */
export function testAccounts() {
  return {
    deployer: devAccount(0),
    protocol: devAccount(1),
    solver: devAccount(2),
    marketMaker: devAccount(3),
    swapper: devAccount(4),
    swapper2: devAccount(5),
    feeRecipient: devAccount(6),
    other: devAccount(7),
  };
}
export type TestAccounts = ReturnType<typeof testAccounts>;

function makeTestClient(rpcUrl: string) {
  return createTestClient({ mode: "anvil", transport: http(rpcUrl, { batch: true }) }).extend(publicActions);
}

export interface TestChain {
  anvil: AnvilInstance;
  rpcUrl: string;
  chainId: number;
  publicClient: ChainPublicClient;
  testClient: ReturnType<typeof makeTestClient>;
  accounts: TestAccounts;
  /** Set when started with `deploy: true` (the default). */
  core: CoreDeployment;
  wallet(account: LocalAccount): ChainWalletClient;
  snapshot(): Promise<Hex>;
  revert(id: Hex): Promise<void>;
  mine(blocks?: number): Promise<void>;
  /** Moves chain time forward and mines a block at the new time. */
  increaseTime(seconds: number): Promise<void>;
  /** The latest block's timestamp. */
  now(): Promise<bigint>;
  stop(): Promise<void>;
}

export interface StartTestChainOptions {
  /** Deploy the core contracts (default true). */
  deploy?: boolean;
  anvil?: AnvilOptions;
  /** RWA minted to each swapper account at deployment (default 1,000,000 tokens). */
  swapperRwa?: bigint;
}

export async function startTestChain(options: StartTestChainOptions = {}): Promise<TestChain> {
  const anvil = await startAnvil({ chainId: TEST_CHAIN_ID, ...options.anvil });
  const chainId = options.anvil?.chainId ?? TEST_CHAIN_ID;
  const clientOptions = { chainId, rpcUrls: anvil.rpcUrl, pollingIntervalMs: 50, cacheTimeMs: 0 };
  const publicClient = createChainPublicClient(clientOptions);
  const testClient = makeTestClient(anvil.rpcUrl);
  const accounts = testAccounts();
  const wallet = (account: LocalAccount) => createChainWalletClient({ ...clientOptions, account });

  let core: CoreDeployment | undefined;
  if (options.deploy ?? true) {
    const amount = options.swapperRwa ?? 1_000_000n * 10n ** 18n;
    core = await deployCoreContracts({
      publicClient,
      deployer: wallet(accounts.deployer),
      protocolSigner: accounts.protocol.address,
      marketMaker: wallet(accounts.marketMaker),
      executors: [{ callers: [accounts.solver.address] }],
      swappers: [
        { address: accounts.swapper.address, amount },
        { address: accounts.swapper2.address, amount },
      ],
    });
  }

  return {
    anvil,
    rpcUrl: anvil.rpcUrl,
    chainId,
    publicClient,
    testClient,
    accounts,
    get core(): CoreDeployment {
      if (!core) throw new Error("this test chain was started without the core deployment");
      return core;
    },
    wallet,
    snapshot: () => testClient.snapshot(),
    revert: async (id) => {
      await testClient.revert({ id });
    },
    mine: async (blocks = 1) => {
      await testClient.mine({ blocks });
    },
    increaseTime: async (seconds) => {
      await testClient.increaseTime({ seconds });
      await testClient.mine({ blocks: 1 });
    },
    now: async () => (await publicClient.getBlock({ blockTag: "latest" })).timestamp,
    stop: () => anvil.stop(),
  };
}

/**
 * Registers the vitest hooks of a file that uses a chain: start anvil and deploy before all tests, snapshot before
 * each test and revert after it, stop after all. Returns the chain (available once `beforeAll` has run).
 */
export function useTestChain(options: StartTestChainOptions = {}): TestChain {
  let chain: TestChain | undefined;
  let snapshotId: Hex | undefined;
  beforeAll(async () => {
    chain = await startTestChain(options);
  });
  beforeEach(async () => {
    snapshotId = await chain!.snapshot();
  });
  afterEach(async () => {
    if (snapshotId) await chain!.revert(snapshotId);
    snapshotId = undefined;
  });
  afterAll(async () => {
    await chain?.stop();
  });
  return lateProxy(() => chain, "the test chain is not started yet (use it inside tests or hooks)");
}

/** A fresh random-looking address that holds no code (for "not an adapter" and similar cases). */
export function addressFromSeed(seed: number): Address {
  return `0x${seed.toString(16).padStart(40, "0")}` as Address;
}
