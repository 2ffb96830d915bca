// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/// @notice What a delegator reads from its vault: two getters of symbioticfi/core's `IVaultStorage`
/// (src/interfaces/vault/IVaultStorage.sol), with core's names and signatures.
interface IVaultStake {
    function activeStake() external view returns (uint256);

    function delegator() external view returns (address);
}
