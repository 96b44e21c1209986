package explorer

// primaryPages are the pages of P, X and the C-chain's atomic side: block,
// tx, address, asset, vertex.
func (s *server) primaryPages() []page {
	return nil
}
