// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {BaseDelegator} from "./BaseDelegator.sol";
import {IRegistry} from "./interfaces/IRegistry.sol";
import {IVaultStake} from "./interfaces/IVaultStake.sol";

/// @title OperatorSpecificDelegator
/// @notice Core's type 2 (symbioticfi/core `IOperatorSpecificDelegator`): one operator gets
/// `min(activeStake, networkLimit)` in every subnetwork, every other operator 0 (and 0 unless it is opted in to
/// the network and the vault).
contract OperatorSpecificDelegator is BaseDelegator {
    error ExceedsMaxNetworkLimit();
    error NotOperator();

    event SetNetworkLimit(bytes32 indexed subnetwork, uint256 amount);

    address public immutable OPERATOR_REGISTRY;
    address public immutable operator;

    mapping(bytes32 subnetwork => uint256) public networkLimit;

    constructor(
        address networkRegistry,
        address vaultFactory,
        address operatorVaultOptInService,
        address operatorNetworkOptInService,
        address operatorRegistry,
        address vault_,
        address owner_,
        address operator_
    )
        BaseDelegator(
            networkRegistry, vaultFactory, operatorVaultOptInService, operatorNetworkOptInService, vault_, owner_, 2
        )
    {
        if (!IRegistry(operatorRegistry).isEntity(operator_)) revert NotOperator();
        OPERATOR_REGISTRY = operatorRegistry;
        operator = operator_;
    }

    function setNetworkLimit(bytes32 subnetwork, uint256 amount) external onlyOwner {
        if (amount > maxNetworkLimit[subnetwork]) revert ExceedsMaxNetworkLimit();
        if (networkLimit[subnetwork] == amount) revert AlreadySet();
        networkLimit[subnetwork] = amount;
        emit SetNetworkLimit(subnetwork, amount);
    }

    function _stake(bytes32 subnetwork, address operator_) internal view override returns (uint256) {
        if (operator_ != operator) return 0;
        return Math.min(IVaultStake(vault).activeStake(), networkLimit[subnetwork]);
    }

    function _setMaxNetworkLimit(bytes32 subnetwork, uint256 amount) internal override {
        if (networkLimit[subnetwork] > amount) networkLimit[subnetwork] = amount;
    }
}
