// Wire formats of POST /check_approval, POST /quote and POST /order: one schema each, feeding validation,
// handler types and the OpenAPI document.
import { z } from "zod";
import {
  AddressSchema,
  ChainIdSchema,
  HexSchema,
  RequestIdSchema,
  SolverIdSchema,
  Uint256StringSchema,
} from "../shared/wire.ts";

// --- POST /check_approval -------------------------------------------------------------------------------

export const CheckApprovalRequestSchema = z
  .object({
    walletAddress: AddressSchema,
    chainId: ChainIdSchema,
    token: AddressSchema,
    amount: Uint256StringSchema,
  })
  .meta({ id: "CheckApprovalRequest" });

export const TransactionRequestSchema = z
  .object({
    to: AddressSchema,
    data: HexSchema,
    value: z.literal("0").meta({ description: 'Native value to send, a decimal string (always "0")' }),
  })
  .meta({ id: "TransactionRequest" });

export const CheckApprovalResponseSchema = z
  .object({
    requestId: RequestIdSchema,
    cancel: TransactionRequestSchema.nullable().meta({
      description:
        "approve(Reactor, 0): resets a nonzero but insufficient allowance; send it before `approval`",
    }),
    approval: TransactionRequestSchema.nullable().meta({ description: "approve(Reactor, max uint256)" }),
  })
  .meta({ id: "CheckApprovalResponse" });

// --- POST /quote ----------------------------------------------------------------------------------------

export const PortionBpsSchema = z.number().int().min(0).max(9999);
/** The real document's bound on a quote request's outputs (the spec gives none); a 50-output order fills on anvil. */
export const MAX_QUOTE_OUTPUTS = 50;

export const QuoteRequestSchema = z
  .object({
    tokenInChainId: ChainIdSchema,
    tokenOutChainId: ChainIdSchema,
    tokenIn: AddressSchema,
    tokenOut: AddressSchema,
    type: z.literal("EXACT_INPUT"),
    amount: Uint256StringSchema.meta({ description: "Input amount in tokenIn base units" }),
    swapper: AddressSchema,
    outputs: z
      .array(
        z.object({
          token: AddressSchema,
          recipient: AddressSchema.optional(),
          portionBps: PortionBpsSchema.optional(),
        }),
      )
      .min(1)
      .max(MAX_QUOTE_OUTPUTS),
    solverIds: z.array(SolverIdSchema).min(1).max(50).optional(),
    routingPreference: z.literal("BEST_PRICE").default("BEST_PRICE"),
    permitAmount: z.literal("EXACT").optional(),
  })
  .meta({ id: "QuoteRequest" });
export type QuoteRequest = z.output<typeof QuoteRequestSchema>;

export const QuoteOutputSchema = z.object({
  token: AddressSchema,
  recipient: AddressSchema,
  amount: Uint256StringSchema,
  portionBps: PortionBpsSchema.optional(),
});

export const OrderInfoSchema = z.object({
  tokenIn: AddressSchema,
  amountIn: Uint256StringSchema,
  outputs: z.array(QuoteOutputSchema).min(1),
  deadline: z
    .number()
    .int()
    .min(0)
    .meta({ description: "Unix seconds: the quote's expiry and the Request's deadline" }),
  nonce: Uint256StringSchema,
});

export const QuoteSchema = z
  .object({
    quoteId: z.uuid(),
    aggregatedOutputs: z.array(z.object({ token: AddressSchema, amount: Uint256StringSchema })).min(1),
    orderInfo: OrderInfoSchema,
  })
  .meta({ id: "Quote" });

const TypedDataFieldSchema = z.object({ name: z.string(), type: z.string() });

export const SignatureDataSchema = z
  .object({
    domain: z.object({
      name: z.string(),
      version: z.string(),
      chainId: z.number().int(),
      verifyingContract: AddressSchema,
    }),
    types: z.object({ Request: z.array(TypedDataFieldSchema), Output: z.array(TypedDataFieldSchema) }).meta({
      description:
        "The Request and Output struct types only, as the real backend returns them (no EIP712Domain: ethers v6 " +
        "signs them as-is). A raw eth_signTypedData_v4 call must add EIP712Domain from the domain's fields.",
    }),
    primaryType: z.literal("Request"),
    value: z.object({
      tokenIn: AddressSchema,
      amountIn: Uint256StringSchema,
      outputs: z.array(
        z.object({ token: AddressSchema, amount: Uint256StringSchema, recipient: AddressSchema }),
      ),
      deadline: Uint256StringSchema,
      nonce: Uint256StringSchema,
      protocol: AddressSchema,
    }),
  })
  .meta({ id: "SignatureData", description: "EIP-712 typed data to sign (eth_signTypedData_v4)" });

export const QuoteEntrySchema = z
  .object({
    solver: z.object({
      id: z.string(),
      name: z.string(),
      filler: AddressSchema,
      metadata: z.object({ logoUrl: z.url().optional() }),
    }),
    quote: QuoteSchema,
    signatureData: SignatureDataSchema,
  })
  .meta({ id: "QuoteEntry" });

export const QuoteResponseSchema = z
  .object({
    requestId: RequestIdSchema,
    // The real document requires it; the spec is silent. Every Sluice order is a priority order.
    routing: z.literal("Priority"),
    quotes: z.array(QuoteEntrySchema).min(1),
  })
  .meta({ id: "QuoteResponse" });
export type QuoteResponse = z.output<typeof QuoteResponseSchema>;

// --- POST /order ----------------------------------------------------------------------------------------

/** The quote as the client got it; unknown keys (e.g. `slippageTolerance`) are ignored. */
export const SubmittedQuoteSchema = z.object({
  quoteId: z.uuid(),
  aggregatedOutputs: z.array(z.object({ token: z.string(), amount: z.string() })),
  orderInfo: z.object({
    tokenIn: z.string(),
    amountIn: z.string(),
    outputs: z.array(
      z.object({
        token: z.string(),
        recipient: z.string().optional(),
        amount: z.string(),
        portionBps: z
          .number()
          .int()
          .optional()
          .meta({ description: "Compared only when present (the real order request has no such field)" }),
      }),
    ),
    deadline: z.number().int(),
    nonce: z.string(),
  }),
});

export const OrderRequestSchema = z
  .object({
    quote: SubmittedQuoteSchema,
    signature: HexSchema.min(4).max(20_000),
  })
  .meta({ id: "OrderRequest" });
export type OrderRequest = z.output<typeof OrderRequestSchema>;

export const OrderResponseSchema = z
  .object({
    requestId: RequestIdSchema,
    orderId: z.uuid(),
    orderStatus: z.enum(["open", "filled", "expired", "error", "cancelled", "insufficient-funds"]),
  })
  .meta({ id: "OrderResponse" });
