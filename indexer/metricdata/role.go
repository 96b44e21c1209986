package metricdata

// Role is a part an address plays in a chain's activity whose distinct
// addresses the Metrics API counts.
type Role byte

// The roles, in the byte the store keys them by.
const (
	// Active: the sender or recipient of a transaction, or the sender or
	// receiver of an ERC-20, ERC-721 or ERC-1155 transfer (the zero address
	// of mints and burns excluded): activeAddresses, cumulativeAddresses.
	Active Role = 1
	// Sender: the sender of a transaction: activeSenders.
	Sender Role = 2
	// Deployer: the account that created a contract, the trace's `from` of
	// a CREATE, CREATE2 or CREATE3 (a factory contract for contract-made
	// ones): deployers, cumulativeDeployers.
	Deployer Role = 3
)
