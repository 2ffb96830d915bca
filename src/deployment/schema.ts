// The deployment file: one chain, one Reactor, one protocol signer, and everything the swap flow needs to know
// about tokens, adapters and solvers. Validated at start; an invalid file names the field and the reason.
import { z } from "zod";
import { AddressSchema, ChainIdSchema, Uint256StringSchema } from "../shared/wire.ts";

/** A solver's cap on in-flight quote requests from one replica when its configuration names none. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 32;

/** The part of each solver's concurrency cap one client may hold on a replica when the deployment names none. */
export const DEFAULT_SOLVER_CLIENT_SHARE = 0.5;

export const SOLVER_ID_PATTERN = /^[a-z0-9]+_[a-z0-9][a-z0-9_-]*$/;

export const TokenConfigSchema = z
  .object({
    address: AddressSchema,
    symbol: z.string().min(1),
    name: z.string().min(1),
    decimals: z.number().int().min(0).max(36),
  })
  .strict();

export const InputTokenConfigSchema = TokenConfigSchema.extend({
  /** Below this amount (base units, at least 1) /quote answers 404 without asking any solver. */
  minQuoteAmount: Uint256StringSchema.refine((value) => BigInt(value) >= 1n, "must be at least 1"),
  /** The output token /liquidity reports this input token's inventory in; absent = not offered by /liquidity. */
  liquidityOutputToken: AddressSchema.optional(),
}).strict();

export const AdapterConfigSchema = z
  .object({
    address: AddressSchema,
    /** Free-form label for logs and docs. */
    label: z.string().min(1).optional(),
  })
  .strict();

export const SolverConfigSchema = z
  .object({
    id: z.string().regex(SOLVER_ID_PATTERN, "must look like <prefix>_<solver_name> in lowercase"),
    name: z.string().min(1),
    /** Base URL; Sluice posts to `{endpoint}/quote`, keeping any base path. */
    endpoint: z.url({ protocol: /^https?$/ }),
    /** The solver's Executor: the only filler its quotes may name. */
    filler: AddressSchema,
    internal: z.boolean(),
    enabled: z.boolean().default(true),
    /** Name of a bundled logo in assets/solver-logos (without `.png`). */
    logo: z.string().min(1).optional(),
    /** Environment variable that holds this solver's shared secret (never the secret itself). */
    sharedSecretEnv: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, "must be an environment variable name"),
    /**
     * Where Sluice POSTs each order assigned to this solver, once its transaction has committed (the order stream's
     * record, HMAC-signed with the solver's secret). https, except on a loopback address.
     */
    notifyUrl: z
      .url({ protocol: /^https?$/ })
      .refine(
        (url) =>
          url.startsWith("https:") ||
          /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/.test(url),
        "must be https (plain http only on a loopback address)",
      )
      .optional(),
    /**
     * Quote requests this solver may have in flight from one replica; a round that finds all of them taken leaves
     * the solver out (not asked, so never counted as a failure).
     */
    maxConcurrentRequests: z.number().int().min(1).max(10_000).default(DEFAULT_MAX_CONCURRENT_REQUESTS),
    /**
     * The shape of the order records this solver's polls get (`GET /orders` by its id or its Executor) when the poll
     * does not say (`view`): `rfq-backend` for a solver whose decoder refuses keys the real document does not list.
     */
    ordersView: z.enum(["sluice", "rfq-backend"]).optional(),
  })
  .strict();

/**
 * A duration: a whole number with a unit (`90s`, `15m`, `32h`, `1d`), or a number of milliseconds (what a parsed
 * file holds, so a deployment written back out reads the same); milliseconds once parsed.
 */
export const DurationSchema = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h|d)$/, "must be a whole number with a unit s, m, h or d (e.g. 15m)")
    .transform((text) => {
      const unitMs = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
      return Number(text.slice(0, -1)) * unitMs[text.slice(-1) as keyof typeof unitMs];
    }),
]);

/**
 * The fade breaker (docs/solvers.md "Solver cooldowns"): when a solver is left out of auctions and /liquidity for a while,
 * doubling on repeats.
 */
