// The liquidity suite's chain: a devnet-like deployment built for the bench on an anvil without block time.
//
// - 20 input tokens: the core tRWA and 19 more TestERC20 "tRWA-like" tokens (18 decimals). Every adapter redeems
//   every one of them (addTokenToRedeem, an oracle price per token, the minimum discount, a per-adapter limit),
//   as test/liquidity/worked-example.ts adds tRWA2 to A2. Every 4th token's liquidity is reported in tUSDT, the
//   others' in tUSD.
// - 5 adapters: the core tUSD (A1) and tUSDT (A2) adapters, and A3–A5 over tUSD vaults of their own.
// - A Multicall3 for the server's batched reads, as every public network has: one read of 5 adapters × (20
//   listed tokens + 8 fillers + 10 others) is 190 calls, which viem's deployless multicall (the devnet's way)
//   must split into several eth_calls (src/chain/adapter-reader.ts); the suite checks that case separately.
// - 8 solvers with distinct Executors, 4 internal and 4 external, authorized on various adapters: the core
//   market maker names all eight on A1 and A2; A3's market maker (an EOA) names solvers 1, 2 and 5; A4's market
//   maker is solver 4's Executor itself; A5's market maker (another EOA) names solvers 6, 7 and 8.
import { type Address, encodeAbiParameters, getContractAddress, type LocalAccount, maxUint256 } from "viem";
import {
  adapterFactoryAbi,
  liquidLaneAdapterAbi,
  testERC20Abi,
  testERC20Bytecode,
  testVaultAbi,
  testVaultBytecode,
} from "../../src/chain/abis.ts";
import { TransactionSender } from "../../src/devnet/deploy.ts";
import { BENCH_ACCOUNT_INDEX, type BenchChain, startBenchChain } from "../lib/bench-chain.ts";
import { multicall3CreationCode } from "../lib/multicall3.ts";
import type { BenchSolverConfig } from "../lib/sluice-deployment.ts";

export const LIQUIDITY_FIXTURE = {
  inputTokens: 20,
  solvers: 8,
  internalSolvers: 4,
  extraAdapters: 3,
} as const;

const VAULT_LIQUIDITY = 1_000_000n * 10n ** 6n;
const MIN_DISCOUNT_PPM = 500n;
/** anvil mines each transaction as it arrives: receipts are polled often, so ~440 of them take seconds. */
const RECEIPT_POLLING_MS = 20;

export interface LiquidityFixture {
  chain: BenchChain;
  inputTokens: Array<{ address: Address; symbol: string; liquidityOutputToken: Address }>;
  adapters: Array<{ address: Address; label: string; asset: "tUSD" | "tUSDT"; authorized: number[] }>;
  executors: Address[];
  /** A Multicall3 deployed for the server's batched reads (see liquidityDeploymentInput). */
  multicall: Address;
  /** Transactions sent to build the fixture on top of the core deployment. */
  transactions: number;
  blockNumber: number;
}

