// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @notice A minimal smart-contract wallet for tests: a signature is valid when its owner's key signed the
/// digest (ERC-1271); the owner makes calls through `execute` (e.g. to approve the Reactor).
contract TestERC1271Wallet is IERC1271, Ownable {
    constructor(address owner_) Ownable(owner_) {}

    receive() external payable {}

    function isValidSignature(bytes32 hash, bytes memory signature) external view returns (bytes4) {
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        if (err == ECDSA.RecoverError.NoError && recovered == owner()) return IERC1271.isValidSignature.selector;
        return 0xffffffff;
    }

    function execute(address target, uint256 value, bytes calldata data) external onlyOwner returns (bytes memory) {
        return Address.functionCallWithValue(target, data, value);
    }
}
