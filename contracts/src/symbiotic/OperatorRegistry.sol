// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Registry} from "./Registry.sol";

/// @notice Operators register themselves (`registerOperator()`), as in symbioticfi/core's `IOperatorRegistry`.
contract OperatorRegistry is Registry {
    error OperatorAlreadyRegistered();

    function registerOperator() external {
        if (isEntity[msg.sender]) revert OperatorAlreadyRegistered();
        _addEntity(msg.sender);
    }
}
