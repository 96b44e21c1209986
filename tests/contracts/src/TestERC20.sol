// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title TestERC20
/// @notice An ERC-20 for end-to-end tests: anyone may mint, so tests can make
/// Transfer events from the zero address (mints) and between accounts without
/// any setup. Its Transfer log has 3 topics (value in data), which is how an
/// indexer tells it from an ERC-721 Transfer (4 topics).
contract TestERC20 is ERC20 {
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {}

    /// @notice Mints `amount` (18 decimals) to `to`. Unrestricted on purpose.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
