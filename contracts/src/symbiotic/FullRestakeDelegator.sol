// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {BaseDelegator} from "./BaseDelegator.sol";
import {IVaultStake} from "./interfaces/IVaultStake.sol";

/// @title FullRestakeDelegator
/// @notice Core's type 1 (symbioticfi/core `IFullRestakeDelegator`): every operator of a subnetwork may get the
/// whole `min(activeStake, networkLimit, operatorNetworkLimit)`, so the same collateral counts more than once. It
/// exists here so the points engine can be shown to exclude it (as Symbiotic's points template does).
contract FullRestakeDelegator is BaseDelegator {
    error ExceedsMaxNetworkLimit();

    event SetNetworkLimit(bytes32 indexed subnetwork, uint256 amount);
    event SetOperatorNetworkLimit(bytes32 indexed subnetwork, address indexed operator, uint256 amount);

    mapping(bytes32 subnetwork => uint256) public networkLimit;
    mapping(bytes32 subnetwork => mapping(address operator => uint256)) public operatorNetworkLimit;

    constructor(
        address networkRegistry,
        address vaultFactory,
        address operatorVaultOptInService,
        address operatorNetworkOptInService,
        address vault_,
        address owner_
    )
        BaseDelegator(
            networkRegistry, vaultFactory, operatorVaultOptInService, operatorNetworkOptInService, vault_, owner_, 1
        )
    {}

    function setNetworkLimit(bytes32 subnetwork, uint256 amount) external onlyOwner {
        if (amount > maxNetworkLimit[subnetwork]) revert ExceedsMaxNetworkLimit();
        if (networkLimit[subnetwork] == amount) revert AlreadySet();
        networkLimit[subnetwork] = amount;
        emit SetNetworkLimit(subnetwork, amount);
    }

    function setOperatorNetworkLimit(bytes32 subnetwork, address operator, uint256 amount) external onlyOwner {
        if (operatorNetworkLimit[subnetwork][operator] == amount) revert AlreadySet();
        operatorNetworkLimit[subnetwork][operator] = amount;
        emit SetOperatorNetworkLimit(subnetwork, operator, amount);
    }

    function _stake(bytes32 subnetwork, address operator) internal view override returns (uint256) {
        return Math.min(
            IVaultStake(vault).activeStake(),
            Math.min(networkLimit[subnetwork], operatorNetworkLimit[subnetwork][operator])
        );
    }

    function _setMaxNetworkLimit(bytes32 subnetwork, uint256 amount) internal override {
        if (networkLimit[subnetwork] > amount) networkLimit[subnetwork] = amount;
    }
}
