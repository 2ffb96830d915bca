// Wire formats of GET /orders: the query (filters, solver, ordering, optional paging) and the order record.
import { z } from "zod";
import {
  AddressSchema,
  Bytes32Schema,
  HexSchema,
  RequestIdSchema,
  SolverIdSchema,
  TimestampSchema,
  Uint256StringSchema,
} from "../shared/wire.ts";
import { TransactionRequestSchema } from "../swap/schemas.ts";

export const ORDER_FILTER_STATUSES = ["open", "expired", "error", "cancelled", "filled"] as const;
export const MAX_IDS_PER_FILTER = 50;

/** A list parameter given comma-separated, repeated, or both. */
function listParameter<T extends z.ZodType<string, string>>(item: T, what: string) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(","))
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(item)
        .min(1, `give at least one ${what}`)
        .max(MAX_IDS_PER_FILTER, `at most ${MAX_IDS_PER_FILTER} ${what}s`),
    )
    .meta({ description: `Comma-separated (or repeated) ${what}s, at most ${MAX_IDS_PER_FILTER}` });
}

/** `sluice`: Sluice's records; `rfq-backend`: exactly the keys the real backend's OrdersResponse lists. */
export const ORDER_VIEWS = ["sluice", "rfq-backend"] as const;
export type OrderView = (typeof ORDER_VIEWS)[number];

