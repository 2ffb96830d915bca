// An EOA's signature in the one form OpenZeppelin's ECDSA.tryRecover accepts on-chain: 65 bytes r ‖ s ‖ v with v 27
// or 28 and s in the lower half of the curve order (ecrecover itself refuses any other v). Encodings that are
// well-formed and unambiguous are rewritten to it: v 0/1 → 27/28, and EIP-2098 compact (64 bytes r ‖ yParity·s) → 65
// bytes. Anything else is refused, a high s included: that is a different signature, not another encoding of one,
// so it is never flipped.
import type { Hex } from "viem";

/** secp256k1's order n, halved: the largest s the on-chain check accepts. */
export const SECP256K1_HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

const S_MASK = (1n << 255n) - 1n;

export type EcdsaSignatureFault = "odd_length" | "wrong_length" | "invalid_v" | "high_s";

export type CanonicalEcdsaSignature = { signature: Hex } | { fault: EcdsaSignatureFault };

/** Whether `hex` encodes whole bytes (a `bytes` value can hold nothing else). */
export function isWholeBytes(hex: Hex): boolean {
  return hex.length % 2 === 0;
}

/** `signature` as 65 bytes with v 27/28 (lowercase hex), or why no such form of it exists. */
export function canonicalEcdsaSignature(signature: Hex): CanonicalEcdsaSignature {
  if (!isWholeBytes(signature)) return { fault: "odd_length" };
  const hex = signature.slice(2).toLowerCase();
  const r = hex.slice(0, 64);
  let s: bigint;
  let v: number;
  if (hex.length === 130) {
    s = BigInt(`0x${hex.slice(64, 128)}`);
    const rawV = Number.parseInt(hex.slice(128), 16);
    v = rawV === 0 || rawV === 1 ? rawV + 27 : rawV;
    if (v !== 27 && v !== 28) return { fault: "invalid_v" };
  } else if (hex.length === 128) {
    const yParityAndS = BigInt(`0x${hex.slice(64)}`);
    s = yParityAndS & S_MASK;
    v = 27 + Number(yParityAndS >> 255n);
  } else {
    return { fault: "wrong_length" };
  }
  if (s > SECP256K1_HALF_ORDER) return { fault: "high_s" };
  return { signature: `0x${r}${s.toString(16).padStart(64, "0")}${v.toString(16)}` };
}
