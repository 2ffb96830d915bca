// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/// @notice The registry surface of symbioticfi/core's `IRegistry` (src/interfaces/common/IRegistry.sol).
interface IRegistry {
    error EntityNotExist();

    event AddEntity(address indexed entity);

    function isEntity(address account) external view returns (bool);

    function totalEntities() external view returns (uint256);

    function entity(uint256 index) external view returns (address);
}
