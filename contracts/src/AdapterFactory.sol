// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {IAdapterFactory} from "./interfaces/IAdapterFactory.sol";
import {LiquidLaneAdapter} from "./LiquidLaneAdapter.sol";

/// @title AdapterFactory
/// @notice The registry of adapters the Reactor accepts: an adapter is valid when this factory created it
/// (`isEntity`). Simpler than the reference factory (no implementations to whitelist, clones or migrations):
/// there is one version, 1, and `create(1, owner, abi.encode(vault, protocolSigner))` deploys a new
/// LiquidLaneAdapter owned by `owner`. Anyone may create one, as the adapter's code is the factory's own.
contract AdapterFactory is IAdapterFactory {
    /// @notice The only version there is.
    uint64 public constant lastVersion = 1;

    address[] internal _entities;
    mapping(address account => bool) public isEntity;

    function totalEntities() external view returns (uint256) {
        return _entities.length;
    }

    function entity(uint256 index) external view returns (address) {
        return _entities[index];
    }

    function create(uint64 version, address owner, bytes calldata data) external returns (address) {
        if (version != lastVersion) revert InvalidVersion();
        (address vault, address protocolSigner) = abi.decode(data, (address, address));
        address adapter = address(new LiquidLaneAdapter(owner, vault, protocolSigner));
        _entities.push(adapter);
        isEntity[adapter] = true;
        emit AddEntity(adapter);
        return adapter;
    }
}
