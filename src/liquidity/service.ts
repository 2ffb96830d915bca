// POST /liquidity and /liquidity-batch: the inventory each eligible solver is offered for an input token at the
// current block, under the same authorization and live-discount rules as quote construction (DESIGN.md §4). No
// solver is called, nothing is stored and nothing is reserved.
import type { Address } from "viem";
import type { InputTokenConfig, TokenConfig } from "../deployment/schema.ts";
import { liquidityReport } from "../inventory/offer.ts";
import type { Market } from "../market/market.ts";
import { DuplicateTokenError, UnsupportedLiquidityTokenError } from "./errors.ts";
import type { LiquidityBatchRequest, LiquidityRequest, LiquiditySnapshot } from "./schemas.ts";

interface LiquidityPair {
  tokenIn: InputTokenConfig;
  tokenOut: TokenConfig;
}

interface SolverSelection {
  solverId?: string | undefined;
  solverIds?: readonly string[] | undefined;
}

/** A token's `tokenInInfo` / `tokenOutInfo` as /liquidity answers it. */
export function tokenInfo(token: TokenConfig) {
  return { address: token.address, symbol: token.symbol, name: token.name, decimals: token.decimals };
}

export class LiquidityService {
  constructor(private readonly context: Pick<Market, "deployment" | "solvers" | "inventory" | "discounts">) {}

  async liquidity(request: LiquidityRequest): Promise<LiquiditySnapshot> {
    const pair = this.#pair(request.tokenIn, "tokenIn");
    if ("problem" in pair) throw new UnsupportedLiquidityTokenError([pair.problem]);
    return this.#snapshot(pair, request);
  }

  async batch(request: LiquidityBatchRequest): Promise<{ tokensIn: LiquiditySnapshot[] }> {
    // Addresses arrive lowercased, so equal strings are the case-insensitive duplicates.
    const firstIndex = new Map<Address, number>();
    request.tokensIn.forEach((token, index) => {
      const first = firstIndex.get(token);
      if (first !== undefined) throw new DuplicateTokenError(token, `tokensIn.${index}`, `tokensIn.${first}`);
      firstIndex.set(token, index);
    });
    // Every token is checked before any inventory is read.
    const pairs = request.tokensIn.map((token, index) => this.#pair(token, `tokensIn.${index}`));
    const problems = pairs.flatMap((pair) => ("problem" in pair ? [pair.problem] : []));
    if (problems.length > 0) throw new UnsupportedLiquidityTokenError(problems);
    const supported = pairs.filter((pair): pair is LiquidityPair => !("problem" in pair));
    const snapshots = await Promise.all(supported.map((pair) => this.#snapshot(pair, request)));
    return { tokensIn: snapshots };
  }

  #pair(
    address: Address,
    path: string,
  ): LiquidityPair | { problem: { token: Address; path: string; message: string } } {
    const { deployment } = this.context;
    const tokenIn = deployment.inputTokens.find((token) => token.address === address);
    if (!tokenIn) return { problem: { token: address, path, message: "is not a supported input token" } };
    const tokenOut = deployment.outputTokens.find((token) => token.address === tokenIn.liquidityOutputToken);
    if (!tokenOut) {
      return { problem: { token: address, path, message: "has no liquidity output token configured" } };
    }
    return { tokenIn, tokenOut };
  }

  async #snapshot(pair: LiquidityPair, selection: SolverSelection): Promise<LiquiditySnapshot> {
    const { context } = this;
    const snapshot = await context.inventory.snapshot(pair.tokenIn);
    const discounts = await context.discounts.offers(snapshot);
    const report = liquidityReport(
      // A solver in cooldown counts as disabled here, in its own liquidity and in the internal pool.
      context.solvers.forAuctions(),
      snapshot,
      pair.tokenOut.address,
      discounts,
      this.#selected(selection),
    );
    return {
      tokenIn: pair.tokenIn.address,
      tokenOut: pair.tokenOut.address,
      tokenInInfo: tokenInfo(pair.tokenIn),
      tokenOutInfo: tokenInfo(pair.tokenOut),
      totalLiquidity: report.totalLiquidity.toString(),
      solvers: report.solvers.map((entry) => ({
        solverId: entry.solverId,
        liquidity: entry.liquidity.toString(),
      })),
    };
  }

  /** `solverId` wins over `solverIds`; unknown, reserved, disabled and cooling ids select nothing; none given = all. */
  #selected(selection: SolverSelection): ReadonlySet<string> | undefined {
    const ids = selection.solverId !== undefined ? [selection.solverId] : selection.solverIds;
    if (ids === undefined) return undefined;
    return new Set(this.context.solvers.select(ids).map((solver) => solver.id));
  }
}
