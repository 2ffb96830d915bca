// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {Vault} from "./Vault.sol";

/// @title VaultTokenized
/// @notice The vault whose active shares are an ERC-20, as symbioticfi/core's `VaultTokenized` (version 2):
/// `balanceOf` is `activeSharesOf`, `totalSupply` is `activeShares`, `decimals` the collateral's. A deposit emits
/// `Transfer(0, onBehalfOf, shares)` after `Deposit`, a withdrawal `Transfer(withdrawer, 0, burnedShares)` after
/// `Withdraw`; a transfer between holders moves active shares (and so active balance).
contract VaultTokenized is Vault {
    error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    error ERC20InvalidReceiver(address receiver);
    error ERC20InvalidSender(address sender);

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    string public name;
    string public symbol;
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    constructor(
        address factory,
        address owner_,
        address collateral_,
        address burner_,
        uint48 epochDuration_,
        string memory name_,
        string memory symbol_
    ) Vault(factory, owner_, collateral_, burner_, epochDuration_) {
        name = name_;
        symbol = symbol_;
    }

    function version() external pure override returns (uint64) {
        return 2;
    }

    function decimals() external view returns (uint8) {
        return IERC20Metadata(collateral).decimals();
    }

    function totalSupply() external view returns (uint256) {
        return activeShares;
    }

    function balanceOf(address account) external view returns (uint256) {
        return activeSharesOf[account];
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert ERC20InsufficientAllowance(msg.sender, allowed, value);
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) internal {
        if (from == address(0)) revert ERC20InvalidSender(from);
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        uint256 balance = activeSharesOf[from];
        if (balance < value) revert ERC20InsufficientBalance(from, balance, value);
        activeSharesOf[from] = balance - value;
        activeSharesOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _afterMint(address account, uint256 shares) internal override {
        emit Transfer(address(0), account, shares);
    }

    function _afterBurn(address account, uint256 shares) internal override {
        emit Transfer(account, address(0), shares);
    }
}
