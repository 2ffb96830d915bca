// The worked example of DESIGN.md §4 on anvil, with the project's contracts: four adapters on tUSD, each over its
// own vault (A1 is the core tUSD adapter), with capacities 100 / 50 / 30 / 20 base units set through the adapter's
// `limit`; three solvers with distinct Executors — internal I1 (authorized on A1) and I2 (A1, A2), external E1
// (A3, A1) — and a curator key authorized on A4 only, which signs the live discount there. A second input token
// (tRWA2, redeemed by A2 alone with capacity 7) and a third without a liquidity output token make the batch cases.
//
// Authorization uses each adapter's market maker: A1's is the core market maker, which names all three Executors
// its fillers; A2's market maker is I2's Executor, A3's is E1's; A4's market maker names the curator its filler.
import { randomBytes } from "node:crypto";
import {
  type Address,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  type Hex,
  type LocalAccount,
  maxUint256,
} from "viem";
import { afterAll, beforeAll, beforeEach } from "vitest";
import {
  adapterFactoryAbi,
  executorAbi,
  executorBytecode,
  liquidLaneAdapterAbi,
  testERC20Abi,
  testERC20Bytecode,
  testVaultAbi,
  testVaultBytecode,
} from "../../src/chain/abis.ts";
import { type Discount, signDiscount } from "../../src/chain/order.ts";
import type { Clock } from "../../src/clock.ts";
import type { Database, DatabaseKind } from "../../src/db/client.ts";
import { discountRequestBody } from "../../src/demo/discount.ts";
import type { Deployment } from "../../src/deployment/schema.ts";
import { devAccount, type TestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { clearDiscountStore } from "../support/discounts.ts";
import { lateProxy } from "../support/late.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import {
  createSwapTestApp,
  MIN_QUOTE_AMOUNT,
  type SwapTestApp,
  type TestSolver,
  testDeployment,
} from "../support/swap.ts";

export const CAPACITY = { A1: 100n, A2: 50n, A3: 30n, A4: 20n } as const;
export const RWA2_CAPACITY_ON_A2 = 7n;
export const MIN_DISCOUNT_PPM = 500n;
const VAULT_LIQUIDITY = 1_000_000n * 10n ** 6n;

export const SOLVER_IDS = { I1: "int_i1", I2: "int_i2", E1: "ext_e1" } as const;

export interface WorkedExample {
  adapters: { A1: Address; A2: Address; A3: Address; A4: Address };
  executors: { I1: Address; I2: Address; E1: Address };
  /** Authorized on A4 (a filler of A4's market maker) and nowhere else. */
  curator: LocalAccount;
  /** A4's market maker. */
  a4Maker: LocalAccount;
  /** A second input token, redeemed by A2 only. */
  rwa2: Address;
  /** A configured input token without a liquidity output token. */
  rwa3: Address;
}

interface Call {
  address: Address;
  abi: readonly unknown[];
  functionName: string;
  args: readonly unknown[];
}

export async function send(chain: TestChain, account: LocalAccount, call: Call): Promise<void> {
  const hash = await chain.wallet(account).writeContract(call as never);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`${call.functionName} reverted`);
}

export async function deployContract(
  chain: TestChain,
  abi: readonly unknown[],
  bytecode: Hex,
  args: readonly unknown[],
): Promise<Address> {
  const hash = await chain.wallet(chain.accounts.deployer).deployContract({ abi, bytecode, args } as never);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("deployment failed");
  return getAddress(receipt.contractAddress);
}

/**
 * The example for the whole file, deployed in a `beforeAll` registered here (after useTestChain's, so before any
 * snapshot): call it at the top of the file, next to useTestChain. Read it inside tests and hooks.
 */
export function useWorkedExample(chain: TestChain): WorkedExample {
  let example: WorkedExample | undefined;
  beforeAll(async () => {
    example = await deployWorkedExample(chain);
  });
  return lateProxy(() => example, "the worked example is not deployed yet (use it inside tests or hooks)");
}

