// The LiquidLane-style adapter and the test tokens against anvil: views and rate math, direct swaps and their
// authorization, discount swaps (through the Reactor and directly) including a stale protocol co-signature, and the
// USDT-style token's approve rule.
import { type Address, type Hex, type LocalAccount, maxUint256, parseEventLogs } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { liquidLaneAdapterAbi, reactorAbi, testERC20Abi, testUSDTAbi } from "../../src/chain/abis.ts";
import {
  type Discount,
  type DiscountSwap,
  type DiscountSwapInput,
  discountId,
  signDiscount,
  signDiscountSwap,
} from "../../src/chain/order.ts";
import { DEFAULT_VAULT_LIQUIDITY } from "../../src/devnet/deploy.ts";
import { useTestChain } from "../support/anvil.ts";
import { revertErrorName } from "../support/reverts.ts";
import { expectFillReverts, prepareFill, RWA, sendFill, simulateFill, USD } from "./fill-helpers.ts";

const chain = useTestChain();
const PPM = 1_000_000n;

function read<T>(functionName: string, args: readonly unknown[] = [], adapter?: Address): Promise<T> {
  return chain.publicClient.readContract({
    address: adapter ?? chain.core.adapters.usd,
    abi: liquidLaneAdapterAbi,
    functionName,
    args,
  } as Parameters<typeof chain.publicClient.readContract>[0]) as Promise<T>;
}

