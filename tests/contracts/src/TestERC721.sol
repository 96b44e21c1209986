// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @title TestERC721
/// @notice An ERC-721 for end-to-end tests: anyone may mint, ids count up from
/// 1, and tokenURI is a self-contained data: URI, so metadata can be decoded
/// without any network access.
contract TestERC721 is ERC721 {
    /// @notice The id the next mint returns minus one; ids start at 1 so that
    /// 0 never looks like a real token.
    uint256 public totalMinted;

    constructor(string memory name_, string memory symbol_) ERC721(name_, symbol_) {}

    /// @notice Mints the next id to `to` and returns it. Unrestricted on purpose.
    function mint(address to) external returns (uint256 id) {
        id = ++totalMinted;
        _safeMint(to, id);
    }

    /// @notice data:application/json;base64 metadata with name, description and
    /// an inline SVG image (itself a base64 data: URI).
    function tokenURI(uint256 id) public view override returns (string memory) {
        _requireMinted(id);
        string memory idStr = Strings.toString(id);
        string memory svg = string.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text x="10" y="50">#',
            idStr,
            "</text></svg>"
        );
        string memory json = string.concat(
            '{"name":"',
            name(),
            " #",
            idStr,
            '","description":"avadata test token","image":"data:image/svg+xml;base64,',
            Base64.encode(bytes(svg)),
            '"}'
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }
}
