// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {BaseDelegator} from "./BaseDelegator.sol";
import {IVaultStake} from "./interfaces/IVaultStake.sol";

/// @title NetworkRestakeDelegator
/// @notice Core's type 0 (symbioticfi/core `INetworkRestakeDelegator`): the curator gives each subnetwork a limit
/// (at most the network's maximum) and each operator shares of it; an operator's stake is
/// `operatorNetworkShares × min(activeStake, networkLimit) / totalOperatorNetworkShares` (rounded down, 0 when
/// there are no shares), and 0 unless the operator is opted in to the network and the vault.
contract NetworkRestakeDelegator is BaseDelegator {
    using Math for uint256;

    error ExceedsMaxNetworkLimit();

    event SetNetworkLimit(bytes32 indexed subnetwork, uint256 amount);
    event SetOperatorNetworkShares(bytes32 indexed subnetwork, address indexed operator, uint256 shares);

    mapping(bytes32 subnetwork => uint256) public networkLimit;
    mapping(bytes32 subnetwork => uint256) public totalOperatorNetworkShares;
    mapping(bytes32 subnetwork => mapping(address operator => uint256)) public operatorNetworkShares;

    constructor(
        address networkRegistry,
        address vaultFactory,
        address operatorVaultOptInService,
        address operatorNetworkOptInService,
        address vault_,
        address owner_
    )
        BaseDelegator(
            networkRegistry, vaultFactory, operatorVaultOptInService, operatorNetworkOptInService, vault_, owner_, 0
        )
    {}

    function setNetworkLimit(bytes32 subnetwork, uint256 amount) external onlyOwner {
        if (amount > maxNetworkLimit[subnetwork]) revert ExceedsMaxNetworkLimit();
        if (networkLimit[subnetwork] == amount) revert AlreadySet();
        networkLimit[subnetwork] = amount;
        emit SetNetworkLimit(subnetwork, amount);
    }

    function setOperatorNetworkShares(bytes32 subnetwork, address operator, uint256 shares) external onlyOwner {
        uint256 current = operatorNetworkShares[subnetwork][operator];
        if (current == shares) revert AlreadySet();
        totalOperatorNetworkShares[subnetwork] = totalOperatorNetworkShares[subnetwork] - current + shares;
        operatorNetworkShares[subnetwork][operator] = shares;
        emit SetOperatorNetworkShares(subnetwork, operator, shares);
    }

    function _stake(bytes32 subnetwork, address operator) internal view override returns (uint256) {
        uint256 total = totalOperatorNetworkShares[subnetwork];
        if (total == 0) return 0;
        return operatorNetworkShares[subnetwork][operator].mulDiv(
            Math.min(IVaultStake(vault).activeStake(), networkLimit[subnetwork]), total
        );
    }

    function _setMaxNetworkLimit(bytes32 subnetwork, uint256 amount) internal override {
        if (networkLimit[subnetwork] > amount) networkLimit[subnetwork] = amount;
    }
}
