// A chain for a benchmark: anvil WITHOUT `--block-time`, so a block is mined only when a transaction is sent.
// Once the fixture is deployed the head stays put for the whole measurement, and the server's per-block
// caches (adapter reads, authorizations) stay warm, which is what the swap and liquidity targets are stated for.
// The project's core contracts are deployed with as many Executors as the suite has solvers.
import type { Address, Hex, LocalAccount } from "viem";
import {
  type ChainPublicClient,
  type ChainWalletClient,
  createChainPublicClient,
  createChainWalletClient,
} from "../../src/chain/client.ts";
import { devAccount } from "../../src/devnet/accounts.ts";
import { type AnvilInstance, startAnvil } from "../../src/devnet/anvil.ts";
import { type CoreDeployment, DEV_MNEMONIC, deployCoreContracts } from "../../src/devnet/deploy.ts";

export const BENCH_CHAIN_ID = 31337;

/** Dev accounts by role (anvil's well-known mnemonic: keys for a local chain only). */
export const BENCH_ACCOUNT_INDEX = {
  deployer: 0,
  protocol: 1,
  marketMaker: 2,
  /** Calls every Executor (the solvers never fill in these suites; a caller is still configured). */
  solverCaller: 3,
  /** Market makers of extra adapters (the liquidity fixture). */
  extraMakers: [4, 5],
  swapper: 7,
} as const;

/** anvil's default `--accounts` is 10; the fixture stays within them. */
const ANVIL_ACCOUNTS = 10;

export interface BenchChain {
  anvil: AnvilInstance;
  rpcUrl: string;
  chainId: number;
  genesisHash: Hex;
  publicClient: ChainPublicClient;
  /** Present when started with executors (the core contracts deployed). */
  core: CoreDeployment | undefined;
  protocolSigner: { account: LocalAccount; privateKey: Hex };
  account(index: number): LocalAccount;
  wallet(account: LocalAccount): ChainWalletClient;
  stop(): Promise<void>;
}

export interface BenchChainOptions {
  /** Deploy the core contracts with this many Executors (one per solver); 0 = a bare chain, nothing deployed. */
  executors: number;
}

export async function startBenchChain(options: BenchChainOptions): Promise<BenchChain> {
  const anvil = await startAnvil({
    chainId: BENCH_CHAIN_ID,
    mnemonic: DEV_MNEMONIC,
    accounts: ANVIL_ACCOUNTS,
  });
  try {
    const clientOptions = {
      chainId: BENCH_CHAIN_ID,
      rpcUrls: anvil.rpcUrl,
      pollingIntervalMs: 20,
      cacheTimeMs: 0,
    };
    const publicClient = createChainPublicClient(clientOptions);
    const wallet = (account: LocalAccount) => createChainWalletClient({ ...clientOptions, account });
    const account = (index: number) => devAccount(index).account;
    const protocol = devAccount(BENCH_ACCOUNT_INDEX.protocol);
    const genesis = await publicClient.getBlock({ blockNumber: 0n });
    let core: CoreDeployment | undefined;
    if (options.executors > 0) {
      core = await deployCoreContracts({
        publicClient,
        deployer: wallet(account(BENCH_ACCOUNT_INDEX.deployer)),
        protocolSigner: protocol.account.address,
        marketMaker: wallet(account(BENCH_ACCOUNT_INDEX.marketMaker)),
        executors: Array.from({ length: options.executors }, () => ({
          callers: [account(BENCH_ACCOUNT_INDEX.solverCaller).address as Address],
        })),
        pollingIntervalMs: 20,
      });
    }
    return {
      anvil,
      rpcUrl: anvil.rpcUrl,
      chainId: BENCH_CHAIN_ID,
      genesisHash: genesis.hash,
      publicClient,
      core,
      protocolSigner: { account: protocol.account, privateKey: protocol.privateKey },
      account,
      wallet,
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
