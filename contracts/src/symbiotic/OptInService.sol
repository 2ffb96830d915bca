// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {IOptInService} from "./interfaces/IOptInService.sol";
import {IRegistry} from "./interfaces/IRegistry.sol";

/// @notice A "who" (a registered operator) opts in to and out of a "where" (a registered network, or a vault of
/// the vault factory), as symbioticfi/core's `OptInService`. Simpler than core: no signed opt-ins, no history
/// (`isOptedInAt`); like core, an opt-out in the same second as the opt-in reverts (`OptOutCooldown`).
contract OptInService is IOptInService {
    address public immutable WHO_REGISTRY;
    address public immutable WHERE_REGISTRY;

    mapping(address who => mapping(address where => bool)) public isOptedIn;
    mapping(address who => mapping(address where => uint256)) internal _optedInAt;

    constructor(address whoRegistry, address whereRegistry) {
        WHO_REGISTRY = whoRegistry;
        WHERE_REGISTRY = whereRegistry;
    }

    function optIn(address where) external {
        if (!IRegistry(WHO_REGISTRY).isEntity(msg.sender)) revert NotWho();
        if (!IRegistry(WHERE_REGISTRY).isEntity(where)) revert NotWhereEntity();
        if (isOptedIn[msg.sender][where]) revert AlreadyOptedIn();
        isOptedIn[msg.sender][where] = true;
        _optedInAt[msg.sender][where] = block.timestamp;
        emit OptIn(msg.sender, where);
    }

    function optOut(address where) external {
        if (!isOptedIn[msg.sender][where]) revert NotOptedIn();
        if (_optedInAt[msg.sender][where] == block.timestamp) revert OptOutCooldown();
        isOptedIn[msg.sender][where] = false;
        emit OptOut(msg.sender, where);
    }
}
