// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {ILiquidLaneAdapter} from "./ILiquidLaneAdapter.sol";

/// @notice The Reactor's types, events, errors and entry points, as in shared/reference/abi-Reactor.json.
interface IReactor {
    struct Output {
        address token;
        uint256 amount;
        address recipient;
    }

    /// @notice What the swapper signs (EIP-712, domain `Reactor`/`1`).
    struct Request {
        address tokenIn;
        uint256 amountIn;
        Output[] outputs;
        uint256 deadline;
        uint256 nonce;
        address protocol;
    }

    /// @notice What the protocol signer signs after the auction: the request, the swapper's signature, the
    /// winning filler and the committed outputs.
    struct Order {
        Request request;
        bytes swapperSignature;
        address swapper;
        address filler;
        Output[] outputs;
    }

    struct SwapInput {
        address adapter;
        ILiquidLaneAdapter.Swap swap;
    }

    struct DiscountSwapInput {
        address adapter;
        ILiquidLaneAdapter.DiscountSwap discountSwap;
        bytes protocolSignature;
        address recipient;
        uint256 amountIn;
    }

    event Fill(Order order);
    event InvalidateNonce(address indexed swapper, uint256 nonce);

    error InvalidFiller();
    error ExpiredRequest();
    error NonceUsed();
    error InvalidProtocolSignature();
    error InvalidAdapter();
    error InvalidTokenIn();
    error InvalidAmountIn();
    error InvalidOutput();

    function fill(Order calldata order, bytes calldata protocolSignature, SwapInput calldata swapInput, bytes calldata executorData)
        external;

    function fill(
        Order calldata order,
        bytes calldata protocolSignature,
        SwapInput[] calldata swapInputs,
        bytes calldata executorData
    ) external;

    function fill(
        Order calldata order,
        bytes calldata protocolSignature,
        SwapInput[] calldata swapInputs,
        DiscountSwapInput[] calldata discountSwapInputs,
        bytes calldata executorData
    ) external;

    function invalidateNonce(uint256 nonce) external;
    function isUsedNonce(address swapper, uint256 nonce) external view returns (bool used);
}
