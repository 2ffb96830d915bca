// The Reactor and Executor against anvil: a fill settles and emits Fill with the committed outputs; each failure
// of DESIGN §3 reverts with its named error; ERC-1271 swappers; nonces; the Executor's guards.
import { type Address, parseEventLogs } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { executorAbi, liquidLaneAdapterAbi, reactorAbi } from "../../src/chain/abis.ts";
import { encodeOrder, hashOrder } from "../../src/chain/order.ts";
import { addressFromSeed, useTestChain } from "../support/anvil.ts";
import { approveReactor, tokenBalance } from "../support/orders.ts";
import { revertErrorName } from "../support/reverts.ts";
import {
  deployApprovedWallet,
  expectFillReverts,
  prepareFill,
  RWA,
  sendFill,
  simulateFill,
  swapLeg,
  USD,
} from "./fill-helpers.ts";

const chain = useTestChain();

const balance = (token: Address, owner: Address) => tokenBalance(chain, token, owner);

beforeAll(async () => {
  await approveReactor(chain, chain.accounts.swapper);
  await approveReactor(chain, chain.accounts.swapper2);
});

describe("fill", () => {
  it("settles a valid order and emits Fill with the committed outputs", async () => {
    const { core, accounts } = chain;
    const fill = await prepareFill(chain);
    const swapper = accounts.swapper.address;
    const before = {
      swapperRwa: await balance(core.tokens.rwa, swapper),
      swapperUsd: await balance(core.tokens.usd, swapper),
      feeUsd: await balance(core.tokens.usd, accounts.feeRecipient.address),
      adapterRwa: await balance(core.tokens.rwa, core.adapters.usd),
    };
    const receipt = await sendFill(chain, fill);

    const [event] = parseEventLogs({ abi: reactorAbi, logs: receipt.logs, eventName: "Fill" });
    expect(event).toBeDefined();
    expect(event!.address.toLowerCase()).toBe(core.reactor.toLowerCase());
    expect(event!.args.order.outputs).toEqual(fill.order.outputs);
    expect(event!.args.order.request).toEqual(fill.order.request);
    expect(event!.args.order.swapper).toBe(fill.order.swapper);
    expect(event!.args.order.filler).toBe(fill.order.filler);
    expect(hashOrder(event!.args.order)).toBe(hashOrder(fill.order));
    // Fill(Order) has no indexed field: the log data is the ABI encoding of the Order tuple (`encodedOrder`).
    expect(event!.data).toBe(encodeOrder(fill.order));

    expect(await balance(core.tokens.rwa, swapper)).toBe(before.swapperRwa - 100n * RWA);
    expect(await balance(core.tokens.rwa, core.adapters.usd)).toBe(before.adapterRwa + 100n * RWA);
    expect(await balance(core.tokens.usd, swapper)).toBe(before.swapperUsd + fill.order.outputs[0]!.amount);
    expect(await balance(core.tokens.usd, accounts.feeRecipient.address)).toBe(before.feeUsd + USD / 2n);
    expect(await balance(core.tokens.usd, core.executors[0]!)).toBe(0n);
    expect(
      await chain.publicClient.readContract({
        address: core.reactor,
        abi: reactorAbi,
        functionName: "isUsedNonce",
        args: [swapper, fill.request.nonce],
      }),
    ).toBe(true);
    // Replaying the same order fails on the nonce.
    expect(await simulateFill(chain, fill)).toBe("NonceUsed");
  });

  it("splits an order over several legs (SwapInput[]) and over a USDT-style output", async () => {
    const { core, accounts } = chain;
    const outputs = [{ token: core.tokens.usdt, amount: 49n * USD, recipient: accounts.swapper.address }];
    const committed = [{ ...outputs[0]!, amount: 49n * USD + 975_000n }]; // 50 × 0.9995
    const leg = (amountIn: bigint, amountOut: bigint) =>
      swapLeg(chain, { adapter: core.adapters.usdt, amountIn, amountOut });
    for (let round = 0; round < 2; round++) {
      // Twice: the Executor's approval of the USDT-style token must work again after the first fill.
      const fill = await prepareFill(chain, {
        amountIn: 50n * RWA,
        outputs,
        committed,
        swapInputs: [leg(30n * RWA, 29_985_000n), leg(20n * RWA, 19_990_000n)],
      });
      const receipt = await sendFill(chain, fill);
      expect(parseEventLogs({ abi: reactorAbi, logs: receipt.logs, eventName: "Fill" })).toHaveLength(1);
    }
    expect(await balance(core.tokens.usdt, accounts.swapper.address)).toBe(2n * committed[0]!.amount);
  });

  it("rejects a filler other than msg.sender (InvalidFiller)", async () => {
    await expectFillReverts(
      chain,
      await prepareFill(chain, { filler: chain.accounts.other.address }),
      "InvalidFiller",
    );
  });

  it("rejects a request past its deadline (ExpiredRequest)", async () => {
    const fill = await prepareFill(chain, { deadline: (await chain.now()) + 30n });
    expect(await simulateFill(chain, fill)).toBeUndefined();
    await chain.increaseTime(31);
    await expectFillReverts(chain, fill, "ExpiredRequest");
  });

  it("rejects an invalidated nonce (NonceUsed) and emits InvalidateNonce", async () => {
    const fill = await prepareFill(chain);
    const hash = await chain.wallet(chain.accounts.swapper).writeContract({
      address: chain.core.reactor,
      abi: reactorAbi,
      functionName: "invalidateNonce",
      args: [fill.request.nonce],
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    const [event] = parseEventLogs({ abi: reactorAbi, logs: receipt.logs, eventName: "InvalidateNonce" });
    expect(event!.args).toEqual({ swapper: chain.accounts.swapper.address, nonce: fill.request.nonce });
    await expectFillReverts(chain, fill, "NonceUsed");
  });

  it("rejects a bad protocol signature and a bad swapper signature (InvalidProtocolSignature)", async () => {
    const { accounts } = chain;
    await expectFillReverts(
      chain,
      await prepareFill(chain, { orderSigner: accounts.other }),
      "InvalidProtocolSignature",
    );
    await expectFillReverts(
      chain,
      await prepareFill(chain, { requestSigner: accounts.other }),
      "InvalidProtocolSignature",
    );
    // A valid protocol signature over a tampered order: the committed outputs differ from what was signed.
    const fill = await prepareFill(chain);
    fill.order.outputs = fill.order.outputs.map((o) => ({ ...o, amount: o.amount + 1n }));
    await expectFillReverts(chain, fill, "InvalidProtocolSignature");
  });

  it("rejects an adapter the factory did not create (InvalidAdapter)", async () => {
    const fill = await prepareFill(chain, {
      swapInputs: [swapLeg(chain, { adapter: addressFromSeed(0xbad), amountOut: 1n })],
    });
    await expectFillReverts(chain, fill, "InvalidAdapter");
  });

  it("rejects a leg with another input token (InvalidTokenIn)", async () => {
    const fill = await prepareFill(chain, {
      swapInputs: [swapLeg(chain, { tokenIn: chain.core.tokens.usdt, amountOut: 1n })],
    });
    await expectFillReverts(chain, fill, "InvalidTokenIn");
  });

  it("rejects legs that do not sum to amountIn (InvalidAmountIn)", async () => {
    const leg = (amountIn: bigint) => swapLeg(chain, { amountIn, amountOut: 1n });
    await expectFillReverts(
      chain,
      await prepareFill(chain, { swapInputs: [leg(60n * RWA), leg(39n * RWA)] }),
      "InvalidAmountIn",
    );
    await expectFillReverts(chain, await prepareFill(chain, { swapInputs: [] }), "InvalidAmountIn");
  });

  it("rejects committed outputs that are short or mismatched (InvalidOutput)", async () => {
    const { core, accounts } = chain;
    const signed = [{ token: core.tokens.usd, amount: 99n * USD, recipient: accounts.swapper.address }];
    const cases = [
      [{ ...signed[0]!, amount: 99n * USD - 1n }], // short
      [{ ...signed[0]!, token: core.tokens.usdt }], // other token
      [{ ...signed[0]!, recipient: accounts.other.address }], // other recipient
      [], // missing
      [signed[0]!, { ...signed[0]!, amount: 1n }], // extra
    ];
    for (const committed of cases) {
      const swapInputs = [swapLeg(chain, { amountOut: 99n * USD })];
      await expectFillReverts(
        chain,
        await prepareFill(chain, { outputs: signed, committed, swapInputs }),
        "InvalidOutput",
      );
    }
  });

  it("checks in the order of DESIGN §3 (filler before deadline before nonce before signatures …)", async () => {
    const { core, accounts } = chain;
    const badLeg = swapLeg(chain, {
      adapter: addressFromSeed(0xbad),
      tokenIn: core.tokens.usdt,
      amountIn: 1n,
      amountOut: 1n,
    });
    const everythingWrong = await prepareFill(chain, {
      filler: accounts.other.address,
      deadline: (await chain.now()) - 1n,
      orderSigner: accounts.other,
      swapInputs: [badLeg],
      committed: [],
    });
    await expectFillReverts(chain, everythingWrong, "InvalidFiller");
    await expectFillReverts(
      chain,
      { ...everythingWrong, order: { ...everythingWrong.order, filler: core.executors[0]! } },
      "ExpiredRequest",
    );
    const noDeadline = await prepareFill(chain, {
      orderSigner: accounts.other,
      swapInputs: [badLeg],
      committed: [],
    });
    await expectFillReverts(chain, noDeadline, "InvalidProtocolSignature");
    const signed = await prepareFill(chain, { swapInputs: [badLeg], committed: [] });
    await expectFillReverts(chain, signed, "InvalidAdapter");
    const goodAdapter = await prepareFill(chain, {
      swapInputs: [{ ...badLeg, adapter: core.adapters.usd }],
      committed: [],
    });
    await expectFillReverts(chain, goodAdapter, "InvalidTokenIn");
    const goodToken = await prepareFill(chain, {
      swapInputs: [{ adapter: core.adapters.usd, swap: { ...badLeg.swap, tokenIn: core.tokens.rwa } }],
      committed: [],
    });
    await expectFillReverts(chain, goodToken, "InvalidAmountIn");
  });

  it("accepts an ERC-1271 contract wallet as the swapper", async () => {
    const { core, accounts } = chain;
    const owner = accounts.swapper2;
    // Fund the wallet with tRWA and let it approve the Reactor.
    const walletAddress = await deployApprovedWallet(chain, owner, 100n * RWA);

    // A signature by a key that is not the wallet's owner is refused…
    const forged = await prepareFill(chain, { swapper: accounts.other, swapperAddress: walletAddress });
    await expectFillReverts(chain, forged, "InvalidProtocolSignature");
    // …the owner's signature is accepted through isValidSignature.
    const fill = await prepareFill(chain, { swapper: owner, swapperAddress: walletAddress });
    const receipt = await sendFill(chain, fill);
    expect(
      parseEventLogs({ abi: reactorAbi, logs: receipt.logs, eventName: "Fill" })[0]!.args.order.swapper,
    ).toBe(walletAddress);
    expect(await balance(core.tokens.rwa, walletAddress)).toBe(0n);
    expect(await balance(core.tokens.usd, walletAddress)).toBe(fill.order.outputs[0]!.amount);
  });

  it("reverts when an adapter refuses the leg's rate", async () => {
    const { core } = chain;
    const fill = await prepareFill(chain, {
      // 100 tRWA at 0.9995 is at most 99.95 tUSD.
      swapInputs: [swapLeg(chain, { amountOut: 99_950_001n })],
      committed: [
        { token: core.tokens.usd, amount: 99_450_001n, recipient: chain.accounts.swapper.address },
        { token: core.tokens.usd, amount: USD / 2n, recipient: chain.accounts.feeRecipient.address },
      ],
    });
    await expectFillReverts(chain, fill, "InvalidSwapRate");
  });
});

describe("Executor", () => {
  it("only lets its callers fill (NotCaller) and only the Reactor execute (NotReactor)", async () => {
    const fill = await prepareFill(chain);
    expect(await simulateFill(chain, fill, chain.accounts.other)).toBe("NotCaller");
    try {
      await chain.publicClient.simulateContract({
        account: chain.accounts.solver,
        address: chain.core.executors[0]!,
        abi: executorAbi,
        functionName: "execute",
        args: [fill.order, fill.swapInputs, [], "0x"],
      });
      expect.unreachable();
    } catch (error) {
      expect(revertErrorName(error)).toBe("NotReactor");
    }
  });

  it("lets its owner replace the callers", async () => {
    const { core, accounts } = chain;
    const read = (index: bigint) =>
      chain.publicClient.readContract({
        address: core.executors[0]!,
        abi: executorAbi,
        functionName: "callers",
        args: [index],
      });
    expect(await read(0n)).toBe(accounts.solver.address);
    const hash = await chain.wallet(accounts.deployer).writeContract({
      address: core.executors[0]!,
      abi: executorAbi,
      functionName: "setCallers",
      args: [[accounts.other.address]],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(await read(0n)).toBe(accounts.other.address);
    const fill = await prepareFill(chain);
    expect(await simulateFill(chain, fill, accounts.solver)).toBe("NotCaller");
    expect(await simulateFill(chain, fill, accounts.other)).toBeUndefined();
    try {
      await chain.publicClient.simulateContract({
        account: accounts.solver,
        address: core.executors[0]!,
        abi: executorAbi,
        functionName: "setCallers",
        args: [[accounts.solver.address]],
      });
      expect.unreachable();
    } catch (error) {
      expect(revertErrorName(error)).toBe("OwnableUnauthorizedAccount");
    }
  });

  it("is the adapters' filler through the market maker", async () => {
    const { core } = chain;
    expect(
      await chain.publicClient.readContract({
        address: core.adapters.usd,
        abi: liquidLaneAdapterAbi,
        functionName: "isFiller",
        args: [core.marketMaker, core.executors[0]!],
      }),
    ).toBe(true);
  });
});
