// The liveness rule of a discount (DESIGN.md §4), on its own: every fault, in the order a publisher hears them.
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import type { Discount } from "../../src/chain/order.ts";
import { type DiscountChainFacts, discountFaults, PERMANENT_FAULTS } from "../../src/discounts/liveness.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const PROTOCOL = addr(0x1);
const discount: Discount = {
  tokenToRedeem: addr(0x7),
  discount: 5000n,
  signer: addr(0x9),
  protocol: PROTOCOL,
  nonce: 42n,
  deadline: 1_700_000_100,
};
const facts: DiscountChainFacts = {
  blockTimestamp: 1_700_000_000n,
  acceptsTokenIn: true,
  minDiscountPpm: 500n,
  signerAuthorized: true,
  nonceUsed: false,
};

describe("discountFaults", () => {
  it("finds none for a live discount, including one exactly at minDiscount or at 100 %", () => {
    expect(discountFaults(discount, facts, PROTOCOL)).toEqual([]);
    expect(discountFaults({ ...discount, discount: 500n }, facts, PROTOCOL)).toEqual([]);
    expect(discountFaults({ ...discount, discount: 1_000_000n }, facts, PROTOCOL)).toEqual([]);
  });

  it("compares the protocol case-insensitively", () => {
    expect(discountFaults(discount, facts, PROTOCOL.toUpperCase().replace("0X", "0x") as Address)).toEqual(
      [],
    );
  });

  it.each([
    ["wrong_protocol", { protocol: addr(0x2) }, {}],
    ["above_max_discount", { discount: 1_000_001n }, {}],
    ["unsupported_token", {}, { acceptsTokenIn: false }],
    ["unauthorized_signer", {}, { signerAuthorized: false }],
    ["below_min_discount", { discount: 499n }, {}],
    ["expired", { deadline: 1_700_000_000 }, {}],
    ["nonce_used", {}, { nonceUsed: true }],
  ] as const)("reports %s", (fault, terms, chain) => {
    expect(discountFaults({ ...discount, ...terms }, { ...facts, ...chain }, PROTOCOL)).toEqual([fault]);
  });

  it("lists every fault in order, and only expiry and a used nonce are permanent", () => {
    const all = discountFaults(
      { ...discount, protocol: addr(0x2), discount: 1_000_001n, deadline: 1 },
      {
        ...facts,
        acceptsTokenIn: false,
        signerAuthorized: false,
        minDiscountPpm: 2_000_000n,
        nonceUsed: true,
      },
      PROTOCOL,
    );
    expect(all).toEqual([
      "wrong_protocol",
      "above_max_discount",
      "unsupported_token",
      "unauthorized_signer",
      "below_min_discount",
      "expired",
      "nonce_used",
    ]);
    expect(all.filter((fault) => PERMANENT_FAULTS.has(fault))).toEqual(["expired", "nonce_used"]);
  });
});
