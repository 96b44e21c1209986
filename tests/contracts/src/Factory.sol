// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Child
/// @notice The contract Factory deploys. Payable constructor and receive, so
/// value sent to the factory can end up in children (internal txs with value
/// on CREATE/CREATE2 frames).
contract Child {
    address public immutable factory;
    uint256 public immutable serial;

    event Pinged(address indexed from, uint256 serial);

    constructor(uint256 serial_) payable {
        factory = msg.sender;
        serial = serial_;
    }

    receive() external payable {}

    function ping() external {
        emit Pinged(msg.sender, serial);
    }
}

/// @title Factory
/// @notice Makes contracts created by contracts: each create call deploys one
/// Child with CREATE and one with CREATE2 in the same transaction.
contract Factory {
    /// @notice Children deployed so far; also the serial of the next one.
    uint256 public count;

    /// @param create2 whether the child came from CREATE2 (true) or CREATE.
    event ChildCreated(address indexed child, bool create2, uint256 value);

    /// @notice Deploys a Child with CREATE and another with CREATE2 (salt
    /// `salt`). The CREATE child gets half of msg.value, the CREATE2 child the
    /// rest. A reused salt still deploys: each child's constructor takes the
    /// next serial number, which changes its CREATE2 address.
    function create(bytes32 salt) external payable returns (address viaCreate, address viaCreate2) {
        uint256 half = msg.value / 2;
        viaCreate = address(new Child{value: half}(count++));
        emit ChildCreated(viaCreate, false, half);
        viaCreate2 = address(new Child{salt: salt, value: msg.value - half}(count++));
        emit ChildCreated(viaCreate2, true, msg.value - half);
    }

    /// @notice The address create(salt) would give its CREATE2 child, for a
    /// child whose serial is `serial`.
    function predict(bytes32 salt, uint256 serial) external view returns (address) {
        bytes32 codeHash = keccak256(abi.encodePacked(type(Child).creationCode, abi.encode(serial)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, codeHash)))));
    }
}
