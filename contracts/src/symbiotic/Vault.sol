// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

interface IDelegatorVault {
    function vault() external view returns (address);
}

/// @title Vault
/// @notice A minimal Symbiotic vault with the names, signatures and events of symbioticfi/core's `IVault` and
/// `IVaultStorage` (src/interfaces/vault/): active stake and shares with core's share math (ERC-4626 style, one
/// virtual share and one virtual asset), withdrawals into the next epoch's pool, claims after it, a delegator and a
/// slasher set once. Simpler than core, on purpose:
/// - no checkpoints: only the current values (`*At` getters are absent); no deposit whitelist or limit;
/// - no migrations or proxies: a plain contract created by the `VaultFactory` (version 1);
/// - `setDelegator`/`setSlasher` by the owner (the curator), and the slasher may be any address;
/// - `onSlash` takes the slashed amount from the active stake only (core also takes a share of the pending
///   withdrawals): a slash lowers `activeStake` by `slashedAmount` and leaves every share as it was.
contract Vault is Ownable {
    using Math for uint256;
    using SafeERC20 for IERC20;

    error AlreadyClaimed();
    error DelegatorAlreadyInitialized();
    error InsufficientClaim();
    error InsufficientDeposit();
    error InsufficientWithdrawal();
    error InvalidCaptureEpoch();
    error InvalidClaimer();
    error InvalidCollateral();
    error InvalidDelegator();
    error InvalidEpoch();
    error InvalidEpochDuration();
    error InvalidOnBehalfOf();
    error InvalidRecipient();
    error InvalidTimestamp();
    error NotSlasher();
    error SlasherAlreadyInitialized();
    error TooMuchWithdraw();

    event Deposit(address indexed depositor, address indexed onBehalfOf, uint256 amount, uint256 shares);
    event Withdraw(
        address indexed withdrawer, address indexed claimer, uint256 amount, uint256 burnedShares, uint256 mintedShares
    );
    event Claim(address indexed claimer, address indexed recipient, uint256 epoch, uint256 amount);
    event OnSlash(uint256 amount, uint48 captureTimestamp, uint256 slashedAmount);
    event SetDelegator(address indexed delegator);
    event SetSlasher(address indexed slasher);

    address public immutable FACTORY;
    address public immutable collateral;
    address public immutable burner;
    uint48 public immutable epochDurationInit;
    uint48 public immutable epochDuration;

    address public delegator;
    bool public isDelegatorInitialized;
    address public slasher;
    bool public isSlasherInitialized;

    uint256 public activeStake;
    uint256 public activeShares;
    mapping(address account => uint256) public activeSharesOf;

    mapping(uint256 epoch => uint256) public withdrawals;
    mapping(uint256 epoch => uint256) public withdrawalShares;
    mapping(uint256 epoch => mapping(address account => uint256)) public withdrawalSharesOf;
    mapping(uint256 epoch => mapping(address account => bool)) public isWithdrawalsClaimed;

    constructor(address factory, address owner_, address collateral_, address burner_, uint48 epochDuration_)
        Ownable(owner_)
    {
        if (collateral_ == address(0)) revert InvalidCollateral();
        if (epochDuration_ == 0) revert InvalidEpochDuration();
        FACTORY = factory;
        collateral = collateral_;
        burner = burner_;
        epochDurationInit = uint48(block.timestamp);
        epochDuration = epochDuration_;
    }

    /// @notice The factory's version of this vault type: 1 (core numbers the tokenized vault 2).
    function version() external pure virtual returns (uint64) {
        return 1;
    }

    function isInitialized() external view returns (bool) {
        return isDelegatorInitialized && isSlasherInitialized;
    }

    function epochAt(uint48 timestamp) public view returns (uint256) {
        if (timestamp < epochDurationInit) revert InvalidTimestamp();
        return (timestamp - epochDurationInit) / epochDuration;
    }

    function currentEpoch() public view returns (uint256) {
        return (block.timestamp - epochDurationInit) / epochDuration;
    }

    function currentEpochStart() external view returns (uint48) {
        return uint48(epochDurationInit + currentEpoch() * epochDuration);
    }

    function nextEpochStart() external view returns (uint48) {
        return uint48(epochDurationInit + (currentEpoch() + 1) * epochDuration);
    }

    function totalStake() external view returns (uint256) {
        uint256 epoch = currentEpoch();
        return activeStake + withdrawals[epoch] + withdrawals[epoch + 1];
    }

    function activeBalanceOf(address account) public view returns (uint256) {
        return _previewRedeem(activeSharesOf[account], activeStake, activeShares);
    }

    function withdrawalsOf(uint256 epoch, address account) public view returns (uint256) {
        if (isWithdrawalsClaimed[epoch][account]) return 0;
        return _previewRedeem(withdrawalSharesOf[epoch][account], withdrawals[epoch], withdrawalShares[epoch]);
    }

    function slashableBalanceOf(address account) external view returns (uint256) {
        uint256 epoch = currentEpoch();
        return activeBalanceOf(account) + withdrawalsOf(epoch, account) + withdrawalsOf(epoch + 1, account);
    }

    function deposit(address onBehalfOf, uint256 amount)
        external
        returns (uint256 depositedAmount, uint256 mintedShares)
    {
        if (onBehalfOf == address(0)) revert InvalidOnBehalfOf();
        uint256 balanceBefore = IERC20(collateral).balanceOf(address(this));
        IERC20(collateral).safeTransferFrom(msg.sender, address(this), amount);
        depositedAmount = IERC20(collateral).balanceOf(address(this)) - balanceBefore;
        if (depositedAmount == 0) revert InsufficientDeposit();

        mintedShares = _previewDeposit(depositedAmount, activeShares, activeStake);
        activeStake += depositedAmount;
        activeShares += mintedShares;
        activeSharesOf[onBehalfOf] += mintedShares;

        emit Deposit(msg.sender, onBehalfOf, depositedAmount, mintedShares);
        _afterMint(onBehalfOf, mintedShares);
    }

    function withdraw(address claimer, uint256 amount) external returns (uint256 burnedShares, uint256 mintedShares) {
        if (claimer == address(0)) revert InvalidClaimer();
        if (amount == 0) revert InsufficientWithdrawal();
        // Rounded up: the withdrawer never burns fewer shares than the amount is worth.
        burnedShares = amount.mulDiv(activeShares + 1, activeStake + 1, Math.Rounding.Ceil);
        if (burnedShares > activeSharesOf[msg.sender]) revert TooMuchWithdraw();

        activeStake -= amount;
        activeShares -= burnedShares;
        activeSharesOf[msg.sender] -= burnedShares;

        uint256 epoch = currentEpoch() + 1;
        mintedShares = _previewDeposit(amount, withdrawalShares[epoch], withdrawals[epoch]);
        withdrawals[epoch] += amount;
        withdrawalShares[epoch] += mintedShares;
        withdrawalSharesOf[epoch][claimer] += mintedShares;

        emit Withdraw(msg.sender, claimer, amount, burnedShares, mintedShares);
        _afterBurn(msg.sender, burnedShares);
    }

    function claim(address recipient, uint256 epoch) external returns (uint256 amount) {
        if (recipient == address(0)) revert InvalidRecipient();
        if (epoch >= currentEpoch()) revert InvalidEpoch();
        if (isWithdrawalsClaimed[epoch][msg.sender]) revert AlreadyClaimed();
        amount = withdrawalsOf(epoch, msg.sender);
        if (amount == 0) revert InsufficientClaim();
        isWithdrawalsClaimed[epoch][msg.sender] = true;
        IERC20(collateral).safeTransfer(recipient, amount);
        emit Claim(msg.sender, recipient, epoch, amount);
    }

    function onSlash(uint256 amount, uint48 captureTimestamp) external returns (uint256 slashedAmount) {
        if (msg.sender != slasher) revert NotSlasher();
        if (captureTimestamp > block.timestamp || captureTimestamp < epochDurationInit) revert InvalidCaptureEpoch();
        slashedAmount = Math.min(amount, activeStake);
        if (slashedAmount > 0) {
            activeStake -= slashedAmount;
            IERC20(collateral).safeTransfer(burner, slashedAmount);
        }
        emit OnSlash(amount, captureTimestamp, slashedAmount);
    }

    function setDelegator(address delegator_) external onlyOwner {
        if (isDelegatorInitialized) revert DelegatorAlreadyInitialized();
        if (IDelegatorVault(delegator_).vault() != address(this)) revert InvalidDelegator();
        delegator = delegator_;
        isDelegatorInitialized = true;
        emit SetDelegator(delegator_);
    }

    function setSlasher(address slasher_) external onlyOwner {
        if (isSlasherInitialized) revert SlasherAlreadyInitialized();
        slasher = slasher_;
        isSlasherInitialized = true;
        emit SetSlasher(slasher_);
    }

    /// @dev Called after a deposit minted `shares` of active shares to `account` (the tokenized vault's mint).
    function _afterMint(address account, uint256 shares) internal virtual {}

    /// @dev Called after a withdrawal burned `shares` of `account`'s active shares (the tokenized vault's burn).
    function _afterBurn(address account, uint256 shares) internal virtual {}

    /// @dev Shares for `assets`, rounded down (core's ERC4626Math.previewDeposit, no decimals offset).
    function _previewDeposit(uint256 assets, uint256 totalShares, uint256 totalAssets)
        internal
        pure
        returns (uint256)
    {
        return assets.mulDiv(totalShares + 1, totalAssets + 1, Math.Rounding.Floor);
    }

    /// @dev Assets for `shares`, rounded down (core's ERC4626Math.previewRedeem).
    function _previewRedeem(uint256 shares, uint256 totalAssets, uint256 totalShares)
        internal
        pure
        returns (uint256)
    {
        return shares.mulDiv(totalAssets + 1, totalShares + 1, Math.Rounding.Floor);
    }
}
