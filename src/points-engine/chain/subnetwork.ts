// A Symbiotic subnetwork: the network's address in the high 160 bits, a uint96 identifier in the low 96
// (symbioticfi/core's Subnetwork library).
import type { Address, Hex } from "viem";

/** bytes32(uint256(uint160(network)) << 96 | identifier), lowercase hex. */
export function subnetworkOf(network: Address, identifier = 0n): Hex {
  return `0x${((BigInt(network) << 96n) | identifier).toString(16).padStart(64, "0")}` as Hex;
}

/** The network a subnetwork belongs to (lowercase). */
export function networkOfSubnetwork(subnetwork: Hex): Address {
  return `0x${(BigInt(subnetwork) >> 96n).toString(16).padStart(40, "0")}` as Address;
}
