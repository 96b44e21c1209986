package explorer

// primaryPages are the pages of P, X and the C-chain's atomic side: block,
// tx, address, asset, vertex. {chain} is the Data API's alias of the chain
// (primary_chains.go).
func (s *server) primaryPages() []page {
	const (
		anyChain   = "/{chain:p-chain|x-chain|c-chain}"
		blockChain = "/{chain:p-chain|x-chain}"
	)
	return []page{
		{name: "primary.chain", path: anyChain, summary: "a primary-network chain: latest blocks and transactions",
			handler: s.servePrimaryLatest},
		{name: "primary.block", path: blockChain + "/block/{blockId}", summary: "a P- or X-chain block by height or ID",
			handler: s.servePrimaryBlock},
		{name: "primary.tx", path: anyChain + "/tx/{txId}", summary: "a P, X or C atomic transaction with its UTXOs",
			handler: s.servePrimaryTx},
		{name: "primary.address", path: anyChain + "/address/{address}",
			summary: "an address on P, X or C: balances, UTXOs, history", handler: s.servePrimaryAddress},
		{name: "primary.asset", path: "/x-chain/asset/{assetId}", summary: "an X-chain asset and its transactions",
			handler: s.servePrimaryAsset},
		{name: "primary.vertex", path: "/x-chain/vertex/{vertexHash}", summary: "an X-chain vertex",
			handler: s.servePrimaryVertex},
	}
}
