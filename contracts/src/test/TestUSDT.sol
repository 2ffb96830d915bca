// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {TestERC20} from "./TestERC20.sol";

/// @notice A USDT-style token: `approve` reverts when changing a nonzero allowance to another nonzero value
/// (set it to 0 first), as Tether's mainnet token does.
contract TestUSDT is TestERC20 {
    error ApproveNonZeroToNonZero();

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address owner_)
        TestERC20(name_, symbol_, decimals_, owner_)
    {}

    function approve(address spender, uint256 value) public override returns (bool) {
        if (value != 0 && allowance(msg.sender, spender) != 0) revert ApproveNonZeroToNonZero();
        return super.approve(spender, value);
    }
}
