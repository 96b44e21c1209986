// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Forwarder
/// @notice Passes native value on through internal CALLs, so traces hold
/// call frames with value (internal transactions).
contract Forwarder {
    event Forwarded(address indexed to, uint256 value);

    /// @notice Sends all of msg.value to `to`.
    function forward(address payable to) external payable {
        _send(to, msg.value);
    }

    /// @notice Sends half of msg.value to `a` and the rest to `b`: two value
    /// frames under one transaction.
    function split(address payable a, address payable b) external payable {
        uint256 half = msg.value / 2;
        _send(a, half);
        _send(b, msg.value - half);
    }

    function _send(address payable to, uint256 value) private {
        (bool ok, ) = to.call{value: value}("");
        require(ok, "Forwarder: send failed");
        emit Forwarded(to, value);
    }
}
