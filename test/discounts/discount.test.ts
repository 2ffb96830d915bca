// POST /discount over HTTP on anvil, on PGlite and PostgreSQL: publish → served as a leg in /liquidity and /quote →
// cancel (deadline 0) → no longer served; every rejection with its code and nothing stored; the expiry worker.
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import {
  liquidLaneAdapterAbi,
  testERC1271WalletAbi,
  testERC1271WalletBytecode,
} from "../../src/chain/abis.ts";
import { discountId as digestOf } from "../../src/chain/order.ts";
import {
  deployContract,
  discountBody,
  SOLVER_IDS,
  send,
  useExampleSuite,
  useWorkedExample,
} from "../liquidity/worked-example.ts";
import { devAccount, useTestChain } from "../support/anvil.ts";
import { databaseKinds } from "../support/db.ts";
import { quoteRequestBody } from "../support/orders.ts";
import type { ScriptedSolver } from "../support/solver-server.ts";

const chain = useTestChain();
const example = useWorkedExample(chain);

const ONE_RWA = 10n ** 18n;

describe.each(databaseKinds)("POST /discount (%s)", (kind) => {
  const suite = useExampleSuite(kind, chain, example);

  const A4 = () => example.adapters.A4;
  const inAnHour = async () => Number(await chain.now()) + 3600;
  const post = async (payload: object) => {
    const response = await suite.subject.app.inject({ method: "POST", url: "/api/v1/discount", payload });
    return { status: response.statusCode, body: response.json() };
  };
  const stored = () => suite.subject.runtime.discounts.repository.listAll();
  const totalLiquidity = async () => {
    const response = await suite.subject.app.inject({
      method: "POST",
      url: "/api/v1/liquidity",
      payload: { tokenIn: chain.core.tokens.rwa },
    });
    return response.json().totalLiquidity as string;
  };
  const i1Liquidity = async () => {
    const response = await suite.subject.app.inject({
      method: "POST",
      url: "/api/v1/liquidity",
      payload: { tokenIn: chain.core.tokens.rwa, solverId: SOLVER_IDS.I1 },
    });
    return response.json().totalLiquidity as string;
  };
  const quote = () =>
    suite.subject.app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: quoteRequestBody(chain, { amount: ONE_RWA, swapper: chain.accounts.swapper.address }),
    });

  describe("publish, serve, cancel", () => {
    it("publishes a discount that is then a leg for internal solvers in /liquidity and /quote only", async () => {
      const { discount, body } = await discountBody(chain, A4(), example.curator, {
        deadline: await inAnHour(),
      });
      const published = await post(body);
      expect(published.status).toBe(200);
      expect(published.body).toEqual({ discountId: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      const id = published.body.discountId as Hex;
      expect(await stored()).toEqual([
        expect.objectContaining({
          adapter: A4().toLowerCase(),
          discountId: id,
          discount: expect.objectContaining({ nonce: discount.nonce }),
        }),
      ]);
      expect(await totalLiquidity()).toBe("300");
      expect(await i1Liquidity()).toBe("120");

      for (const solver of Object.values(suite.solvers)) solver.requests.length = 0;
      expect((await quote()).statusCode).toBe(404); // every solver declines; what matters is what they were sent
      const legsOf = (solver: ScriptedSolver) => solver.requests.at(-1)!.body.adapters;
      const discountLeg = {
        adapter: A4().toLowerCase(),
        asset: chain.core.tokens.usd.toLowerCase(),
        assetDecimals: 6,
        maxAssets: "20",
        // The oracle rate (1.0) less 5000 ppm.
        maxRate: "995000000000000000",
        discountId: id,
      };
      expect(legsOf(suite.solvers.I1)).toContainEqual(discountLeg);
      expect(legsOf(suite.solvers.I2)).toContainEqual(discountLeg);
      expect(
        legsOf(suite.solvers.E1)
          .map((leg) => leg.adapter)
          .sort(),
      ).toEqual([example.adapters.A1, example.adapters.A3].map((a) => a.toLowerCase()).sort());
      expect(legsOf(suite.solvers.E1).some((leg) => leg.discountId)).toBe(false);
    });

    it("cancels with deadline 0: answers the deleted discount's id, stops serving it, and neither it nor the cancel works again", async () => {
      const { discount, body } = await discountBody(chain, A4(), example.curator, {
        deadline: await inAnHour(),
      });
      const id = (await post(body)).body.discountId;
      expect(await totalLiquidity()).toBe("300");

      // Any authorized signer may cancel: here A4's market maker, with a nonce and discount of its own.
      const cancel = await discountBody(chain, A4(), example.a4Maker, {
        deadline: 0,
        discount: 0n,
        nonce: 1n,
      });
      const cancelled = await post(cancel.body);
      expect(cancelled).toEqual({ status: 200, body: { discountId: id } });
      expect(await stored()).toEqual([]);
      expect(await totalLiquidity()).toBe("280");
      for (const solver of Object.values(suite.solvers)) solver.requests.length = 0;
      await quote();
      expect(suite.solvers.I1.requests.at(-1)!.body.adapters.some((leg) => leg.discountId)).toBe(false);

      const republished = await post(body);
      expect(republished.status).toBe(409);
      expect(republished.body.error).toMatchObject({
        code: "DISCOUNT_REJECTED",
        details: { reason: "cancelled" },
      });
      const replayed = await post(cancel.body);
      expect(replayed.status).toBe(409);
      expect(replayed.body.error).toMatchObject({
        code: "DISCOUNT_REJECTED",
        details: { reason: "replayed_cancel" },
      });
      expect(await stored()).toEqual([]);

      // Another discount of the pair (a new nonce) can be published after the cancel.
      const fresh = await discountBody(chain, A4(), example.curator, {
        deadline: await inAnHour(),
        nonce: discount.nonce + 1n,
      });
      expect((await post(fresh.body)).status).toBe(200);
      expect(await totalLiquidity()).toBe("300");
    });

    it("a cancel with nothing stored answers its own digest, once", async () => {
      const cancel = await discountBody(chain, A4(), example.curator, { deadline: 0 });
      const first = await post(cancel.body);
      expect(first.status).toBe(200);
      expect(first.body.discountId).toBe(
        digestOf({ chainId: chain.chainId, adapter: A4() }, cancel.discount),
      );
      expect((await post(cancel.body)).body.error.details.reason).toBe("replayed_cancel");
    });

    it("an unauthorized or badly signed cancel changes nothing", async () => {
      const { body } = await discountBody(chain, A4(), example.curator, { deadline: await inAnHour() });
      await post(body);
      const outsider = await discountBody(chain, A4(), chain.accounts.other, { deadline: 0 });
      expect(await post(outsider.body)).toMatchObject({
        status: 400,
        body: { error: { code: "UNAUTHORIZED_SIGNER" } },
      });
      const forged = await discountBody(chain, A4(), example.curator, { deadline: 0 }, chain.accounts.other);
      expect(await post(forged.body)).toMatchObject({
        status: 400,
        body: { error: { code: "INVALID_SIGNATURE" } },
      });
      expect(await stored()).toHaveLength(1);
      expect(await totalLiquidity()).toBe("300");
      // Neither attempt used up the real cancel.
      expect(
        (await post((await discountBody(chain, A4(), example.curator, { deadline: 0 })).body)).status,
      ).toBe(200);
    });

    it("a newer discount replaces the pair's older one; publishing the same one again is idempotent", async () => {
      const older = await discountBody(chain, A4(), example.curator, { deadline: await inAnHour() });
      const olderId = (await post(older.body)).body.discountId;
      expect((await post(older.body)).body.discountId).toBe(olderId);
      const newer = await discountBody(chain, A4(), example.a4Maker, {
        deadline: await inAnHour(),
        discount: 7000n,
      });
      const newerId = (await post(newer.body)).body.discountId;
      expect((await stored()).map((d) => d.discountId)).toEqual([newerId]);
      for (const solver of Object.values(suite.solvers)) solver.requests.length = 0;
      await quote();
      expect(suite.solvers.I1.requests.at(-1)!.body.adapters.find((leg) => leg.discountId)).toMatchObject({
        discountId: newerId,
        maxRate: "993000000000000000",
      });
    });

    it("accepts addresses and the signature in any case", async () => {
      const { body } = await discountBody(chain, A4(), example.curator, { deadline: await inAnHour() });
      const upper = {
        discount: { ...body.discount, adapter: `0x${body.discount.adapter.slice(2).toUpperCase()}` },
        signature: `0x${body.signature.slice(2).toUpperCase()}`,
      };
      expect((await post(upper)).status).toBe(200);
      expect((await stored())[0]!.adapter).toBe(A4().toLowerCase());
    });

    it("accepts a contract signer's ERC-1271 signature, as the adapter does", async () => {
      const wallet = await deployContract(chain, testERC1271WalletAbi, testERC1271WalletBytecode, [
        example.curator.address,
      ]);
      await send(chain, example.a4Maker, {
        address: A4(),
        abi: liquidLaneAdapterAbi,
        functionName: "setFiller",
        args: [wallet, true],
      });
      // The curator's key signs for the wallet.
      const { body } = await discountBody(chain, A4(), example.curator, {
        deadline: await inAnHour(),
        signer: wallet,
      });
      expect(body.discount.signer).toBe(wallet);
      expect((await post(body)).status).toBe(200);
      expect(await i1Liquidity()).toBe("120");
    });
  });

  describe("rejections store nothing", () => {
    const cases: Array<[string, () => Promise<object>, number, string, string?]> = [
      [
        "a signature by someone else than the signer",
        async () =>
          (
            await discountBody(
              chain,
              A4(),
              example.curator,
              { deadline: await inAnHour() },
              chain.accounts.other,
            )
          ).body,
        400,
        "INVALID_SIGNATURE",
      ],
      [
        "terms changed after signing",
        async () => {
          const { body } = await discountBody(chain, A4(), example.curator, { deadline: await inAnHour() });
          return { ...body, discount: { ...body.discount, discount: "9000" } };
        },
        400,
        "INVALID_SIGNATURE",
      ],
      [
        "a signature that is no signature",
        async () => ({
          ...(await discountBody(chain, A4(), example.curator, { deadline: await inAnHour() })).body,
          signature: "0x1234",
        }),
        400,
        "INVALID_SIGNATURE",
      ],
      [
        "a signer not authorized on the adapter (authorized elsewhere)",
        async () =>
          (await discountBody(chain, example.adapters.A1, example.curator, { deadline: await inAnHour() }))
            .body,
        400,
        "UNAUTHORIZED_SIGNER",
      ],
      [
        "a signer authorized nowhere",
        async () =>
          (await discountBody(chain, A4(), chain.accounts.other, { deadline: await inAnHour() })).body,
        400,
        "UNAUTHORIZED_SIGNER",
      ],
      [
        "another protocol",
        async () =>
          (
            await discountBody(chain, A4(), example.curator, {
              deadline: await inAnHour(),
              protocol: devAccount(7).address,
            })
          ).body,
        400,
        "DISCOUNT_REJECTED",
        "wrong_protocol",
      ],
      [
        "an expired deadline",
        async () =>
          (await discountBody(chain, A4(), example.curator, { deadline: Number(await chain.now()) - 1 }))
            .body,
        400,
        "DISCOUNT_REJECTED",
        "expired",
      ],
      [
        "a deadline equal to the latest block's timestamp",
        async () =>
          (await discountBody(chain, A4(), example.curator, { deadline: Number(await chain.now()) })).body,
        400,
        "DISCOUNT_REJECTED",
        "expired",
      ],
      [
        "a discount below minDiscount",
        async () =>
          (await discountBody(chain, A4(), example.curator, { deadline: await inAnHour(), discount: 499n }))
            .body,
        400,
        "DISCOUNT_REJECTED",
        "below_min_discount",
      ],
      [
        "a discount above 100 %",
        async () =>
          (
            await discountBody(chain, A4(), example.curator, {
              deadline: await inAnHour(),
              discount: 1_000_001n,
            })
          ).body,
        400,
        "DISCOUNT_REJECTED",
        "above_max_discount",
      ],
      [
        "an adapter that is not the deployment's",
        async () =>
          (await discountBody(chain, chain.core.reactor, example.curator, { deadline: await inAnHour() }))
            .body,
        400,
        "DISCOUNT_REJECTED",
        "unknown_adapter",
      ],
      [
        "a token that is not an input token",
        async () =>
          (
            await discountBody(chain, A4(), example.curator, {
              deadline: await inAnHour(),
              tokenToRedeem: chain.core.tokens.usd,
            })
          ).body,
        400,
        "DISCOUNT_REJECTED",
        "unsupported_token",
      ],
      [
        "an input token the adapter does not redeem",
        async () =>
          (
            await discountBody(chain, A4(), example.curator, {
              deadline: await inAnHour(),
              tokenToRedeem: example.rwa2,
            })
          ).body,
        400,
        "DISCOUNT_REJECTED",
        "unsupported_token",
      ],
      [
        "a deadline beyond uint48",
        async () => {
          const { body } = await discountBody(chain, A4(), example.curator, { deadline: await inAnHour() });
          return { ...body, discount: { ...body.discount, deadline: 2 ** 48 } };
        },
        400,
        "VALIDATION_FAILED",
      ],
      [
        "a fractional discount",
        async () => {
          const { body } = await discountBody(chain, A4(), example.curator, { deadline: await inAnHour() });
          return { ...body, discount: { ...body.discount, discount: "1.5" } };
        },
        400,
        "VALIDATION_FAILED",
      ],
    ];

    it.each(cases)("rejects %s", async (_name, payload, status, code, reason) => {
      const response = await post(await payload());
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body.error.code).toBe(code);
      if (reason) expect(response.body.error.details.reason).toBe(reason);
      expect(await stored()).toEqual([]);
      expect(await totalLiquidity()).toBe("280");
    });

    it("rejects a nonce already used on-chain with 409 nonce_used", async () => {
      const { body, discount } = await discountBody(chain, A4(), example.curator, {
        deadline: await inAnHour(),
      });
      await send(chain, chain.accounts.deployer, {
        address: A4(),
        abi: liquidLaneAdapterAbi,
        functionName: "invalidateNonce",
        args: [chain.core.tokens.rwa, discount.nonce],
      });
      const response = await post(body);
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({
        code: "DISCOUNT_REJECTED",
        details: { reason: "nonce_used" },
      });
      expect(await stored()).toEqual([]);
    });
  });

  describe("live until it is not: dropped without anyone calling the API", () => {
    it("an expired discount stops being offered and the worker drops it", async () => {
      const { body } = await discountBody(chain, A4(), example.curator, {
        deadline: Number(await chain.now()) + 100,
      });
      const { discountId } = (await post(body)).body;
      expect(await i1Liquidity()).toBe("120");
      await chain.increaseTime(200);
      await suite.subject.syncHead();
      expect(await i1Liquidity()).toBe("100");
      expect(await suite.subject.runtime.discounts.worker.sweep()).toEqual([discountId]);
      expect(await stored()).toEqual([]);
    });

    it("an invalidated nonce stops the discount; the running worker drops it on the next block", async () => {
      const { body, discount } = await discountBody(chain, A4(), example.curator, {
        deadline: await inAnHour(),
      });
      await post(body);
      const worker = suite.subject.runtime.discounts.worker;
      // The worker sweeps at each new head: the heads are followed while it runs, as a started Sluice does.
      const heads = suite.subject.runtime.heads;
      heads?.start();
      worker.start();
      try {
        await send(chain, example.curator, {
          address: A4(),
          abi: liquidLaneAdapterAbi,
          functionName: "invalidateNonce",
          args: [chain.core.tokens.rwa, discount.nonce],
        });
        while ((await stored()).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        await worker.stop();
        await heads?.stop();
      }
      await suite.subject.syncHead();
      expect(await i1Liquidity()).toBe("100");
    });

    it("a signer no longer authorized, or a raised minDiscount, stops serving the discount but keeps it", async () => {
      const { body } = await discountBody(chain, A4(), example.curator, { deadline: await inAnHour() });
      await post(body);
      await send(chain, example.a4Maker, {
        address: A4(),
        abi: liquidLaneAdapterAbi,
        functionName: "setFiller",
        args: [example.curator.address, false],
      });
      await suite.subject.syncHead();
      expect(await i1Liquidity()).toBe("100");
      expect(await suite.subject.runtime.discounts.worker.sweep()).toEqual([]);
      expect(await stored()).toHaveLength(1);

      await send(chain, example.a4Maker, {
        address: A4(),
        abi: liquidLaneAdapterAbi,
        functionName: "setFiller",
        args: [example.curator.address, true],
      });
      await suite.subject.syncHead();
      expect(await i1Liquidity()).toBe("120");

      await send(chain, chain.accounts.deployer, {
        address: A4(),
        abi: liquidLaneAdapterAbi,
        functionName: "setMinDiscount",
        args: [chain.core.tokens.rwa, 6000n],
      });
      await suite.subject.syncHead();
      expect(await i1Liquidity()).toBe("100");
      expect(await suite.subject.runtime.discounts.worker.sweep()).toEqual([]);
      expect(await stored()).toHaveLength(1);
    });
  });
});
