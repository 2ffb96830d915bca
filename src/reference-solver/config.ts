// The reference solver's config file (JSON): where it runs, which chain and contracts it fills on, its margin, and
// the names of the environment variables that hold its secrets. The file never holds a secret itself, so it can be
// committed and shared; a bad file or a missing secret names the field and the reason and stops the start.
//
// `internal: true` is for a solver Sluice's deployment lists as internal: it then prices and fills discount legs
// through the internal discount API at `internalApiUrl` (required then: Sluice serves it on its own listener,
// INTERNAL_HOST/INTERNAL_PORT, e.g. `http://127.0.0.1:8081/api-internal/v1`).
import { existsSync, readFileSync } from "node:fs";
import type { Hex } from "viem";
import { z } from "zod";
import { SOLVER_ID_PATTERN } from "../deployment/schema.ts";
import { type ConfigProblem, describeIssues } from "../shared/config-issues.ts";
import { AddressSchema, ChainIdSchema } from "../shared/wire.ts";

const EnvNameSchema = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, "must be an environment variable name");

export const ReferenceSolverConfigSchema = z
  .object({
    /** The solver's id in Sluice's deployment: the `solverId` it polls `GET /orders` with. */
    solverId: z.string().regex(SOLVER_ID_PATTERN, "must look like <prefix>_<solver_name> in lowercase"),
    /** Sluice's API base, e.g. `http://127.0.0.1:8080/api/v1`. */
    apiUrl: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, "")),
    chainId: ChainIdSchema,
    /** Tried in order (viem fallback). */
    rpcUrls: z.array(z.url({ protocol: /^(https?|wss?)$/ })).min(1),
    /** A Multicall3 on the chain; without one, reads use viem's deployless multicall (the devnet has none). */
    multicall3: AddressSchema.optional(),
    /** The solver's Executor: its `filler` in quotes and the contract its EOA calls `fill` on. */
    executor: AddressSchema,
    reactor: AddressSchema,
    /** The adapters it prices and fills through (a request's legs on other adapters are ignored). */
    adapters: z
      .array(AddressSchema)
      .min(1)
      .refine((list) => new Set(list).size === list.length, "must not repeat an adapter"),
    /** Taken off every quote after the per-leg rounding unit, in basis points. */
    marginBps: z.number().int().min(0).max(9999),
    port: z.number().int().min(0).max(65535).default(0),
    host: z.string().min(1).default("127.0.0.1"),
    /** Serve `POST {basePath}/quote`; empty or `/segment[/segment…]` without a trailing slash. */
    basePath: z
      .string()
      .regex(/^(\/[A-Za-z0-9._~-]+)*$/, "must be empty or /segment[/segment…] without a trailing slash")
      .default(""),
    sharedSecretEnv: EnvNameSchema,
    privateKeyEnv: EnvNameSchema,
    /** How often it polls `GET /orders` for its open orders. */
    pollIntervalMs: z.number().int().min(10).max(60_000).default(500),
    /** An internal solver: it fills discount legs (the deployment must list it as internal too). */
    internal: z.boolean().default(false),
    /** The internal discount API base on Sluice's internal listener, e.g. `http://127.0.0.1:8081/api-internal/v1`. */
    internalApiUrl: z
      .url({ protocol: /^https?$/ })
      .transform((url) => url.replace(/\/+$/, ""))
      .optional(),
  })
  .strict()
  .superRefine((config, context) => {
    if (config.internal && config.internalApiUrl === undefined) {
      context.addIssue({
        code: "custom",
        path: ["internalApiUrl"],
        message: "required for an internal solver: Sluice's internal listener (INTERNAL_HOST/INTERNAL_PORT)",
      });
    }
  });

export type ReferenceSolverConfig = z.output<typeof ReferenceSolverConfigSchema>;
/** What a config file or a caller writes (defaults may be left out). */
export type ReferenceSolverConfigInput = z.input<typeof ReferenceSolverConfigSchema>;

export interface ReferenceSolverSecrets {
  /** Sluice sends it in `x-rfq-shared-secret`. */
  sharedSecret: string;
  /** The EOA that calls `Executor.fill` (one of the Executor's callers). */
  privateKey: Hex;
}

export class InvalidSolverConfigError extends Error {
  override name = "InvalidSolverConfigError";
  constructor(
    readonly source: string,
    readonly problems: ConfigProblem[],
  ) {
    super(
      `Invalid solver config (${source}):\n${problems.map((p) => `  - ${p.field}: ${p.reason}`).join("\n")}`,
    );
  }
}

export function parseSolverConfig(value: unknown, source: string): ReferenceSolverConfig {
  const parsed = ReferenceSolverConfigSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new InvalidSolverConfigError(source, describeIssues(parsed.error));
}

export function loadSolverConfig(path: string): ReferenceSolverConfig {
  if (!existsSync(path))
    throw new InvalidSolverConfigError(path, [{ field: "(file)", reason: "file not found" }]);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new InvalidSolverConfigError(path, [
      { field: "(file)", reason: `not valid JSON: ${(error as Error).message}` },
    ]);
  }
  return parseSolverConfig(value, path);
}

/** Reads the secrets from the environment variables the config names. */
export function readSolverSecrets(
  config: ReferenceSolverConfig,
  env: NodeJS.ProcessEnv = process.env,
): ReferenceSolverSecrets {
  const problems: ConfigProblem[] = [];
  const sharedSecret = env[config.sharedSecretEnv] ?? "";
  if (sharedSecret === "") {
    problems.push({ field: `env ${config.sharedSecretEnv}`, reason: "required: the solver's shared secret" });
  }
  const privateKey = env[config.privateKeyEnv] ?? "";
  if (privateKey === "") {
    problems.push({
      field: `env ${config.privateKeyEnv}`,
      reason: "required: the filling EOA's private key",
    });
  } else if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) {
    problems.push({ field: `env ${config.privateKeyEnv}`, reason: "must be a 32-byte 0x hex key" });
  }
  if (problems.length > 0) throw new InvalidSolverConfigError("environment", problems);
  return { sharedSecret, privateKey: privateKey as Hex };
}
