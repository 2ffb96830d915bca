// POST /discount accepts only signer signatures the adapter accepts on-chain (OpenZeppelin SignatureChecker): each
// encoding of an EOA's signature is either stored in the canonical 65-byte form, resolved in it for solvers and
// filled through the Reactor with it on anvil, or refused with 400 INVALID_SIGNATURE and nothing stored; an ERC-1271
// signer's signature goes to its wallet byte for byte. On PGlite and PostgreSQL.
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  liquidLaneAdapterAbi,
  testERC1271WalletAbi,
  testERC1271WalletBytecode,
} from "../../src/chain/abis.ts";
import { type Discount, type DiscountSwapInput, signDiscountSwap } from "../../src/chain/order.ts";
import type { Database } from "../../src/db/client.ts";
import {
  discountSwapInputOf,
  type ResolvedDiscount,
  ResolvedDiscountSchema,
} from "../../src/discounts/schemas.ts";
import { prepareFill, RWA, sendFill, simulateFill, USD } from "../contracts/fill-helpers.ts";
import { deployContract, discountBody, send } from "../liquidity/worked-example.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { clearDiscountStore } from "../support/discounts.ts";
import { approveReactor } from "../support/orders.ts";
import { SIGNATURE_FORMS, withYParityV } from "../support/signatures.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";

const chain = useTestChain();
const INTERNAL_SOLVER = "int_forms";

describe.each(databaseKinds)("POST /discount signer signature forms (%s)", (kind) => {
  let database: Database;
  let solver: ScriptedSolver;
  let subject: SwapTestApp;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    solver = await startScriptedSolver({ kind: "decline" });
    subject = await createSwapTestApp(chain, database, {
      clock: new ManualClock(Date.now()),
      solvers: [{ id: INTERNAL_SOLVER, endpoint: solver.url, internal: true }],
    });
  });
  afterAll(async () => {
    await subject?.close();
    await solver?.close();
    await database?.close();
  });
  beforeEach(async () => {
    await clearDiscountStore(subject.runtime.discounts.repository, database);
    await approveReactor(chain, chain.accounts.swapper);
    await subject.syncHead();
  });

  /** The core tUSD adapter, where the market maker (who signs) is authorized. */
  const adapter = () => chain.core.adapters.usd;
  const stored = () => subject.runtime.discounts.repository.listAll();
  const post = (payload: object) => subject.app.inject({ method: "POST", url: "/api/v1/discount", payload });

  async function resolve(discountId: Hex): Promise<ResolvedDiscount> {
    const response = await subject.internal.inject({
      method: "POST",
      url: "/api-internal/v1/discounts",
      headers: { "x-solver-id": INTERNAL_SOLVER, "x-rfq-shared-secret": `secret-${INTERNAL_SOLVER}` },
      payload: { discountId },
    });
    expect(response.statusCode, response.body).toBe(200);
    return ResolvedDiscountSchema.parse(response.json());
  }

  async function signedDiscount(signer?: Address) {
    return discountBody(chain, adapter(), chain.accounts.marketMaker, {
      deadline: Number(await chain.now()) + 3600,
      discount: 1000n,
      ...(signer ? { signer } : {}),
    });
  }

  /**
   * A swapper's order of 100 tRWA for 99 tUSD, filled through one discount swap of `discount` carrying
   * `signerSignature`, co-signed by the protocol for 60 s.
   */
  async function discountFill(discount: Discount, signerSignature: Hex) {
    const ref = { chainId: chain.chainId, adapter: adapter() };
    const discountSwap = { discount, signerSignature, protocolDeadline: Number(await chain.now()) + 60 };
    const input: DiscountSwapInput = {
      adapter: adapter(),
      discountSwap,
      protocolSignature: await signDiscountSwap(chain.accounts.protocol, ref, discountSwap),
      recipient: chain.core.executors[0]!,
      amountIn: 100n * RWA,
    };
    return resolvedFill(input);
  }

  /** The same order, filled through the discount swap a solver builds from Sluice's resolve answer. */
  function resolvedFill(input: DiscountSwapInput) {
    const outputs = [
      { token: chain.core.tokens.usd, amount: 99n * USD, recipient: chain.accounts.swapper.address },
    ];
    return prepareFill(chain, { outputs, committed: outputs, swapInputs: [], discountSwapInputs: [input] });
  }

  function fromResolved(resolved: ResolvedDiscount): DiscountSwapInput {
    return {
      ...discountSwapInputOf(resolved),
      recipient: chain.core.executors[0]!,
      amountIn: 100n * RWA,
    };
  }

  it.each(SIGNATURE_FORMS)(
    "$name: stored and resolved only in a form the adapter fills",
    async ({ name, encode, fault }) => {
      const { discount, body } = await signedDiscount();
      const signature = body.signature as Hex;
      const form = encode(signature);
      // The adapter refuses every form as sent but the canonical one (an odd number of hex digits is not even bytes).
      if (name !== "odd length") {
        expect(await simulateFill(chain, await discountFill(discount, form))).toBe(
          name === "canonical" ? undefined : "InvalidSignature",
        );
      }

      const response = await post({ ...body, signature: form });
      if (fault) {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error).toMatchObject({
          code: "INVALID_SIGNATURE",
          details: { reason: fault },
        });
        expect(await stored()).toEqual([]);
        return;
      }
      expect(response.statusCode, response.body).toBe(200);
      const { discountId } = response.json() as { discountId: Hex };
      expect((await stored()).map((entry) => entry.signature)).toEqual([signature]);
      const resolved = await resolve(discountId);
      expect(resolved.signerSignature).toBe(signature);
      await sendFill(chain, await resolvedFill(fromResolved(resolved)));
    },
  );

  it("passes an ERC-1271 signer's signature to its wallet byte for byte", async () => {
    const wallet = await deployContract(chain, testERC1271WalletAbi, testERC1271WalletBytecode, [
      chain.accounts.marketMaker.address,
    ]);
    await send(chain, chain.accounts.marketMaker, {
      address: adapter(),
      abi: liquidLaneAdapterAbi,
      functionName: "setFiller",
      args: [wallet, true],
    });
    const { body } = await signedDiscount(wallet);
    const signature = body.signature as Hex;

    // The wallet checks with OpenZeppelin's ECDSA, which refuses v 0/1; Sluice rewrites nothing for a contract.
    const refused = await post({ ...body, signature: withYParityV(signature) });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: "INVALID_SIGNATURE",
      details: { reason: "refused_by_contract" },
    });
    expect(await stored()).toEqual([]);

    const accepted = await post(body);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const resolved = await resolve(accepted.json().discountId);
    expect(resolved.signerSignature).toBe(signature);
    await sendFill(chain, await resolvedFill(fromResolved(resolved)));
  });
});
