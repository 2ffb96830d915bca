// The canonical form of an EOA's ECDSA signature (65 bytes, v 27/28, low s), as OpenZeppelin's ECDSA accepts it:
// which encodings are rewritten to it and which are refused, at the edges of s and v.
import { type Hex, keccak256, recoverAddress, toHex } from "viem";
import { privateKeyToAccount, sign } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { canonicalEcdsaSignature, SECP256K1_HALF_ORDER } from "../../src/chain/ecdsa-signature.ts";
import { SIGNATURE_FORMS } from "../support/signatures.ts";

const PRIVATE_KEY = keccak256(toHex("sluice ecdsa-signature test key"));
const HASH = keccak256(toHex("a digest"));
const signer = privateKeyToAccount(PRIVATE_KEY).address;
const canonical = await sign({ hash: HASH, privateKey: PRIVATE_KEY, to: "hex" });

/** r ‖ s ‖ v with the given s and v byte. */
const withSAndV = (s: bigint, v: string): Hex =>
  `${canonical.slice(0, 66)}${s.toString(16).padStart(64, "0")}${v}` as Hex;

describe("canonicalEcdsaSignature", () => {
  it.each(SIGNATURE_FORMS)("$name", async ({ encode, fault }) => {
    const result = canonicalEcdsaSignature(encode(canonical));
    if (fault) {
      expect(result).toEqual({ fault });
    } else {
      expect(result).toEqual({ signature: canonical });
      expect(await recoverAddress({ hash: HASH, signature: canonical })).toBe(signer);
    }
  });

  it("answers lowercase hex for any case", () => {
    expect(canonicalEcdsaSignature(`0x${canonical.slice(2).toUpperCase()}`)).toEqual({
      signature: canonical,
    });
  });

  it.each(["02", "1d", "25", "ff"])("refuses v 0x%s", (v) => {
    expect(canonicalEcdsaSignature(`${canonical.slice(0, 130)}${v}` as Hex)).toEqual({ fault: "invalid_v" });
  });

  it("accepts s up to half the curve order and refuses the next one, in both lengths", () => {
    const atHalf = withSAndV(SECP256K1_HALF_ORDER, "1b");
    expect(canonicalEcdsaSignature(atHalf)).toEqual({ signature: atHalf });
    expect(canonicalEcdsaSignature(withSAndV(SECP256K1_HALF_ORDER + 1n, "1b"))).toEqual({ fault: "high_s" });
    // Compact: yParity 1 in the top bit, s in the other 255 bits.
    const compact = (s: bigint) => `${canonical.slice(0, 66)}${((1n << 255n) | s).toString(16)}` as Hex;
    expect(canonicalEcdsaSignature(compact(SECP256K1_HALF_ORDER))).toEqual({
      signature: withSAndV(SECP256K1_HALF_ORDER, "1c"),
    });
    expect(canonicalEcdsaSignature(compact(SECP256K1_HALF_ORDER + 1n))).toEqual({ fault: "high_s" });
  });
});