/** Deploys and configures the example on top of the core deployment (run once per file, before any snapshot). */
export async function deployWorkedExample(chain: TestChain): Promise<WorkedExample> {
  const { core, accounts } = chain;
  const deployer = accounts.deployer;
  const curator = devAccount(9);
  const a4Maker = devAccount(8);

  const executor = () =>
    deployContract(chain, executorAbi, executorBytecode, [
      core.reactor,
      deployer.address,
      [accounts.solver.address],
    ]);
  const executors = { I1: core.executors[0]!, I2: await executor(), E1: await executor() };

  const adapters: Address[] = [];
  for (const name of ["A2", "A3", "A4"]) {
    const vault = await deployContract(chain, testVaultAbi, testVaultBytecode, [
      core.tokens.usd,
      `Vault ${name}`,
      `sv${name}`,
    ]);
    // The factory is a contract: its nonce is the number of contracts it has created, plus one.
    const nonce = await chain.publicClient.getTransactionCount({ address: core.adapterFactory });
    const adapter = getContractAddress({ from: core.adapterFactory, nonce: BigInt(nonce) });
    await send(chain, deployer, {
      address: core.adapterFactory,
      abi: adapterFactoryAbi,
      functionName: "create",
      args: [
        1n,
        deployer.address,
        encodeAbiParameters([{ type: "address" }, { type: "address" }], [vault, accounts.protocol.address]),
      ],
    });
    const at = (functionName: string, args: readonly unknown[]) =>
      send(chain, deployer, { address: adapter, abi: liquidLaneAdapterAbi, functionName, args });
    await at("addTokenToRedeem", [core.tokens.rwa]);
    await at("setOraclePrice", [core.tokens.rwa, 10n ** 18n]);
    await at("setMinDiscount", [core.tokens.rwa, MIN_DISCOUNT_PPM]);
    await send(chain, deployer, {
      address: core.tokens.usd,
      abi: testERC20Abi,
      functionName: "mint",
      args: [deployer.address, VAULT_LIQUIDITY],
    });
    await send(chain, deployer, {
      address: core.tokens.usd,
      abi: testERC20Abi,
      functionName: "approve",
      args: [vault, maxUint256],
    });
    await send(chain, deployer, {
      address: vault,
      abi: testVaultAbi,
      functionName: "deposit",
      args: [VAULT_LIQUIDITY, adapter],
    });
    adapters.push(adapter);
  }
  const [A2, A3, A4] = adapters as [Address, Address, Address];
  const A1 = core.adapters.usd;

  const adminOf = (adapter: Address) => (functionName: string, args: readonly unknown[]) =>
    send(chain, deployer, { address: adapter, abi: liquidLaneAdapterAbi, functionName, args });
  await adminOf(A1)("setLimit", [core.tokens.rwa, CAPACITY.A1]);
  await adminOf(A2)("setLimit", [core.tokens.rwa, CAPACITY.A2]);
  await adminOf(A3)("setLimit", [core.tokens.rwa, CAPACITY.A3]);
  await adminOf(A4)("setLimit", [core.tokens.rwa, CAPACITY.A4]);
  await adminOf(A2)("setMarketMaker", [executors.I2, false]);
  await adminOf(A3)("setMarketMaker", [executors.E1, false]);
  await adminOf(A4)("setMarketMaker", [a4Maker.address, false]);

  // A1's market maker (the core one) already names I1's Executor; it adds I2's and E1's.
  for (const filler of [executors.I2, executors.E1]) {
    await send(chain, accounts.marketMaker, {
      address: A1,
      abi: liquidLaneAdapterAbi,
      functionName: "setFiller",
      args: [filler, true],
    });
  }
  await send(chain, a4Maker, {
    address: A4,
    abi: liquidLaneAdapterAbi,
    functionName: "setFiller",
    args: [curator.address, true],
  });

  const rwa2 = await deployContract(chain, testERC20Abi, testERC20Bytecode, [
    "Sluice Test RWA 2",
    "tRWA2",
    18,
    deployer.address,
  ]);
  await adminOf(A2)("addTokenToRedeem", [rwa2]);
  await adminOf(A2)("setOraclePrice", [rwa2, 10n ** 18n]);
  await adminOf(A2)("setLimit", [rwa2, RWA2_CAPACITY_ON_A2]);

  return {
    adapters: { A1, A2, A3, A4 },
    executors,
    curator,
    a4Maker,
    rwa2,
    rwa3: getAddress(`0x${randomBytes(20).toString("hex")}`),
  };
}

export interface ExampleSolverEndpoints {
  I1: string;
  I2: string;
  E1: string;
}

/** The three solvers of the example (all enabled unless said otherwise), secrets `secret-<id>`. */
export function exampleSolvers(
  example: WorkedExample,
  endpoints: ExampleSolverEndpoints,
  enabled: Partial<Record<keyof ExampleSolverEndpoints, boolean>> = {},
): TestSolver[] {
  return [
    {
      id: SOLVER_IDS.I1,
      endpoint: endpoints.I1,
      filler: example.executors.I1,
      internal: true,
      enabled: enabled.I1 ?? true,
    },
    {
      id: SOLVER_IDS.I2,
      endpoint: endpoints.I2,
      filler: example.executors.I2,
      internal: true,
      enabled: enabled.I2 ?? true,
    },
    {
      id: SOLVER_IDS.E1,
      endpoint: endpoints.E1,
      filler: example.executors.E1,
      internal: false,
      enabled: enabled.E1 ?? true,
    },
  ];
}

