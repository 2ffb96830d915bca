import { afterAll, describe, expect, it } from "vitest";
import {
  InvalidOverlayError,
  overlayToFile,
  parseOverlay,
  readOverlayFile,
} from "../../src/registry/overlay.ts";
import { writeTree } from "./support.ts";

const VAULT = "0x007e0B8E99c6134E81A1eAAE754460E3202cB671";
const COLLATERAL = "0x8236A87084F8B84306F72007F36F2618A5634494";
const entry = {
  vaultType: "v2",
  collateral: COLLATERAL,
  totalSupply: "1000000000000000000",
  tvl: 1.5,
  approved: true,
};

function errorOf(value: unknown): string {
  try {
    parseOverlay(value);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOverlayError);
    return (error as Error).message;
  }
  throw new Error("expected the overlay to be rejected");
}

describe("overlay file", () => {
  it("parses on-chain fields, lowercasing addresses and keeping totalSupply exact", () => {
    const overlay = parseOverlay({
      vaults: { [VAULT]: { ...entry, totalSupply: (2n ** 256n - 1n).toString() } },
    });
    expect([...overlay.entries()]).toEqual([
      [
        VAULT.toLowerCase(),
        {
          vaultType: "v2",
          collateral: COLLATERAL.toLowerCase(),
          totalSupply: 2n ** 256n - 1n,
          tvl: 1.5,
          approved: true,
        },
      ],
    ]);
  });

  it("round-trips through its file form", () => {
    const overlay = parseOverlay({ vaults: { [VAULT]: entry } });
    expect(parseOverlay(overlayToFile(overlay))).toEqual(overlay);
    expect(Object.keys(overlayToFile(overlay).vaults)).toEqual([VAULT.toLowerCase()]);
  });

  it("names the field and the reason of each problem", () => {
    expect(errorOf({ vaults: { [VAULT]: { ...entry, vaultType: "v3" } } })).toMatch(
      new RegExp(`vaults\\.${VAULT}\\.vaultType: .*"pre-deposit"\\|"v1"\\|"v2"`),
    );
    expect(errorOf({ vaults: { [VAULT]: { ...entry, totalSupply: "1.5" } } })).toContain(
      `vaults.${VAULT}.totalSupply: must be a decimal integer string`,
    );
    expect(errorOf({ vaults: { [VAULT]: { ...entry, totalSupply: (2n ** 256n).toString() } } })).toContain(
      `vaults.${VAULT}.totalSupply: must be at most 2^256 - 1`,
    );
    expect(errorOf({ vaults: { [VAULT]: { ...entry, collateral: "0x1234" } } })).toContain(
      `vaults.${VAULT}.collateral: must be 0x followed by 40 hex characters`,
    );
    expect(errorOf({ vaults: { [VAULT]: { ...entry, tvl: -1 } } })).toContain(`vaults.${VAULT}.tvl:`);
    expect(errorOf({ vaults: { [VAULT]: { ...entry, tvl: "1.5" } } })).toContain(`vaults.${VAULT}.tvl:`);
    const { approved: _approved, ...withoutApproval } = entry;
    expect(errorOf({ vaults: { [VAULT]: withoutApproval } })).toContain(`vaults.${VAULT}.approved:`);
    expect(errorOf({ vaults: { [VAULT]: { ...entry, aproved: true } } })).toMatch(/aproved/);
    expect(errorOf({ vaults: { "not-an-address": entry } })).toContain(
      "vaults.not-an-address: key must be a vault address",
    );
    const both = errorOf({ vaults: { "0x12": {}, [VAULT]: { ...entry, tvl: "x" } } });
    expect(both).toContain("vaults.0x12: key must be a vault address");
    expect(both).toContain(`vaults.${VAULT}.tvl:`);
    expect(errorOf({ vaults: { [VAULT]: entry, [VAULT.toLowerCase()]: entry } })).toContain(
      `vaults.${VAULT.toLowerCase()}: same vault as ${VAULT}`,
    );
    expect(errorOf({})).toContain("vaults:");
    expect(errorOf([])).toContain("(root):");
  });

  describe("from a file", () => {
    const files = writeTree({ "good.json": { vaults: { [VAULT]: entry } }, "bad.json": "{ nope" });
    afterAll(() => files.remove());

    it("reads a valid file", async () => {
      expect((await readOverlayFile(`${files.dir}/good.json`)).size).toBe(1);
    });

    it("rejects unreadable and non-JSON files with the path", async () => {
      await expect(readOverlayFile(`${files.dir}/bad.json`)).rejects.toThrow(/bad\.json: not JSON/);
      await expect(readOverlayFile(`${files.dir}/missing.json`)).rejects.toThrow(
        /Cannot read overlay file .*missing\.json/,
      );
    });
  });
});
