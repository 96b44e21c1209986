// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Reverter
/// @notice Makes failures: a transaction that reverts (status 0 in a block)
/// and a successful one whose trace holds a reverted inner frame.
contract Reverter {
    /// @notice The revert reason of alwaysRevert, fixed so tests can match it.
    string public constant REASON = "Reverter: always reverts";

    /// @notice Emitted by tryInner with the reason the inner call gave.
    event Caught(string reason);

    uint256 public calls;

    /// @notice Always reverts with REASON. State-changing on purpose (not
    /// view), so a transaction to it is a real failed transaction.
    function alwaysRevert() external {
        calls++;
        revert(REASON);
    }

    /// @notice Calls alwaysRevert on itself (an external CALL frame that
    /// reverts), catches the failure and succeeds.
    function tryInner() external returns (string memory reason) {
        try this.alwaysRevert() {
            revert("Reverter: inner call did not revert");
        } catch Error(string memory r) {
            reason = r;
        }
        calls++;
        emit Caught(reason);
    }
}
