// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {IRegistry} from "./interfaces/IRegistry.sol";

/// @notice An append-only set of entities with core's `IRegistry` getters and `AddEntity` event.
abstract contract Registry is IRegistry {
    address[] internal _entities;
    mapping(address account => bool) public isEntity;

    function totalEntities() external view returns (uint256) {
        return _entities.length;
    }

    function entity(uint256 index) external view returns (address) {
        if (index >= _entities.length) revert EntityNotExist();
        return _entities[index];
    }

    function _addEntity(address account) internal {
        isEntity[account] = true;
        _entities.push(account);
        emit AddEntity(account);
    }
}
