// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/// @notice The part of a LiquidLane-style adapter that the Reactor, the Executor and Sluice use. Struct layouts,
/// names and selectors follow the reference ABI (shared/reference/abi-LiquidLaneAdapter.json).
interface ILiquidLaneAdapter {
    /// @notice A direct swap: the adapter already holds `amountIn` of `tokenIn` and releases `amountOut` of its
    /// vault's asset to `recipient` when the rate allows it.
    struct Swap {
        address recipient;
        address tokenIn;
        uint256 amountIn;
        uint256 amountOut;
    }

    /// @notice A discount offered by an authorized signer (EIP-712, domain `LiquidLaneAdapter`/`1`).
    struct Discount {
        address tokenToRedeem;
        uint256 discount; // ppm of the gross oracle output
        address signer;
        address protocol;
        uint256 nonce; // per tokenToRedeem
        uint48 deadline;
    }

    /// @notice A discount plus the protocol's short-lived co-signature window.
    struct DiscountSwap {
        Discount discount;
        bytes signerSignature;
        uint48 protocolDeadline;
    }

    event DoSwap(Swap swap);
    event InvalidateNonce(address indexed tokenToRedeem, uint256 indexed nonce);

    error AlreadyUsedNonce();
    error ExpiredSwap();
    error InvalidCaller();
    error InvalidDiscount();
    error InvalidSignature();
    error InvalidSwapRate();
    error InvalidTokenToRedeem();
    error LimitExceeded();

    function vault() external view returns (address);
    function owner() external view returns (address);
    function marketMaker() external view returns (address);
    function paused() external view returns (bool);
    function isFiller(address marketMaker, address filler) external view returns (bool);
    function tokensToRedeem(uint256 index) external view returns (address);
    function getTokensToRedeemLength() external view returns (uint256);
    function minDiscount(address tokenToRedeem) external view returns (uint256 ppm);
    function getMaxRate(address tokenToRedeem) external view returns (uint256);
    function getAmountOut(address tokenToRedeem, uint256 amountIn) external view returns (uint256);
    /// @dev Nonpayable, as in the reference ABI: off-chain readers use `eth_call` with a view copy of the ABI.
    function getMaxAssets(address tokenToRedeem) external returns (uint256 assets);
    function isUsedNonce(address tokenToRedeem, uint256 nonce) external view returns (bool);
    function invalidateNonce(address tokenToRedeem, uint256 nonce) external;

    function swap(Swap calldata swap) external;
    function swap(DiscountSwap calldata discountSwap, bytes calldata protocolSignature, address recipient, uint256 amountIn)
        external
        returns (uint256 amountOut);
}
