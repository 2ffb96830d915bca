// The encodings a client may send an EOA's ECDSA signature in, made from its canonical 65-byte form (r ‖ s ‖ v, v 27
// or 28, low s): the ones Sluice rewrites to the canonical form, and the ones it refuses as the contracts do.
import { type Hex, parseSignature, serializeCompactSignature, signatureToCompactSignature } from "viem";
import type { EcdsaSignatureFault } from "../../src/chain/ecdsa-signature.ts";

/** secp256k1's order n. */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** v as 0/1 (yParity) instead of 27/28. */
export function withYParityV(canonical: Hex): Hex {
  return `0x${canonical.slice(2, 130)}${parseSignature(canonical).yParity ? "01" : "00"}`;
}

/** EIP-2098 compact: 64 bytes, yParity in the top bit of s. */
export function compactForm(canonical: Hex): Hex {
  return serializeCompactSignature(signatureToCompactSignature(parseSignature(canonical)));
}

/** The malleable twin: s → n − s with v flipped. The same signer recovers from it; OpenZeppelin's ECDSA refuses it. */
export function highSForm(canonical: Hex): Hex {
  const { r, s, yParity } = parseSignature(canonical);
  const highS = (SECP256K1_ORDER - BigInt(s)).toString(16).padStart(64, "0");
  return `${r}${highS}${yParity ? "1b" : "1c"}`;
}

/** v as a single hex digit (0/1): an odd number of hex digits, which some decoders still read as 65 bytes. */
export function oddLengthForm(canonical: Hex): Hex {
  return `0x${canonical.slice(2, 130)}${parseSignature(canonical).yParity ? "1" : "0"}`;
}

/** One byte too many. */
export function tooLongForm(canonical: Hex): Hex {
  return `${canonical}00`;
}

/** One byte short of the compact form. */
export function tooShortForm(canonical: Hex): Hex {
  return canonical.slice(0, 128) as Hex;
}

/**
 * Every form, with the fault Sluice answers for it (`details.reason` of its 400 INVALID_SIGNATURE), or none when it
 * accepts it, rewritten to the canonical form.
 */
export const SIGNATURE_FORMS: ReadonlyArray<{
  name: string;
  encode: (canonical: Hex) => Hex;
  fault?: EcdsaSignatureFault;
}> = [
  { name: "canonical", encode: (canonical) => canonical },
  { name: "v 0/1", encode: withYParityV },
  { name: "EIP-2098 compact", encode: compactForm },
  { name: "high s", encode: highSForm, fault: "high_s" },
  { name: "odd length", encode: oddLengthForm, fault: "odd_length" },
  { name: "66 bytes", encode: tooLongForm, fault: "wrong_length" },
  { name: "63 bytes", encode: tooShortForm, fault: "wrong_length" },
];