export async function startLiquidityFixture(log: (message: string) => void): Promise<LiquidityFixture> {
  log(`starting anvil and deploying the core contracts with ${LIQUIDITY_FIXTURE.solvers} Executors`);
  const chain = await startBenchChain({ executors: LIQUIDITY_FIXTURE.solvers });
  try {
    return await buildFixture(chain, log);
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

async function buildFixture(chain: BenchChain, log: (message: string) => void): Promise<LiquidityFixture> {
  const core = chain.core!;
  const { publicClient } = chain;
  const deployerAccount = chain.account(BENCH_ACCOUNT_INDEX.deployer);
  const sender = async (account: LocalAccount) => {
    const opened = new TransactionSender(chain.wallet(account), publicClient, RECEIPT_POLLING_MS);
    await opened.init();
    return opened;
  };
  const deployer = await sender(deployerAccount);
  const me = deployerAccount.address;
  let transactions = 0;

  log(
    `deploying ${LIQUIDITY_FIXTURE.inputTokens - 1} more input tokens and ${LIQUIDITY_FIXTURE.extraAdapters} adapters`,
  );
  const multicall = await deployer.deploy("Multicall3", [], multicall3CreationCode(), []);
  const tokens: Address[] = [core.tokens.rwa];
  for (let k = 2; k <= LIQUIDITY_FIXTURE.inputTokens; k++) {
    tokens.push(
      await deployer.deploy(`tRWA${k}`, testERC20Abi, testERC20Bytecode, [
        `Sluice Test RWA ${k}`,
        `tRWA${k}`,
        18,
        me,
      ]),
    );
  }
  // A contract's nonce counts the contracts it has created, plus one: the core deployment created two adapters.
  const factoryNonce = await publicClient.getTransactionCount({ address: core.adapterFactory });
  const extraAdapters: Address[] = [];
  for (let k = 0; k < LIQUIDITY_FIXTURE.extraAdapters; k++) {
    const vault = await deployer.deploy(`vault A${k + 3}`, testVaultAbi, testVaultBytecode, [
      core.tokens.usd,
      `Bench Vault A${k + 3}`,
      `bvA${k + 3}`,
    ]);
    const adapter = getContractAddress({ from: core.adapterFactory, nonce: BigInt(factoryNonce + k) });
    await deployer.write(
      `create A${k + 3}`,
      core.adapterFactory,
      adapterFactoryAbi,
      "create",
      [1n, me, encodeAbiParameters([{ type: "address" }, { type: "address" }], [vault, core.protocolSigner])],
      6_000_000n,
    );
    await deployer.write(`tUSD mint A${k + 3}`, core.tokens.usd, testERC20Abi, "mint", [me, VAULT_LIQUIDITY]);
    await deployer.write(`tUSD approve A${k + 3}`, core.tokens.usd, testERC20Abi, "approve", [
      vault,
      maxUint256,
    ]);
    await deployer.write(`deposit A${k + 3}`, vault, testVaultAbi, "deposit", [VAULT_LIQUIDITY, adapter]);
    extraAdapters.push(adapter);
  }
  transactions += await deployer.settle();

  const adapters = [core.adapters.usd, core.adapters.usdt, ...extraAdapters];
  log(`configuring ${adapters.length} adapters × ${tokens.length} tokens`);
  for (const [a, adapter] of adapters.entries()) {
    const at = (label: string, functionName: string, args: readonly unknown[]) =>
      deployer.write(`A${a + 1} ${label}`, adapter, liquidLaneAdapterAbi, functionName, args);
    for (const [t, token] of tokens.entries()) {
      // The core adapters already redeem tRWA (token 0).
      if (!(a < 2 && t === 0)) await at(`add tRWA${t + 1}`, "addTokenToRedeem", [token]);
      // Prices 0.90–1.09 per token; limits differ per adapter and token so every figure is distinct.
      await at(`price tRWA${t + 1}`, "setOraclePrice", [token, 10n ** 16n * BigInt(90 + t)]);
      await at(`discount tRWA${t + 1}`, "setMinDiscount", [token, MIN_DISCOUNT_PPM]);
      await at(`limit tRWA${t + 1}`, "setLimit", [token, BigInt(10_000 * (a + 1) + 100 * t) * 10n ** 6n]);
    }
  }
  // A3's and A5's market makers are EOAs; A4's is solver 4's Executor.
  const [makerA3, makerA5] = BENCH_ACCOUNT_INDEX.extraMakers.map((index) => chain.account(index));
  await deployer.write("A3 market maker", extraAdapters[0]!, liquidLaneAdapterAbi, "setMarketMaker", [
    makerA3!.address,
    false,
  ]);
  await deployer.write("A4 market maker", extraAdapters[1]!, liquidLaneAdapterAbi, "setMarketMaker", [
    core.executors[3]!,
    false,
  ]);
  await deployer.write("A5 market maker", extraAdapters[2]!, liquidLaneAdapterAbi, "setMarketMaker", [
    makerA5!.address,
    false,
  ]);
  transactions += await deployer.settle();

  const fillersOf: Array<{ maker: typeof makerA3; adapter: Address; solvers: number[] }> = [
    { maker: makerA3, adapter: extraAdapters[0]!, solvers: [0, 1, 4] },
    { maker: makerA5, adapter: extraAdapters[2]!, solvers: [5, 6, 7] },
  ];
  for (const { maker, adapter, solvers } of fillersOf) {
    const batch = await sender(maker!);
    for (const solver of solvers) {
      await batch.write(`setFiller ${solver + 1}`, adapter, liquidLaneAdapterAbi, "setFiller", [
        core.executors[solver]!,
        true,
      ]);
    }
    transactions += await batch.settle();
  }

  const all = Array.from({ length: LIQUIDITY_FIXTURE.solvers }, (_, index) => index);
  return {
    chain,
    inputTokens: tokens.map((address, index) => ({
      address,
      symbol: `tRWA${index === 0 ? "" : index + 1}`,
      liquidityOutputToken: index % 4 === 3 ? core.tokens.usdt : core.tokens.usd,
    })),
    adapters: [
      { address: core.adapters.usd, label: "A1 (core tUSD)", asset: "tUSD", authorized: all },
      { address: core.adapters.usdt, label: "A2 (core tUSDT)", asset: "tUSDT", authorized: all },
      { address: extraAdapters[0]!, label: "A3 (tUSD)", asset: "tUSD", authorized: [0, 1, 4] },
      { address: extraAdapters[1]!, label: "A4 (tUSD)", asset: "tUSD", authorized: [3] },
      { address: extraAdapters[2]!, label: "A5 (tUSD)", asset: "tUSD", authorized: [5, 6, 7] },
    ],
    executors: core.executors,
    multicall,
    transactions,
    blockNumber: Number(await publicClient.getBlockNumber()),
  };
}

/**
 * The deployment file's content for the fixture; no solver is ever called (`/liquidity` asks none). With
 * `multicall` the server batches its adapter reads through the deployed Multicall3, as on a public network;
 * without it, through viem's deployless multicall, as on the devnet.
 */
export function liquidityDeploymentInput(fixture: LiquidityFixture, options: { multicall: boolean }) {
  const { chain } = fixture;
  const core = chain.core!;
  const solvers: BenchSolverConfig[] = fixture.executors.map((filler, index) => ({
    id: `bench_solver${index + 1}`,
    endpoint: "http://127.0.0.1:9",
    filler,
    internal: index < LIQUIDITY_FIXTURE.internalSolvers,
  }));
  return {
    name: "bench-liquidity",
    chainId: chain.chainId,
    chainName: "anvil (bench, no block time)",
    local: true,
    reactor: core.reactor,
    executors: core.executors,
    adapterFactory: core.adapterFactory,
    ...(options.multicall ? { multicall: fixture.multicall } : {}),
    protocolSigner: core.protocolSigner,
    inputTokens: fixture.inputTokens.map((token) => ({
      address: token.address,
      symbol: token.symbol,
      name: `Sluice Test ${token.symbol}`,
      decimals: 18,
      minQuoteAmount: (10n ** 12n).toString(),
      liquidityOutputToken: token.liquidityOutputToken,
    })),
    outputTokens: [
      { address: core.tokens.usd, symbol: "tUSD", name: "Sluice Test USD", decimals: 6 },
      { address: core.tokens.usdt, symbol: "tUSDT", name: "Sluice Test Tether USD", decimals: 6 },
    ],
    adapters: fixture.adapters.map((adapter) => ({ address: adapter.address, label: adapter.label })),
    solvers,
    confirmationDepth: 0,
    startBlock: Number(core.startBlock),
  };
}
