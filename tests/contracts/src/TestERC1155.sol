// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

/// @title TestERC1155
/// @notice An ERC-1155 for end-to-end tests: anyone may mint single ids or
/// batches, so both TransferSingle and TransferBatch events can be made.
contract TestERC1155 is ERC1155 {
    /// @param uri_ the metadata URI template; clients replace "{id}" with the
    /// token id as 64 lowercase hex digits (EIP-1155).
    constructor(string memory uri_) ERC1155(uri_) {}

    /// @notice Mints `amount` of `id` to `to`. Unrestricted on purpose.
    function mint(address to, uint256 id, uint256 amount) external {
        _mint(to, id, amount, "");
    }

    /// @notice Mints several ids at once (one TransferBatch event).
    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external {
        _mintBatch(to, ids, amounts, "");
    }
}
