package explorer

// stakingPages are the pages of validators, subnets, blockchains and L1
// validators.
func (s *server) stakingPages() []page {
	return nil
}
