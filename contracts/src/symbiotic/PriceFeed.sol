// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title PriceFeed
/// @notice A Chainlink-style USD price feed for the devnet's collaterals: `decimals`, `description`, `version`,
/// `latestRoundData`, `getRoundData`, `latestAnswer`, `latestRound` of Chainlink's AggregatorV2V3Interface, and
/// its `AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)` and `NewRound` events.
/// The owner publishes a new round with `updateAnswer` (as Chainlink's MockV3Aggregator); the constructor
/// publishes round 1.
contract PriceFeed is Ownable {
    error NoDataPresent();

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;

    uint256 public latestRound;
    mapping(uint256 roundId => int256) public getAnswer;
    mapping(uint256 roundId => uint256) public getTimestamp;

    constructor(uint8 decimals_, string memory description_, int256 initialAnswer, address owner_) Ownable(owner_) {
        decimals = decimals_;
        description = description_;
        _publish(initialAnswer);
    }

    function latestAnswer() external view returns (int256) {
        return getAnswer[latestRound];
    }

    function latestTimestamp() external view returns (uint256) {
        return getTimestamp[latestRound];
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(uint80(latestRound));
    }

    function getRoundData(uint80 roundId_)
        public
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        if (getTimestamp[roundId_] == 0) revert NoDataPresent();
        return (roundId_, getAnswer[roundId_], getTimestamp[roundId_], getTimestamp[roundId_], roundId_);
    }

    function updateAnswer(int256 answer) external onlyOwner {
        _publish(answer);
    }

    function _publish(int256 answer) internal {
        uint256 roundId = ++latestRound;
        getAnswer[roundId] = answer;
        getTimestamp[roundId] = block.timestamp;
        emit NewRound(roundId, msg.sender, block.timestamp);
        emit AnswerUpdated(answer, roundId, block.timestamp);
    }
}
