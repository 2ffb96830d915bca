// POST /quote's hand-written acceptor against QuoteRequestSchema: every body it accepts, the schema accepts with the
// very same value (keys in the same order); every body the schema refuses, it declines; and the route's validator
// gives the schema's answer either way.
import { validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { bodyAcceptorOf } from "../../src/http/accepted-bodies.ts";
import { wellFormedValidatorCompiler } from "../../src/http/well-formed-text.ts";
import { acceptQuoteRequest } from "../../src/swap/quote-request-accept.ts";
import { QuoteRequestSchema } from "../../src/swap/schemas.ts";

const A = "0x00000000000000000000000000000000000000a1";
const B = "0xABCDEFabcdef0123456789012345678901234567";
const C = "0x0000000000000000000000000000000000000C0c";

const base = {
  tokenInChainId: 31337,
  tokenOutChainId: 31337,
  tokenIn: A,
  tokenOut: B,
  type: "EXACT_INPUT",
  amount: "1000000",
  swapper: C,
  outputs: [{ token: B }],
};

const valid: Array<Record<string, unknown>> = [
  base,
  { ...base, routingPreference: "BEST_PRICE", permitAmount: "EXACT" },
  { ...base, solverIds: ["ext_a", "int-b", "ünïcode id"] },
  {
    ...base,
    outputs: [
      { token: B, recipient: C },
      { token: B, portionBps: 25, recipient: A },
    ],
  },
  { ...base, outputs: [{ portionBps: 0, token: B }, { token: B }] },
  // Keys in another order than the schema's, and keys it does not know.
  {
    permitAmount: "EXACT",
    outputs: [{ recipient: A, token: B, note: "x" }],
    swapper: C,
    amount: "1000000",
    type: "EXACT_INPUT",
    extra: { nested: [1] },
    tokenOut: B,
    tokenIn: A,
    tokenOutChainId: 31337,
    tokenInChainId: 31337,
    slippageTolerance: "0.5",
  },
  { ...base, amount: "0" },
  { ...base, amount: "9".repeat(77) },
  { ...base, tokenInChainId: Number.MAX_SAFE_INTEGER, tokenOutChainId: 1 },
  { ...base, outputs: Array.from({ length: 50 }, () => ({ token: B, portionBps: 9999 })) },
  { ...base, solverIds: Array.from({ length: 50 }, (_, index) => "x".repeat(200 - index)) },
];

/** Values a field may be set to: right and wrong types, edges of every bound. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  1,
  -1,
  1.5,
  9999,
  10000,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  "",
  "0",
  "01",
  "1.5",
  "-1",
  " 1",
  "1e3",
  "9".repeat(77),
  "9".repeat(78),
  "1".repeat(78),
  (2n ** 256n - 1n).toString(),
  (2n ** 256n).toString(),
  A,
  B,
  `${A}0`,
  A.slice(0, 41),
  A.replace("0x", "0X"),
  "EXACT_INPUT",
  "EXACT_OUTPUT",
  "BEST_PRICE",
  "FASTEST",
  "EXACT",
  "exact",
  true,
  {},
  [],
  [B],
  [{}],
  [{ token: B }],
  [{ token: "nope" }],
  [{ token: B, portionBps: 10000 }],
  [{ token: B, portionBps: -1 }],
  [{ token: B, portionBps: 2.5 }],
  [{ token: B, recipient: null }],
  [{ token: B, recipient: "0x1" }],
  Array.from({ length: 51 }, () => ({ token: B })),
  ["ext_a"],
  [""],
  ["x".repeat(201)],
  ["bad\u0007id"],
  ["tab\tid"],
  [1],
  Array.from({ length: 51 }, () => "s"),
];

const FIELDS = [
  "tokenInChainId",
  "tokenOutChainId",
  "tokenIn",
  "tokenOut",
  "type",
  "amount",
  "swapper",
  "outputs",
  "solverIds",
  "routingPreference",
  "permitAmount",
];

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutated(next: () => number, body: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(body);
  const changes = 1 + Math.floor(next() * 2);
  for (let change = 0; change < changes; change++) {
    const field = FIELDS[Math.floor(next() * FIELDS.length)]!;
    const value = VALUES[Math.floor(next() * VALUES.length)];
    if (value === undefined && next() < 0.5) delete copy[field];
    else copy[field] = structuredClone(value);
  }
  return copy;
}

function expectSameAsSchema(body: unknown) {
  const parsed = QuoteRequestSchema.safeParse(body);
  const accepted = acceptQuoteRequest(body);
  if (accepted === undefined) return { parsed, accepted };
  expect(parsed.success, JSON.stringify(body)).toBe(true);
  expect(accepted).toStrictEqual(parsed.data);
  expect(JSON.stringify(accepted)).toBe(JSON.stringify(parsed.data));
  return { parsed, accepted };
}

describe("acceptQuoteRequest", () => {
  it.each(valid.map((body, index) => [index, body] as const))(
    "gives the schema's value for valid body %i",
    (_index, body) => {
      const { parsed, accepted } = expectSameAsSchema(body);
      expect(parsed.success).toBe(true);
      expect(accepted).toBeDefined();
    },
  );

  it("declines every body the schema refuses, and gives the schema's value for every one it accepts", () => {
    const next = random(25);
    let accepted = 0;
    let refused = 0;
    let leftToSchema = 0;
    for (let index = 0; index < 4000; index++) {
      const body = mutated(next, valid[index % valid.length]!);
      const result = expectSameAsSchema(body);
      if (!result.parsed.success) {
        expect(result.accepted, JSON.stringify(body)).toBeUndefined();
        refused++;
      } else if (result.accepted !== undefined) accepted++;
      else leftToSchema++;
    }
    // Both sides of the comparison are exercised; valid bodies the acceptor leaves to the schema are the rare
    // ones (a 78-digit amount, a key present without a value).
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(2000);
    expect(leftToSchema).toBeLessThan(accepted / 2);
  });

  it("declines what is not an object, and keys present without a value", () => {
    for (const body of [
      null,
      [],
      "x",
      1,
      { ...base, solverIds: undefined },
      { ...base, permitAmount: undefined },
    ])
      expect(acceptQuoteRequest(body)).toBeUndefined();
    expect(acceptQuoteRequest({ ...base, outputs: [{ token: B, recipient: undefined }] })).toBeUndefined();
    expect(acceptQuoteRequest({ ...base, outputs: [{ token: B, portionBps: undefined }] })).toBeUndefined();
  });
});

describe("the /quote body's validator", () => {
  const route = { schema: QuoteRequestSchema, method: "POST", url: "/api/v1/quote", httpPart: "body" };
  const validate = wellFormedValidatorCompiler(route);
  const schemaOnly = validatorCompiler(route);

  it("is the acceptor's for the route's schema", () => {
    expect(bodyAcceptorOf(QuoteRequestSchema)).toBe(acceptQuoteRequest);
  });

  it("answers as the schema does, accepted or refused", () => {
    const next = random(7);
    for (let index = 0; index < 500; index++) {
      const body = mutated(next, valid[index % valid.length]!);
      expect(validate(body)).toStrictEqual(schemaOnly(body));
    }
  });

  it("still refuses text PostgreSQL cannot store before accepting", () => {
    const result = validate({ ...base, solverIds: ["a\u0000b"] }) as { error?: unknown };
    expect(result.error).toBeDefined();
  });
});
