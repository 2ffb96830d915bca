// Builds signed orders and fill calls against the core deployment of a test chain.
import { type Address, encodeFunctionData, getAddress, type Hex, type LocalAccount, maxUint256 } from "viem";
import { expect } from "vitest";
import {
  executorAbi,
  testERC20Abi,
  testERC1271WalletAbi,
  testERC1271WalletBytecode,
} from "../../src/chain/abis.ts";
import {
  type DiscountSwapInput,
  type Order,
  type Output,
  type Request,
  type SwapInput,
  signOrder,
} from "../../src/chain/order.ts";
import type { TestChain } from "../support/anvil.ts";
import { signRequest } from "../support/requests.ts";
import { revertErrorName } from "../support/reverts.ts";

export const RWA = 10n ** 18n;
export const USD = 10n ** 6n;

export interface FillParams {
  swapper?: LocalAccount;
  /** The swapper address when the swapper is a contract wallet (its owner key signs). */
  swapperAddress?: Address;
  amountIn?: bigint;
  /** The outputs the swapper signs (default: 99.0 to the swapper + 0.5 fee, in tUSD, for 100 tRWA). */
  outputs?: Output[];
  /** The committed outputs the protocol signs (default: the remainder output raised to 99.45). */
  committed?: Output[];
  deadline?: bigint;
  nonce?: bigint;
  filler?: Address;
  protocol?: LocalAccount;
  /** Signs the Order instead of the request's protocol (to make a bad protocol signature). */
  orderSigner?: LocalAccount;
  /** Signs the Request instead of the swapper (to make a bad swapper signature). */
  requestSigner?: LocalAccount;
  /** Swap legs (default: one leg on the tUSD adapter for the whole amount, releasing the committed total). */
  swapInputs?: SwapInput[];
  discountSwapInputs?: DiscountSwapInput[];
}

/**
 * A swap leg as the test Executor sends it (its output paid to the Executor): `amountIn` of `tokenIn` into `adapter`,
 * asking `amountOut` in return. By default 100 tRWA into the core tUSD adapter.
 */
export function swapLeg(
  chain: TestChain,
  leg: { adapter?: Address; tokenIn?: Address; amountIn?: bigint; amountOut: bigint },
): SwapInput {
  const { core } = chain;
  return {
    adapter: leg.adapter ?? core.adapters.usd,
    swap: {
      recipient: core.executors[0]!,
      tokenIn: leg.tokenIn ?? core.tokens.rwa,
      amountIn: leg.amountIn ?? 100n * RWA,
      amountOut: leg.amountOut,
    },
  };
}

export interface PreparedFill {
  request: Request;
  order: Order;
  protocolSignature: Hex;
  swapInputs: SwapInput[];
  discountSwapInputs: DiscountSwapInput[] | undefined;
}

export async function prepareFill(chain: TestChain, params: FillParams = {}): Promise<PreparedFill> {
  const { core, accounts } = chain;
  const swapperKey = params.swapper ?? accounts.swapper;
  const swapper = params.swapperAddress ?? swapperKey.address;
  const amountIn = params.amountIn ?? 100n * RWA;
  const outputs = params.outputs ?? [
    { token: core.tokens.usd, amount: 99n * USD, recipient: swapper },
    { token: core.tokens.usd, amount: USD / 2n, recipient: accounts.feeRecipient.address },
  ];
  const committed =
    params.committed ??
    outputs.map((o, i) => (i === 0 ? { ...o, amount: o.amount + (45n * USD) / 100n } : o));
  const protocol = params.protocol ?? accounts.protocol;
  const request: Request = {
    tokenIn: core.tokens.rwa,
    amountIn,
    outputs,
    deadline: params.deadline ?? (await chain.now()) + 600n,
    nonce: params.nonce ?? BigInt(Math.floor(Math.random() * 2 ** 48)),
    protocol: protocol.address,
  };
  const ref = { chainId: chain.chainId, reactor: core.reactor };
  const swapperSignature = await signRequest(params.requestSigner ?? swapperKey, ref, request);
  const order: Order = {
    request,
    swapperSignature,
    swapper,
    filler: params.filler ?? core.executors[0]!,
    outputs: committed,
  };
  const protocolSignature = await signOrder(params.orderSigner ?? protocol, ref, order);
  const total = committed.reduce((sum, o) => sum + o.amount, 0n);
  const swapInputs = params.swapInputs ?? [swapLeg(chain, { amountIn, amountOut: total })];
  return { request, order, protocolSignature, swapInputs, discountSwapInputs: params.discountSwapInputs };
}

function fillArgs(fill: PreparedFill) {
  return fill.discountSwapInputs
    ? ([fill.order, fill.protocolSignature, fill.swapInputs, fill.discountSwapInputs, "0x"] as const)
    : ([fill.order, fill.protocolSignature, fill.swapInputs, "0x"] as const);
}

/** Simulates `Executor.fill` from the solver; resolves to the revert's error name, or undefined if it succeeds. */
export async function simulateFill(chain: TestChain, fill: PreparedFill, from?: LocalAccount) {
  try {
    await chain.publicClient.simulateContract({
      account: from ?? chain.accounts.solver,
      address: chain.core.executors[0]!,
      abi: executorAbi,
      functionName: "fill",
      args: fillArgs(fill),
    });
    return undefined;
  } catch (error) {
    const name = revertErrorName(error);
    if (!name) throw error;
    return name;
  }
}

/** Sends `Executor.fill` from the solver and returns the successful receipt. */
export async function sendFill(chain: TestChain, fill: PreparedFill, from?: LocalAccount) {
  const wallet = chain.wallet(from ?? chain.accounts.solver);
  const hash = await wallet.writeContract({
    address: chain.core.executors[0]!,
    abi: executorAbi,
    functionName: "fill",
    args: fillArgs(fill),
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

export async function expectFillReverts(chain: TestChain, fill: PreparedFill, error: string): Promise<void> {
  expect(await simulateFill(chain, fill)).toBe(error);
}

/**
 * Deploys a TestERC1271Wallet owned by `owner`, funds it with `amount` tRWA from the owner and has it approve the
 * Reactor for any amount; returns its address.
 */
export async function deployApprovedWallet(
  chain: TestChain,
  owner: LocalAccount,
  amount: bigint,
): Promise<Address> {
  const { core } = chain;
  const ownerWallet = chain.wallet(owner);
  const deployHash = await ownerWallet.deployContract({
    abi: testERC1271WalletAbi,
    bytecode: testERC1271WalletBytecode,
    args: [owner.address],
  });
  const walletAddress = getAddress(
    (await chain.publicClient.waitForTransactionReceipt({ hash: deployHash })).contractAddress!,
  );
  const transfer = await ownerWallet.writeContract({
    address: core.tokens.rwa,
    abi: testERC20Abi,
    functionName: "transfer",
    args: [walletAddress, amount],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash: transfer });
  const approve = await ownerWallet.writeContract({
    address: walletAddress,
    abi: testERC1271WalletAbi,
    functionName: "execute",
    args: [
      core.tokens.rwa,
      0n,
      encodeFunctionData({ abi: testERC20Abi, functionName: "approve", args: [core.reactor, maxUint256] }),
    ],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash: approve });
  return walletAddress;
}
