// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/// @notice A subnetwork is a network's address in the high 160 bits and a uint96 identifier in the low 96, as in
/// symbioticfi/core's `Subnetwork` library.
library Subnetwork {
    function subnetwork(address network_, uint96 identifier_) internal pure returns (bytes32) {
        return bytes32((uint256(uint160(network_)) << 96) | identifier_);
    }

    function network(bytes32 subnetwork_) internal pure returns (address) {
        return address(uint160(uint256(subnetwork_) >> 96));
    }

    function identifier(bytes32 subnetwork_) internal pure returns (uint96) {
        return uint96(uint256(subnetwork_));
    }
}