// No component id: Fastify's OpenAPI generator expands querystrings inline and cannot follow a $ref there.
export const OrdersQuerySchema = z.object({
  orderId: z.uuid().optional(),
  orderIds: listParameter(z.uuid(), "order id").optional(),
  orderHash: Bytes32Schema.overwrite((value) => value.toLowerCase()).optional(),
  orderHashes: listParameter(
    Bytes32Schema.overwrite((value) => value.toLowerCase()),
    "order hash",
  ).optional(),
  orderStatus: z.enum(ORDER_FILTER_STATUSES).optional(),
  swapper: AddressSchema.optional(),
  filler: AddressSchema.optional().meta({
    description: "Keeps only the orders this Executor fills and adds the execution fields to its open orders",
  }),
  solverId: SolverIdSchema.optional().meta({
    description: "Keeps only this solver's orders and adds the execution fields to its own open orders",
  }),
  sortKey: z.enum(["createdAt", "updatedAt"]).default("createdAt"),
  sort: z.enum(["asc", "desc"]).default("desc"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .meta({ description: "Extension: page size; without it the whole list is returned" }),
  cursor: z
    .string()
    .max(500)
    .optional()
    .meta({ description: "Extension: the `cursor` of the previous page" }),
  view: z
    .enum(ORDER_VIEWS)
    .optional()
    .meta({
      description:
        "Extension: `rfq-backend` writes each order with exactly the keys of the real RFQ backend's OrdersResponse " +
        "(none of Sluice's additions: orderHash, fillBlockNumber, finalized, the round ids and amounts, createdAt, " +
        "updatedAt), for decoders that refuse unknown keys. Default: `sluice`, or the polling solver's `ordersView`",
    }),
});
export type OrdersQuery = z.output<typeof OrdersQuerySchema>;

const EXECUTION_FIELD = "Only on open orders asked for by `solverId` or `filler`";

const OutputSchema = z.object({
  token: AddressSchema,
  recipient: AddressSchema,
  amount: Uint256StringSchema,
});

export const OrderRecordSchema = z
  .object({
    type: z.literal("Priority"),
    orderId: z.uuid(),
    orderHash: Bytes32Schema,
    orderStatus: z.enum(["open", "filled", "expired", "error", "cancelled", "insufficient-funds"]),
    quoteId: z.uuid(),
    swapper: AddressSchema,
    txHash: Bytes32Schema.nullable(),
    nonce: Uint256StringSchema,
    input: z.object({ token: AddressSchema, amount: Uint256StringSchema }),
    outputs: z.array(OutputSchema).meta({ description: "The committed outputs" }),
    settledAmounts: z.array(
      z.object({
        token: AddressSchema,
        amount: Uint256StringSchema,
        recipient: AddressSchema,
        txHash: Bytes32Schema,
      }),
    ),
    fillBlockNumber: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Extension: the block of the Fill that filled the order; null unless filled" }),
    finalized: z.boolean().meta({
      description:
        "Extension: the order has an end status (filled, expired, cancelled, error) decided at a block the " +
        "deployment's finality depth deep (or below the chain's `finalized` block): it will not change again",
    }),
    quoteRequestId: z.uuid().meta({
      description: "Extension: the request id of the POST /quote round that issued the order's quote",
    }),
    orderRequestId: z.uuid().meta({
      description: "Extension: the request id of the POST /order call whose hard round committed the order",
    }),
    quotedAmountOut: Uint256StringSchema.meta({
      description:
        "Extension: the quote entry's total (its `aggregatedOutputs` amount), in tokenOut base units",
    }),
    committedAmountOut: Uint256StringSchema.meta({
      description:
        "Extension: the hard round's total, the sum of the committed `outputs` in tokenOut (never below " +
        "`quotedAmountOut`; any improvement goes to the output without `portionBps`)",
    }),
    settledAmountOut: Uint256StringSchema.nullable().meta({
      description:
        "Extension: what the Fill delivered to the outputs, the sum of `settledAmounts` in tokenOut; null unless filled",
    }),
    priceImprovement: z
      .object({
        // Never negative: a hard round below the quoted total never becomes an order.
        amount: Uint256StringSchema.meta({
          description: "committedAmountOut − quotedAmountOut, in tokenOut base units",
        }),
        bps: z.number().int().min(0).meta({ description: "⌊amount × 10000 / quotedAmountOut⌋" }),
      })
      .meta({ description: "Extension: how much better than quoted the hard round committed" }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    encodedOrder: HexSchema.optional().meta({ description: EXECUTION_FIELD }),
    protocolSignature: HexSchema.optional().meta({ description: EXECUTION_FIELD }),
    deadline: z.number().int().optional().meta({ description: EXECUTION_FIELD }),
    filler: AddressSchema.optional().meta({ description: EXECUTION_FIELD }),
  })
  .meta({ id: "Order" });
export type OrderRecord = z.output<typeof OrderRecordSchema>;

/** An order as the real RFQ backend's OrdersResponse lists it: what `view=rfq-backend` writes. */
export const RfqBackendOrderSchema = OrderRecordSchema.pick({
  type: true,
  orderId: true,
  orderStatus: true,
  quoteId: true,
  swapper: true,
  txHash: true,
  nonce: true,
  input: true,
  outputs: true,
  settledAmounts: true,
  encodedOrder: true,
  protocolSignature: true,
  deadline: true,
  filler: true,
})
  .strict()
  .meta({ id: "RfqBackendOrder" });

export const OrdersResponseSchema = z
  .object({
    requestId: RequestIdSchema,
    orders: z.array(z.union([OrderRecordSchema, RfqBackendOrderSchema])).meta({
      description:
        "Order records (`Order`), or with `view=rfq-backend` the real document's (`RfqBackendOrder`)",
    }),
    cursor: z
      .string()
      .nullable()
      .meta({ description: "Opaque; pass it back to get the next page; null when nothing follows" }),
  })
  .meta({ id: "OrdersResponse" });
export type OrdersResponse = z.output<typeof OrdersResponseSchema>;
/** The answer in Sluice's own view (the default): every order a full `Order` record. */
export const OwnOrdersResponseSchema = OrdersResponseSchema.extend({ orders: z.array(OrderRecordSchema) });

// --- POST /cancel ---------------------------------------------------------------------------------------

export const CancelRequestSchema = z.object({ orderId: z.uuid() }).meta({ id: "CancelRequest" });

export const CancelResponseSchema = z
  .object({
    requestId: RequestIdSchema,
    orderId: z.uuid(),
    swapper: AddressSchema.meta({
      description: "The account that must send `transaction` (the order's swapper)",
    }),
    transaction: TransactionRequestSchema.meta({
      description:
        "Reactor.invalidateNonce(nonce) with the order's nonce: once mined (sent by `swapper`), no fill of the " +
        "order can pass and the order becomes `cancelled`",
    }),
  })
  .meta({ id: "CancelResponse" });
export type CancelResponse = z.output<typeof CancelResponseSchema>;
