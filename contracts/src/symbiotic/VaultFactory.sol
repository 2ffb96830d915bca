// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Registry} from "./Registry.sol";
import {Vault} from "./Vault.sol";
import {VaultTokenized} from "./VaultTokenized.sol";

/// @title VaultFactory
/// @notice The registry of vaults (`isEntity`, `totalEntities`, `entity`, `AddEntity` of symbioticfi/core's
/// `IRegistry`) and their factory with core's `create(uint64 version, address owner, bytes data)`: version 1
/// deploys a `Vault`, version 2 a `VaultTokenized`, both owned by `owner`. `data` is
/// `abi.encode(collateral, burner, epochDuration)`, and for version 2 also `name, symbol`. Simpler than core: no
/// implementations to whitelist, no clones or migrations.
contract VaultFactory is Registry {
    error InvalidVersion();

    uint64 public constant lastVersion = 2;

    function create(uint64 version, address owner_, bytes calldata data) external returns (address vault) {
        if (version == 1) {
            (address collateral, address burner, uint48 epochDuration) = abi.decode(data, (address, address, uint48));
            vault = address(new Vault(address(this), owner_, collateral, burner, epochDuration));
        } else if (version == 2) {
            (address collateral, address burner, uint48 epochDuration, string memory name, string memory symbol) =
                abi.decode(data, (address, address, uint48, string, string));
            vault = address(new VaultTokenized(address(this), owner_, collateral, burner, epochDuration, name, symbol));
        } else {
            revert InvalidVersion();
        }
        _addEntity(vault);
    }
}
