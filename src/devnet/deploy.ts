// Deploys the project's contracts to a local chain in a fixed order, so that on a fresh anvil every address is the
// same on every run: tokens, vaults, the adapter factory and its adapters, the Reactor, the Executors; then
// configures the adapters (token to redeem, oracle price, min discount, market maker, fillers), seeds the vaults
// and mints input tokens to the given swappers. Used by the devnet and by the tests (test/support/anvil.ts).
//
// Transactions are sent back to back with explicit nonces and gas limits (no estimation against state that is not
// mined yet), then awaited together: on an automining anvil each mines at once; with `--block-time` they all land
// in the next few blocks instead of one block each.
//
// No Multicall contract is deployed: src/chain/adapter-reader.ts uses viem's deployless multicall on the devnet.
import {
  type Abi,
  type Address,
  encodeAbiParameters,
  getContractAddress,
  type Hash,
  type Hex,
  isAddressEqual,
} from "viem";
import {
  adapterFactoryAbi,
  adapterFactoryBytecode,
  executorAbi,
  executorBytecode,
  liquidLaneAdapterAbi,
  reactorAbi,
  reactorBytecode,
  testERC20Abi,
  testERC20Bytecode,
  testUSDTAbi,
  testUSDTBytecode,
  testVaultAbi,
  testVaultBytecode,
} from "../chain/abis.ts";
import type { ChainPublicClient, ChainWalletClient } from "../chain/client.ts";

/** anvil's default dev mnemonic (its accounts are funded at genesis). */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";

export const DEFAULT_ORACLE_PRICE = 1_000_000_000_000_000_000n; // 1 asset unit per RWA token (1e18-scaled)
export const DEFAULT_MIN_DISCOUNT_PPM = 500n; // 0.05 %
export const DEFAULT_VAULT_LIQUIDITY = 1_000_000n * 10n ** 6n; // 1,000,000 of each 6-decimal stablecoin

export interface ExecutorSpec {
  /** Defaults to the deployer. */
  owner?: Address;
  /** EOAs allowed to call `fill` (the solver's keys). */
  callers: readonly Address[];
}

export interface DeployCoreOptions {
  publicClient: ChainPublicClient;
  /** Deploys everything and owns the tokens, vaults' seed liquidity and adapters. */
  deployer: ChainWalletClient;
  /** The protocol signer: trusted by the adapters for discount co-signatures. */
  protocolSigner: Address;
  /** The adapters' market maker; it names the Executors as its fillers (`setFiller`). */
  marketMaker: ChainWalletClient;
  /** One Executor each (default: one Executor with no callers). */
  executors?: readonly ExecutorSpec[];
  /** Oracle price of the RWA token in each adapter, 1e18-scaled (default 1.0). */
  oraclePrice?: bigint;
  /** Minimum discount of the RWA token in each adapter, ppm (default 500). */
  minDiscountPpm?: bigint;
  /** Stablecoin deposited into each vault on behalf of its adapter (default 1,000,000). */
  vaultLiquidity?: bigint;
  /** RWA tokens minted to these addresses. */
  swappers?: readonly { address: Address; amount: bigint }[];
  /** Receipt polling interval (default 50 ms). */
  pollingIntervalMs?: number;
}

/** The address book of a core deployment. */
export interface CoreDeployment {
  chainId: number;
  deployer: Address;
  protocolSigner: Address;
  marketMaker: Address;
  tokens: {
    /** RWA-like input token, 18 decimals. */
    rwa: Address;
    /** Output stablecoin, 6 decimals. */
    usd: Address;
    /** USDT-style output stablecoin, 6 decimals (approve: nonzero → nonzero reverts). */
    usdt: Address;
  };
  vaults: { usd: Address; usdt: Address };
  /** Adapters created by the factory: `usd` releases tUSD from its vault, `usdt` releases tUSDT. */
  adapters: { usd: Address; usdt: Address };
  adapterFactory: Address;
  reactor: Address;
  /** One per ExecutorSpec, in order. */
  executors: Address[];
  /** The block of the first deployment transaction. */
  startBlock: bigint;
  /** The block whose transaction deployed the Reactor (with the chain id, the devnet's identity). */
  reactorBlock: bigint;
}

interface Pending {
  label: string;
  hash: Hash;
}

/**
 * Sends an account's transactions with consecutive nonces and fixed gas limits, without waiting for them to be
 * mined; `settle` then waits for them all. Also builds the bench's fixtures (bench/suites/liquidity-fixture.ts).
 */
