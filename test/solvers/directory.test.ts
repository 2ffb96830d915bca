// The solver directory while it changes at run time (a devnet's `sluice devnet add-solver`): an added solver is
// selected from the next call on, a removed one no longer is, an auction keeps what it selected, ids and fillers stay
// unique, and the set of fillers is a new array exactly when the solvers change (the inventory re-reads on it).
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { InventorySource } from "../../src/inventory/source.ts";
import { type Solver, SolverDirectory } from "../../src/solvers/directory.ts";
import { SolverConflictError } from "../../src/solvers/errors.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const solver = (id: string, filler: Address): Solver => ({
  id,
  name: id,
  endpoint: "http://127.0.0.1:9",
  filler,
  internal: false,
  enabled: true,
});

describe("a solver directory that changes while running", () => {
  it("selects an added solver from the next call on, and a removed one no more; a selection already made stays", () => {
    const directory = new SolverDirectory([solver("ext_a", addr(1))]);
    const inFlight = directory.select();
    directory.add(solver("ext_b", addr(2)));
    expect(directory.select().map((s) => s.id)).toEqual(["ext_a", "ext_b"]);
    expect(directory.byFiller(addr(2))?.id).toBe("ext_b");
    expect(directory.remove("ext_a")?.id).toBe("ext_a");
    expect(directory.select().map((s) => s.id)).toEqual(["ext_b"]);
    expect(directory.byId("ext_a")).toBeUndefined();
    expect(directory.remove("ext_a")).toBeUndefined();
    // The auction that selected before the changes asks what it selected.
    expect(inFlight.map((s) => s.id)).toEqual(["ext_a"]);
  });

  it("refuses a taken or reserved id and another solver's filler", () => {
    const directory = new SolverDirectory([solver("ext_a", addr(1))], ["ext_kept"]);
    expect(() => directory.add(solver("ext_a", addr(3)))).toThrow(SolverConflictError);
    expect(() => directory.add(solver("ext_kept", addr(3)))).toThrow(SolverConflictError);
    const sameFiller = (() => {
      try {
        directory.add(solver("ext_c", addr(1)));
      } catch (error) {
        return error;
      }
    })();
    expect(sameFiller).toMatchObject({ field: "filler", solverId: "ext_a" });
    expect(directory.all().map((s) => s.id)).toEqual(["ext_a"]);
  });

  it("answers the same fillers array until the solvers change", () => {
    const directory = new SolverDirectory([solver("ext_a", addr(1)), solver("ext_a2", addr(1))]);
    const before = directory.fillers();
    expect(before).toEqual([addr(1)]);
    expect(directory.fillers()).toBe(before);
    directory.add(solver("ext_b", addr(2)));
    expect(directory.fillers()).not.toBe(before);
    expect(directory.fillers()).toEqual([addr(1), addr(2)]);
  });
});

describe("the inventory of a block", () => {
  it("is read again in the same block when the solvers change, with the new fillers", async () => {
    const directory = new SolverDirectory([solver("ext_a", addr(1))]);
    const asked: Address[][] = [];
    const adapter = addr(0xa1);
    const source = new InventorySource({
      reader: {
        read: async (params) => {
          asked.push([...(params.fillers ?? [])]);
          return { blockNumber: 7n, tokenIn: params.tokenIn.address, adapters: [], roundTrips: 1 };
        },
      },
      blocks: { latest: async () => ({ number: 7n, hash: `0x${"7".repeat(64)}`, timestamp: 1n }) },
      deployment: { adapters: [{ address: adapter }], outputTokens: [] },
      authorizationCandidates: () => directory.fillers(),
    });
    const tokenIn = { address: addr(0x70), symbol: "T", name: "T", decimals: 18, minQuoteAmount: "1" };
    await source.snapshot(tokenIn);
    await source.snapshot(tokenIn);
    expect(asked).toEqual([[addr(1)]]);
    directory.add(solver("ext_b", addr(2)));
    await source.snapshot(tokenIn);
    expect(asked).toEqual([[addr(1)], [addr(1), addr(2)]]);
  });
});
