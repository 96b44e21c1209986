package explorer

// stakingPages are the pages of validators, subnets, blockchains and L1
// validators.
func (s *server) stakingPages() []page {
	return []page{
		{name: "validators", path: "/validators", summary: "validators, with the filters of listValidators", handler: s.serveValidators},
		{name: "validator", path: "/validators/{nodeId}", summary: "one node's validations, delegators, rewards and blocks", handler: s.serveValidator},
		{name: "subnets", path: "/subnets", summary: "subnets and L1s", handler: s.serveSubnets},
		{name: "subnet", path: "/subnets/{subnetId}", summary: "one subnet or L1: owner, blockchains, validators", handler: s.serveSubnet},
		{name: "blockchain", path: "/blockchains/{blockchainId}", summary: "one blockchain", handler: s.serveBlockchain},
		{name: "l1Validator", path: "/l1-validators/{validationId}", summary: "one L1 validation: weight, balance, transactions", handler: s.serveL1Validator},
	}
}
