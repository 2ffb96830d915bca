// `<DATA_DIR>/devnet/added-solvers.json`: the solvers `sluice devnet add-solver` added to the devnet, written by the
// running server (its solver registry's store, src/solvers/registry.ts) and read at every start, so an added solver
// is still there after a restart, with the same secret, Executor and endpoint. It holds the solvers' shared secrets,
// so it is readable by its owner only (0600).
//
// An added solver belongs to the chain its Executor was deployed on. A start on a chain deployed anew (the state file
// deleted) finds the record's Reactor gone, or no code at the Executor: the solver is dropped with a warning naming
// it, and has to be added again.
import { existsSync, readFileSync } from "node:fs";
import { type Address, isAddressEqual } from "viem";
import { z } from "zod";
import { executorAbi } from "../chain/abis.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import { SolverConfigSchema } from "../deployment/schema.ts";
import type { Logger } from "../logger.ts";
import { writeJsonAtomically } from "../shared/json-file.ts";
import { AddressSchema } from "../shared/wire.ts";
import type { AddedSolver, AddedSolverStore } from "../solvers/registry.ts";

const FILE_VERSION = 1;

const AddedSolverSchema = SolverConfigSchema.pick({
  id: true,
  name: true,
  endpoint: true,
  filler: true,
}).extend({
  sharedSecret: z.string().min(1),
  addedAt: z.iso.datetime(),
});

const AddedSolversFileSchema = z
  .object({
    version: z.literal(FILE_VERSION),
    /** The Reactor of the chain the solvers' Executors were deployed on. */
    reactor: AddressSchema,
    solvers: z.array(AddedSolverSchema),
  })
  .strict();

/** Thrown when the file exists but cannot be read: a start stops rather than silently forget the solvers. */
export class UnreadableAddedSolversError extends Error {
  override name = "UnreadableAddedSolversError";
  constructor(path: string, reason: string) {
    super(`${path} cannot be read (${reason}); fix or delete it (its solvers are then forgotten)`);
  }
}

export class AddedSolverFile implements AddedSolverStore {
  constructor(
    readonly path: string,
    private readonly reactor: Address,
    /** Told every write (the devnet rewrites deployment.json from it). */
    private readonly onWrite?: (solvers: readonly AddedSolver[]) => void,
  ) {}

  /** This chain's added solvers (those recorded for another Reactor are not: see the file comment). */
  read(): AddedSolver[] {
    const recorded = this.#recorded();
    return recorded && isAddressEqual(recorded.reactor, this.reactor) ? recorded.solvers : [];
  }

  write(solvers: readonly AddedSolver[]): void {
    writeJsonAtomically(
      this.path,
      { version: FILE_VERSION, reactor: this.reactor, solvers },
      { mode: 0o600 },
    );
    this.onWrite?.(solvers);
  }

  /**
   * The added solvers that still fill on this chain, read at start: those recorded for another Reactor, or whose
   * Executor has no code or fills elsewhere, are dropped with a warning each, and the file rewritten without them.
   */
  async load(client: ChainPublicClient, logger: Logger): Promise<AddedSolver[]> {
    const recorded = this.#recorded();
    if (!recorded) return [];
    const kept: AddedSolver[] = [];
    for (const solver of recorded.solvers) {
      const problem = isAddressEqual(recorded.reactor, this.reactor)
        ? await executorProblem(client, solver.filler, this.reactor)
        : "the chain was deployed anew (it was added on another Reactor)";
      if (problem)
        logger.warn(
          { solverId: solver.id, executor: solver.filler, problem },
          "devnet: an added solver is dropped; add it again with `sluice devnet add-solver`",
        );
      else kept.push(solver);
    }
    if (kept.length !== recorded.solvers.length || !isAddressEqual(recorded.reactor, this.reactor))
      this.write(kept);
    return kept;
  }

  #recorded(): z.output<typeof AddedSolversFileSchema> | undefined {
    if (!existsSync(this.path)) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(this.path, "utf8"));
    } catch (error) {
      throw new UnreadableAddedSolversError(this.path, `not JSON: ${(error as Error).message}`);
    }
    const parsed = AddedSolversFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UnreadableAddedSolversError(this.path, `${issue?.path.join(".")}: ${issue?.message}`);
    }
    return parsed.data;
  }
}

async function executorProblem(
  client: ChainPublicClient,
  executor: Address,
  reactor: Address,
): Promise<string | undefined> {
  const code = await client.getCode({ address: executor });
  if (!code || code === "0x") return "no code at its Executor";
  const fillsOn = await client
    .readContract({ address: executor, abi: executorAbi, functionName: "reactor" })
    .catch(() => undefined);
  if (!fillsOn) return "its Executor is not an Executor";
  return isAddressEqual(fillsOn, reactor) ? undefined : `its Executor fills on Reactor ${fillsOn}`;
}
