// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Registry} from "./Registry.sol";

/// @notice Networks register themselves (`registerNetwork()` by the network's own address), as in
/// symbioticfi/core's `INetworkRegistry`.
contract NetworkRegistry is Registry {
    error NetworkAlreadyRegistered();

    function registerNetwork() external {
        if (isEntity[msg.sender]) revert NetworkAlreadyRegistered();
        _addEntity(msg.sender);
    }
}
