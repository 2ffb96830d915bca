// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";

import {IExecutor} from "./interfaces/IExecutor.sol";
import {ILiquidLaneAdapter} from "./interfaces/ILiquidLaneAdapter.sol";
import {IReactor} from "./interfaces/IReactor.sol";

/// @title Executor
/// @notice A solver's filler contract. Its callers (the solver's EOAs, managed by the owner) call `fill`, which
/// forwards to the Reactor with this contract as the filler. The Reactor moves the swapper's input to the adapters
/// and calls back `execute`, which runs every leg's adapter swap (the adapters release their asset to the
/// recipient named in each leg, normally this contract) and approves the Reactor for the committed outputs; the
/// Reactor then pulls them to their recipients.
/// `executorData` is accepted for ABI compatibility and ignored: this executor has no routing of its own.
contract Executor is IExecutor, Ownable {
    using SafeERC20 for IERC20;

    event SetCallers(address[] newCallers);

    error NotCaller();
    error NotReactor();

    /// @notice The Reactor this executor fills on.
    address public immutable reactor;

    /// @notice The addresses allowed to call `fill` (index => caller), replaced as a whole by `setCallers`.
    address[] public callers;
    mapping(address caller => bool) internal _isCaller;

    constructor(address reactor_, address owner_, address[] memory initCallers) Ownable(owner_) {
        reactor = reactor_;
        _setCallers(initCallers);
    }

    receive() external payable {}

    modifier onlyCaller() {
        if (!_isCaller[msg.sender]) revert NotCaller();
        _;
    }

    function isCaller(address account) external view returns (bool) {
        return _isCaller[account];
    }

    function setCallers(address[] calldata newCallers) external onlyOwner {
        _setCallers(newCallers);
    }

    function fill(
        IReactor.Order calldata order,
        bytes calldata protocolSignature,
        IReactor.SwapInput calldata swapInput,
        bytes calldata executorData
    ) external onlyCaller {
        IReactor(reactor).fill(order, protocolSignature, swapInput, executorData);
    }

    function fill(
        IReactor.Order calldata order,
        bytes calldata protocolSignature,
        IReactor.SwapInput[] calldata swapInputs,
        bytes calldata executorData
    ) external onlyCaller {
        IReactor(reactor).fill(order, protocolSignature, swapInputs, executorData);
    }

    function fill(
        IReactor.Order calldata order,
        bytes calldata protocolSignature,
        IReactor.SwapInput[] calldata swapInputs,
        IReactor.DiscountSwapInput[] calldata discountSwapInputs,
        bytes calldata executorData
    ) external onlyCaller {
        IReactor(reactor).fill(order, protocolSignature, swapInputs, discountSwapInputs, executorData);
    }

    /// @inheritdoc IExecutor
    function execute(
        IReactor.Order calldata order,
        IReactor.SwapInput[] calldata swapInputs,
        IReactor.DiscountSwapInput[] calldata discountSwapInputs,
        bytes calldata /* executorData */
    ) external {
        if (msg.sender != reactor) revert NotReactor();

        for (uint256 i = 0; i < swapInputs.length; ++i) {
            ILiquidLaneAdapter(swapInputs[i].adapter).swap(swapInputs[i].swap);
        }
        for (uint256 i = 0; i < discountSwapInputs.length; ++i) {
            IReactor.DiscountSwapInput calldata input = discountSwapInputs[i];
            ILiquidLaneAdapter(input.adapter).swap(input.discountSwap, input.protocolSignature, input.recipient, input.amountIn);
        }

        // Approve the Reactor for the total of each output token (forceApprove copes with USDT-style tokens that
        // refuse to change one nonzero allowance into another).
        IReactor.Output[] calldata outputs = order.outputs;
        for (uint256 i = 0; i < outputs.length; ++i) {
            address token = outputs[i].token;
            bool seen = false;
            for (uint256 j = 0; j < i; ++j) {
                if (outputs[j].token == token) {
                    seen = true;
                    break;
                }
            }
            if (seen) continue;
            uint256 total = 0;
            for (uint256 j = i; j < outputs.length; ++j) {
                if (outputs[j].token == token) total += outputs[j].amount;
            }
            IERC20(token).forceApprove(reactor, total);
        }
    }

    /// @notice Sends leftovers (price improvement kept by the solver, stray tokens or ETH) to `to`.
    /// `token == address(0)` means ETH.
    function sweep(address token, address to, uint256 amount) external onlyOwner {
        if (token == address(0)) {
            Address.sendValue(payable(to), amount);
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }

    function _setCallers(address[] memory newCallers) internal {
        for (uint256 i = 0; i < callers.length; ++i) {
            _isCaller[callers[i]] = false;
        }
        delete callers;
        for (uint256 i = 0; i < newCallers.length; ++i) {
            callers.push(newCallers[i]);
            _isCaller[newCallers[i]] = true;
        }
        emit SetCallers(newCallers);
    }
}
