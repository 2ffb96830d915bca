// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {IReactor} from "./IReactor.sol";

/// @notice The callback the Reactor makes into the filler (an Executor) after moving the input to the adapters.
interface IExecutor {
    function execute(
        IReactor.Order calldata order,
        IReactor.SwapInput[] calldata swapInputs,
        IReactor.DiscountSwapInput[] calldata discountSwapInputs,
        bytes calldata executorData
    ) external;
}
