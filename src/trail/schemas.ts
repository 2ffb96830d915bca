// GET /api-internal/v1/trail: which trail (an order id, or any request id along the way) and what it answers.
import { z } from "zod";

export const TrailQuerySchema = z
  .object({
    orderId: z.uuid().optional().meta({ description: "An order's id (POST /order's `orderId`)" }),
    requestId: z.uuid().optional().meta({
      description: "An X-Request-Id of a POST /quote (its round) or of a POST /order call (first or re-post)",
    }),
  })
  .refine((query) => (query.orderId === undefined) !== (query.requestId === undefined), {
    message: "give exactly one of orderId and requestId",
  });

const AnswerSchema = z.object({
  solverId: z.string(),
  outcome: z.enum(["quoted", "declined", "rejected"]),
  reason: z.string().nullable(),
  /** A rejection's detail, without the solver's endpoint. */
  detail: z.string().nullable(),
  latencyMs: z.number(),
  amountOut: z.string().nullable(),
});

const at = z.string().meta({ description: "When it was recorded (ISO 8601, UTC)" });

const EntrySchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("quote-round"),
    at,
    requestId: z.string(),
    swapper: z.string(),
    tokenIn: z.string(),
    tokenOut: z.string(),
    amount: z.string(),
    inventoryBlock: z.string().nullable(),
    answers: z.array(AnswerSchema),
    quotes: z.array(
      z.object({
        quoteId: z.string(),
        solverId: z.string(),
        rank: z.number().int(),
        amountOut: z.string(),
        deadline: z.number().int(),
      }),
    ),
  }),
  z.object({
    kind: z.literal("signature-check"),
    at,
    requestId: z.string(),
    quoteId: z.string(),
    passed: z.boolean(),
    detail: z
      .string()
      .meta({ description: "`ecdsa` or `erc1271` when it passed; the fault when it did not" }),
  }),
  z.object({
    kind: z.literal("hard-round"),
    at,
    requestId: z.string(),
    quoteId: z.string(),
    answers: z.array(AnswerSchema),
  }),
  z.object({
    kind: z.literal("co-signature"),
    at,
    requestId: z.string(),
    quoteId: z.string(),
    signer: z.string().meta({ description: "The protocol signer's address" }),
  }),
  z.object({ kind: z.literal("order-post"), at, requestId: z.string(), orderId: z.string() }),
  z.object({
    kind: z.literal("status"),
    at,
    requestId: z
      .string()
      .nullable()
      .meta({ description: "The request that wrote it; null for the indexer's" }),
    orderId: z.string(),
    from: z.string().nullable(),
    to: z.string(),
    reason: z.string(),
    blockNumber: z.string().nullable(),
    txHash: z.string().nullable(),
  }),
]);

export const TrailSchema = z.object({
  quoteRequestId: z.string(),
  orders: z.array(
    z.object({
      orderId: z.string(),
      orderHash: z.string(),
      quoteId: z.string(),
      solverId: z.string(),
      status: z.string(),
      txHash: z.string().nullable(),
    }),
  ),
  entries: z.array(EntrySchema),
});
