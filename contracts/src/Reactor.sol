// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

import {IAdapterFactory} from "./interfaces/IAdapterFactory.sol";
import {IExecutor} from "./interfaces/IExecutor.sol";
import {IReactor} from "./interfaces/IReactor.sol";
import {OrderHashing} from "./libraries/OrderHashing.sol";

/// @title Reactor
/// @notice Settles a redemption order: the swapper signed a `Request`, the protocol signer signed the `Order`
/// (the request plus the winning filler and the committed outputs). A fill, step by step (DESIGN §3):
///  1. checks, in this order: filler == msg.sender (`InvalidFiller`), deadline (`ExpiredRequest`), nonce
///     (`NonceUsed`), the swapper's signature of the Request and the protocol's signature of the Order (both
///     `InvalidProtocolSignature`), every adapter an entity of the adapter factory (`InvalidAdapter`), every leg's
///     input token == request.tokenIn (`InvalidTokenIn`), legs summing to amountIn (`InvalidAmountIn`), committed
///     outputs index by index with the same token and recipient and amount >= the signed one (`InvalidOutput`);
///  2. marks the nonce;
///  3. moves each leg's amountIn of tokenIn from the swapper straight to that leg's adapter;
///  4. calls `IExecutor(filler).execute(...)`, which runs the adapter swaps and approves this contract;
///  5. moves each committed output from the filler to its recipient and emits `Fill(order)`.
/// Signatures are ECDSA for EOAs and ERC-1271 for contracts (OpenZeppelin SignatureChecker).
contract Reactor is IReactor, EIP712 {
    using SafeERC20 for IERC20;

    /// @notice The adapter factory whose entities may be used as swap legs.
    address public immutable LIQUID_LANE_ADAPTER_FACTORY;

    /// @dev swapper => word index (nonce >> 8) => bitmap of used nonces (bit nonce & 255), as in Permit2.
    mapping(address swapper => mapping(uint256 word => uint256 bitmap)) internal _nonceBitmap;

    constructor(address liquidLaneAdapterFactory) EIP712("Reactor", "1") {
        LIQUID_LANE_ADAPTER_FACTORY = liquidLaneAdapterFactory;
    }

    /// @dev Present in the reference ABI; the Reactor never holds or forwards ETH itself.
    receive() external payable {}

    function fill(Order calldata order, bytes calldata protocolSignature, SwapInput calldata swapInput, bytes calldata executorData)
        external
    {
        SwapInput[] memory swapInputs = new SwapInput[](1);
        swapInputs[0] = swapInput;
        _fill(order, protocolSignature, swapInputs, new DiscountSwapInput[](0), executorData);
    }

    function fill(
        Order calldata order,
        bytes calldata protocolSignature,
        SwapInput[] calldata swapInputs,
        bytes calldata executorData
    ) external {
        _fill(order, protocolSignature, swapInputs, new DiscountSwapInput[](0), executorData);
    }

    function fill(
        Order calldata order,
        bytes calldata protocolSignature,
        SwapInput[] calldata swapInputs,
        DiscountSwapInput[] calldata discountSwapInputs,
        bytes calldata executorData
    ) external {
        _fill(order, protocolSignature, swapInputs, discountSwapInputs, executorData);
    }

    /// @notice Cancels `nonce` for the caller: a request signed with it can no longer be filled.
    function invalidateNonce(uint256 nonce) external {
        _nonceBitmap[msg.sender][nonce >> 8] |= 1 << (nonce & 0xff);
        emit InvalidateNonce(msg.sender, nonce);
    }

    function isUsedNonce(address swapper, uint256 nonce) public view returns (bool used) {
        return _nonceBitmap[swapper][nonce >> 8] & (1 << (nonce & 0xff)) != 0;
    }

    function _fill(
        Order memory order,
        bytes memory protocolSignature,
        SwapInput[] memory swapInputs,
        DiscountSwapInput[] memory discountSwapInputs,
        bytes memory executorData
    ) internal {
        Request memory request = order.request;

        // 1. Checks, in the order DESIGN §3 lists them.
        if (order.filler != msg.sender) revert InvalidFiller();
        if (block.timestamp > request.deadline) revert ExpiredRequest();
        if (isUsedNonce(order.swapper, request.nonce)) revert NonceUsed();
        _checkSignatures(order, protocolSignature);
        _checkAdapters(swapInputs, discountSwapInputs);
        _checkLegs(request, swapInputs, discountSwapInputs);
        _checkOutputs(request.outputs, order.outputs);

        // 2. Mark the nonce before any external call.
        _nonceBitmap[order.swapper][request.nonce >> 8] |= 1 << (request.nonce & 0xff);

        // 3. The input goes from the swapper straight to each leg's adapter.
        IERC20 tokenIn = IERC20(request.tokenIn);
        for (uint256 i = 0; i < swapInputs.length; ++i) {
            tokenIn.safeTransferFrom(order.swapper, swapInputs[i].adapter, swapInputs[i].swap.amountIn);
        }
        for (uint256 i = 0; i < discountSwapInputs.length; ++i) {
            tokenIn.safeTransferFrom(order.swapper, discountSwapInputs[i].adapter, discountSwapInputs[i].amountIn);
        }

        // 4. The filler (an Executor) runs the adapter swaps and approves this contract for the outputs.
        IExecutor(msg.sender).execute(order, swapInputs, discountSwapInputs, executorData);

        // 5. The committed outputs go from the filler to their recipients.
        for (uint256 i = 0; i < order.outputs.length; ++i) {
            Output memory output = order.outputs[i];
            IERC20(output.token).safeTransferFrom(msg.sender, output.recipient, output.amount);
        }

        emit Fill(order);
    }

    function _checkSignatures(Order memory order, bytes memory protocolSignature) internal view {
        bytes32 requestDigest = _hashTypedDataV4(OrderHashing.hashRequest(order.request));
        if (!SignatureChecker.isValidSignatureNow(order.swapper, requestDigest, order.swapperSignature)) {
            revert InvalidProtocolSignature();
        }
        bytes32 orderDigest = _hashTypedDataV4(OrderHashing.hashOrder(order));
        if (!SignatureChecker.isValidSignatureNow(order.request.protocol, orderDigest, protocolSignature)) {
            revert InvalidProtocolSignature();
        }
    }

    function _checkAdapters(SwapInput[] memory swapInputs, DiscountSwapInput[] memory discountSwapInputs) internal view {
        IAdapterFactory factory = IAdapterFactory(LIQUID_LANE_ADAPTER_FACTORY);
        for (uint256 i = 0; i < swapInputs.length; ++i) {
            if (!factory.isEntity(swapInputs[i].adapter)) revert InvalidAdapter();
        }
        for (uint256 i = 0; i < discountSwapInputs.length; ++i) {
            if (!factory.isEntity(discountSwapInputs[i].adapter)) revert InvalidAdapter();
        }
    }

    function _checkLegs(
        Request memory request,
        SwapInput[] memory swapInputs,
        DiscountSwapInput[] memory discountSwapInputs
    ) internal pure {
        uint256 total = 0;
        for (uint256 i = 0; i < swapInputs.length; ++i) {
            if (swapInputs[i].swap.tokenIn != request.tokenIn) revert InvalidTokenIn();
            total += swapInputs[i].swap.amountIn;
        }
        for (uint256 i = 0; i < discountSwapInputs.length; ++i) {
            if (discountSwapInputs[i].discountSwap.discount.tokenToRedeem != request.tokenIn) revert InvalidTokenIn();
            total += discountSwapInputs[i].amountIn;
        }
        if (total != request.amountIn) revert InvalidAmountIn();
    }

    function _checkOutputs(Output[] memory signed, Output[] memory committed) internal pure {
        if (signed.length != committed.length) revert InvalidOutput();
        for (uint256 i = 0; i < signed.length; ++i) {
            if (
                committed[i].token != signed[i].token || committed[i].recipient != signed[i].recipient
                    || committed[i].amount < signed[i].amount
            ) revert InvalidOutput();
        }
    }
}
