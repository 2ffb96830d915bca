// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/// @notice The registry part of the adapter factory the Reactor trusts (shared/reference/abi-IAdapterFactory.json).
interface IAdapterFactory {
    event AddEntity(address indexed entity);

    error InvalidVersion();

    function isEntity(address account) external view returns (bool);
    function totalEntities() external view returns (uint256);
    function entity(uint256 index) external view returns (address);
    function lastVersion() external view returns (uint64);
    function create(uint64 version, address owner, bytes calldata data) external returns (address);
}