export class TransactionSender {
  readonly #pending: Pending[] = [];
  /** The block each settled transaction was mined in, by label (the last one of a repeated label). */
  readonly #minedIn = new Map<string, bigint>();
  #nonce = 0;
  constructor(
    readonly wallet: ChainWalletClient,
    private readonly publicClient: ChainPublicClient,
    /** How often `settle` polls for receipts. */
    private readonly pollingIntervalMs = 50,
    /** EIP-1559 fees for every transaction; without them each send asks the node for fees first. */
    private readonly fees?: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  ) {}

  get address(): Address {
    return this.wallet.account.address;
  }

  /** Starts from the account's pending nonce: call once before sending. */
  async init(): Promise<void> {
    this.#nonce = await this.publicClient.getTransactionCount({ address: this.address, blockTag: "pending" });
  }

  nextAddress(): Address {
    return getContractAddress({ from: this.address, nonce: BigInt(this.#nonce) });
  }

  /** Deploys a contract; returns the address it will have. */
  async deploy(
    label: string,
    abi: Abi,
    bytecode: Hex,
    args: readonly unknown[],
    gas = 5_000_000n,
  ): Promise<Address> {
    const address = this.nextAddress();
    const hash = await this.wallet.deployContract({
      abi,
      bytecode,
      args,
      nonce: this.#nonce++,
      gas,
      ...this.#feeFields(),
    } as Parameters<ChainWalletClient["deployContract"]>[0]);
    this.#pending.push({ label, hash });
    return address;
  }

  async write(
    label: string,
    address: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[],
    gas = 400_000n,
  ): Promise<void> {
    const hash = await this.wallet.writeContract({
      address,
      abi,
      functionName,
      args,
      nonce: this.#nonce++,
      gas,
      ...this.#feeFields(),
    } as Parameters<ChainWalletClient["writeContract"]>[0]);
    this.#pending.push({ label, hash });
  }

  #feeFields() {
    return this.fees ? { type: "eip1559" as const, ...this.fees } : {};
  }

  /** Waits for every transaction sent since the last settle; throws naming any that reverted. Returns how many. */
  async settle(): Promise<number> {
    const pending = this.#pending.splice(0);
    const receipts = await Promise.all(
      pending.map((p) =>
        this.publicClient.waitForTransactionReceipt({
          hash: p.hash,
          pollingInterval: this.pollingIntervalMs,
          timeout: 120_000,
        }),
      ),
    );
    const failed = receipts.flatMap((r, i) => (r.status === "success" ? [] : [pending[i]!.label]));
    if (failed.length > 0) throw new Error(`deployment transactions reverted: ${failed.join(", ")}`);
    for (const [i, receipt] of receipts.entries()) this.#minedIn.set(pending[i]!.label, receipt.blockNumber);
    return pending.length;
  }

  /** The block a settled transaction with this label was mined in. */
  minedIn(label: string): bigint {
    const block = this.#minedIn.get(label);
    if (block === undefined) throw new Error(`no settled transaction labelled ${label}`);
    return block;
  }
}

export async function deployCoreContracts(options: DeployCoreOptions): Promise<CoreDeployment> {
  const { publicClient } = options;
  const pollingInterval = options.pollingIntervalMs ?? 50;
  const deployer = new TransactionSender(options.deployer, publicClient, pollingInterval);
  const sameAccount = isAddressEqual(options.marketMaker.account.address, deployer.address);
  const marketMaker = sameAccount
    ? deployer
    : new TransactionSender(options.marketMaker, publicClient, pollingInterval);
  await Promise.all([deployer.init(), sameAccount ? undefined : marketMaker.init()]);
  const chainId = await publicClient.getChainId();
  const startBlock = (await publicClient.getBlockNumber()) + 1n;
  const me = deployer.address;

  // 1. Contracts, in a fixed order (addresses follow from the deployer's nonces).
  const rwa = await deployer.deploy("TestERC20 tRWA", testERC20Abi, testERC20Bytecode, [
    "Sluice Test RWA",
    "tRWA",
    18,
    me,
  ]);
  const usd = await deployer.deploy("TestERC20 tUSD", testERC20Abi, testERC20Bytecode, [
    "Sluice Test USD",
    "tUSD",
    6,
    me,
  ]);
  const usdt = await deployer.deploy("TestUSDT tUSDT", testUSDTAbi, testUSDTBytecode, [
    "Sluice Test Tether USD",
    "tUSDT",
    6,
    me,
  ]);
  const usdVault = await deployer.deploy("TestVault svUSD", testVaultAbi, testVaultBytecode, [
    usd,
    "Sluice tUSD Vault",
    "svUSD",
  ]);
  const usdtVault = await deployer.deploy("TestVault svUSDT", testVaultAbi, testVaultBytecode, [
    usdt,
    "Sluice tUSDT Vault",
    "svUSDT",
  ]);
  const adapterFactory = await deployer.deploy(
    "AdapterFactory",
    adapterFactoryAbi,
    adapterFactoryBytecode,
    [],
  );
  // A contract's nonce starts at 1: the factory's first CREATE is its nonce 1.
  const adapterData = (vault: Address) =>
    encodeAbiParameters([{ type: "address" }, { type: "address" }], [vault, options.protocolSigner]);
  const usdAdapter = getContractAddress({ from: adapterFactory, nonce: 1n });
  await deployer.write(
    "AdapterFactory.create usd",
    adapterFactory,
    adapterFactoryAbi,
    "create",
    [1n, me, adapterData(usdVault)],
    6_000_000n,
  );
  const usdtAdapter = getContractAddress({ from: adapterFactory, nonce: 2n });
  await deployer.write(
    "AdapterFactory.create usdt",
    adapterFactory,
    adapterFactoryAbi,
    "create",
    [1n, me, adapterData(usdtVault)],
    6_000_000n,
  );
  const reactor = await deployer.deploy("Reactor", reactorAbi, reactorBytecode, [adapterFactory]);
  const executors: Address[] = [];
  for (const [i, spec] of (options.executors ?? [{ callers: [] }]).entries()) {
    executors.push(
      await deployer.deploy(`Executor ${i}`, executorAbi, executorBytecode, [
        reactor,
        spec.owner ?? me,
        [...spec.callers],
      ]),
    );
  }

  // 2. Adapter configuration.
  const price = options.oraclePrice ?? DEFAULT_ORACLE_PRICE;
  const minDiscount = options.minDiscountPpm ?? DEFAULT_MIN_DISCOUNT_PPM;
  for (const [name, adapter] of [
    ["usd", usdAdapter],
    ["usdt", usdtAdapter],
  ] as const) {
    const abi = liquidLaneAdapterAbi;
    await deployer.write(`${name} adapter addTokenToRedeem`, adapter, abi, "addTokenToRedeem", [rwa]);
    await deployer.write(`${name} adapter setOraclePrice`, adapter, abi, "setOraclePrice", [rwa, price]);
    await deployer.write(`${name} adapter setMinDiscount`, adapter, abi, "setMinDiscount", [
      rwa,
      minDiscount,
    ]);
    await deployer.write(`${name} adapter setMarketMaker`, adapter, abi, "setMarketMaker", [
      marketMaker.address,
      false,
    ]);
  }

  // 3. Liquidity: each vault's shares belong to its adapter.
  const liquidity = options.vaultLiquidity ?? DEFAULT_VAULT_LIQUIDITY;
  for (const [name, token, tokenAbi, vault, adapter] of [
    ["tUSD", usd, testERC20Abi, usdVault, usdAdapter],
    ["tUSDT", usdt, testUSDTAbi, usdtVault, usdtAdapter],
  ] as const) {
    if (liquidity === 0n) continue;
    await deployer.write(`${name} mint`, token, tokenAbi, "mint", [me, liquidity]);
    await deployer.write(`${name} approve vault`, token, tokenAbi, "approve", [vault, liquidity]);
    await deployer.write(`${name} vault deposit`, vault, testVaultAbi, "deposit", [liquidity, adapter]);
  }

  // 4. Input tokens for the swappers.
  for (const swapper of options.swappers ?? []) {
    await deployer.write("tRWA mint", rwa, testERC20Abi, "mint", [swapper.address, swapper.amount]);
  }

  await deployer.settle();

  // 5. The market maker names the Executors its fillers on both adapters. Sent only once the adapters exist:
  // transactions of different accounts may be mined in any order, and a call to an address without code succeeds.
  for (const adapter of [usdAdapter, usdtAdapter]) {
    for (const executor of executors) {
      await marketMaker.write("adapter setFiller", adapter, liquidLaneAdapterAbi, "setFiller", [
        executor,
        true,
      ]);
    }
  }
  await marketMaker.settle();

  return {
    chainId,
    deployer: me,
    protocolSigner: options.protocolSigner,
    marketMaker: marketMaker.address,
    tokens: { rwa, usd, usdt },
    vaults: { usd: usdVault, usdt: usdtVault },
    adapters: { usd: usdAdapter, usdt: usdtAdapter },
    adapterFactory,
    reactor,
    executors,
    startBlock,
    reactorBlock: deployer.minedIn("Reactor"),
  };
}
