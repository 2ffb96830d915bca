// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

import {ILiquidLaneAdapter} from "./interfaces/ILiquidLaneAdapter.sol";

/// @title LiquidLaneAdapter
/// @notice A LiquidLane-style redemption adapter over one ERC-4626 vault: it takes "tokens to redeem" (e.g. RWA
/// tokens) and releases the vault's asset (e.g. a stablecoin) at an oracle rate.
///
/// Choices where this contract is simpler than the reference one (the ABI of every function the flow uses is the
/// reference's):
/// - Deployed directly or through `AdapterFactory.create` with a plain constructor (owner, vault, protocol signer);
///   no proxy, initializer or versioning. The owner also pauses/unpauses (no separate pauser roles).
/// - The oracle is a price per token to redeem set by the owner (`setOraclePrice`): asset units per whole token,
///   scaled by 1e18. `getAmountOut(t, amountIn) = amountIn * price * 10^assetDec / (1e18 * 10^tDec)` rounded down
///   (the gross oracle output); `getMaxRate(t) = price * (1e6 - minDiscount(t)) / 1e6` rounded down.
/// - Liquidity: the adapter holds shares of `vault` and releases assets by withdrawing from it.
///   `getMaxAssets(t)` = what it can release now for `t`: 0 when paused or `t` is not a token to redeem, else
///   min(vault.maxWithdraw(adapter), limit(t)). `limit(t)` is the amount of asset the adapter may still release
///   for `t` (type(uint256).max = unlimited, the default when a token is added); each swap uses it up.
/// - Input: the caller (the Reactor, through the Executor) transfers the input to the adapter before the swap. The
///   adapter accounts what it has received per token and requires `amountIn` of not-yet-accounted balance
///   (`InsufficientInput`); the owner takes the redeemed tokens out with `collect`.
/// - "Authorized on the adapter": the owner, the market maker, or `isFiller(marketMaker, account)`. A market
///   maker names its fillers with `setFiller` (it writes the caller's own slot: `isFiller(msg.sender, filler)`).
/// - The protocol for discount swaps: `discount.protocol` must equal `protocolSigner` (set by the owner), who
///   co-signs each fill's `DiscountSwap` with a deadline no more than 90 seconds ahead.
contract LiquidLaneAdapter is ILiquidLaneAdapter, EIP712, Ownable, Pausable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    uint256 internal constant PPM = 1e6;
    /// @notice How far ahead a protocol co-signature of a discount swap may expire.
    uint256 public constant PROTOCOL_SIGNATURE_WINDOW = 90;
    uint256 public constant MAX_TOKENS_TO_REDEEM = 32;

    bytes internal constant DISCOUNT_TYPE =
        "Discount(address tokenToRedeem,uint256 discount,address signer,address protocol,uint256 nonce,uint48 deadline)";
    bytes32 internal constant DISCOUNT_TYPEHASH = keccak256(DISCOUNT_TYPE);
    bytes32 internal constant DISCOUNT_SWAP_TYPEHASH = keccak256(
        abi.encodePacked("DiscountSwap(Discount discount,bytes signerSignature,uint48 protocolDeadline)", DISCOUNT_TYPE)
    );

    struct TokenConfig {
        bool enabled;
        uint8 decimals;
        uint256 oraclePrice;
        uint256 minDiscount;
        uint256 limit;
        uint256 received;
    }

    event SetVault(address indexed vault);
    event SetProtocolSigner(address indexed newProtocolSigner);
    event SetMarketMaker(address indexed newMarketMaker, bool newCanAcquire);
    event SetFiller(address indexed marketMaker, address indexed filler, bool isAuthorized);
    event AddTokenToRedeem(address indexed tokenToRedeem, address indexed account);
    event RemoveTokenToRedeem(address indexed tokenToRedeem);
    event SetMinDiscount(address indexed tokenToRedeem, uint256 newMinDiscount);
    event SetLimit(address indexed tokenToRedeem, uint256 newLimit);
    event SetOraclePrice(address indexed tokenToRedeem, uint256 newPrice);
    event Collect(address indexed tokenToRedeem, address indexed to, uint256 amount);

    error InvalidVault();
    error InvalidOracle();
    error TooManyTokensToRedeem();
    error InsufficientInput();

    /// @notice The ERC-4626 vault whose asset this adapter releases.
    address public immutable vault;
    address internal immutable _asset;
    uint8 internal immutable _assetDecimals;

    address public marketMaker;
    /// @notice Stored for ABI compatibility with the reference `setMarketMaker(address,bool)`; unused here.
    bool public marketMakerCanAcquire;
    address public protocolSigner;
    address[] public tokensToRedeem;

    mapping(address tokenToRedeem => TokenConfig) internal _tokens;
    mapping(address marketMaker => mapping(address filler => bool)) internal _fillers;
    mapping(address tokenToRedeem => mapping(uint256 word => uint256 bitmap)) internal _nonceBitmap;

    constructor(address owner_, address vault_, address protocolSigner_)
        EIP712("LiquidLaneAdapter", "1")
        Ownable(owner_)
    {
        if (vault_ == address(0) || vault_.code.length == 0) revert InvalidVault();
        address asset_ = IERC4626(vault_).asset();
        vault = vault_;
        _asset = asset_;
        _assetDecimals = IERC20Metadata(asset_).decimals();
        protocolSigner = protocolSigner_;
        emit SetVault(vault_);
        emit SetProtocolSigner(protocolSigner_);
    }

    // ---------------------------------------------------------------- views

    function owner() public view override(ILiquidLaneAdapter, Ownable) returns (address) {
        return super.owner();
    }

    function paused() public view override(ILiquidLaneAdapter, Pausable) returns (bool) {
        return super.paused();
    }

    function isFiller(address marketMaker_, address filler) external view returns (bool) {
        return _fillers[marketMaker_][filler];
    }

    function getTokensToRedeemLength() external view returns (uint256) {
        return tokensToRedeem.length;
    }

    function minDiscount(address tokenToRedeem) external view returns (uint256 ppm) {
        return _tokens[tokenToRedeem].minDiscount;
    }

    function limit(address tokenToRedeem) external view returns (uint256 amount) {
        return _tokens[tokenToRedeem].limit;
    }

    function oraclePrice(address tokenToRedeem) external view returns (uint256) {
        return _tokens[tokenToRedeem].oraclePrice;
    }

    /// @notice Input of `tokenToRedeem` received by swaps and not yet collected by the owner.
    function received(address tokenToRedeem) external view returns (uint256) {
        return _tokens[tokenToRedeem].received;
    }

    function isAuthorized(address account) public view returns (bool) {
        return account != address(0)
            && (account == owner() || account == marketMaker || _fillers[marketMaker][account]);
    }

    /// @notice The oracle rate net of `minDiscount`, 1e18-scaled (asset per whole token to redeem).
    function getMaxRate(address tokenToRedeem) public view returns (uint256) {
        TokenConfig storage config = _enabledToken(tokenToRedeem);
        return config.oraclePrice * (PPM - config.minDiscount) / PPM;
    }

    /// @notice The gross oracle output, in the vault asset, for `amountIn` of `tokenToRedeem`.
    function getAmountOut(address tokenToRedeem, uint256 amountIn) public view returns (uint256) {
        TokenConfig storage config = _enabledToken(tokenToRedeem);
        return _convert(config, amountIn, config.oraclePrice);
    }

    /// @notice The asset the adapter can release now for `tokenToRedeem` (see the contract notes). Nonpayable as
    /// in the reference ABI; it only reads.
    function getMaxAssets(address tokenToRedeem) external returns (uint256 assets) {
        TokenConfig storage config = _tokens[tokenToRedeem];
        if (paused() || !config.enabled) return 0;
        return Math.min(IERC4626(vault).maxWithdraw(address(this)), config.limit);
    }

    function isUsedNonce(address tokenToRedeem, uint256 nonce) public view returns (bool) {
        return _nonceBitmap[tokenToRedeem][nonce >> 8] & (1 << (nonce & 0xff)) != 0;
    }

    /// @notice The EIP-712 digest of a Discount under this adapter's domain (the `discountId`).
    function hashDiscount(Discount calldata discount) external view returns (bytes32) {
        return _hashTypedDataV4(_discountStructHash(discount));
    }

    // ---------------------------------------------------------------- swaps

    /// @notice A direct swap by an authorized caller. The adapter must already hold `swap.amountIn` of
    /// `swap.tokenIn`; it releases `swap.amountOut` of the asset to `swap.recipient` if that is no more than
    /// `swap.amountIn` at `getMaxRate`.
    function swap(Swap calldata swap_) external nonReentrant whenNotPaused {
        if (!isAuthorized(msg.sender)) revert InvalidCaller();
        TokenConfig storage config = _enabledToken(swap_.tokenIn);
        _takeInput(config, swap_.tokenIn, swap_.amountIn);
        uint256 maxRate = config.oraclePrice * (PPM - config.minDiscount) / PPM;
        if (swap_.amountOut > _convert(config, swap_.amountIn, maxRate)) revert InvalidSwapRate();
        _release(config, swap_.recipient, swap_.amountOut);
        emit DoSwap(swap_);
    }

    /// @notice A discount swap: no caller authorization; the Discount signed by an authorized signer and the
    /// protocol's short co-signature are the guard. Pays `getAmountOut` less the discount.
    function swap(DiscountSwap calldata discountSwap, bytes calldata protocolSignature, address recipient, uint256 amountIn)
        external
        nonReentrant
        whenNotPaused
        returns (uint256 amountOut)
    {
        Discount calldata discount = discountSwap.discount;
        TokenConfig storage config = _enabledToken(discount.tokenToRedeem);

        if (block.timestamp > discount.deadline) revert ExpiredSwap();
        if (
            block.timestamp > discountSwap.protocolDeadline
                || discountSwap.protocolDeadline > block.timestamp + PROTOCOL_SIGNATURE_WINDOW
        ) revert ExpiredSwap();
        if (discount.discount < config.minDiscount || discount.discount > PPM) revert InvalidDiscount();
        if (protocolSigner == address(0) || discount.protocol != protocolSigner) revert InvalidSignature();
        if (!isAuthorized(discount.signer)) revert InvalidSignature();
        if (isUsedNonce(discount.tokenToRedeem, discount.nonce)) revert AlreadyUsedNonce();

        bytes32 discountStructHash = _discountStructHash(discount);
        if (!SignatureChecker.isValidSignatureNow(
                discount.signer, _hashTypedDataV4(discountStructHash), discountSwap.signerSignature
            )) revert InvalidSignature();
        bytes32 discountSwapStructHash = keccak256(
            abi.encode(
                DISCOUNT_SWAP_TYPEHASH,
                discountStructHash,
                keccak256(discountSwap.signerSignature),
                discountSwap.protocolDeadline
            )
        );
        if (!SignatureChecker.isValidSignatureNow(
                discount.protocol, _hashTypedDataV4(discountSwapStructHash), protocolSignature
            )) revert InvalidSignature();

        _useNonce(discount.tokenToRedeem, discount.nonce);
        _takeInput(config, discount.tokenToRedeem, amountIn);
        amountOut = _convert(config, amountIn, config.oraclePrice) * (PPM - discount.discount) / PPM;
        _release(config, recipient, amountOut);
        emit DoSwap(Swap({recipient: recipient, tokenIn: discount.tokenToRedeem, amountIn: amountIn, amountOut: amountOut}));
    }

    /// @notice Cancels a discount nonce of `tokenToRedeem`; only an authorized account may.
    function invalidateNonce(address tokenToRedeem, uint256 nonce) external {
        if (!isAuthorized(msg.sender)) revert InvalidCaller();
        _useNonce(tokenToRedeem, nonce);
        emit InvalidateNonce(tokenToRedeem, nonce);
    }

    // ---------------------------------------------------------------- administration

    function setMarketMaker(address newMarketMaker, bool newCanAcquire) external onlyOwner {
        marketMaker = newMarketMaker;
        marketMakerCanAcquire = newCanAcquire;
        emit SetMarketMaker(newMarketMaker, newCanAcquire);
    }

    /// @notice Names (or removes) a filler of the caller as market maker: sets `isFiller(msg.sender, filler)`.
    function setFiller(address filler, bool status) external {
        _fillers[msg.sender][filler] = status;
        emit SetFiller(msg.sender, filler, status);
    }

    function setProtocolSigner(address newProtocolSigner) external onlyOwner {
        protocolSigner = newProtocolSigner;
        emit SetProtocolSigner(newProtocolSigner);
    }

    function addTokenToRedeem(address tokenToRedeem) external onlyOwner {
        TokenConfig storage config = _tokens[tokenToRedeem];
        if (tokenToRedeem == address(0) || tokenToRedeem == _asset || config.enabled) revert InvalidTokenToRedeem();
        if (tokensToRedeem.length >= MAX_TOKENS_TO_REDEEM) revert TooManyTokensToRedeem();
        uint8 decimals;
        try IERC20Metadata(tokenToRedeem).decimals() returns (uint8 d) {
            decimals = d;
        } catch {
            revert InvalidTokenToRedeem();
        }
        config.enabled = true;
        config.decimals = decimals;
        config.limit = type(uint256).max;
        tokensToRedeem.push(tokenToRedeem);
        emit AddTokenToRedeem(tokenToRedeem, address(this));
        emit SetLimit(tokenToRedeem, type(uint256).max);
    }

    function removeTokenToRedeem(address tokenToRedeem) external onlyOwner {
        TokenConfig storage config = _enabledToken(tokenToRedeem);
        config.enabled = false;
        uint256 length = tokensToRedeem.length;
        for (uint256 i = 0; i < length; ++i) {
            if (tokensToRedeem[i] == tokenToRedeem) {
                tokensToRedeem[i] = tokensToRedeem[length - 1];
                tokensToRedeem.pop();
                break;
            }
        }
        emit RemoveTokenToRedeem(tokenToRedeem);
    }

    function setOraclePrice(address tokenToRedeem, uint256 newPrice) external onlyOwner {
        if (newPrice == 0) revert InvalidOracle();
        _enabledToken(tokenToRedeem).oraclePrice = newPrice;
        emit SetOraclePrice(tokenToRedeem, newPrice);
    }

    function setMinDiscount(address tokenToRedeem, uint256 newMinDiscount) external onlyOwner {
        if (newMinDiscount > PPM) revert InvalidDiscount();
        _enabledToken(tokenToRedeem).minDiscount = newMinDiscount;
        emit SetMinDiscount(tokenToRedeem, newMinDiscount);
    }

    function setLimit(address tokenToRedeem, uint256 newLimit) external onlyOwner {
        _enabledToken(tokenToRedeem).limit = newLimit;
        emit SetLimit(tokenToRedeem, newLimit);
    }

    function pause() external onlyOwner {
        _pause();
    }

    function unpause() external onlyOwner {
        _unpause();
    }

    /// @notice Takes redeemed tokens out of the adapter.
    function collect(address tokenToRedeem, address to, uint256 amount) external onlyOwner {
        TokenConfig storage config = _tokens[tokenToRedeem];
        config.received = amount >= config.received ? 0 : config.received - amount;
        IERC20(tokenToRedeem).safeTransfer(to, amount);
        emit Collect(tokenToRedeem, to, amount);
    }

    // ---------------------------------------------------------------- internals

    function _enabledToken(address tokenToRedeem) internal view returns (TokenConfig storage config) {
        config = _tokens[tokenToRedeem];
        if (!config.enabled) revert InvalidTokenToRedeem();
    }

    /// @dev amountIn * rate * 10^assetDec / (1e18 * 10^tokenDec), rounded down, without intermediate overflow.
    function _convert(TokenConfig storage config, uint256 amountIn, uint256 rate) internal view returns (uint256) {
        return Math.mulDiv(amountIn, rate * uint256(10) ** _assetDecimals, 1e18 * uint256(10) ** config.decimals);
    }

    function _takeInput(TokenConfig storage config, address tokenIn, uint256 amountIn) internal {
        uint256 accounted = config.received + amountIn;
        if (IERC20(tokenIn).balanceOf(address(this)) < accounted) revert InsufficientInput();
        config.received = accounted;
    }

    function _release(TokenConfig storage config, address recipient, uint256 amountOut) internal {
        uint256 remaining = config.limit;
        if (amountOut > remaining) revert LimitExceeded();
        if (remaining != type(uint256).max) config.limit = remaining - amountOut;
        if (amountOut > 0) IERC4626(vault).withdraw(amountOut, recipient, address(this));
    }

    function _useNonce(address tokenToRedeem, uint256 nonce) internal {
        uint256 bit = 1 << (nonce & 0xff);
        uint256 word = _nonceBitmap[tokenToRedeem][nonce >> 8];
        if (word & bit != 0) revert AlreadyUsedNonce();
        _nonceBitmap[tokenToRedeem][nonce >> 8] = word | bit;
    }

    function _discountStructHash(Discount calldata discount) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                DISCOUNT_TYPEHASH,
                discount.tokenToRedeem,
                discount.discount,
                discount.signer,
                discount.protocol,
                discount.nonce,
                discount.deadline
            )
        );
    }
}
