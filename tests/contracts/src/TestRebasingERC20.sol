// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title TestRebasingERC20
/// @notice An ERC-20 whose balanceOf does not follow its Transfer logs, as
/// rebasing tokens (stETH, AMPL) do: an account holds shares, its balance is
/// shares * index / 1e18, and rebase() changes the index, and so every
/// balance, without any Transfer event. An indexer that sums Transfer
/// values gets these balances wrong; one that reads balanceOf does not.
/// Anyone may mint and rebase, so tests need no setup.
contract TestRebasingERC20 {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;

    /// @notice Balance per share, scaled by 1e18 (1e18: one token per share).
    uint256 public index = 1e18;
    mapping(address => uint256) public sharesOf;
    uint256 public totalShares;

    event Transfer(address indexed from, address indexed to, uint256 value);
    /// @notice Not a Transfer: balances change without one.
    event Rebased(uint256 index);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }

    function totalSupply() external view returns (uint256) {
        return (totalShares * index) / 1e18;
    }

    function balanceOf(address account) external view returns (uint256) {
        return (sharesOf[account] * index) / 1e18;
    }

    /// @notice Mints `amount` tokens (at the current index) to `to`.
    function mint(address to, uint256 amount) external {
        uint256 shares = (amount * 1e18) / index;
        sharesOf[to] += shares;
        totalShares += shares;
        emit Transfer(address(0), to, amount);
    }

    /// @notice Moves `amount` tokens (at the current index) to `to`.
    function transfer(address to, uint256 amount) external returns (bool) {
        uint256 shares = (amount * 1e18) / index;
        require(sharesOf[msg.sender] >= shares, "TestRebasingERC20: balance too low");
        sharesOf[msg.sender] -= shares;
        sharesOf[to] += shares;
        emit Transfer(msg.sender, to, amount);
        return true;
    }

    /// @notice Sets the balance per share: every balance changes at once,
    /// with no Transfer event. Unrestricted on purpose.
    function rebase(uint256 newIndex) external {
        require(newIndex > 0, "TestRebasingERC20: zero index");
        index = newIndex;
        emit Rebased(newIndex);
    }
}
