// The devnet's file of added solvers across restarts: kept when their Executor still fills on this chain's Reactor,
// dropped with a warning (and the file rewritten) when the chain was deployed anew or the Executor is gone, and a file
// that cannot be read stops the start rather than forget its solvers. Written owner-readable only.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address } from "viem";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChainPublicClient } from "../../src/chain/client.ts";
import { AddedSolverFile, UnreadableAddedSolversError } from "../../src/devnet/added-solvers.ts";
import { silentLogger } from "../../src/logger.ts";
import type { AddedSolver } from "../../src/solvers/registry.ts";
import { temporaryDataDir } from "./support.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const REACTOR = addr(0xeeee);
const added = (id: string, filler: Address): AddedSolver => ({
  id,
  name: id,
  endpoint: "http://127.0.0.1:9000",
  filler,
  sharedSecret: `secret-${id}`,
  addedAt: "2026-11-27T12:00:00.000Z",
});

/** A chain on which `executors` are Executors of the given Reactors; every other address has no code. */
function chainWith(executors: Record<Address, Address>): ChainPublicClient {
  return {
    getCode: async ({ address }: { address: Address }) => (executors[address] ? "0x6080" : undefined),
    readContract: async ({ address }: { address: Address }) => executors[address],
  } as unknown as ChainPublicClient;
}

function logged() {
  const warnings: Array<Record<string, unknown>> = [];
  const logger = silentLogger();
  logger.warn = ((fields: Record<string, unknown>) => warnings.push(fields)) as typeof logger.warn;
  return { logger, warnings };
}

describe("the devnet's added solvers file", () => {
  let dir: ReturnType<typeof temporaryDataDir>;
  let path: string;
  beforeEach(() => {
    dir = temporaryDataDir();
    path = join(dir.path, "added-solvers.json");
  });
  afterEach(() => dir.remove());

  it("keeps the solvers whose Executor fills on this Reactor, drops the others with a warning", async () => {
    const file = new AddedSolverFile(path, REACTOR);
    file.write([added("dev_kept", addr(1)), added("dev_gone", addr(2)), added("dev_other", addr(3))]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const { logger, warnings } = logged();
    const kept = await file.load(chainWith({ [addr(1)]: REACTOR, [addr(3)]: addr(0xbad) }), logger);
    expect(kept.map((solver) => solver.id)).toEqual(["dev_kept"]);
    expect(warnings.map((warning) => [warning.solverId, warning.problem])).toEqual([
      ["dev_gone", "no code at its Executor"],
      ["dev_other", `its Executor fills on Reactor ${addr(0xbad)}`],
    ]);
    expect(file.read().map((solver) => solver.id)).toEqual(["dev_kept"]);
  });

  it("drops every solver of a chain deployed anew (another Reactor)", async () => {
    new AddedSolverFile(path, addr(0x1111)).write([added("dev_old", addr(1))]);
    const file = new AddedSolverFile(path, REACTOR);
    expect(file.read()).toEqual([]);
    const { logger, warnings } = logged();
    expect(await file.load(chainWith({ [addr(1)]: REACTOR }), logger)).toEqual([]);
    expect(warnings).toMatchObject([
      { solverId: "dev_old", problem: expect.stringMatching(/deployed anew/) },
    ]);
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ reactor: REACTOR, solvers: [] });
  });

  it("stops the start on a file it cannot read, naming it", async () => {
    writeFileSync(path, "{ not json");
    const file = new AddedSolverFile(path, REACTOR);
    await expect(file.load(chainWith({}), silentLogger())).rejects.toThrow(UnreadableAddedSolversError);
    await expect(file.load(chainWith({}), silentLogger())).rejects.toThrow(
      /added-solvers.json cannot be read/,
    );
  });
});