export const CooldownConfigSchema = z
  .object({
    /** The first cooldown's length; each repeat within `repeatWindow` of the previous one's end doubles it. */
    base: DurationSchema.default(15 * 60_000),
    /** No cooldown is longer. */
    max: DurationSchema.default(32 * 3_600_000),
    /** A cooldown starting this long after the previous one ended starts from `base` again. */
    repeatWindow: DurationSchema.default(24 * 3_600_000),
    /** Fades: more than `maxFades` of the solver's last `window` assigned orders that reached an end status. */
    fades: z
      .object({
        window: z.number().int().min(1).max(1000).default(10),
        maxFades: z.number().int().min(0).max(1000).default(2),
      })
      .strict()
      .prefault({}),
    /** Failures: more than `maxShare` of the solver's last `window` counted auctions. */
    failures: z
      .object({
        window: z.number().int().min(1).max(10_000).default(20),
        maxShare: z.number().min(0).max(1).default(0.5),
      })
      .strict()
      .prefault({}),
    /** An expiry is a fade only if the solver had at least this long between the order's acceptance and deadline. */
    minFillWindowSeconds: z.number().int().min(0).max(86_400).default(30),
  })
  .strict()
  .superRefine((cooldown, ctx) => {
    if (cooldown.max < cooldown.base)
      ctx.addIssue({ code: "custom", path: ["max"], message: "must be at least base" });
    if (cooldown.fades.maxFades >= cooldown.fades.window)
      ctx.addIssue({ code: "custom", path: ["fades", "maxFades"], message: "must be below fades.window" });
  });

/**
 * A whole number that may exceed 2^53: a JSON number up to Number.MAX_SAFE_INTEGER, or a decimal string of any size
 * (a number beyond 2^53 is refused, since JSON parsing has already rounded it); a bigint once parsed.
 */
const BigIntegerSchema = z.union([
  z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER, "beyond 2^53: write it as a decimal string")
    .transform((value) => BigInt(value)),
  z
    .string()
    .regex(/^\d+$/, { message: "must be a decimal integer string", abort: true })
    .transform((value) => BigInt(value)),
]);

const BpsSchema = z.number().int().min(0).max(10_000);

/** Flags each value seen earlier in the list, at its index under `path`. */
function flagDuplicates(ctx: z.RefinementCtx, values: string[], path: string, what: string): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (seen.has(value))
      ctx.addIssue({ code: "custom", path: [path, index], message: `duplicate ${what} ${value}` });
    seen.add(value);
  });
}

/**
 * The own points type's engine (docs/points.md "Configuration"): which stake on chain earns points, at which rate,
 * from which block. Absent: the deployment computes no points of its own.
 */
