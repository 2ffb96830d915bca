// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IOptInService} from "./interfaces/IOptInService.sol";
import {IRegistry} from "./interfaces/IRegistry.sol";
import {Subnetwork} from "./Subnetwork.sol";

/// @title BaseDelegator
/// @notice What every delegator shares, with the names, signatures and events of symbioticfi/core's
/// `IBaseDelegator` (src/interfaces/delegator/IBaseDelegator.sol) and `IEntity.TYPE()`: a network sets its
/// maximum limit per subnetwork (`setMaxNetworkLimit`), and `stake(subnetwork, operator)` is 0 unless the operator
/// is opted in to both the vault and the subnetwork's network, else the type's own formula (`_stake`).
/// Simpler than core: no checkpoints (`stakeAt`), hooks or slashing callbacks; the owner (the vault's curator)
/// holds every setter role of core's access control.
abstract contract BaseDelegator is Ownable {
    using Subnetwork for address;
    using Subnetwork for bytes32;

    error AlreadySet();
    error NotNetwork();
    error NotVault();

    event SetMaxNetworkLimit(bytes32 indexed subnetwork, uint256 amount);

    address public immutable NETWORK_REGISTRY;
    address public immutable VAULT_FACTORY;
    address public immutable OPERATOR_VAULT_OPT_IN_SERVICE;
    address public immutable OPERATOR_NETWORK_OPT_IN_SERVICE;
    /// @notice Core's delegator types: 0 NetworkRestake, 1 FullRestake, 2 OperatorSpecific.
    uint64 public immutable TYPE;
    address public immutable vault;

    mapping(bytes32 subnetwork => uint256) public maxNetworkLimit;

    constructor(
        address networkRegistry,
        address vaultFactory,
        address operatorVaultOptInService,
        address operatorNetworkOptInService,
        address vault_,
        address owner_,
        uint64 type_
    ) Ownable(owner_) {
        if (!IRegistry(vaultFactory).isEntity(vault_)) revert NotVault();
        NETWORK_REGISTRY = networkRegistry;
        VAULT_FACTORY = vaultFactory;
        OPERATOR_VAULT_OPT_IN_SERVICE = operatorVaultOptInService;
        OPERATOR_NETWORK_OPT_IN_SERVICE = operatorNetworkOptInService;
        vault = vault_;
        TYPE = type_;
    }

    function VERSION() external pure returns (uint64) {
        return 1;
    }

    function stake(bytes32 subnetwork, address operator) external view returns (uint256) {
        if (
            !IOptInService(OPERATOR_VAULT_OPT_IN_SERVICE).isOptedIn(operator, vault)
                || !IOptInService(OPERATOR_NETWORK_OPT_IN_SERVICE).isOptedIn(operator, subnetwork.network())
        ) {
            return 0;
        }
        return _stake(subnetwork, operator);
    }

    /// @notice Called by a network for its subnetwork `identifier`; lowering it below the network limit lowers
    /// the network limit too, without a `SetNetworkLimit` event (as core).
    function setMaxNetworkLimit(uint96 identifier, uint256 amount) external {
        if (!IRegistry(NETWORK_REGISTRY).isEntity(msg.sender)) revert NotNetwork();
        bytes32 subnetwork = msg.sender.subnetwork(identifier);
        if (maxNetworkLimit[subnetwork] == amount) revert AlreadySet();
        maxNetworkLimit[subnetwork] = amount;
        _setMaxNetworkLimit(subnetwork, amount);
        emit SetMaxNetworkLimit(subnetwork, amount);
    }

    function _stake(bytes32 subnetwork, address operator) internal view virtual returns (uint256);

    function _setMaxNetworkLimit(bytes32 subnetwork, uint256 amount) internal virtual;
}