export function exampleDeployment(
  chain: TestChain,
  example: WorkedExample,
  solvers: readonly TestSolver[],
): Deployment {
  const { core } = chain;
  const input = (address: Address, symbol: string, liquidityOutputToken?: Address) => ({
    address,
    symbol,
    name: `Sluice Test ${symbol}`,
    decimals: 18,
    minQuoteAmount: MIN_QUOTE_AMOUNT.toString(),
    ...(liquidityOutputToken ? { liquidityOutputToken } : {}),
  });
  return testDeployment(chain, solvers, {
    executors: [example.executors.I1, example.executors.I2, example.executors.E1],
    inputTokens: [
      input(core.tokens.rwa, "tRWA", core.tokens.usd),
      input(example.rwa2, "tRWA2", core.tokens.usd),
      input(example.rwa3, "tRWA3"),
    ] as Deployment["inputTokens"],
    adapters: [
      { address: example.adapters.A1 },
      { address: core.adapters.usdt },
      { address: example.adapters.A2 },
      { address: example.adapters.A3 },
      { address: example.adapters.A4 },
    ] as Deployment["adapters"],
  });
}

export type ExampleApp = SwapTestApp;

/** Every route a deployment serves — /api/v1 and the internal API — on the example's deployment. */
export function createExampleApp(
  chain: TestChain,
  database: Database,
  options: { solvers: readonly TestSolver[]; example: WorkedExample; clock: Clock },
): Promise<ExampleApp> {
  return createSwapTestApp(chain, database, {
    solvers: options.solvers,
    clock: options.clock,
    servedDeployment: exampleDeployment(chain, options.example, options.solvers),
  });
}

export interface ExampleSuite {
  readonly database: Database;
  /** Scripted solvers standing in for I1, I2 and E1 (declining by default), and their URLs. */
  readonly solvers: { I1: ScriptedSolver; I2: ScriptedSolver; E1: ScriptedSolver };
  readonly endpoints: ExampleSolverEndpoints;
  readonly subject: ExampleApp;
  readonly clock: ManualClock;
}

/**
 * The set-up the liquidity and discount suites share, registered in the calling `describe`: a `kind` database,
 * three scripted solvers as I1, I2 and E1, the example's app on them; before each test an empty discount store,
 * declining solvers, the app on the chain's head and the clock at the chain's time. Read the fields inside
 * tests and hooks (they are set in `beforeAll`).
 */
export function useExampleSuite(kind: DatabaseKind, chain: TestChain, example: WorkedExample): ExampleSuite {
  const clock = new ManualClock(Date.now());
  let state: Omit<ExampleSuite, "clock"> | undefined;
  const ready = () => {
    if (!state) throw new Error("useExampleSuite: read the suite inside tests and hooks");
    return state;
  };
  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    const [I1, I2, E1] = await Promise.all([0, 1, 2].map(() => startScriptedSolver({ kind: "decline" })));
    const solvers = { I1: I1!, I2: I2!, E1: E1! };
    const endpoints = { I1: I1!.url, I2: I2!.url, E1: E1!.url };
    const subject = await createExampleApp(chain, database, {
      solvers: exampleSolvers(example, endpoints),
      example,
      clock,
    });
    state = { database, solvers, endpoints, subject };
  });
  afterAll(async () => {
    await state?.subject.close();
    await Promise.all(Object.values(state?.solvers ?? {}).map((solver) => solver.close()));
    await state?.database.close();
  });
  beforeEach(async () => {
    const { subject, database, solvers } = ready();
    await clearDiscountStore(subject.runtime.discounts.repository, database);
    for (const solver of Object.values(solvers)) solver.setBehaviour({ kind: "decline" });
    await subject.syncHead();
    clock.set(Number(await chain.now()) * 1000);
  });
  return {
    clock,
    get database() {
      return ready().database;
    },
    get solvers() {
      return ready().solvers;
    },
    get endpoints() {
      return ready().endpoints;
    },
    get subject() {
      return ready().subject;
    },
  };
}

/** A Discount's JSON body for POST /discount, signed by `signer` (or by `signWith` to forge one). */
export async function discountBody(
  chain: TestChain,
  adapter: Address,
  signer: LocalAccount,
  terms: Partial<Discount> & { deadline: number },
  signWith: LocalAccount = signer,
) {
  const discount: Discount = {
    tokenToRedeem: chain.core.tokens.rwa,
    discount: 5000n,
    signer: signer.address,
    protocol: chain.accounts.protocol.address,
    nonce: BigInt(`0x${randomBytes(8).toString("hex")}`),
    ...terms,
  };
  const signature = await signDiscount(signWith, { chainId: chain.chainId, adapter }, discount);
  // The body as the devnet publishes its demo discount; POST /discount's own schema and signature check still judge
  // it, and the suites compare what is stored with `discount`.
  return { discount, body: discountRequestBody(adapter, discount, signature) };
}
