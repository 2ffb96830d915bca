// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/// @notice The subset of symbioticfi/core's `IOptInService` (src/interfaces/service/IOptInService.sol) that the
/// delegators and the points engine use: opt in and out by the caller, the current state, and the two events.
interface IOptInService {
    error AlreadyOptedIn();
    error NotOptedIn();
    error NotWhereEntity();
    error NotWho();
    error OptOutCooldown();

    event OptIn(address indexed who, address indexed where);
    event OptOut(address indexed who, address indexed where);

    function WHO_REGISTRY() external view returns (address);

    function WHERE_REGISTRY() external view returns (address);

    function isOptedIn(address who, address where) external view returns (bool);

    function optIn(address where) external;

    function optOut(address where) external;
}
