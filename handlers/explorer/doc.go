// Package explorer serves the node's own explorer: HTML pages, under
// {base_url}/explorer/, for every chain the node follows (P, X, the
// C-chain and every followed EVM chain).
//
// Pages read through the API itself: each page handler asks the API's own
// routes, in process (apiclient.go), for the replies a client of the API
// would get, and renders them with html/template. So a page shows exactly
// what the API answers, and the API's validation and errors apply to every
// page. The explorer reads only what no API operation answers (Readers):
// tokens by name for the search, a transaction's logs from the node, and
// an ERC-20's holders.
//
// Everything a page needs is in the plugin's binary: the templates and one
// style sheet (static/). Pages run no script: charts are SVG drawn on the
// server, so every page reads the same with JavaScript off. The
// Content-Security-Policy (page.go) allows nothing from another origin,
// but NFT images where the operator lets avadata fetch NFT metadata.
//
// Every page has a stable URL: the path names the object, the query its
// tab and page (page=<the API's nextPageToken>), so links can be shared
// and the back button walks back through the pages.
//
// Layout below {base_url}/explorer (pages_*.go list the routes):
//
//	/                                        home: chains, latest blocks and txs, activity charts
//	/search?q=...                            search: one match redirects, several are listed
//	/status                                  what /v1/status and the health check say
//	/static/{file}                           the style sheet
//	/evm/{chainId}/...                       EVM chains: block, tx, address, token, nft
//	/{p-chain|x-chain|c-chain}/...           primary network: block, tx, address, asset, vertex
//	/validators, /subnets, /blockchains,     staking, subnets, blockchains and L1 validators
//	/l1-validators
package explorer
