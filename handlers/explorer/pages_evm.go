package explorer

// evmPages are the pages of the EVM chains: block, tx, address, token, NFT.
func (s *server) evmPages() []page {
	return []page{
		{name: "evmChain", path: "/evm/{chainId}", summary: "an EVM chain: its latest blocks and transactions", handler: s.serveEVMChain},
		{name: "evmBlock", path: "/evm/{chainId}/block/{blockId}", summary: "an EVM block and its transactions", handler: s.serveEVMBlock},
		{name: "evmTx", path: "/evm/{chainId}/tx/{txHash}", summary: "an EVM transaction: value, fee, method, token transfers, internal transactions", handler: s.serveEVMTx},
		{name: "evmAddress", path: "/evm/{chainId}/address/{address}", summary: "an EVM address: balance, contract metadata, history, tokens, NFTs, deployments", handler: s.serveEVMAddress},
		{name: "evmToken", path: "/evm/{chainId}/token/{address}", summary: "an EVM token contract: metadata, transfers, NFT holders and tokens", handler: s.serveEVMToken},
		{name: "evmNFT", path: "/evm/{chainId}/nft/{address}/{tokenId}", summary: "one NFT: owner, token URI and metadata", handler: s.serveEVMNFT},
	}
}