async function send(
  account: LocalAccount,
  address: Address,
  abi: typeof liquidLaneAdapterAbi | typeof testERC20Abi,
  functionName: string,
  args: readonly unknown[],
) {
  const hash = await chain
    .wallet(account)
    .writeContract({ address, abi, functionName, args } as Parameters<
      ReturnType<typeof chain.wallet>["writeContract"]
    >[0]);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

async function revertOf(
  account: LocalAccount,
  address: Address,
  abi: typeof liquidLaneAdapterAbi | typeof testUSDTAbi,
  functionName: string,
  args: readonly unknown[],
) {
  try {
    await chain.publicClient.simulateContract({ account, address, abi, functionName, args } as Parameters<
      typeof chain.publicClient.simulateContract
    >[0]);
    return undefined;
  } catch (error) {
    const name = revertErrorName(error);
    if (!name) throw error;
    return name;
  }
}

/** out = amountIn × rate × 10^6 / (1e18 × 10^18), rounded down (tRWA 18 → tUSD 6 decimals). */
function convert(amountIn: bigint, rate: bigint): bigint {
  return (amountIn * rate * 10n ** 6n) / (10n ** 18n * 10n ** 18n);
}

interface DiscountParams {
  discount?: bigint;
  signer?: LocalAccount;
  protocol?: LocalAccount;
  nonce?: bigint;
  deadline?: number;
  protocolDeadline?: number;
  adapter?: Address;
}

async function makeDiscountSwap(
  params: DiscountParams = {},
): Promise<{ discountSwap: DiscountSwap; protocolSignature: Hex }> {
  const { core, accounts } = chain;
  const adapter = params.adapter ?? core.adapters.usd;
  const now = Number(await chain.now());
  const signer = params.signer ?? accounts.marketMaker;
  const protocol = params.protocol ?? accounts.protocol;
  const discount: Discount = {
    tokenToRedeem: core.tokens.rwa,
    discount: params.discount ?? 1_000n,
    signer: signer.address,
    protocol: protocol.address,
    nonce: params.nonce ?? BigInt(Math.floor(Math.random() * 2 ** 40)),
    deadline: params.deadline ?? now + 3600,
  };
  const ref = { chainId: chain.chainId, adapter };
  const signerSignature = await signDiscount(signer, ref, discount);
  const discountSwap: DiscountSwap = {
    discount,
    signerSignature,
    protocolDeadline: params.protocolDeadline ?? now + 60,
  };
  return { discountSwap, protocolSignature: await signDiscountSwap(protocol, ref, discountSwap) };
}

async function discountFill(params: DiscountParams = {}, amountIn = 100n * RWA) {
  const { core, accounts } = chain;
  const { discountSwap, protocolSignature } = await makeDiscountSwap(params);
  const gross = convert(amountIn, 10n ** 18n);
  const out = (gross * (PPM - discountSwap.discount.discount)) / PPM;
  const input: DiscountSwapInput = {
    adapter: params.adapter ?? core.adapters.usd,
    discountSwap,
    protocolSignature,
    recipient: core.executors[0]!,
    amountIn,
  };
  const signed = [{ token: core.tokens.usd, amount: 99n * USD, recipient: accounts.swapper.address }];
  return prepareFill(chain, {
    amountIn,
    outputs: signed,
    committed: [{ ...signed[0]!, amount: out }],
    swapInputs: [],
    discountSwapInputs: [input],
  });
}

beforeAll(async () => {
  await send(chain.accounts.swapper, chain.core.tokens.rwa, testERC20Abi, "approve", [
    chain.core.reactor,
    maxUint256,
  ]);
});

describe("views", () => {
  it("reports configuration, rates and limits", async () => {
    const { core } = chain;
    expect(await read<Address>("vault")).toBe(core.vaults.usd);
    expect(await read<Address>("owner")).toBe(core.deployer);
    expect(await read<Address>("marketMaker")).toBe(core.marketMaker);
    expect(await read<boolean>("paused")).toBe(false);
    expect(await read<bigint>("getTokensToRedeemLength")).toBe(1n);
    expect(await read<Address>("tokensToRedeem", [0n])).toBe(core.tokens.rwa);
    expect(await read<bigint>("minDiscount", [core.tokens.rwa])).toBe(500n);
    expect(await read<bigint>("getMaxRate", [core.tokens.rwa])).toBe((10n ** 18n * (PPM - 500n)) / PPM);
    const domain = await read<readonly unknown[]>("eip712Domain");
    expect(domain.slice(1, 5)).toEqual(["LiquidLaneAdapter", "1", BigInt(chain.chainId), core.adapters.usd]);
    // getMaxAssets is nonpayable: simulate it.
    const maxAssets = async () =>
      (
        await chain.publicClient.simulateContract({
          address: core.adapters.usd,
          abi: liquidLaneAdapterAbi,
          functionName: "getMaxAssets",
          args: [core.tokens.rwa],
        })
      ).result;
    expect(await maxAssets()).toBe(DEFAULT_VAULT_LIQUIDITY);
    await send(chain.accounts.deployer, core.adapters.usd, liquidLaneAdapterAbi, "setLimit", [
      core.tokens.rwa,
      5n * USD,
    ]);
    expect(await maxAssets()).toBe(5n * USD);
    await send(chain.accounts.deployer, core.adapters.usd, liquidLaneAdapterAbi, "pause", []);
    expect(await maxAssets()).toBe(0n);
    expect(await read<boolean>("paused")).toBe(true);
  });

  it("computes the oracle output with the DESIGN §3 rounding", async () => {
    const { core } = chain;
    const price = 1_234_567_890_123_456_789n;
    await send(chain.accounts.deployer, core.adapters.usd, liquidLaneAdapterAbi, "setOraclePrice", [
      core.tokens.rwa,
      price,
    ]);
    for (const amountIn of [
      1n,
      999_999_999_999n,
      10n ** 18n,
      123_456_789_012_345_678_901n,
      7n * 10n ** 24n + 3n,
    ]) {
      expect(await read<bigint>("getAmountOut", [core.tokens.rwa, amountIn])).toBe(convert(amountIn, price));
    }
    expect(await read<bigint>("getMaxRate", [core.tokens.rwa])).toBe((price * (PPM - 500n)) / PPM);
  });

  it("treats a token that is not a token to redeem as unsupported", async () => {
    const { core } = chain;
    expect(
      await revertOf(chain.accounts.other, core.adapters.usd, liquidLaneAdapterAbi, "getMaxRate", [
        core.tokens.usdt,
      ]),
    ).toBe("InvalidTokenToRedeem");
    const { result } = await chain.publicClient.simulateContract({
      address: core.adapters.usd,
      abi: liquidLaneAdapterAbi,
      functionName: "getMaxAssets",
      args: [core.tokens.usdt],
    });
    expect(result).toBe(0n);
  });
});

describe("direct swap", () => {
  const swap = (amountIn: bigint, amountOut: bigint, recipient?: Address) => ({
    recipient: recipient ?? chain.accounts.marketMaker.address,
    tokenIn: chain.core.tokens.rwa,
    amountIn,
    amountOut,
  });

  it("releases the asset to an authorized caller that delivered the input, within the max rate", async () => {
    const { core, accounts } = chain;
    const mm = accounts.marketMaker;
    await send(accounts.swapper, core.tokens.rwa, testERC20Abi, "transfer", [core.adapters.usd, 10n * RWA]);
    // Not authorized: neither owner, market maker nor a filler of the market maker.
    expect(
      await revertOf(accounts.other, core.adapters.usd, liquidLaneAdapterAbi, "swap", [swap(10n * RWA, 1n)]),
    ).toBe("InvalidCaller");
    // More than 10 tRWA at 0.9995.
    expect(
      await revertOf(mm, core.adapters.usd, liquidLaneAdapterAbi, "swap", [swap(10n * RWA, 9_995_001n)]),
    ).toBe("InvalidSwapRate");
    // More input than delivered.
    expect(await revertOf(mm, core.adapters.usd, liquidLaneAdapterAbi, "swap", [swap(11n * RWA, 1n)])).toBe(
      "InsufficientInput",
    );
    const receipt = await send(mm, core.adapters.usd, liquidLaneAdapterAbi, "swap", [
      swap(10n * RWA, 9_995_000n),
    ]);
    const [event] = parseEventLogs({ abi: liquidLaneAdapterAbi, logs: receipt.logs, eventName: "DoSwap" });
    expect(event!.args.swap).toEqual(swap(10n * RWA, 9_995_000n));
    expect(
      await chain.publicClient.readContract({
        address: core.tokens.usd,
        abi: testERC20Abi,
        functionName: "balanceOf",
        args: [mm.address],
      }),
    ).toBe(9_995_000n);
    // The input is used up: the same swap again has nothing to take.
    expect(await revertOf(mm, core.adapters.usd, liquidLaneAdapterAbi, "swap", [swap(10n * RWA, 1n)])).toBe(
      "InsufficientInput",
    );
  });

  it("honours pause and the release limit", async () => {
    const { core, accounts } = chain;
    const owner = accounts.deployer;
    await send(accounts.swapper, core.tokens.rwa, testERC20Abi, "transfer", [core.adapters.usd, 10n * RWA]);
    await send(owner, core.adapters.usd, liquidLaneAdapterAbi, "setLimit", [core.tokens.rwa, 5n * USD]);
    expect(
      await revertOf(owner, core.adapters.usd, liquidLaneAdapterAbi, "swap", [swap(10n * RWA, 6n * USD)]),
    ).toBe("LimitExceeded");
    await send(owner, core.adapters.usd, liquidLaneAdapterAbi, "pause", []);
    expect(
      await revertOf(owner, core.adapters.usd, liquidLaneAdapterAbi, "swap", [swap(10n * RWA, 1n)]),
    ).toBe("EnforcedPause");
    await send(owner, core.adapters.usd, liquidLaneAdapterAbi, "unpause", []);
    await send(owner, core.adapters.usd, liquidLaneAdapterAbi, "swap", [swap(10n * RWA, 5n * USD)]);
    expect(await read<bigint>("limit", [core.tokens.rwa])).toBe(0n);
  });
});

describe("discount swap", () => {
  it("settles a fill with a discount leg: gross oracle output less the discount", async () => {
    const { core, accounts } = chain;
    const fill = await discountFill({ discount: 1_000n });
    const receipt = await sendFill(chain, fill);
    const [event] = parseEventLogs({ abi: reactorAbi, logs: receipt.logs, eventName: "Fill" });
    expect(event!.args.order.outputs).toEqual(fill.order.outputs);
    expect(fill.order.outputs[0]!.amount).toBe(99_900_000n); // 100 × (1 − 0.001)
    expect(
      await chain.publicClient.readContract({
        address: core.tokens.usd,
        abi: testERC20Abi,
        functionName: "balanceOf",
        args: [accounts.swapper.address],
      }),
    ).toBe(99_900_000n);
    const nonce = fill.discountSwapInputs![0]!.discountSwap.discount.nonce;
    expect(await read<boolean>("isUsedNonce", [core.tokens.rwa, nonce])).toBe(true);
  });

  it("rejects a stale protocol co-signature (ExpiredSwap)", async () => {
    // Co-signed for 30 s; the fill comes 31 s later.
    const fill = await discountFill({ protocolDeadline: Number(await chain.now()) + 30 });
    expect(await simulateFill(chain, fill)).toBeUndefined();
    await chain.increaseTime(31);
    await expectFillReverts(chain, fill, "ExpiredSwap");
  });

  it("rejects a co-signature that lives longer than 90 seconds (ExpiredSwap)", async () => {
    const fill = await discountFill({ protocolDeadline: Number(await chain.now()) + 600 });
    await expectFillReverts(chain, fill, "ExpiredSwap");
  });

  it("rejects an expired discount, a discount below minDiscount, and reused or invalidated nonces", async () => {
    const { core, accounts } = chain;
    await expectFillReverts(
      chain,
      await discountFill({ deadline: Number(await chain.now()) - 1 }),
      "ExpiredSwap",
    );
    await expectFillReverts(chain, await discountFill({ discount: 499n }), "InvalidDiscount");

    const first = await discountFill({ nonce: 7n });
    await sendFill(chain, first);
    await expectFillReverts(chain, await discountFill({ nonce: 7n }), "AlreadyUsedNonce");

    const receipt = await send(
      accounts.marketMaker,
      core.adapters.usd,
      liquidLaneAdapterAbi,
      "invalidateNonce",
      [core.tokens.rwa, 8n],
    );
    const [event] = parseEventLogs({
      abi: liquidLaneAdapterAbi,
      logs: receipt.logs,
      eventName: "InvalidateNonce",
    });
    expect(event!.args).toEqual({ tokenToRedeem: core.tokens.rwa, nonce: 8n });
    await expectFillReverts(chain, await discountFill({ nonce: 8n }), "AlreadyUsedNonce");
    expect(
      await revertOf(accounts.other, core.adapters.usd, liquidLaneAdapterAbi, "invalidateNonce", [
        core.tokens.rwa,
        9n,
      ]),
    ).toBe("InvalidCaller");
  });

  it("rejects an unauthorized signer and an untrusted protocol (InvalidSignature)", async () => {
    const { accounts } = chain;
    await expectFillReverts(chain, await discountFill({ signer: accounts.other }), "InvalidSignature");
    await expectFillReverts(chain, await discountFill({ protocol: accounts.other }), "InvalidSignature");
  });

  it("needs no caller authorization when called directly, and pays to the recipient", async () => {
    const { core, accounts } = chain;
    await send(accounts.swapper, core.tokens.rwa, testERC20Abi, "transfer", [core.adapters.usd, 10n * RWA]);
    const { discountSwap, protocolSignature } = await makeDiscountSwap({ discount: 2_000n });
    const args = [discountSwap, protocolSignature, accounts.other.address, 10n * RWA] as const;
    const { result } = await chain.publicClient.simulateContract({
      account: accounts.other,
      address: core.adapters.usd,
      abi: liquidLaneAdapterAbi,
      functionName: "swap",
      args,
    });
    expect(result).toBe(9_980_000n);
    // A stale co-signature, directly.
    const stale = await makeDiscountSwap({ protocolDeadline: Number(await chain.now()) - 1 });
    expect(
      await revertOf(accounts.other, core.adapters.usd, liquidLaneAdapterAbi, "swap", [
        stale.discountSwap,
        stale.protocolSignature,
        accounts.other.address,
        10n * RWA,
      ]),
    ).toBe("ExpiredSwap");
  });

  it("computes the same discountId as the adapter", async () => {
    const { core } = chain;
    const { discountSwap } = await makeDiscountSwap();
    const onChain = await read<Hex>("hashDiscount", [discountSwap.discount]);
    expect(discountId({ chainId: chain.chainId, adapter: core.adapters.usd }, discountSwap.discount)).toBe(
      onChain,
    );
  });
});

describe("USDT-style token", () => {
  it("rejects changing a nonzero allowance to another nonzero value", async () => {
    const { core, accounts } = chain;
    const token = core.tokens.usdt;
    const spender = accounts.other.address;
    const allowance = () =>
      chain.publicClient.readContract({
        address: token,
        abi: testUSDTAbi,
        functionName: "allowance",
        args: [accounts.swapper.address, spender],
      });
    await send(accounts.swapper, token, testERC20Abi, "approve", [spender, 5n]);
    expect(await allowance()).toBe(5n);
    expect(await revertOf(accounts.swapper, token, testUSDTAbi, "approve", [spender, 6n])).toBe(
      "ApproveNonZeroToNonZero",
    );
    await send(accounts.swapper, token, testERC20Abi, "approve", [spender, 0n]);
    await send(accounts.swapper, token, testERC20Abi, "approve", [spender, 6n]);
    expect(await allowance()).toBe(6n);
  });
});