export const PointsEngineConfigSchema = z
  .object({
    /** The points type the engine computes and /points serves (the spec's own type uses 48 decimals). */
    pointsType: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "must be lowercase letters, digits, - or _")
      .default("sluice"),
    decimals: z.number().int().min(0).max(77).default(48),
    /** The first block whose stake earns points (at least 1: the engine starts at the block before it). */
    startBlock: BigIntegerSchema.refine((block) => block >= 1n, "must be at least 1"),
    /**
     * The first block whose events build the stake state, at or before startBlock (default: startBlock): stake
     * deposited between it and startBlock earns from startBlock on. Set it to the vaults' deployment block.
     */
    historyFromBlock: BigIntegerSchema.refine((block) => block >= 1n, "must be at least 1").optional(),
    /** A snapshot (served by /points/*\/{blockNumber}) at every block that is a multiple of this. */
    snapshotEveryBlocks: z.number().int().min(1).max(1_000_000).default(200),
    /** Blocks behind the head the engine stays; by default the deployment's confirmationDepth (the indexer's). */
    confirmations: z.number().int().min(0).max(1000).optional(),
    defaults: z
      .object({
        /** Points per USD per hour, at 1e48 scale (2.5e45 = 0.0025 points). */
        ratePerUsdHour: BigIntegerSchema.default(25n * 10n ** 44n),
        operatorFeeBps: BpsSchema.default(300),
        networkShareBps: BpsSchema.default(0),
        curatorFeeBps: BpsSchema.default(0),
      })
      .strict()
      .prefault({}),
    contracts: z
      .object({
        networkRegistry: AddressSchema,
        operatorRegistry: AddressSchema,
        vaultFactory: AddressSchema,
        operatorNetworkOptInService: AddressSchema,
        operatorVaultOptInService: AddressSchema,
      })
      .strict(),
    networks: z
      .array(
        z
          .object({
            address: AddressSchema,
            /** The subnetworks' identifiers (subnetwork = network << 96 | id); [0] by default. */
            subnetworkIds: z
              .array(
                z
                  .number()
                  .int()
                  .min(0)
                  .max(2 ** 32 - 1),
              )
              .min(1)
              .default([0]),
            ratePerUsdHour: BigIntegerSchema.optional(),
            operatorFeeBps: BpsSchema.optional(),
            networkShareBps: BpsSchema.optional(),
          })
          .strict(),
      )
      .min(1),
    vaults: z
      .array(
        z
          .object({
            address: AddressSchema,
            curator: AddressSchema.optional(),
            curatorFeeBps: BpsSchema.optional(),
          })
          .strict(),
      )
      .min(1),
    /** One Chainlink-style feed (USD) per collateral of the vaults in scope. */
    priceFeeds: z.array(z.object({ collateral: AddressSchema, feed: AddressSchema }).strict()),
  })
  .strict()
  .superRefine((config, ctx) => {
    const unique = (values: string[], path: string, what: string) => flagDuplicates(ctx, values, path, what);
    unique(
      config.networks.map((n) => n.address),
      "networks",
      "network",
    );
    unique(
      config.vaults.map((v) => v.address),
      "vaults",
      "vault",
    );
    unique(
      config.priceFeeds.map((f) => f.collateral),
      "priceFeeds",
      "collateral",
    );
    const operatorFee = (bps: number | undefined) => bps ?? config.defaults.operatorFeeBps;
    const networkShare = (bps: number | undefined) => bps ?? config.defaults.networkShareBps;
    config.networks.forEach((network, index) => {
      if (operatorFee(network.operatorFeeBps) + networkShare(network.networkShareBps) > 10_000)
        ctx.addIssue({
          code: "custom",
          path: ["networks", index],
          message: "operatorFeeBps + networkShareBps must be at most 10000",
        });
    });
  });

