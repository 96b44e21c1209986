package explorer

// evmPages are the pages of the EVM chains: block, tx, address, token, NFT.
func (s *server) evmPages() []page {
	return nil
}
