// POST /liquidity and POST /liquidity-batch over HTTP on anvil: the worked example of DESIGN.md §4 number for
// number (with a live discount on A4 published through POST /discount), on PGlite and PostgreSQL.
import { describe, expect, it } from "vitest";
import { liquidLaneAdapterAbi } from "../../src/chain/abis.ts";
import { LiquidityBatchResponseSchema, LiquiditySnapshotSchema } from "../../src/liquidity/schemas.ts";
import { useTestChain } from "../support/anvil.ts";
import { databaseKinds } from "../support/db.ts";
import {
  createExampleApp,
  discountBody,
  exampleSolvers,
  RWA2_CAPACITY_ON_A2,
  SOLVER_IDS,
  send,
  useExampleSuite,
  useWorkedExample,
} from "./worked-example.ts";

const chain = useTestChain();
const example = useWorkedExample(chain);

const { I1, I2, E1 } = SOLVER_IDS;

describe.each(databaseKinds)("POST /liquidity and /liquidity-batch (%s)", (kind) => {
  const suite = useExampleSuite(kind, chain, example);

  /** The example's live discount on A4, signed by the curator and published through the API. */
  async function publishA4Discount(app = suite.subject) {
    const { body } = await discountBody(chain, example.adapters.A4, example.curator, {
      deadline: Number(await chain.now()) + 3600,
    });
    const response = await app.app.inject({ method: "POST", url: "/api/v1/discount", payload: body });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().discountId as string;
  }

  const liquidity = async (payload: object, app = suite.subject) => {
    const response = await app.app.inject({ method: "POST", url: "/api/v1/liquidity", payload });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };
  const batch = async (payload: object) => {
    const response = await suite.subject.app.inject({
      method: "POST",
      url: "/api/v1/liquidity-batch",
      payload,
    });
    return { status: response.statusCode, body: response.json() };
  };
  const numbers = (body: {
    totalLiquidity: string;
    solvers: Array<{ solverId: string; liquidity: string }>;
  }) => ({
    total: body.totalLiquidity,
    solvers: body.solvers.map((s) => [s.solverId, s.liquidity]),
  });

  describe("the worked example", () => {
    it("unfiltered: I2 170, E1 130, I1 120 and a total of 300, with the spec's fields only", async () => {
      await publishA4Discount();
      const asked = Object.values(suite.solvers).map((solver) => solver.requests.length);
      const { status, body, headers } = await liquidity({
        tokenIn: chain.core.tokens.rwa.toUpperCase().replace("0X", "0x"),
      });
      expect(status).toBe(200);
      expect(LiquiditySnapshotSchema.strict().parse(body)).toEqual({
        tokenIn: chain.core.tokens.rwa.toLowerCase(),
        tokenOut: chain.core.tokens.usd.toLowerCase(),
        tokenInInfo: {
          address: chain.core.tokens.rwa.toLowerCase(),
          symbol: "tRWA",
          name: "Sluice Test tRWA",
          decimals: 18,
        },
        tokenOutInfo: {
          address: chain.core.tokens.usd.toLowerCase(),
          symbol: "tUSD",
          name: "Sluice Test USD",
          decimals: 6,
        },
        totalLiquidity: "300",
        solvers: [
          { solverId: I2, liquidity: "170" },
          { solverId: E1, liquidity: "130" },
          { solverId: I1, liquidity: "120" },
        ],
      });
      expect(Object.keys(body).sort()).toEqual(
        ["solvers", "tokenIn", "tokenInInfo", "tokenOut", "tokenOutInfo", "totalLiquidity"].sort(),
      );
      expect(headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      // No solver is called and nothing is stored.
      expect(Object.values(suite.solvers).map((solver) => solver.requests.length)).toEqual(asked);
      expect(await suite.database.query("select * from quote_requests")).toEqual([]);
    });

    it("without the discount, A4 counts nowhere: I2 150, E1 130, I1 100, total 280", async () => {
      expect(numbers((await liquidity({ tokenIn: chain.core.tokens.rwa })).body)).toEqual({
        total: "280",
        solvers: [
          [I2, "150"],
          [E1, "130"],
          [I1, "100"],
        ],
      });
    });

    it("with I1 and I2 disabled: the pool is A4 alone, total 20 + 130 = 150, solvers [E1 130]", async () => {
      const disabled = await createExampleApp(chain, suite.database, {
        solvers: exampleSolvers(example, suite.endpoints, { I1: false, I2: false }),
        example,
        clock: suite.clock,
      });
      try {
        await publishA4Discount(disabled);
        expect(numbers((await liquidity({ tokenIn: chain.core.tokens.rwa }, disabled)).body)).toEqual({
          total: "150",
          solvers: [[E1, "130"]],
        });
        // A disabled solver matches nothing, even by id.
        expect(
          numbers((await liquidity({ tokenIn: chain.core.tokens.rwa, solverId: I1 }, disabled)).body),
        ).toEqual({
          total: "0",
          solvers: [],
        });
      } finally {
        await disabled.close();
      }
    });

    it("solverId I1: solvers [I1 120], total 120; solverId wins over solverIds", async () => {
      await publishA4Discount();
      const expected = { total: "120", solvers: [[I1, "120"]] };
      expect(numbers((await liquidity({ tokenIn: chain.core.tokens.rwa, solverId: I1 })).body)).toEqual(
        expected,
      );
      expect(
        numbers((await liquidity({ tokenIn: chain.core.tokens.rwa, solverId: I1, solverIds: [E1] })).body),
      ).toEqual(expected);
    });

    it("solverIds [I2, E1]: total 170 + 130 = 300; duplicates count once", async () => {
      await publishA4Discount();
      const expected = {
        total: "300",
        solvers: [
          [I2, "170"],
          [E1, "130"],
        ],
      };
      expect(
        numbers((await liquidity({ tokenIn: chain.core.tokens.rwa, solverIds: [I2, E1] })).body),
      ).toEqual(expected);
      expect(
        numbers((await liquidity({ tokenIn: chain.core.tokens.rwa, solverIds: [E1, I2, E1] })).body),
      ).toEqual(expected);
    });

    it("solverIds [I1, I2]: the internal solvers' distinct adapters A1, A2, A4 once, 170", async () => {
      await publishA4Discount();
      expect(
        numbers((await liquidity({ tokenIn: chain.core.tokens.rwa, solverIds: [I1, I2] })).body),
      ).toEqual({
        total: "170",
        solvers: [
          [I2, "170"],
          [I1, "120"],
        ],
      });
    });
  });

  describe("nothing eligible", () => {
    it("solverIds [] and unknown ids select nothing: 200, 0, []", async () => {
      await publishA4Discount();
      for (const selection of [
        { solverIds: [] },
        { solverIds: ["ext_unknown"] },
        { solverId: "ext_nobody" },
      ]) {
        const { status, body } = await liquidity({ tokenIn: chain.core.tokens.rwa, ...selection });
        expect(status).toBe(200);
        expect(numbers(body)).toEqual({ total: "0", solvers: [] });
      }
    });

    it("with every adapter paused: 200, 0, [] even with a published discount", async () => {
      await publishA4Discount();
      for (const adapter of Object.values(example.adapters)) {
        await send(chain, chain.accounts.deployer, {
          address: adapter,
          abi: liquidLaneAdapterAbi,
          functionName: "pause",
          args: [],
        });
      }
      await suite.subject.syncHead();
      const { status, body } = await liquidity({ tokenIn: chain.core.tokens.rwa });
      expect(status).toBe(200);
      expect(numbers(body)).toEqual({ total: "0", solvers: [] });
    });

    it("a token that no adapter redeems has 0, []", async () => {
      const { body } = await liquidity({ tokenIn: example.rwa2, solverIds: [I1, E1] });
      expect(numbers(body)).toEqual({ total: "0", solvers: [] });
    });
  });

  describe("validation", () => {
    it.each([
      ["an unknown token", () => `0x${"1".repeat(40)}`, "is not a supported input token"],
      [
        "an input token without a liquidity output token",
        () => example.rwa3.toLowerCase(),
        "has no liquidity output token configured",
      ],
      ["an output token", () => chain.core.tokens.usd.toLowerCase(), "is not a supported input token"],
    ])("rejects %s with 400 UNSUPPORTED_TOKEN", async (_name, token, message) => {
      const { status, body } = await liquidity({ tokenIn: token() });
      expect(status).toBe(400);
      expect(body.error).toMatchObject({
        code: "UNSUPPORTED_TOKEN",
        status: 400,
        details: { token: token(), issues: [{ path: "tokenIn", message }] },
      });
    });

    it.each([
      ["a malformed address", { tokenIn: "0x1234" }],
      ["a missing tokenIn", {}],
      ["an empty solverId", { tokenIn: `0x${"1".repeat(40)}`, solverId: "" }],
      ["a non-array solverIds", { tokenIn: `0x${"1".repeat(40)}`, solverIds: "int_i1" }],
    ])("rejects %s with 400 VALIDATION_FAILED", async (_name, payload) => {
      const { status, body } = await liquidity(payload);
      expect(status).toBe(400);
      expect(body.error.code).toBe("VALIDATION_FAILED");
      expect(body.error.details.issues.length).toBeGreaterThan(0);
    });
  });

  describe("POST /liquidity-batch", () => {
    it("answers one snapshot per token in request order, each as /liquidity would", async () => {
      await publishA4Discount();
      const asked = Object.values(suite.solvers).map((solver) => solver.requests.length);
      for (const order of [
        [example.rwa2, chain.core.tokens.rwa],
        [chain.core.tokens.rwa, example.rwa2],
      ]) {
        const { status, body } = await batch({ tokensIn: order });
        expect(status).toBe(200);
        const parsed = LiquidityBatchResponseSchema.parse(body);
        expect(parsed.tokensIn.map((snapshot) => snapshot.tokenIn)).toEqual(
          order.map((t) => t.toLowerCase()),
        );
        for (const snapshot of parsed.tokensIn) {
          const single = await liquidity({ tokenIn: snapshot.tokenIn });
          expect(snapshot).toEqual(single.body);
        }
      }
      const { body } = await batch({ tokensIn: [example.rwa2, chain.core.tokens.rwa] });
      expect(body.tokensIn.map(numbers)).toEqual([
        { total: String(RWA2_CAPACITY_ON_A2), solvers: [[I2, String(RWA2_CAPACITY_ON_A2)]] },
        {
          total: "300",
          solvers: [
            [I2, "170"],
            [E1, "130"],
            [I1, "120"],
          ],
        },
      ]);
      expect(body.tokensIn[0].tokenInInfo).toEqual({
        address: example.rwa2.toLowerCase(),
        symbol: "tRWA2",
        name: "Sluice Test tRWA2",
        decimals: 18,
      });
      expect(Object.values(suite.solvers).map((solver) => solver.requests.length)).toEqual(asked);
    });

    it("applies solverId and solverIds to every token", async () => {
      await publishA4Discount();
      const tokensIn = [chain.core.tokens.rwa, example.rwa2];
      const byId = await batch({ tokensIn, solverId: I1, solverIds: [I2] });
      expect(byId.body.tokensIn.map(numbers)).toEqual([
        { total: "120", solvers: [[I1, "120"]] },
        { total: "0", solvers: [] },
      ]);
      const byIds = await batch({ tokensIn, solverIds: [I2, E1] });
      expect(byIds.body.tokensIn.map(numbers)).toEqual([
        {
          total: "300",
          solvers: [
            [I2, "170"],
            [E1, "130"],
          ],
        },
        { total: "7", solvers: [[I2, "7"]] },
      ]);
      const none = await batch({ tokensIn, solverIds: [] });
      expect(none.body.tokensIn.map(numbers)).toEqual([
        { total: "0", solvers: [] },
        { total: "0", solvers: [] },
      ]);
    });

    it("rejects duplicates compared case-insensitively with 400 DUPLICATE_TOKEN", async () => {
      const rwa = chain.core.tokens.rwa;
      const { status, body } = await batch({
        tokensIn: [rwa.toLowerCase(), example.rwa2, `0x${rwa.slice(2).toUpperCase()}`],
      });
      expect(status).toBe(400);
      expect(body.error).toMatchObject({
        code: "DUPLICATE_TOKEN",
        details: {
          token: rwa.toLowerCase(),
          issues: [{ path: "tokensIn.2", message: "duplicate of tokensIn.0" }],
        },
      });
    });

    it("rejects the whole request when one token is unsupported, naming it, before reading any inventory", async () => {
      const unknown = `0x${"5".repeat(40)}`;
      let snapshotsRead = 0;
      const inventory = suite.subject.runtime.context.inventory;
      const original = inventory.snapshot.bind(inventory);
      inventory.snapshot = (token) => {
        snapshotsRead++;
        return original(token);
      };
      try {
        const { status, body } = await batch({ tokensIn: [chain.core.tokens.rwa, unknown, example.rwa2] });
        expect(status).toBe(400);
        expect(body.error).toMatchObject({
          code: "UNSUPPORTED_TOKEN",
          details: {
            token: unknown,
            tokens: [unknown],
            issues: [{ path: "tokensIn.1", message: "is not a supported input token" }],
          },
        });
        expect(body.error.message).toContain(unknown);
        const noOutput = await batch({ tokensIn: [example.rwa3, chain.core.tokens.rwa] });
        expect(noOutput.status).toBe(400);
        expect(noOutput.body.error.details.token).toBe(example.rwa3.toLowerCase());
        expect(snapshotsRead).toBe(0);
      } finally {
        inventory.snapshot = original;
      }
    });

    it.each([
      ["an empty list", { tokensIn: [] }],
      [
        "21 tokens",
        { tokensIn: Array.from({ length: 21 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`) },
      ],
      ["a malformed token", { tokensIn: ["0xnope"] }],
    ])("rejects %s with 400 VALIDATION_FAILED", async (_name, payload) => {
      const { status, body } = await batch(payload);
      expect(status).toBe(400);
      expect(body.error.code).toBe("VALIDATION_FAILED");
    });
  });

  it("documents both routes in the OpenAPI document, and not the internal API", async () => {
    const response = await suite.subject.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(response.statusCode, response.body).toBe(200);
    const paths = response.json().paths;
    expect(paths["/liquidity"].post.description).toContain(
      "counted more than once in the total (spec rule 2)",
    );
    expect(paths["/liquidity-batch"].post.requestBody).toBeDefined();
    expect(paths["/discount"].post.responses["409"]).toBeDefined();
    expect(Object.keys(paths).filter((path) => path.includes("discounts"))).toEqual([]);
  });
});