export const DeploymentSchema = z
  .object({
    name: z.string().min(1),
    chainId: ChainIdSchema,
    chainName: z.string().min(1),
    /** Marks a local chain: dev helpers (faucet, fund) are refused everywhere else. */
    local: z.boolean().default(false),
    reactor: AddressSchema,
    executors: z.array(AddressSchema).min(1),
    adapterFactory: AddressSchema,
    /** A Multicall3 for batched adapter reads; without one, reads use viem's deployless multicall. */
    multicall: AddressSchema.optional(),
    protocolSigner: AddressSchema,
    inputTokens: z.array(InputTokenConfigSchema).min(1),
    outputTokens: z.array(TokenConfigSchema).min(1),
    adapters: z.array(AdapterConfigSchema),
    solvers: z.array(SolverConfigSchema),
    /** Ids kept out of use: they match nothing in `solverIds` or `solverId`. */
    reservedSolverIds: z.array(z.string().regex(SOLVER_ID_PATTERN)).default([]),
    confirmationDepth: z.number().int().min(0).max(1000),
    /**
     * How deep a block must be before what it decided is final (`finalized` on orders): at least confirmationDepth;
     * by default the larger of it and 64 (Ethereum's two epochs). Where the chain serves a `finalized` block tag
     * (not on a local chain), that block is used instead.
     */
    finalityDepth: z.number().int().min(0).max(10_000).optional(),
    /** First block the indexer reads (the Reactor's deployment block). */
    startBlock: z.number().int().min(0).default(0),
    /**
     * The block whose hash (with the chain id) names the chain all swap state belongs to (DESIGN.md §8): the genesis
     * by default; the devnet writes the block that deployed its Reactor (anvil's genesis changes across state
     * reloads), so a replica started on the devnet's file binds the same identity instead of resetting the state.
     */
    identityBlock: z.number().int().min(0).default(0),
    quoteLifetimeSeconds: z.number().int().min(10).max(3600).default(120),
    solverTimeoutMs: z.number().int().min(50).max(30_000).default(1000),
    /**
     * The part of each solver's `maxConcurrentRequests` one client may hold on a replica (rounded down, at least one
     * request): a flood from one client leaves the rest of every solver's slots to the others.
     */
    solverClientShare: z.number().gt(0).max(1).default(DEFAULT_SOLVER_CLIENT_SHARE),
    // Absent: every field's own default (prefault parses `{}` through the schema).
    cooldown: CooldownConfigSchema.prefault({}),
    /** The own points type's engine; absent, no points are computed here. */
    pointsEngine: PointsEngineConfigSchema.optional(),
    /** Shipped networks state how many solvers and reserved ids an operator must configure. */
    expect: z
      .object({ solvers: z.number().int().min(0), reservedSolverIds: z.number().int().min(0) })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((deployment, ctx) => {
    const unique = (values: string[], path: string, what: string) => flagDuplicates(ctx, values, path, what);
    unique(
      deployment.inputTokens.map((t) => t.address),
      "inputTokens",
      "token",
    );
    unique(
      deployment.outputTokens.map((t) => t.address),
      "outputTokens",
      "token",
    );
    unique(
      deployment.adapters.map((a) => a.address),
      "adapters",
      "adapter",
    );
    unique([...deployment.solvers.map((s) => s.id), ...deployment.reservedSolverIds], "solvers", "solver id");
    if (deployment.finalityDepth !== undefined && deployment.finalityDepth < deployment.confirmationDepth) {
      ctx.addIssue({
        code: "custom",
        path: ["finalityDepth"],
        message: `must be at least confirmationDepth (${deployment.confirmationDepth})`,
      });
    }
    const outputs = new Set(deployment.outputTokens.map((t) => t.address));
    deployment.inputTokens.forEach((token, index) => {
      if (token.liquidityOutputToken && !outputs.has(token.liquidityOutputToken)) {
        ctx.addIssue({
          code: "custom",
          path: ["inputTokens", index, "liquidityOutputToken"],
          message: "must be one of outputTokens",
        });
      }
    });
    if (deployment.expect) {
      if (deployment.solvers.length !== deployment.expect.solvers) {
        ctx.addIssue({
          code: "custom",
          path: ["solvers"],
          message: `this network has ${deployment.expect.solvers} solver slots; ${deployment.solvers.length} configured`,
        });
      }
      if (deployment.reservedSolverIds.length !== deployment.expect.reservedSolverIds) {
        ctx.addIssue({
          code: "custom",
          path: ["reservedSolverIds"],
          message: `this network reserves ${deployment.expect.reservedSolverIds} solver ids; ${deployment.reservedSolverIds.length} configured`,
        });
      }
    }
  });

/** Ethereum finalizes two epochs (64 blocks) behind the head. */
export const DEFAULT_FINALITY_DEPTH = 64;

/** The deployment's finality depth: its own, or the larger of its confirmation depth and DEFAULT_FINALITY_DEPTH. */
export function finalityDepthOf(deployment: Pick<Deployment, "finalityDepth" | "confirmationDepth">): number {
  return deployment.finalityDepth ?? Math.max(deployment.confirmationDepth, DEFAULT_FINALITY_DEPTH);
}

export type DeploymentInput = z.input<typeof DeploymentSchema>;
export type Deployment = z.output<typeof DeploymentSchema>;
export type TokenConfig = z.output<typeof TokenConfigSchema>;
export type InputTokenConfig = z.output<typeof InputTokenConfigSchema>;
export type SolverConfig = z.output<typeof SolverConfigSchema>;
export type CooldownConfig = z.output<typeof CooldownConfigSchema>;
export type PointsEngineConfig = z.output<typeof PointsEngineConfigSchema>;
