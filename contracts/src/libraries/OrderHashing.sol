// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {IReactor} from "../interfaces/IReactor.sol";

/// @notice EIP-712 struct hashes of the Reactor's `Output`, `Request` and `Order` (DESIGN §3). The TypeScript side
/// (src/chain/eip712.ts) holds the same type definitions; test/chain/eip712-digests.test.ts checks they agree.
library OrderHashing {
    bytes internal constant OUTPUT_TYPE = "Output(address token,uint256 amount,address recipient)";
    bytes internal constant REQUEST_TYPE =
        "Request(address tokenIn,uint256 amountIn,Output[] outputs,uint256 deadline,uint256 nonce,address protocol)";
    bytes internal constant ORDER_TYPE =
        "Order(Request request,bytes swapperSignature,address swapper,address filler,Output[] outputs)";

    bytes32 internal constant OUTPUT_TYPEHASH = keccak256(OUTPUT_TYPE);
    // Referenced types follow the primary type in alphabetical order (EIP-712 encodeType).
    bytes32 internal constant REQUEST_TYPEHASH = keccak256(abi.encodePacked(REQUEST_TYPE, OUTPUT_TYPE));
    bytes32 internal constant ORDER_TYPEHASH = keccak256(abi.encodePacked(ORDER_TYPE, OUTPUT_TYPE, REQUEST_TYPE));

    function hashOutput(IReactor.Output memory output) internal pure returns (bytes32) {
        return keccak256(abi.encode(OUTPUT_TYPEHASH, output.token, output.amount, output.recipient));
    }

    /// @dev An array member is hashed as keccak256 of the concatenated struct hashes of its elements.
    function hashOutputs(IReactor.Output[] memory outputs) internal pure returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](outputs.length);
        for (uint256 i = 0; i < outputs.length; ++i) {
            hashes[i] = hashOutput(outputs[i]);
        }
        return keccak256(abi.encodePacked(hashes));
    }

    function hashRequest(IReactor.Request memory request) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                REQUEST_TYPEHASH,
                request.tokenIn,
                request.amountIn,
                hashOutputs(request.outputs),
                request.deadline,
                request.nonce,
                request.protocol
            )
        );
    }

    /// @notice The `orderHash` of DESIGN §3: the EIP-712 struct hash of the Order.
    function hashOrder(IReactor.Order memory order) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                ORDER_TYPEHASH,
                hashRequest(order.request),
                keccak256(order.swapperSignature),
                order.swapper,
                order.filler,
                hashOutputs(order.outputs)
            )
        );
    }
}
